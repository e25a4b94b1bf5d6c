#!/usr/bin/env bash
# GPU run: lab 08's loads in flight. (1) The lab-08 corpus on the GPU backend, with the emulator's
# diagnostics from programs built on the VM (tests/known-bad/run.sh --prebuild-emu .gpu/prebuilt):
# the new wide_load_sites check must hold there too. (2) The solutions of lab 08 with every check,
# their emulator stage from the VM's build (.gpu/prebuilt-solutions). (3) Three interleaved rounds of
# timing: the solutions against the same file with unrolled4 and atomic_total rolled back to one
# int4 load per iteration (the two known-bad patches), FAST=1.
# Run from the repository root on the GPU machine, with the kit at .gpu/wt (git archive HEAD)
# and the Debian packages it lacks in .debs/.
set -uo pipefail
root=$PWD
cd .gpu/wt
export PATH=$PATH:/usr/local/cuda/bin
O=$OUT/lab08; mkdir -p $O
trap 'cd $OUT && tar czf lab08.tgz lab08 && rm -rf lab08' EXIT
dpkg -i $root/.debs/*.deb > $O/dpkg.log 2>&1 || { tail -5 $O/dpkg.log; exit 1; }
{ echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"; echo "commit: $(cat $root/.gpu/commit)"
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader
  nvcc --version | tail -1; } | tee $O/env.txt
make -k -j16 build-solutions build/checker/check > $O/build.log 2>&1 || { grep -A6 "error" $O/build.log | head -60; exit 1; }
step() { local name=$1 t0=$(date +%s); shift; "$@" > $O/$name.log 2>&1; echo "$name: exit $? in $(( $(date +%s) - t0 )) s ($*)" | tee -a $O/steps.txt; }
step known-bad-08 env KNOWN_BAD_EMU_PREBUILT=$root/.gpu/prebuilt BACKEND=gpu KNOWN_BAD_FILTER='^08-' \
    KNOWN_BAD_JOBS=4 tests/known-bad/run.sh
tail -4 $O/known-bad-08.log
step solutions-checks make solutions LAB=08 EMU_DIAG_BUILD=$root/.gpu/prebuilt-solutions JSON=$O/solutions-checks.json
grep -E "PASS|FAIL|off-pattern|kernels" $O/solutions-checks.log | head -12
# the rolled tree: the solution without the deck's markers, both rolled-back patches applied
mkdir -p /tmp/rolled/08-reduce-bandwidth
grep -v '^[[:space:]]*// slide:' solutions/08-reduce-bandwidth/reduce_bandwidth.cu > /tmp/rolled/08-reduce-bandwidth/reduce_bandwidth.cu
for p in 08-unrolled4-not-unrolled 08-atomic-total-not-unrolled; do
    patch -s --no-backup-if-mismatch /tmp/rolled/08-reduce-bandwidth/reduce_bandwidth.cu < tests/known-bad/$p.patch ||
        { echo "patch $p failed"; exit 1; }
done
for r in 1 2 3; do
    step unrolled-$r make solutions LAB=08 FAST=1 JSON=$O/unrolled-$r.json
    step rolled-$r make check TREE=/tmp/rolled LAB=08 FAST=1 JSON=$O/rolled-$r.json
done
grep -h -E "^  (unrolled4|atomic_total) " $O/unrolled-*.log $O/rolled-*.log | head -20
