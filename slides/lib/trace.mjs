// Runs marked kernel excerpts on the host (slides/trace/trace.hpp) and returns every element
// they read or write, per grid, block, thread and barrier phase. The diagrams are drawn from
// these events, so they show what the code in solutions/ does, not what someone drew.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { DeckError } from './results.mjs';
import { excerpt } from './excerpts.mjs';

// The two type rewrites trace.hpp's header describes; index expressions are left alone.
export function rewriteForTrace(lines) {
  return lines
    .map((l) => l.replace(/\b(?:(?:const|volatile)\s+)*(int|float)\s*\*\s*(?=\w)/g, 'Traced<$1> '))
    .map((l) => l.replace(/(\w+)<<<([^,>]+),\s*([^,>]+)(?:,[^>]*)?>>>\(/g,
      (_, k, g, b) => `trace_launch(${g}, ${b}, [](auto... trace_args) { ${k}(trace_args...); })(`))
    .join('\n');
}

// The driver: each excerpt inside a function that sets up the names the kernel declared before
// it (mirroring the kernel's first lines), then the scenarios the diagrams need.
function driverSource(excerpts) {
  const x = (name) => `#line ${excerpt(excerpts, name).first} "${excerpt(excerpts, name).file}"\n${rewriteForTrace(excerpt(excerpts, name).lines)}\n`;
  return `#include "trace.hpp"
static unsigned int ceil_div(unsigned int a, unsigned int b) { return (a + b - 1) / b; }

static void mat_add(Traced<float> a, Traced<float> b, Traced<float> c, unsigned int rows, unsigned int cols)
{
${x('mat-add-index')}}

static void matmul_naive(Traced<float> a, Traced<float> b, Traced<float> c, int m, int k, int n)
{
${x('naive-matmul')}}

template <int TILE>
static void tiled_load(Traced<float> a, Traced<float> b, Traced2D<float, TILE> &a_tile, Traced2D<float, TILE> &b_tile,
                       int m, int k, int n, int phase)
{
    int tx = threadIdx.x, ty = threadIdx.y;
    int col = blockIdx.x * TILE + tx;
    int row = blockIdx.y * TILE + ty;
${x('tiled-load')}}

#define TREE_PRELUDE(T)                                   \\
    unsigned int tid = threadIdx.x;                       \\
    unsigned int first = blockIdx.x * blockDim.x;         \\
    unsigned int count = min(blockDim.x, n - first);      \\
    Traced<T> block_data = data + first;
static void neighbored(Traced<int> data, unsigned int n) { TREE_PRELUDE(int)
${x('neighbored-tree')}}
static void neighbored_less(Traced<int> data, unsigned int n) { TREE_PRELUDE(int)
${x('neighbored-less-tree')}}
static void interleaved(Traced<int> data, unsigned int n) { TREE_PRELUDE(int)
${x('interleaved-tree')}}
static void neighbored_float(Traced<float> data, unsigned int n) { TREE_PRELUDE(float)
${x('neighbored-float-tree')}}

template <unsigned int UNROLL>
static void unrolling_fold(Traced<int> data, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int first = blockIdx.x * blockDim.x * UNROLL;
    unsigned int idx = first + tid;
    (void)tid;
${x('unrolling-fold')}}

static void last_warp_volatile(Traced<int> block_data, unsigned int tid, unsigned int count)
{
${x('last-warp-volatile')}}
static void last_warp_syncwarp(Traced<int> block_data, unsigned int tid, unsigned int count)
{
${x('last-warp-syncwarp')}}

static int warp_sum(int value)
{
${x('warp-sum')}    return value;
}

static void reduce_recursive(Traced<int> data, Traced<int> block_sums, unsigned int n, unsigned int block, unsigned int stride)
{
${x('recursive-step')}}
static void launch_recursive(Traced<int> data, Traced<int> block_sums, unsigned int n, unsigned int block)
{
${x('recursive-host-launch')}}

#include <string>
static std::string kv(const char *k, long long v) { return std::string("\\"") + k + "\\": " + std::to_string(v); }

int main()
{
    { /* lab 00: a 2-D grid of 4x4 blocks over a 5x7 matrix: the edge blocks stick out */
        unsigned int rows = 5, cols = 7, side = 4;
        Traced<float> a("a", rows * cols), b("b", rows * cols), c("c", rows * cols);
        dim3 grid{ceil_div(cols, side), ceil_div(rows, side), 1}, block{side, side, 1};
        trace_run_grid(grid, block, [&] { mat_add(a, b, c, rows, cols); });
        trace_print("mat_add", kv("rows", rows) + "," + kv("cols", cols) + "," + kv("side", side) + "," +
                                   kv("grid_x", grid.x) + "," + kv("grid_y", grid.y));
    }
    { /* lab 01: block 32x32 as launch_naive uses, one block, the first two terms */
        int m = 32, k = 2, n = 32;
        Traced<float> a("a", m * k), b("b", k * n), c("c", m * n);
        trace_run_grid(dim3{1, 1, 1}, dim3{32, 32, 1}, [&] { matmul_naive(a, b, c, m, k, n); });
        trace_print("naive", kv("m", m) + "," + kv("k", k) + "," + kv("n", n));
    }
    { /* lab 02: 4x4 tiles, 8x6 times 6x8: the second phase's tiles stick out past k */
        constexpr int T = 4;
        int m = 8, k = 6, n = 8;
        Traced<float> a("a", m * k), b("b", k * n);
        Traced2D<float, T> a_tile("a_tile"), b_tile("b_tile");
        for (int phase = 0; phase < (int)ceil_div(k, T); phase++) {
            trace_run_grid(dim3{(unsigned)ceil_div(n, T), (unsigned)ceil_div(m, T), 1}, dim3{T, T, 1},
                           [&] { tiled_load<T>(a, b, a_tile, b_tile, m, k, n, phase); });
            trace_print("tiled_load", kv("tile", T) + "," + kv("m", m) + "," + kv("k", k) + "," + kv("n", n) + "," +
                                          kv("phase", phase));
        }
    }
    /* labs 03 and 07: the in-place trees on 16 elements (one block), then on a block of 512 */
    for (unsigned int block : {16u, 512u}) {
        Traced<int> d("data", block);
        Traced<float> f("data", block);
        std::string p = kv("block", block) + "," + kv("n", block);
        trace_run_grid(dim3{1, 1, 1}, dim3{block, 1, 1}, [&] { neighbored(d, block); });
        trace_print("neighbored", p);
        trace_run_grid(dim3{1, 1, 1}, dim3{block, 1, 1}, [&] { neighbored_less(d, block); });
        trace_print("neighbored_less", p);
        trace_run_grid(dim3{1, 1, 1}, dim3{block, 1, 1}, [&] { interleaved(d, block); });
        trace_print("interleaved", p);
        trace_run_grid(dim3{1, 1, 1}, dim3{block, 1, 1}, [&] { neighbored_float(f, block); });
        trace_print("neighbored_float", p);
    }
    { /* lab 04: unrolling 4, blocks of 8 threads, two blocks' worth of data */
        unsigned int n = 64, block = 8;
        Traced<int> d("data", n);
        trace_run_grid(dim3{ceil_div(n, block * 4), 1, 1}, dim3{block, 1, 1}, [&] { unrolling_fold<4>(d, n); });
        trace_print("unrolling4_fold", kv("block", block) + "," + kv("n", n) + "," + kv("unroll", 4));
    }
    { /* lab 05: the last warp over 64 partial sums */
        unsigned int count = 64;
        Traced<int> d("block_data", count);
        trace_run_grid(dim3{1, 1, 1}, dim3{32, 1, 1}, [&] { last_warp_volatile(d, threadIdx.x, count); });
        trace_print("last_warp_volatile", kv("count", count));
        trace_run_grid(dim3{1, 1, 1}, dim3{32, 1, 1}, [&] { last_warp_syncwarp(d, threadIdx.x, count); });
        trace_print("last_warp_syncwarp", kv("count", count));
    }
    { /* lab 05: one warp's shuffle sum */
        trace_run_grid(dim3{1, 1, 1}, dim3{32, 1, 1}, [&] { warp_sum((int)threadIdx.x); });
        trace_print("warp_sum", kv("lanes", 32));
    }
    { /* lab 06: 40 elements in blocks of 16 (the last block owns 8), one grid per halving step */
        unsigned int n = 40, block = 16;
        Traced<int> d("data", n), sums("block_sums", ceil_div(n, block));
        launch_recursive(d, sums, n, block);
        std::vector<std::function<void()>> host_launch;
        host_launch.swap(trace_pending);
        for (auto &grid : host_launch)
            grid();
        trace_print("recursive", kv("n", n) + "," + kv("block", block));
    }
    return 0;
}
`;
}

// Compiles (cached by the source's hash) and runs the driver; returns scenario -> [runs].
export function runTraces(root, excerpts, buildDir) {
  const source = driverSource(excerpts);
  const hash = crypto.createHash('sha256').update(source).update(fs.readFileSync(path.join(root, 'slides/trace/trace.hpp'))).digest('hex').slice(0, 16);
  const dir = path.join(buildDir, 'trace');
  fs.mkdirSync(dir, { recursive: true });
  const cpp = path.join(dir, 'driver.cpp');
  const exe = path.join(dir, `driver-${hash}`);
  if (!fs.existsSync(exe)) {
    fs.writeFileSync(cpp, source);
    const cxx = process.env.CXX || 'c++';
    try {
      execFileSync(cxx, ['-std=c++17', '-O1', '-w', `-I${path.join(root, 'slides/trace')}`, cpp, '-o', exe], { stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (e) {
      throw new DeckError(`the trace driver (${cpp}) does not compile: a marked excerpt changed in a way the host trace cannot run:\n${e.stderr}`);
    }
  }
  const out = execFileSync(exe, { maxBuffer: 256 << 20 }).toString();
  const runs = {};
  for (const line of out.split('\n').filter(Boolean)) {
    const r = JSON.parse(line);
    r.events = r.events.map(([grid, block, thread, phase, op, array, index]) => ({ grid, block, thread, phase, op, array, index }));
    (runs[r.scenario] ??= []).push(r);
  }
  return runs;
}
