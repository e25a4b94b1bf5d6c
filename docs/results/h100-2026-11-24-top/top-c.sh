#!/usr/bin/env bash
# GPU run C: the harness fixed (inputs closed once around the timed runs): labs 08 and 09 timed,
# both sweeps, Nsight Compute on big_tiles at 4096^3.
set -uo pipefail
cd "$(dirname "$0")/wt"
export PATH=$PATH:/usr/local/cuda/bin
O=$OUT/c; mkdir -p $O
dpkg -i ../../.debs/libjansson4_*.deb ../../.debs/libjansson-dev_*.deb > $O/dpkg.log 2>&1 || { tail -5 $O/dpkg.log; exit 1; }
{ echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader; nvcc --version | tail -1; } | tee $O/env.txt
make -j16 build-solutions build/gpu/checker/library/lab build/checker/check > $O/build.log 2>&1 || { tail -20 $O/build.log; exit 1; }
step() { local name=$1 t0=$(date +%s); shift; "$@" > $O/$name.log 2>&1; echo "$name: exit $? in $(( $(date +%s) - t0 )) s ($*)" | tee -a $O/steps.txt; }
step timing-0809 make solutions LAB="08 09" FAST=1 JSON=$O/timing-0809.json
sed -n '/Performance ladder/,$p' $O/timing-0809.log | head -44
step sweep-09 make sweep LAB=09
cp build/sweep/sweep.csv $O/sweep-09.csv; cp build/sweep/sweep.md $O/sweep-09.md 2>/dev/null
step sweep-08 make sweep LAB=08
cp build/sweep/sweep.csv $O/sweep-08.csv; cp build/sweep/sweep.md $O/sweep-08.md 2>/dev/null
step ncu-big-tiles timeout 120 ncu --target-processes all --kernel-name-base demangled -k 'regex:sgemm_double_buffer<WarpTiles<256, 128.*true' --launch-count 1 --section SpeedOfLight --section WarpStateStats --section Occupancy --section LaunchStats --section SchedulerStats --section ComputeWorkloadAnalysis make solutions LAB=09 VARIANT=big_tiles FAST=1
grep -h -E "Duration|Warp Cycles Per|Issue Slots Busy|Achieved Occupancy|No Eligible|Registers Per|Stall" $O/ncu-big-tiles.log | head -30
cat $O/sweep-09.md $O/sweep-08.md 2>/dev/null | head -60
cd $OUT && tar czf c.tgz c && rm -rf c
