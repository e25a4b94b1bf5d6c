#!/usr/bin/env bash
# GPU run B: does protect_inputs (PROT_NONE host copies around each launch) inflate the timed span?
set -uo pipefail
cd "$(dirname "$0")/wt"
export PATH=$PATH:/usr/local/cuda/bin
O=$OUT/b; mkdir -p $O
run() { # tag
    make -j16 build-solutions build/gpu/checker/library/lab build/checker/check > $O/build-$1.log 2>&1 || { tail -20 $O/build-$1.log; exit 1; }
    make solutions LAB="08 09" FAST=1 JSON=$O/timing-$1.json > $O/timing-$1.log 2>&1
    echo "== $1"; sed -n '/Performance ladder/,$p' $O/timing-$1.log | grep -E "atomic_total|cub::|big_tiles|cuBLAS|^ +[0-9.]+ +[0-9]+ (GB|GFLOP)" | head -40
}
run protected
python3 - <<'PY'
p='common/harness.c'; s=open(p).read()
i=s.index('static void protect_inputs(int closed)\n{')+len('static void protect_inputs(int closed)\n{')
s=s[:i]+'\n    if (closed >= 0) return;'+s[i:]
open(p,'w').write(s)
PY
rm -rf build/gpu/common build/gpu/solutions build/gpu/checker/library
run unprotected
cd $OUT && tar czf b.tgz b && rm -rf b
