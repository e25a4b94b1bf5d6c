#!/usr/bin/env bash
# tests/separation.sh CHECKER: the separation matrix (issue 37 item 2). Every rung's committed
# signature (labs/NN-name/signature), judged as every other rung of its lab by that rung's rules,
# must fail, except the pairs a manifest names same-pattern. Then the test of the test: a kit
# whose lab 03 signature gives neighbored_less the counts of interleaved (the rung next door)
# and lab 05's template8 the counts of unrolling8 must fail on exactly those pairs (and on
# complete_unroll8 and template8, no longer alike as their same-pattern line says).
set -uo pipefail
checker=${1:?usage: tests/separation.sh CHECKER}
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp) kit=$(mktemp -d)
trap 'rm -rf "$out" "$kit"' EXIT
if ! "$checker" --separation --kit "$root" > "$out"; then
    echo "separation: pairs of rungs the signatures do not tell apart:"
    grep -v '^ok' "$out"
    exit 1
fi
echo "separation: $(grep -c '^ok' "$out") pairs as the manifests say"

mkdir -p "$kit/labs/03-reduce-divergence" "$kit/labs/05-reduce-warp-unrolling"
sig3=$root/labs/03-reduce-divergence/signature sig5=$root/labs/05-reduce-warp-unrolling/signature
{ grep -v '^neighbored_less ' "$sig3"; sed -n 's/^interleaved /neighbored_less /p' "$sig3"; } \
    > "$kit/labs/03-reduce-divergence/signature"
{ grep -v '^template8 ' "$sig5"; sed -n 's/^unrolling8 /template8 /p' "$sig5"; } \
    > "$kit/labs/05-reduce-warp-unrolling/signature"
"$checker" --separation --kit "$kit" 03-reduce-divergence 05-reduce-warp-unrolling > "$out"
failed=$(grep -v '^ok' "$out" | awk '{ print $2 " as " $4 }' | sort | tr '\n' ',')
want='complete_unroll8 as template8,interleaved as neighbored_less,neighbored_less as interleaved,template8 as complete_unroll8,template8 as unrolling8,unrolling8 as template8,'
if [ "$failed" != "$want" ]; then
    echo "separation: with two rungs made alike, the matrix failed on '$failed', not on '$want'"
    exit 1
fi
echo "separation: two rungs made alike fail, as they must"
