#!/usr/bin/env bash
# GPU run A (lead's lab 09 work): build, labs 08 and 09 with every check, lab 09 timed twice, counters.
set -uo pipefail
cd "$(dirname "$0")/wt"
export PATH=$PATH:/usr/local/cuda/bin
O=$OUT/top; mkdir -p $O
{ date -u +%Y-%m-%dT%H:%M:%SZ; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader; nvcc --version | tail -1; } | tee $O/env.txt
t0=$(date +%s)
make -j16 build-solutions build/gpu/checker/library/lab build/checker/check > $O/build.log 2>&1 || { tail -30 $O/build.log; exit 1; }
echo "build $(( $(date +%s) - t0 )) s"
t0=$(date +%s); make solutions LAB="08 09" JSON=$O/solutions-0809.json > $O/solutions-0809.log 2>&1; echo "solutions 08 09 (every check) exit $? in $(( $(date +%s) - t0 )) s"
for r in 1 2; do t0=$(date +%s); make solutions LAB=09 FAST=1 JSON=$O/timing-09-$r.json > $O/timing-09-$r.log 2>&1; echo "timing 09 run $r exit $? in $(( $(date +%s) - t0 )) s"; done
t0=$(date +%s); make solutions LAB=09 PROFILE=1 FAST=1 COUNTERS_CSV=$O/ncu-counters-09.csv JSON=$O/profile-09.json > $O/profile-09.log 2>&1; echo "profile 09 exit $? in $(( $(date +%s) - t0 )) s"
sed -n '/Performance ladder/,$p' $O/solutions-0809.log | head -40
grep -h "FAIL" $O/solutions-0809.log | head
for r in 1 2; do grep -A12 "Performance ladder" $O/timing-09-$r.log | tail -11; done
cd $OUT && tar czf top-a.tgz top && rm -rf top
