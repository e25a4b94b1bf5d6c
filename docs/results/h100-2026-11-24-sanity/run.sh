#!/usr/bin/env bash
# GPU sanity at the session's end: every solution timed (FAST=1) and the textbook, on the H100
set -uo pipefail
root=$PWD
cd .gpu/wt
export PATH=$PATH:/usr/local/cuda/bin
O=$OUT/sanity; mkdir -p $O
trap 'cd $OUT && tar czf sanity.tgz sanity && rm -rf sanity' EXIT
dpkg -i $root/.debs/*.deb > $O/dpkg.log 2>&1 || { tail -5 $O/dpkg.log; exit 1; }
{ echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"; echo "commit: $(cat $root/.gpu/commit)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $O/env.txt
t0=$(date +%s)
make -k -j16 build-solutions build/checker/check > $O/build.log 2>&1 || { grep -B2 -A6 "error" $O/build.log | head -60; exit 1; }
echo "build: $(( $(date +%s) - t0 )) s"
t0=$(date +%s)
make solutions FAST=1 JSON=$O/solutions.json > $O/solutions.log 2>&1; echo "make solutions FAST=1: exit $? in $(( $(date +%s) - t0 )) s"
grep -E "labs correct|FAIL" $O/solutions.log | head
