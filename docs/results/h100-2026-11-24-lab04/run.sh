#!/usr/bin/env bash
# GPU run: lab 04's two folds and the book's kernel timed in one session (three rounds,
# interleaved), then a class of 12 lab-03 submissions graded on the GPU in the sandbox.
# Run from the repository root on the GPU machine, with the kit at .gpu/wt (git archive HEAD)
# and the Debian packages it lacks in .debs/ (bubblewrap, jansson, patch, zip, unzip).
# ROUNDS=0 grades the class alone.
set -uo pipefail
root=$PWD
cd .gpu/wt
export PATH=$PATH:/usr/local/cuda/bin
O=$OUT/lab04; mkdir -p $O
trap 'cd $OUT && tar czf lab04.tgz lab04 && rm -rf lab04' EXIT # what ran comes back, whatever stopped it
dpkg -i $root/.debs/*.deb > $O/dpkg.log 2>&1 || { tail -5 $O/dpkg.log; exit 1; }
{ echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"; echo "commit: $(cat $root/.gpu/commit)"
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader
  nvcc --version | tail -1; } | tee $O/env.txt
make -k -j16 build-solutions build/checker/check > $O/build.log 2>&1 || { grep -A6 "error" $O/build.log | head -60; exit 1; }
step() { local name=$1 t0=$(date +%s); shift; "$@" > $O/$name.log 2>&1; echo "$name: exit $? in $(( $(date +%s) - t0 )) s ($*)" | tee -a $O/steps.txt; }
# the one-path fold: the solution with tests/known-good/04-unrolling8-guard-each-load.patch
rm -rf /tmp/onepath && cp -r solutions /tmp/onepath
patch -s --no-backup-if-mismatch /tmp/onepath/04-reduce-unrolling/reduce_unrolling.cu \
    < tests/known-good/04-unrolling8-guard-each-load.patch || { echo "patch failed"; exit 1; }
for r in $(seq 1 "${ROUNDS:-3}"); do
    step two-path-$r make solutions LAB=04 VARIANT=unrolling8 FAST=1 JSON=$O/two-path-$r.json
    step one-path-$r make check TREE=/tmp/onepath LAB=04 VARIANT=unrolling8 FAST=1 JSON=$O/one-path-$r.json
    step textbook-$r make textbook JSON=$O/textbook-$r.json
done
grep -h -E "unrolling8 " $O/two-path-*.log $O/one-path-*.log $O/textbook-*.log | head -20
# grading on the GPU: the class of make-class.sh (12 lab-03 submissions, one endless)
docs/results/vm-2026-11-24-grade-scale/make-class.sh /tmp/class03 > $O/make-class.log 2>&1
step grade-class03 make grade BACKEND=gpu SUBMISSIONS=/tmp/class03 LAB=03 OUT=/tmp/grade03
cp /tmp/grade03/grades.csv $O/grade-class03-grades.csv
tail -25 $O/grade-class03.log
