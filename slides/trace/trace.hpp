/* trace.hpp: just enough of CUDA's device-side names to run a kernel excerpt
 * from solutions/ on the host, one thread after another, and record every
 * element it reads or writes.
 *
 * Why this is exact for the excerpts the deck traces: their control flow and
 * their indices depend only on threadIdx, blockIdx, blockDim, the loop
 * counters and the sizes, never on the data. So running thread 0 to its end,
 * then thread 1, ... touches the same elements in the same barrier interval
 * as the GPU's interleaving would; only the values differ, and the diagrams
 * show indices, not values. Barriers (__syncthreads, __syncwarp) do not wait
 * here: they advance the thread's `phase`, which is what the diagrams call a
 * step.
 *
 * The generator (slides/lib/trace.mjs) pastes each marked excerpt into a
 * function of its driver, with two rewrites that change types, not index
 * expressions: `int *p` / `volatile int *p` / `float *p` become Traced<T>
 * (a recording array view), and `kernel<<<grid, block, shmem, stream>>>(args)`
 * becomes a queued launch that runs after the launching grid (the CDP2
 * tail-launch order).
 */
#ifndef SLIDES_TRACE_HPP
#define SLIDES_TRACE_HPP

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

struct dim3 {
    unsigned int x = 1, y = 1, z = 1;
};

/* The running thread's coordinates: one thread runs at a time. */
static dim3 threadIdx, blockIdx, blockDim, gridDim;
static int trace_phase;  /* barriers this thread has passed */
static int trace_grid;   /* which launch (0 = the host's) */

static void __syncthreads() { trace_phase++; }
static void __syncwarp(unsigned int = 0xffffffffu) { trace_phase++; }
/* By value: decltype(a < b ? a : b) would be a reference to a parameter. */
template <class A, class B> static typename std::common_type<A, B>::type min(A a, B b) { return a < b ? a : b; }

struct trace_event {
    int grid, block, thread, phase;
    char op; /* 'R' read, 'W' write */
    std::string array;
    long long index;
};
static std::vector<trace_event> trace_events;

static int linear_block() { return (int)(blockIdx.y * gridDim.x + blockIdx.x); }
static int linear_thread() { return (int)(threadIdx.y * blockDim.x + threadIdx.x); }

static void trace_record(char op, const std::string &array, long long index, size_t size)
{
    if (index < 0 || (size_t)index >= size) { /* a GPU would fault too: stop with the place */
        std::fprintf(stderr, "trace: %s[%lld] is outside its %zu elements (block %d, thread %d, phase %d)\n",
                     array.c_str(), index, size, linear_block(), linear_thread(), trace_phase);
        std::exit(3);
    }
    trace_events.push_back({trace_grid, linear_block(), linear_thread(), trace_phase, op, array, index});
}

/* A view of a named array: indexing returns a reference that records the
 * access when it is read or written. Traced + offset is a view further on,
 * like `data + first` on a pointer; indices are recorded from the array's
 * start, so every view of one array speaks the same index. */
template <class T> struct Traced {
    std::string name;
    std::shared_ptr<std::vector<T>> cells;
    long long offset = 0;

    Traced() = default;
    Traced(const std::string &n, size_t size) : name(n), cells(std::make_shared<std::vector<T>>(size, T())) {}

    struct Ref {
        const Traced *view;
        long long index;
        operator T() const
        {
            trace_record('R', view->name, index, view->cells->size());
            return (*view->cells)[(size_t)index];
        }
        Ref &operator=(T value)
        {
            trace_record('W', view->name, index, view->cells->size());
            (*view->cells)[(size_t)index] = value;
            return *this;
        }
        Ref &operator=(const Ref &other) { return *this = (T)other; }
        Ref &operator+=(T value)
        {
            T old = (T) * this;
            return *this = old + value;
        }
    };
    Ref operator[](long long i) const { return Ref{this, offset + i}; }
    Traced operator+(long long i) const
    {
        Traced view = *this;
        view.offset += i;
        return view;
    }
};

