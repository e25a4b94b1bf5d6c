#!/usr/bin/env bash
# Device script: build the probes, run them, profile the SGEMM kernels, dump SASS.
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O
nvidia-smi > $O/smi-start.txt 2>&1
F="-O3 -std=c++17 -arch=sm_90 -lineinfo -Icommon"
( nvcc $F docs/results/h100-2026-11-23-ladder/probe_sum.cu -o /tmp/probe_sum > $O/build-sum.log 2>&1; echo sum build $? ) &
( nvcc $F -Xptxas -v docs/results/h100-2026-11-23-ladder/probe_sgemm.cu -lcublas -o /tmp/probe_sgemm > $O/build-sgemm.log 2>&1; echo sgemm build $? ) &
wait
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv -lms 50 > $O/smi-sgemm.csv 2>&1 &
SMI=$!
timeout 150 /tmp/probe_sgemm > $O/probe-sgemm.log 2>&1; echo sgemm probe $?
kill $SMI
timeout 200 /tmp/probe_sum > $O/probe-sum.log 2>&1; echo sum probe $?
cuobjdump -sass /tmp/probe_sgemm > $O/sgemm.sass 2>&1; echo sass $?
timeout 150 ncu -k regex:'sgemm_double_buffer|sgemm_wt' --section SpeedOfLight --section WarpStateStats --section Occupancy --section LaunchStats --section SchedulerStats --section ComputeWorkloadAnalysis --section InstructionStats /tmp/probe_sgemm ncu > $O/ncu-sgemm.log 2>&1; echo ncu $?
cat $O/probe-sgemm.log $O/probe-sum.log
grep -E "registers|spill" $O/build-sgemm.log | head -20
grep -h -E "sgemm_|Duration|Elapsed Cycles|SM Frequency|Registers Per|Achieved Occupancy|Warp Cycles Per Issued|Issue Slots Busy|No Eligible|Stall" $O/ncu-sgemm.log | head -60
