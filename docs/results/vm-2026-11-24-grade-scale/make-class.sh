#!/usr/bin/env bash
# make-class.sh DIR: the class of 12 lab-03 submissions the grading measurement uses, one folder
# per student: the solution (3), the skeleton as handed out (2), and seven with a bug each.
set -euo pipefail
cd "$(dirname "$0")/../../.."
dir=${1:?usage: make-class.sh DIR}
sol=solutions/03-reduce-divergence/reduce_divergence.cu
put() { # student: the lab file from stdin
    mkdir -p "$dir/$1" && cat >"$dir/$1/reduce_divergence.cu"
}
for s in ada bob cyd; do put "$s" <"$sol"; done
for s in dan eve; do put "$s" <labs/03-reduce-divergence/reduce_divergence.cu; done
sed -f tests/grader/fixtures/no_compile.sed "$sol" | put fay        # does not compile
sed -f tests/grader/fixtures/endless.sed "$sol" | put gus          # neighbored never ends
sed '/^__global__ void reduce_interleaved/,/^}/ s/__syncthreads();//' "$sol" | put hal # a race
sed '/^__global__ void reduce_neighbored(/,/^}/ s/stride < blockDim.x;/stride < blockDim.x \/ 2;/' "$sol" | put ida # one step short
sed '/^__global__ void reduce_interleaved/,/^}/ s/ \&\& tid + stride < count//' "$sol" | put jon # reads past n
sed '/^__global__ void reduce_neighbored_less/,/^}/ s/block_data\[0\];/block_data[1];/' "$sol" | put kim # wrong total
sed '/^__global__ void reduce_neighbored_less/,/^}/ s/unsigned int index = 2 \* stride \* tid;/unsigned int index = tid;/' \
    "$sol" | put lea # the wrong pairs