/* A TILE x TILE __shared__ array: tile[row][col] records index row*TILE + col. */
template <class T, int SIDE> struct Traced2D {
    Traced<T> flat;
    explicit Traced2D(const std::string &name) : flat(name, (size_t)SIDE * SIDE) {}
    struct Row {
        const Traced<T> *flat;
        long long row;
        typename Traced<T>::Ref operator[](long long col) const { return (*flat)[row * SIDE + col]; }
    };
    Row operator[](long long row) const { return Row{&flat, row}; }
};

/* Device-side launches: queued, run after the grid that launched them. */
enum trace_stream { cudaStreamTailLaunch, cudaStreamFireAndForget };
static std::vector<std::function<void()>> trace_pending;

static void cudaGetLastError() {}
template <class... Args> static void report_device_launch(Args...) {}

/* Runs `body` for every thread of a grid, block after block, thread after
 * thread, then the grids it launched, in launch order. */
static void trace_run_grid(dim3 grid, dim3 block, const std::function<void()> &body)
{
    static int grids = 0;
    int this_grid = grids++;
    for (unsigned int by = 0; by < grid.y; by++)
        for (unsigned int bx = 0; bx < grid.x; bx++)
            for (unsigned int ty = 0; ty < block.y; ty++)
                for (unsigned int tx = 0; tx < block.x; tx++) {
                    gridDim = grid;
                    blockDim = block;
                    blockIdx = dim3{bx, by, 1};
                    threadIdx = dim3{tx, ty, 1};
                    trace_phase = 0;
                    trace_grid = this_grid;
                    body();
                }
    std::vector<std::function<void()>> children;
    children.swap(trace_pending);
    for (auto &child : children)
        child();
}

/* `kernel<<<g, b, shmem, stream>>>(args)` rewritten as
 * trace_launch(g, b, [&](auto... a) { kernel(a...); })(args). */
template <class K> struct trace_launcher {
    unsigned int grid, block;
    K kernel;
    template <class... Args> void operator()(Args... args)
    {
        unsigned int g = grid, b = block;
        K k = kernel;
        trace_pending.push_back([=]() { trace_run_grid(dim3{g, 1, 1}, dim3{b, 1, 1}, [=]() { k(args...); }); });
    }
};
template <class K> static trace_launcher<K> trace_launch(unsigned int grid, unsigned int block, K kernel)
{
    return trace_launcher<K>{grid, block, kernel};
}

/* One scenario's events as a JSON object on one line. */
static void trace_print(const char *scenario, const std::string &params)
{
    std::printf("{\"scenario\": \"%s\", \"params\": {%s}, \"events\": [", scenario, params.c_str());
    for (size_t i = 0; i < trace_events.size(); i++) {
        const trace_event &e = trace_events[i];
        std::printf("%s[%d,%d,%d,%d,\"%c\",\"%s\",%lld]", i ? "," : "", e.grid, e.block, e.thread, e.phase, e.op,
                    e.array.c_str(), e.index);
    }
    std::printf("]}\n");
    trace_events.clear();
}

/* __shfl_down_sync: the lane reads the register of lane + offset (its own past the warp's
 * end, as on the GPU). Recorded as a read of "shfl" at the source lane, with the offset as a
 * read of "offset"; each shuffle is a step. The value returned is the lane's own: the diagram
 * shows who reads whom, and the excerpt's loop does not depend on the values. */
template <class T> static T __shfl_down_sync(unsigned int, T value, unsigned int offset)
{
    int lane = linear_thread() % 32;
    long long from = lane + (int)offset < 32 ? lane + (int)offset : lane;
    trace_events.push_back({trace_grid, linear_block(), linear_thread(), trace_phase, 'R', "shfl", from});
    trace_events.push_back({trace_grid, linear_block(), linear_thread(), trace_phase, 'R', "offset", (long long)offset});
    trace_phase++;
    return value;
}

#endif
