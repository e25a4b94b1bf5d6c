#!/usr/bin/env bash
# The class of 12 lab-03 submissions (vm-2026-11-24-grade-scale/make-class.sh) graded by each
# engine on this 2-core VM: the local engine with JOBS=1 and JOBS=2, alternating, ROUNDS times;
# then through a Slurm of one node started here (tests/grader/slurm.sh's slurm_start: munged,
# slurmctld, slurmd on localhost), two shards of 6 at one CPU each, and its grades.csv against
# the local one. Run as root from the repository root: measure.sh OUTDIR
set -uo pipefail
out=${1:?usage: measure.sh OUTDIR}
rounds=${ROUNDS:-3}
export BUILD=${BUILD:-build}
rm -rf "$out" && mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
docs/results/vm-2026-11-24-grade-scale/make-class.sh "$work/class" >"$out/make-class.log" 2>&1 || exit 1
make --no-print-directory BACKEND=emu grade-tools >"$out/tools.log" 2>&1 || exit 1
echo "commit $(git rev-parse --short HEAD), $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores"
grade() { # name make-grade-arguments...: one graded class, its wall clock
    local name=$1 t0 t1 rc
    shift
    rm -rf "$work/out-$name"
    echo "load before $name: $(cut -d' ' -f1-3 /proc/loadavg)"
    t0=$(date +%s.%N)
    make --no-print-directory grade SUBMISSIONS="$work/class" LAB=03 OUT="$work/out-$name" "$@" >"$out/$name.log" 2>&1
    rc=$?
    t1=$(date +%s.%N)
    awk -v n="$name" -v a="$t0" -v b="$t1" -v rc=$rc 'BEGIN { printf "%s: exit %d, make grade wall %.1f s, %.2f s per submission\n", n, rc, b - a, (b - a) / 12 }'
    cut -d, -f1-6 "$work/out-$name/grades.csv" | sort >"$out/$name.grades"
}
for r in $(seq "$rounds"); do
    grade jobs1-$r JOBS=1
    grade jobs2-$r JOBS=2
done
for r in $(seq "$rounds"); do
    cmp -s "$out/jobs1-1.grades" "$out/jobs1-$r.grades" && cmp -s "$out/jobs1-1.grades" "$out/jobs2-$r.grades" ||
        echo "round $r: grades differ from round 1's JOBS=1"
done
# Slurm: the test's own single-node cluster, stopped at the end
sdir=$work/slurm slurm_pids=()
# shellcheck disable=SC1090 # the test's two functions, not its tests
source <(sed -n '/^slurm_stop() {/,/^}/p; /^slurm_start() {/,/^}/p' tests/grader/slurm.sh)
trap 'slurm_stop; rm -rf "$work"' EXIT
if slurm_start >"$out/slurm-start.log" 2>&1; then
    grade slurm ENGINE=slurm JOBS=1 SHARD_SIZE=6
    cmp -s "$out/jobs1-1.grades" "$out/slurm.grades" && echo "slurm: grades.csv the same as the local engine's" ||
        echo "slurm: grades differ from the local engine's"
else
    echo "Slurm did not start: $(tail -n 3 "$out/slurm-start.log")"
fi
