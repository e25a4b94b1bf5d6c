/* cuda_runtime.h of the CPU emulator (emu/): the CUDA runtime API a lab needs.
 *
 * The host API (first half) is plain C, so C11 host code such as the course
 * harness compiles against it. The device side (second half) is C++ only: the
 * builtins threadIdx/blockIdx/blockDim/gridDim, __syncthreads, warp shuffles,
 * atomics, and emu_launch(), which emu/rewrite turns every
 * kernel<<<grid, block, shmem, stream>>>(args) into.
 * Lab files are compiled by emu/emucc; see emu/README.md.
 */
#ifndef EMU_CUDA_RUNTIME_H
#define EMU_CUDA_RUNTIME_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
/* What nvcc's runtime header brings along (its common and math functions), so a program
 * that calls time(), malloc() or sqrtf() without including their headers builds as with nvcc. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define EMU_CUDA 1
#define CUDART_VERSION 12000
#define __CUDACC_EMU__ 1
/* The compute capability of the device the emulator is (an H100: 9.0), major * 10 + minor: what
 * cudaGetDeviceProperties says, and (times 10) __CUDA_ARCH__ in device code (emu/emucc reads it
 * here). */
#define EMU_DEVICE_CC 90

/* ---- types --------------------------------------------------------------------------------- */

typedef enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInitializationError = 3,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorInvalidSymbol = 13,
    cudaErrorInvalidDevicePointer = 17,
    cudaErrorInvalidMemcpyDirection = 21,
    cudaErrorLaunchMaxDepthExceeded = 65,
    cudaErrorLaunchPendingCountExceeded = 69,
    cudaErrorInvalidDeviceFunction = 98,
    cudaErrorNoDevice = 100,
    cudaErrorInvalidDevice = 101,
    cudaErrorInvalidResourceHandle = 400,
    cudaErrorNotReady = 600,
    cudaErrorIllegalAddress = 700,
    cudaErrorLaunchOutOfResources = 701,
    cudaErrorLaunchTimeout = 702,
    cudaErrorAssert = 710,
    cudaErrorHostMemoryAlreadyRegistered = 712,
    cudaErrorHostMemoryNotRegistered = 713,
    cudaErrorMisalignedAddress = 716,
    cudaErrorLaunchFailure = 719,
    cudaErrorCooperativeLaunchTooLarge = 720,
    cudaErrorNotSupported = 801,
    cudaErrorUnknown = 999
} cudaError_t;

typedef enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4
} cudaMemcpyKind;

typedef enum cudaDeviceAttr {
    cudaDevAttrMaxThreadsPerBlock = 1,
    cudaDevAttrMaxBlockDimX = 2,
    cudaDevAttrMaxBlockDimY = 3,
    cudaDevAttrMaxBlockDimZ = 4,
    cudaDevAttrMaxGridDimX = 5,
    cudaDevAttrMaxGridDimY = 6,
    cudaDevAttrMaxGridDimZ = 7,
    cudaDevAttrMaxSharedMemoryPerBlock = 8,
    cudaDevAttrTotalConstantMemory = 9,
    cudaDevAttrWarpSize = 10,
    cudaDevAttrClockRate = 13,
    cudaDevAttrMultiProcessorCount = 16,
    cudaDevAttrMemoryClockRate = 36,
    cudaDevAttrGlobalMemoryBusWidth = 37,
    cudaDevAttrL2CacheSize = 38,
    cudaDevAttrMaxThreadsPerMultiProcessor = 39,
    cudaDevAttrMaxRegistersPerBlock = 12,
    cudaDevAttrCanMapHostMemory = 19,
    cudaDevAttrConcurrentKernels = 31,
    cudaDevAttrUnifiedAddressing = 41,
    cudaDevAttrComputeCapabilityMajor = 75,
    cudaDevAttrComputeCapabilityMinor = 76,
    cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
    cudaDevAttrManagedMemory = 83,
    cudaDevAttrConcurrentManagedAccess = 89,
    cudaDevAttrCooperativeLaunch = 95,
    cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
    cudaDevAttrMaxBlocksPerMultiprocessor = 106
} cudaDeviceAttr;

/* cudaDeviceSetLimit / cudaDeviceGetLimit */
enum cudaLimit {
    cudaLimitStackSize = 0x00,
    cudaLimitPrintfFifoSize = 0x01,
    cudaLimitMallocHeapSize = 0x02, /* the device heap (malloc and new in device code) */
    cudaLimitDevRuntimeSyncDepth = 0x03,
    cudaLimitDevRuntimePendingLaunchCount = 0x04,
    cudaLimitMaxL2FetchGranularity = 0x05,
    cudaLimitPersistingL2CacheSize = 0x06
};

typedef enum cudaFuncAttribute {
    cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
    cudaFuncAttributePreferredSharedMemoryCarveout = 9
} cudaFuncAttribute;

struct cudaDeviceProp {
    char name[256];
    size_t totalGlobalMem;
    size_t sharedMemPerBlock;
    int regsPerBlock;
    int warpSize;
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    int clockRate;
    size_t totalConstMem;
    int major;
    int minor;
    int multiProcessorCount;
    int memoryClockRate;
    int memoryBusWidth;
    int l2CacheSize;
    int maxThreadsPerMultiProcessor;
    size_t sharedMemPerMultiprocessor;
    /* what programs ask before they use a feature: every one the emulator has */
    size_t sharedMemPerBlockOptin;
    int regsPerMultiprocessor;
    int maxBlocksPerMultiProcessor;
    int canMapHostMemory;
    int unifiedAddressing;
    int managedMemory;
    int concurrentManagedAccess;
    int cooperativeLaunch;
    int concurrentKernels;
    int asyncEngineCount;
    int integrated;
    int ECCEnabled;
    int pciBusID, pciDeviceID, pciDomainID;
    size_t memPitch;
    size_t textureAlignment;
};
typedef struct cudaDeviceProp cudaDeviceProp;

/* What cudaPointerGetAttributes says of a pointer: device memory (a cudaMalloc block, a
 * __device__ variable) or host memory the runtime does not know. */
enum cudaMemoryType {
    cudaMemoryTypeUnregistered = 0,
    cudaMemoryTypeHost = 1,
    cudaMemoryTypeDevice = 2,
    cudaMemoryTypeManaged = 3
};
struct cudaPointerAttributes {
    enum cudaMemoryType type;
    int device;
    void *devicePointer;
    void *hostPointer;
};

enum cudaFuncCache {
    cudaFuncCachePreferNone = 0,
    cudaFuncCachePreferShared = 1,
    cudaFuncCachePreferL1 = 2,
    cudaFuncCachePreferEqual = 3
};

/* Flags of the host-memory calls (page-locking means nothing to the emulator: every copy is
 * synchronous) and of cudaMallocManaged. */
#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaHostAllocWriteCombined 0x04
#define cudaHostRegisterDefault 0x00
#define cudaHostRegisterPortable 0x01
#define cudaHostRegisterMapped 0x02
#define cudaHostRegisterIoMemory 0x04
#define cudaHostRegisterReadOnly 0x08
#define cudaMemAttachGlobal 0x01
#define cudaMemAttachHost 0x02
#define cudaDeviceScheduleAuto 0x00
#define cudaDeviceScheduleSpin 0x01
#define cudaDeviceScheduleYield 0x02
#define cudaDeviceScheduleBlockingSync 0x04
#define cudaDeviceMapHost 0x08
#define cudaDeviceLmemResizeToMax 0x10
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaCpuDeviceId (-1)
/* A kernel parameter the kernel reads where the launch put it (CUDA 11.7): a copy here as on a GPU. */
#define __grid_constant__

typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;

/* Device-side launch streams (CDP2). Every emulated launch runs after the grid
 * that made it, which is the tail-launch order; fire-and-forget grids run then too. */
#define cudaStreamTailLaunch ((cudaStream_t)2)
#define cudaStreamFireAndForget ((cudaStream_t)3)
#define cudaStreamPerThread ((cudaStream_t)4)
#define cudaStreamLegacy ((cudaStream_t)1)
#define cudaStreamNonBlocking 1
#define cudaStreamDefault 0

typedef struct uint3 {
    unsigned int x, y, z;
} uint3;

typedef struct dim3 {
    unsigned int x, y, z;
#ifdef __cplusplus
    constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
    constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    constexpr operator uint3() const { return uint3{x, y, z}; }
#endif
} dim3;

/* CUDA's vector types (vector_types.h: char1 ... double4, with CUDA's size and alignment) and
 * their make_ functions. Copying a 2- or 4-wide one of at most 16 bytes is one access of its whole
 * width (a 128-bit load of a float4, as on the GPU): the copy goes through one value that an empty
 * asm statement takes and gives back whole, so the compiler cannot split the load or the store
 * into fields, and the emulator sees and counts the instruction the GPU runs. Not volatile: a copy
 * into a local variable (the float4 a thread loads into, then reads field by field) stays in
 * registers, as on the GPU, instead of passing through the thread's stack (five hook calls a
 * float4, none of them counted). The others (1- and 3-wide, and the 32-byte 4-wide ones, which a
 * GPU copies in two) are plain structures. Brace initialization works as for CUDA's aggregates:
 * float4 v = {1.0f} is (1, 0, 0, 0). */
#ifdef __cplusplus
/* the value one vector copy moves, and the empty asm that keeps it whole: 2 and 4 bytes in an
 * integer register, 8 as a double and 16 as a vector (an 8-byte char vector is no SSE operand) */
template <int W>
struct emu_whole;
template <>
struct emu_whole<2> {
    typedef unsigned short type __attribute__((may_alias));
    static inline __attribute__((always_inline)) void pin(type &v) { __asm__("" : "+r"(v)); }
};
template <>
struct emu_whole<4> {
    typedef unsigned int type __attribute__((may_alias));
    static inline __attribute__((always_inline)) void pin(type &v) { __asm__("" : "+r"(v)); }
};
#if defined(__x86_64__)
#define EMU_WHOLE_REG "+x"
#else
#define EMU_WHOLE_REG "+w"
#endif
template <>
struct emu_whole<8> {
    typedef double type __attribute__((may_alias));
    static inline __attribute__((always_inline)) void pin(type &v) { __asm__("" : EMU_WHOLE_REG(v)); }
};
template <>
struct emu_whole<16> {
    typedef char type __attribute__((vector_size(16), may_alias));
    static inline __attribute__((always_inline)) void pin(type &v) { __asm__("" : EMU_WHOLE_REG(v)); }
};
#undef EMU_WHOLE_REG
#define EMU_VEC_COPY(N, W)                                                                                  \
    N(const N &o) { emu_copy(o); }                                                                          \
    N &operator=(const N &o) { emu_copy(o); return *this; }                                                 \
    void emu_copy(const N &o)                                                                               \
    {                                                                                                       \
        typedef typename emu_whole<W>::type bytes;                                                          \
        bytes v = *(const bytes *)&o;                                                                       \
        emu_whole<W>::pin(v);                                                                               \
        *(bytes *)this = v;                                                                                 \
    }
#define EMU_VEC1(T, N, A)                                                                                   \
    struct __attribute__((aligned(A))) N##1 { T x; };                                                       \
    static inline N##1 make_##N##1(T x) { N##1 v = {x}; return v; }
#define EMU_VEC2(T, N, A)                                                                                   \
    struct __attribute__((aligned(A))) N##2 {                                                               \
        T x, y;                                                                                             \
        N##2() = default;                                                                                   \
        constexpr N##2(T a, T b = 0) : x(a), y(b) {}                                                          \
        EMU_VEC_COPY(N##2, 2 * sizeof(T))                                                                   \
    };                                                                                                      \
    static inline N##2 make_##N##2(T x, T y) { return N##2(x, y); }
#define EMU_VEC3(T, N, A)                                                                                   \
    struct __attribute__((aligned(A))) N##3 { T x, y, z; };                                                 \
    static inline N##3 make_##N##3(T x, T y, T z) { N##3 v = {x, y, z}; return v; }
#define EMU_VEC4(T, N, A)                                                                                   \
    struct __attribute__((aligned(A))) N##4 {                                                               \
        T x, y, z, w;                                                                                       \
        N##4() = default;                                                                                   \
        constexpr N##4(T a, T b = 0, T c = 0, T d = 0) : x(a), y(b), z(c), w(d) {}                                \
        EMU_VEC_COPY(N##4, 4 * sizeof(T))                                                                   \
    };                                                                                                      \
    static inline N##4 make_##N##4(T x, T y, T z, T w) { return N##4(x, y, z, w); }
#define EMU_VEC4_WIDE(T, N) /* 32 bytes: aligned to 16, copied as any structure */                         \
    struct __attribute__((aligned(16))) N##4 { T x, y, z, w; };                                             \
    static inline N##4 make_##N##4(T x, T y, T z, T w) { N##4 v = {x, y, z, w}; return v; }
#define EMU_VECTORS(T, N, A1, A2, A4)                                                                       \
    EMU_VEC1(T, N, A1) EMU_VEC2(T, N, A2) EMU_VEC3(T, N, A1) EMU_VEC4(T, N, A4)
EMU_VECTORS(signed char, char, 1, 2, 4)
EMU_VECTORS(unsigned char, uchar, 1, 2, 4)
EMU_VECTORS(short, short, 2, 4, 8)
EMU_VECTORS(unsigned short, ushort, 2, 4, 8)
EMU_VECTORS(int, int, 4, 8, 16)
EMU_VEC1(unsigned int, uint, 4) EMU_VEC2(unsigned int, uint, 8) EMU_VEC4(unsigned int, uint, 16) /* uint3: above */
EMU_VECTORS(float, float, 4, 8, 16)
EMU_VEC1(long, long, 8) EMU_VEC2(long, long, 16) EMU_VEC3(long, long, 8) EMU_VEC4_WIDE(long, long)
EMU_VEC1(unsigned long, ulong, 8) EMU_VEC2(unsigned long, ulong, 16) EMU_VEC3(unsigned long, ulong, 8)
EMU_VEC4_WIDE(unsigned long, ulong)
EMU_VEC1(long long, longlong, 8) EMU_VEC2(long long, longlong, 16) EMU_VEC3(long long, longlong, 8)
EMU_VEC4_WIDE(long long, longlong)
EMU_VEC1(unsigned long long, ulonglong, 8) EMU_VEC2(unsigned long long, ulonglong, 16)
EMU_VEC3(unsigned long long, ulonglong, 8) EMU_VEC4_WIDE(unsigned long long, ulonglong)
EMU_VEC1(double, double, 8) EMU_VEC2(double, double, 16) EMU_VEC3(double, double, 8) EMU_VEC4_WIDE(double, double)
#undef EMU_VECTORS
#undef EMU_VEC_COPY
#undef EMU_VEC1
#undef EMU_VEC2
#undef EMU_VEC3
#undef EMU_VEC4
#undef EMU_VEC4_WIDE
/* uint3 and dim3 are above (the built-in variables' types); make_uint3 beside the others */
static inline uint3 make_uint3(unsigned int x, unsigned int y, unsigned int z) { uint3 v = {x, y, z}; return v; }
#endif

/* ---- host API (C) -------------------------------------------------------------------------- */

#ifdef __cplusplus
extern "C" {
#endif

cudaError_t cudaMalloc(void **ptr, size_t bytes);
#ifdef __cplusplus
#define EMU_DEFAULT_ATTACH = cudaMemAttachGlobal
#else
#define EMU_DEFAULT_ATTACH
#endif
cudaError_t cudaMallocManaged(void **ptr, size_t bytes, unsigned int flags EMU_DEFAULT_ATTACH);
cudaError_t cudaFree(void *ptr);
cudaError_t cudaMallocHost(void **ptr, size_t bytes);
cudaError_t cudaHostAlloc(void **ptr, size_t bytes, unsigned int flags);
cudaError_t cudaFreeHost(void *ptr);
/* Page-locks host memory on a GPU; here it checks its arguments and remembers the range
 * (cudaHostUnregister of a pointer never registered is cudaErrorHostMemoryNotRegistered). */
cudaError_t cudaHostRegister(void *ptr, size_t bytes, unsigned int flags);
cudaError_t cudaHostUnregister(void *ptr);
/* Pinned host memory from cudaHostAlloc / cudaMallocHost, and managed memory, is device memory the
 * host reads and writes too: the device pointer is the host one (unified addressing). */
cudaError_t cudaHostGetDevicePointer(void **device_ptr, void *host_ptr, unsigned int flags);
cudaError_t cudaHostGetFlags(unsigned int *flags, void *host_ptr);
cudaError_t cudaSetDeviceFlags(unsigned int flags);
cudaError_t cudaGetDeviceFlags(unsigned int *flags);
cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value);
cudaError_t cudaDeviceGetLimit(size_t *value, enum cudaLimit limit);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind);
/* As in CUDA, C++ callers may leave out the stream (the default stream, 0), and some flags. */
#ifdef __cplusplus
#define EMU_DEFAULT_FLAGS = 0
#else
#define EMU_DEFAULT_FLAGS
#endif
#ifdef __cplusplus
#define EMU_DEFAULT_STREAM = 0
#else
#define EMU_DEFAULT_STREAM
#endif
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind,
                            cudaStream_t stream EMU_DEFAULT_STREAM);
cudaError_t cudaMemset(void *ptr, int value, size_t bytes);
cudaError_t cudaMemsetAsync(void *ptr, int value, size_t bytes, cudaStream_t stream EMU_DEFAULT_STREAM);
/* Managed memory's hints: nothing to move here. */
cudaError_t cudaMemPrefetchAsync(const void *ptr, size_t bytes, int device, cudaStream_t stream EMU_DEFAULT_STREAM);
cudaError_t cudaMemAdvise(const void *ptr, size_t bytes, int advice, int device);
cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes);
cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr);
/* cudaMemcpyToSymbol and cudaMemcpyFromSymbol (templates below) copy through these. */
cudaError_t emu_memcpy_to_symbol(void *symbol, const void *src, size_t bytes);
cudaError_t emu_memcpy_from_symbol(void *dst, const void *symbol, size_t bytes);

cudaError_t cudaEventCreate(cudaEvent_t *event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream EMU_DEFAULT_STREAM);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaEventDestroy(cudaEvent_t event);
/* Everything is done when a call returns: an event or a stream has always finished. */
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaStreamQuery(cudaStream_t stream);
typedef void (*cudaHostFn_t)(void *user_data);
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *user_data);
cudaError_t cudaStreamCreate(cudaStream_t *stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags EMU_DEFAULT_FLAGS);

cudaError_t cudaGetDeviceCount(int *count);
cudaError_t cudaGetDevice(int *device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int device);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char *cudaGetErrorString(cudaError_t error);
const char *cudaGetErrorName(cudaError_t error);
cudaError_t cudaFuncSetAttributeRaw(const void *func, cudaFuncAttribute attr, int value);
cudaError_t cudaDriverGetVersion(int *version);
cudaError_t cudaRuntimeGetVersion(int *version);
cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache config);
cudaError_t cudaFuncSetCacheConfigRaw(const void *func, enum cudaFuncCache config);
cudaError_t cudaProfilerStart(void); /* cuda_profiler_api.h: nothing to profile here */
cudaError_t cudaProfilerStop(void);
/* Occupancy of the emulated device (2048 threads, 32 blocks and 228 KiB of shared memory per
 * SM, as an H100): the C++ templates below take the kernel itself, as nvcc's do. The kernel's
 * static shared memory and registers are not known here and do not limit the answer. */
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *blocks, const void *func, int block_size,
                                                                   size_t dynamic_shared, unsigned int flags);
cudaError_t cudaOccupancyMaxPotentialBlockSizeRaw(int *min_grid, int *block_size, const void *func,
                                                  size_t dynamic_shared, int block_size_limit);

/* The emulator's own entry points (used by the C++ part below). */
typedef void (*emu_thunk_fn)(void *closure);
/* What the runtime's messages know of a launch's arguments (an access out of bounds names the
 * array by the argument it came from): emu_launch puts this table first in every closure. */
#define EMU_ARGS_MAGIC 0x53475241u /* "ARGS" */
#define EMU_ARGS_MAX 16
typedef struct {
    unsigned int magic;                /* EMU_ARGS_MAGIC */
    unsigned int count;                /* the kernel's arguments (the first EMU_ARGS_MAX are described) */
    unsigned int offset[EMU_ARGS_MAX]; /* where each one lies in the closure */
    unsigned int elem[EMU_ARGS_MAX];   /* a pointer: the bytes of what it points to (void: 1); else 0 */
} emu_launch_args;
cudaError_t emu_launch_raw(dim3 grid, dim3 block, size_t shmem, cudaStream_t stream, emu_thunk_fn thunk,
                           emu_thunk_fn destroy, void *closure);
void *emu_closure_alloc(size_t bytes);
/* Names the kernel of the next emu_launch_raw (for messages; optional). */
void emu_launch_name(const char *name);
/* Between these two, the host's launch is a cooperative one (cudaLaunchCooperativeKernel): the
 * first says whether the grid fits on the device at once; grid.sync() is valid (emu_coop.c). */
cudaError_t emu_launch_cooperative(dim3 grid, dim3 block, size_t shmem);
void emu_launch_cooperative_end(void);
/* cudaLaunchKernel((void *)kernel, ...): the launch through the kernel's entry in the section
 * emu_kernels, which emu/rewrite adds after every kernel (below, emu_kernel_entry). */
typedef cudaError_t (*emu_kernel_launch_fn)(const void *kernel, dim3 grid, dim3 block, void **args, size_t shmem,
                                            cudaStream_t stream, int cooperative);
typedef struct {
    const void *kernel;
    emu_kernel_launch_fn launch; /* its arguments from an array of pointers to them */
    const char *name;
} emu_kernel_entry;
cudaError_t emu_launch_by_address(const void *func, dim3 grid, dim3 block, void **args, size_t shmem,
                                  cudaStream_t stream, int cooperative);
/* The name of a kernel by its address (NULL: not known). */
const char *emu_kernel_name(const void *func);
uint3 emu_thread_idx(void) __attribute__((const));
uint3 emu_block_idx(void) __attribute__((const));
uint3 emu_block_dim(void) __attribute__((const)); /* blockDim, as uint3 for C linkage */
uint3 emu_grid_dim(void) __attribute__((const));
void emu_syncthreads(void);
int emu_syncthreads_op(int op, int predicate);
void emu_syncwarp(unsigned int mask);
void emu_threadfence(void);
unsigned long long emu_warp_op(int op, unsigned int mask, unsigned long long value, int arg, int width);
unsigned int emu_activemask(void);
void emu_atomic_site(void *address, unsigned int bytes);
void emu_atomic_cas_next(void); /* the thread's next atomic is an atomicCAS (see emu_race.c) */
void emu_trap(void) __attribute__((noreturn));
/* grid.sync() of cooperative groups: every thread of a cooperative launch meets there */
void emu_grid_sync(void);
int emu_grid_valid(void);
long long emu_clock64(void);
long long emu_atomic_i64(int op, long long *a, long long v, long long cmp);
/* emu_warp_op codes, and the operations of the emu_atomic_* functions */
enum { EMU_SHFL_IDX = 0, EMU_SHFL_UP, EMU_SHFL_DOWN, EMU_SHFL_XOR, EMU_VOTE_BALLOT, EMU_VOTE_ANY, EMU_VOTE_ALL,
       EMU_WARP_CONVERGED /* the lanes of the warp that arrive at this call together (coalesced_threads()) */ };
enum { EMU_AT_ADD = 0, EMU_AT_SUB, EMU_AT_EXCH, EMU_AT_MIN, EMU_AT_MAX, EMU_AT_AND, EMU_AT_OR, EMU_AT_XOR,
       EMU_AT_CAS, EMU_AT_INC, EMU_AT_DEC };

#ifdef __cplusplus
} /* extern "C" */
#endif

/* ---- device side (C++) --------------------------------------------------------------------- */

#ifdef __cplusplus
#include <math.h>
#include <new>
#include <string.h>
#include <tuple>
#include <type_traits>
#include <utility>

/* Device code (kernels, __device__ functions: emu/rewrite adds the mark after a function's
 * __device__; the thunk every grid starts in) is marked with a section of its own, where emucc's
 * check of what device code calls and touches begins (emu/device_check.awk). emucc takes the mark
 * off before the code is made: the code stays in .text, where GNU addr2line finds its lines. */
#define EMU_DEVICE_FN __attribute__((section("emu_device_text")))
/* A __host__ __device__ function (emu/rewrite's mark): device code too, and also host code (with
 * __CUDA_ARCH__ in the file, emucc keeps the host pass's copy of it for the host). */
#define EMU_HOSTDEVICE_FN __attribute__((section("emu_hostdevice_text")))
/* A kernel is an entry point, never inlined into the launch's lambda (as on a GPU: its frames are
 * the kernel's in every message, whichever tool names them); its mark tells the build its static
 * shared memory is a kernel's (at most 48 KiB). */
#define __global__ __attribute__((section("emu_kernel_text"))) __attribute__((noinline))
#define __device__
#define __host__
/* __noinline__: emu/rewrite writes __attribute__((noinline)) (a macro would break the C++
 * library's __attribute__((__noinline__))). */
#define __forceinline__ inline __attribute__((always_inline))
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))
#define __constant__ __attribute__((section("emu_constant")))
/* Managed memory is host memory too, which no lab file may have (tools/lab-policy refuses an
 * object with this section). */
#define __managed__ __attribute__((section("emu_managed")))
/* emu/rewrite marks the __device__ variables (not the functions) with one of these: device
 * memory, closed to host code like cudaMalloc's blocks, and its read-only part. */
#define EMU_DEVICE_VAR __attribute__((section("emu_device")))
#define EMU_DEVICE_CONST __attribute__((section("emu_device_ro")))
/* emu/rewrite turns `__shared__` into `static EMU_SHARED` (and `extern __shared__ T a[]`
 * into the dynamic shared buffer); this fallback serves code that skipped it. */
#define EMU_SHARED __attribute__((section("emu_shared")))
#define EMU_DYNAMIC_SHARED __attribute__((aligned(16)))
#ifndef __shared__
#define __shared__ static EMU_SHARED
#endif

/* The built-in variables, of CUDA's types and read-only, as nvcc declares them: sizeof(threadIdx) is
 * 12, decltype(blockDim) is const dim3, and they convert and copy as those types do. The runtime
 * writes the running thread's values there at every switch to it (src/emu_fiber.c), so each
 * thread reads its own. Host code may have variables and members of the same names (a host
 * `dim3 gridDim`, cudaDeviceProp's warpSize), as with nvcc. */
extern const uint3 threadIdx, blockIdx;
extern const dim3 blockDim, gridDim;
static constexpr int warpSize = 32;

#define EMU_INLINE static inline __attribute__((always_inline))

EMU_INLINE void __syncthreads(void) { emu_syncthreads(); }
EMU_INLINE int __syncthreads_count(int p) { return emu_syncthreads_op(1, p); }
EMU_INLINE int __syncthreads_and(int p) { return emu_syncthreads_op(2, p); }
EMU_INLINE int __syncthreads_or(int p) { return emu_syncthreads_op(3, p); }
EMU_INLINE void __syncwarp(unsigned int mask = 0xffffffffu) { emu_syncwarp(mask); }
/* A fence orders a thread's global writes for the other blocks: the emulator counts them to
 * find a block's result read by another block with no fence between it and its signal. */
EMU_INLINE void __threadfence(void) { emu_threadfence(); }
EMU_INLINE void __threadfence_system(void) { emu_threadfence(); }
EMU_INLINE void __threadfence_block(void) {}
EMU_INLINE unsigned int __activemask(void) { return emu_activemask(); }
EMU_INLINE void __trap(void) { emu_trap(); }


template <typename T>
EMU_INLINE T emu_shfl(int op, unsigned int mask, T value, int arg, int width)
{
    static_assert(sizeof(T) <= 8, "__shfl_*_sync: type larger than 8 bytes");
    unsigned long long bits = 0;
    memcpy(&bits, &value, sizeof value);
    bits = emu_warp_op(op, mask, bits, arg, width);
    T out;
    memcpy(&out, &bits, sizeof out);
    return out;
}
template <typename T>
EMU_INLINE T __shfl_sync(unsigned int mask, T v, int src, int width = 32)
{
    return emu_shfl(EMU_SHFL_IDX, mask, v, src, width);
}
template <typename T>
EMU_INLINE T __shfl_up_sync(unsigned int mask, T v, unsigned int delta, int width = 32)
{
    return emu_shfl(EMU_SHFL_UP, mask, v, (int)delta, width);
}
template <typename T>
EMU_INLINE T __shfl_down_sync(unsigned int mask, T v, unsigned int delta, int width = 32)
{
    return emu_shfl(EMU_SHFL_DOWN, mask, v, (int)delta, width);
}
template <typename T>
EMU_INLINE T __shfl_xor_sync(unsigned int mask, T v, int lane_mask, int width = 32)
{
    return emu_shfl(EMU_SHFL_XOR, mask, v, lane_mask, width);
}
EMU_INLINE unsigned int __ballot_sync(unsigned int mask, int p)
{
    return (unsigned int)emu_warp_op(EMU_VOTE_BALLOT, mask, p != 0, 0, 32);
}
EMU_INLINE int __any_sync(unsigned int mask, int p) { return (int)emu_warp_op(EMU_VOTE_ANY, mask, p != 0, 0, 32); }
EMU_INLINE int __all_sync(unsigned int mask, int p) { return (int)emu_warp_op(EMU_VOTE_ALL, mask, p != 0, 0, 32); }

/* min/max as CUDA's device math overloads them. */
#define EMU_MINMAX(T)                                                                                       \
    EMU_INLINE T min(T a, T b) { return b < a ? b : a; }                                                   \
    EMU_INLINE T max(T a, T b) { return a < b ? b : a; }
EMU_MINMAX(int)
EMU_MINMAX(unsigned int)
EMU_MINMAX(long)
EMU_MINMAX(unsigned long)
EMU_MINMAX(long long)
EMU_MINMAX(unsigned long long)
EMU_MINMAX(float)
EMU_MINMAX(double)
#undef EMU_MINMAX
EMU_INLINE unsigned int min(int a, unsigned int b) { return min((unsigned int)a, b); }
EMU_INLINE unsigned int min(unsigned int a, int b) { return min(a, (unsigned int)b); }
EMU_INLINE unsigned int max(int a, unsigned int b) { return max((unsigned int)a, b); }
EMU_INLINE unsigned int max(unsigned int a, int b) { return max(a, (unsigned int)b); }

/* Fast-math intrinsics: the ordinary functions (__sinf, __expf, ...: below, with __exp10f). */
EMU_INLINE float __fdividef(float x, float y) { return x / y; }
EMU_INLINE float rsqrtf(float x) { return 1.0f / sqrtf(x); }
EMU_INLINE float __saturatef(float x) { return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x); }
EMU_INLINE float __fmaf_rn(float a, float b, float c) { return fmaf(a, b, c); }
EMU_INLINE int __popc(unsigned int x) { return __builtin_popcount(x); }
EMU_INLINE int __clz(int x) { return x ? __builtin_clz((unsigned int)x) : 32; }
EMU_INLINE int __ffs(int x) { return __builtin_ffs(x); }
template <typename T> EMU_INLINE T __ldg(const T *p) { return *p; }
/* The cache-hinted loads and stores (the hint is the cache's business: an access like any other). */
template <typename T> EMU_INLINE T __ldcg(const T *p) { return *p; }
template <typename T> EMU_INLINE T __ldca(const T *p) { return *p; }
template <typename T> EMU_INLINE T __ldcs(const T *p) { return *p; }
template <typename T> EMU_INLINE T __ldlu(const T *p) { return *p; }
template <typename T> EMU_INLINE T __ldcv(const T *p) { return *p; }
template <typename T> EMU_INLINE void __stwb(T *p, T v) { *p = v; }
template <typename T> EMU_INLINE void __stcg(T *p, T v) { *p = v; }
template <typename T> EMU_INLINE void __stcs(T *p, T v) { *p = v; }
template <typename T> EMU_INLINE void __stwt(T *p, T v) { *p = v; }

/* Reinterpreting bits (the atomicCAS loops of the Programming Guide use them). */
template <typename To, typename From> EMU_INLINE To emu_bits_as(From v)
{
    static_assert(sizeof(To) == sizeof(From), "same size");
    To out;
    memcpy(&out, &v, sizeof out);
    return out;
}
EMU_INLINE float __int_as_float(int v) { return emu_bits_as<float>(v); }
EMU_INLINE int __float_as_int(float v) { return emu_bits_as<int>(v); }
EMU_INLINE float __uint_as_float(unsigned int v) { return emu_bits_as<float>(v); }
EMU_INLINE unsigned int __float_as_uint(float v) { return emu_bits_as<unsigned int>(v); }
EMU_INLINE double __longlong_as_double(long long v) { return emu_bits_as<double>(v); }
EMU_INLINE long long __double_as_longlong(double v) { return emu_bits_as<long long>(v); }

/* Integer intrinsics: 24-bit products (the low 24 bits of each operand, sign-extended for __mul24),
 * high halves of products, bit operations. */
EMU_INLINE int __mul24(int x, int y)
{
    long long a = (long long)((int)((unsigned)x << 8) >> 8), b = (long long)((int)((unsigned)y << 8) >> 8);
    return (int)(unsigned int)(unsigned long long)(a * b);
}
EMU_INLINE unsigned int __umul24(unsigned int x, unsigned int y) { return (x & 0xffffffu) * (y & 0xffffffu); }
EMU_INLINE int __mulhi(int x, int y) { return (int)(((long long)x * y) >> 32); }
EMU_INLINE unsigned int __umulhi(unsigned int x, unsigned int y) { return (unsigned int)(((unsigned long long)x * y) >> 32); }
EMU_INLINE long long __mul64hi(long long x, long long y) { return (long long)(((__int128)x * y) >> 64); }
EMU_INLINE unsigned long long __umul64hi(unsigned long long x, unsigned long long y)
{
    return (unsigned long long)(((unsigned __int128)x * y) >> 64);
}
EMU_INLINE int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
EMU_INLINE int __clzll(long long x) { return x ? __builtin_clzll((unsigned long long)x) : 64; }
EMU_INLINE int __ffsll(long long x) { return __builtin_ffsll(x); }
EMU_INLINE unsigned int __brev(unsigned int x) { return __builtin_bitreverse32(x); }
EMU_INLINE unsigned long long __brevll(unsigned long long x) { return __builtin_bitreverse64(x); }
EMU_INLINE unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s)
{
    unsigned long long both = (unsigned long long)y << 32 | x;
    unsigned int out = 0;
    for (int i = 0; i < 4; i++)
        out |= (unsigned int)(both >> (8 * ((s >> (4 * i)) & 7)) & 0xff) << (8 * i);
    return out;
}
EMU_INLINE unsigned int __funnelshift_l(unsigned int lo, unsigned int hi, unsigned int shift)
{
    return (unsigned int)((((unsigned long long)hi << 32 | lo) << (shift & 31)) >> 32);
}
EMU_INLINE unsigned int __funnelshift_lc(unsigned int lo, unsigned int hi, unsigned int shift)
{
    return (unsigned int)((((unsigned long long)hi << 32 | lo) << (shift < 32 ? shift : 32)) >> 32);
}
EMU_INLINE unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int shift)
{
    return (unsigned int)(((unsigned long long)hi << 32 | lo) >> (shift & 31));
}
EMU_INLINE unsigned int __funnelshift_rc(unsigned int lo, unsigned int hi, unsigned int shift)
{
    return (unsigned int)(((unsigned long long)hi << 32 | lo) >> (shift < 32 ? shift : 32));
}
EMU_INLINE int __hadd(int x, int y) { return (int)(((long long)x + y) >> 1); }
EMU_INLINE int __rhadd(int x, int y) { return (int)(((long long)x + y + 1) >> 1); }
EMU_INLINE unsigned int __uhadd(unsigned int x, unsigned int y) { return (unsigned int)(((unsigned long long)x + y) >> 1); }
EMU_INLINE unsigned int __urhadd(unsigned int x, unsigned int y)
{
    return (unsigned int)(((unsigned long long)x + y + 1) >> 1);
}
EMU_INLINE unsigned int __sad(int x, int y, unsigned int z) { return z + (unsigned int)(x > y ? x - y : y - x); }
EMU_INLINE unsigned int __usad(unsigned int x, unsigned int y, unsigned int z) { return z + (x > y ? x - y : y - x); }

/* min and max under CUDA's other names */
EMU_INLINE unsigned int umin(unsigned int a, unsigned int b) { return b < a ? b : a; }
EMU_INLINE unsigned int umax(unsigned int a, unsigned int b) { return a < b ? b : a; }
EMU_INLINE long long llmin(long long a, long long b) { return b < a ? b : a; }
EMU_INLINE long long llmax(long long a, long long b) { return a < b ? b : a; }
EMU_INLINE unsigned long long ullmin(unsigned long long a, unsigned long long b) { return b < a ? b : a; }
EMU_INLINE unsigned long long ullmax(unsigned long long a, unsigned long long b) { return a < b ? b : a; }

/* Floating-point intrinsics: the fast ones as the ordinary functions (what the C library has as
 * macros: glibc declares __expf, __sinf, ... but does not export them), the correctly rounded _rn ones as IEEE
 * arithmetic (the host's rounding mode is to nearest), conversions. */
#define __exp10f(x) exp10f(x)
/* glibc declares these names but does not export them: the ordinary functions (the GPU's are
 * less accurate: a file that depends on their error behaves otherwise there) */
#define __sinf(x) sinf(x)
#define __cosf(x) cosf(x)
#define __tanf(x) tanf(x)
#define __expf(x) expf(x)
#define __logf(x) logf(x)
#define __log2f(x) log2f(x)
#define __log10f(x) log10f(x)
#define __powf(x, y) powf(x, y)
#define __sincosf(x, s, c) sincosf(x, s, c)
EMU_INLINE float __frcp_rn(float x) { return 1.0f / x; }
EMU_INLINE float __fsqrt_rn(float x) { return sqrtf(x); }
EMU_INLINE float __frsqrt_rn(float x) { return 1.0f / sqrtf(x); }
EMU_INLINE float __fadd_rn(float a, float b) { return a + b; }
EMU_INLINE float __fsub_rn(float a, float b) { return a - b; }
EMU_INLINE float __fmul_rn(float a, float b) { return a * b; }
EMU_INLINE float __fdiv_rn(float a, float b) { return a / b; }
EMU_INLINE double __dadd_rn(double a, double b) { return a + b; }
EMU_INLINE double __dsub_rn(double a, double b) { return a - b; }
EMU_INLINE double __dmul_rn(double a, double b) { return a * b; }
EMU_INLINE double __ddiv_rn(double a, double b) { return a / b; }
EMU_INLINE double __dsqrt_rn(double x) { return sqrt(x); }
EMU_INLINE double __fma_rn(double a, double b, double c) { return fma(a, b, c); }
EMU_INLINE float fdividef(float x, float y) { return x / y; }
EMU_INLINE double rsqrt(double x) { return 1.0 / sqrt(x); }
EMU_INLINE float rcbrtf(float x) { return 1.0f / cbrtf(x); }
EMU_INLINE double rcbrt(double x) { return 1.0 / cbrt(x); }
EMU_INLINE float normcdff(float x) { return 0.5f * erfcf(-x * 0.70710678118654752f); }
EMU_INLINE double normcdf(double x) { return 0.5 * erfc(-x * 0.70710678118654752440); }
EMU_INLINE float sinpif(float x) { return sinf(3.14159265358979323846f * x); }
EMU_INLINE float cospif(float x) { return cosf(3.14159265358979323846f * x); }
EMU_INLINE double sinpi(double x) { return sin(3.14159265358979323846 * x); }
EMU_INLINE double cospi(double x) { return cos(3.14159265358979323846 * x); }
EMU_INLINE int __float2int_rn(float x) { return (int)rintf(x); }
EMU_INLINE int __float2int_rz(float x) { return (int)x; }
EMU_INLINE int __float2int_rd(float x) { return (int)floorf(x); }
EMU_INLINE int __float2int_ru(float x) { return (int)ceilf(x); }
EMU_INLINE unsigned int __float2uint_rn(float x) { return (unsigned int)rintf(x); }
EMU_INLINE unsigned int __float2uint_rz(float x) { return (unsigned int)x; }
EMU_INLINE long long __float2ll_rn(float x) { return (long long)rintf(x); }
EMU_INLINE long long __float2ll_rz(float x) { return (long long)x; }
EMU_INLINE float __int2float_rn(int x) { return (float)x; }
EMU_INLINE float __uint2float_rn(unsigned int x) { return (float)x; }
EMU_INLINE float __ll2float_rn(long long x) { return (float)x; }
EMU_INLINE float __double2float_rn(double x) { return (float)x; }
EMU_INLINE int __double2int_rn(double x) { return (int)rint(x); }
EMU_INLINE int __double2int_rz(double x) { return (int)x; }
EMU_INLINE double __int2double_rn(int x) { return (double)x; }
EMU_INLINE int __double2hiint(double x) { return (int)(emu_bits_as<long long>(x) >> 32); }
EMU_INLINE int __double2loint(double x) { return (int)emu_bits_as<long long>(x); }
EMU_INLINE double __hiloint2double(int hi, int lo)
{
    return emu_bits_as<double>((long long)((unsigned long long)(unsigned int)hi << 32 | (unsigned int)lo));
}

/* The SM's clock: a counter that grows (here the host's nanoseconds). */
EMU_INLINE long long clock64(void) { return emu_clock64(); }
EMU_INLINE void __nanosleep(unsigned int ns) { (void)ns; }

/* Atomics: the runtime does the read-modify-write (uninstrumented), after
 * treating it as a warp-level access (so it is checked and ordered by lane). */
extern "C" {
int emu_atomic_i32(int op, int *a, int v, int cmp);
unsigned int emu_atomic_u32(int op, unsigned int *a, unsigned int v, unsigned int cmp);
unsigned long long emu_atomic_u64(int op, unsigned long long *a, unsigned long long v, unsigned long long cmp);
float emu_atomic_f32(int op, float *a, float v);
double emu_atomic_f64(int op, double *a, double v);
}
EMU_INLINE int atomicAdd(int *a, int v) { return emu_atomic_i32(EMU_AT_ADD, a, v, 0); }
EMU_INLINE unsigned int atomicAdd(unsigned int *a, unsigned int v) { return emu_atomic_u32(EMU_AT_ADD, a, v, 0); }
EMU_INLINE unsigned long long atomicAdd(unsigned long long *a, unsigned long long v)
{
    return emu_atomic_u64(EMU_AT_ADD, a, v, 0);
}
EMU_INLINE float atomicAdd(float *a, float v) { return emu_atomic_f32(EMU_AT_ADD, a, v); }
EMU_INLINE double atomicAdd(double *a, double v) { return emu_atomic_f64(EMU_AT_ADD, a, v); }
EMU_INLINE int atomicSub(int *a, int v) { return emu_atomic_i32(EMU_AT_SUB, a, v, 0); }
EMU_INLINE unsigned int atomicSub(unsigned int *a, unsigned int v) { return emu_atomic_u32(EMU_AT_SUB, a, v, 0); }
EMU_INLINE int atomicExch(int *a, int v) { return emu_atomic_i32(EMU_AT_EXCH, a, v, 0); }
EMU_INLINE unsigned int atomicExch(unsigned int *a, unsigned int v) { return emu_atomic_u32(EMU_AT_EXCH, a, v, 0); }
EMU_INLINE unsigned long long atomicExch(unsigned long long *a, unsigned long long v)
{
    return emu_atomic_u64(EMU_AT_EXCH, a, v, 0);
}
EMU_INLINE float atomicExch(float *a, float v) { return emu_atomic_f32(EMU_AT_EXCH, a, v); }
EMU_INLINE int atomicMin(int *a, int v) { return emu_atomic_i32(EMU_AT_MIN, a, v, 0); }
EMU_INLINE unsigned int atomicMin(unsigned int *a, unsigned int v) { return emu_atomic_u32(EMU_AT_MIN, a, v, 0); }
EMU_INLINE int atomicMax(int *a, int v) { return emu_atomic_i32(EMU_AT_MAX, a, v, 0); }
EMU_INLINE unsigned int atomicMax(unsigned int *a, unsigned int v) { return emu_atomic_u32(EMU_AT_MAX, a, v, 0); }
EMU_INLINE int atomicAnd(int *a, int v) { return emu_atomic_i32(EMU_AT_AND, a, v, 0); }
EMU_INLINE unsigned int atomicAnd(unsigned int *a, unsigned int v) { return emu_atomic_u32(EMU_AT_AND, a, v, 0); }
EMU_INLINE int atomicOr(int *a, int v) { return emu_atomic_i32(EMU_AT_OR, a, v, 0); }
EMU_INLINE unsigned int atomicOr(unsigned int *a, unsigned int v) { return emu_atomic_u32(EMU_AT_OR, a, v, 0); }
EMU_INLINE int atomicXor(int *a, int v) { return emu_atomic_i32(EMU_AT_XOR, a, v, 0); }
EMU_INLINE unsigned int atomicXor(unsigned int *a, unsigned int v) { return emu_atomic_u32(EMU_AT_XOR, a, v, 0); }
EMU_INLINE int atomicCAS(int *a, int cmp, int v)
{
    emu_atomic_cas_next();
    return emu_atomic_i32(EMU_AT_CAS, a, v, cmp);
}
EMU_INLINE unsigned int atomicCAS(unsigned int *a, unsigned int cmp, unsigned int v)
{
    emu_atomic_cas_next();
    return emu_atomic_u32(EMU_AT_CAS, a, v, cmp);
}
EMU_INLINE unsigned long long atomicCAS(unsigned long long *a, unsigned long long cmp, unsigned long long v)
{
    emu_atomic_cas_next();
    return emu_atomic_u64(EMU_AT_CAS, a, v, cmp);
}
EMU_INLINE unsigned int atomicInc(unsigned int *a, unsigned int v) { return emu_atomic_u32(EMU_AT_INC, a, v, 0); }
EMU_INLINE unsigned int atomicDec(unsigned int *a, unsigned int v) { return emu_atomic_u32(EMU_AT_DEC, a, v, 0); }
/* the 64-bit ones (compute capability 3.5 on) */
#define EMU_ATOMIC64(NAME, OP)                                                                              \
    EMU_INLINE unsigned long long NAME(unsigned long long *a, unsigned long long v)                          \
    {                                                                                                       \
        return emu_atomic_u64(OP, a, v, 0);                                                                 \
    }
EMU_ATOMIC64(atomicMin, EMU_AT_MIN)
EMU_ATOMIC64(atomicMax, EMU_AT_MAX)
EMU_ATOMIC64(atomicAnd, EMU_AT_AND)
EMU_ATOMIC64(atomicOr, EMU_AT_OR)
EMU_ATOMIC64(atomicXor, EMU_AT_XOR)
#undef EMU_ATOMIC64
EMU_INLINE long long atomicMin(long long *a, long long v) { return emu_atomic_i64(EMU_AT_MIN, a, v, 0); }
EMU_INLINE long long atomicMax(long long *a, long long v) { return emu_atomic_i64(EMU_AT_MAX, a, v, 0); }
/* The scoped forms (_block: the block's threads, _system: the host's too) are the same atomics here,
 * where one device and one thread at a time run. */
#define EMU_ATOMIC_SCOPES(NAME)                                                                             \
    template <typename... A>                                                                                \
    EMU_INLINE auto NAME##_block(A... a)->decltype(NAME(a...))                                              \
    {                                                                                                       \
        return NAME(a...);                                                                                  \
    }                                                                                                       \
    template <typename... A>                                                                                \
    EMU_INLINE auto NAME##_system(A... a)->decltype(NAME(a...))                                             \
    {                                                                                                       \
        return NAME(a...);                                                                                  \
    }
EMU_ATOMIC_SCOPES(atomicAdd)
EMU_ATOMIC_SCOPES(atomicSub)
EMU_ATOMIC_SCOPES(atomicExch)
EMU_ATOMIC_SCOPES(atomicMin)
EMU_ATOMIC_SCOPES(atomicMax)
EMU_ATOMIC_SCOPES(atomicAnd)
EMU_ATOMIC_SCOPES(atomicOr)
EMU_ATOMIC_SCOPES(atomicXor)
EMU_ATOMIC_SCOPES(atomicCAS)
EMU_ATOMIC_SCOPES(atomicInc)
EMU_ATOMIC_SCOPES(atomicDec)
#undef EMU_ATOMIC_SCOPES

/* ---- launches ---- */

EMU_INLINE cudaStream_t emu_stream(cudaStream_t s) { return s; }
EMU_INLINE cudaStream_t emu_stream(long s) { return (cudaStream_t)(intptr_t)s; }

template <typename F, typename... A>
struct emu_closure {
    emu_launch_args described; /* first: the runtime reads it at the closure's address */
    F fn;
    std::tuple<A...> args;
};

/* The bytes of what an argument of type T points to (void: 1), 0 when it is no data pointer. */
template <typename T>
constexpr unsigned int emu_pointee_bytes()
{
    if constexpr (std::is_pointer<T>::value) {
        typedef typename std::remove_cv<typename std::remove_pointer<T>::type>::type P;
        if constexpr (std::is_void<P>::value)
            return 1;
        else if constexpr (std::is_object<P>::value)
            return (unsigned int)sizeof(P);
    }
    return 0;
}
template <size_t I, typename C>
static inline void emu_describe_arg(C *c)
{
    if constexpr (I < EMU_ARGS_MAX) {
        c->described.offset[I] = (unsigned int)((char *)&std::get<I>(c->args) - (char *)c);
        c->described.elem[I] = emu_pointee_bytes<typename std::tuple_element<I, decltype(c->args)>::type>();
    }
}
template <typename C, size_t... I>
static inline void emu_describe_args(C *c, std::index_sequence<I...>)
{
    c->described.magic = EMU_ARGS_MAGIC;
    c->described.count = (unsigned int)sizeof...(I);
    (emu_describe_arg<I>(c), ...);
}

/* Runs in every emulated thread: calls the kernel with copies of the arguments (the closure is
 * emulator memory, whose accesses the runtime's hooks ignore). */
template <typename C>
EMU_DEVICE_FN static void emu_thunk(void *p)
{
    C *c = static_cast<C *>(p);
    std::apply(c->fn, c->args);
}
template <typename C>
static void emu_destroy(void *p)
{
    static_cast<C *>(p)->~C();
}

/* kernel<<<grid, block, shmem, stream>>>(args...) becomes
 * emu_launch("kernel", grid, block, shmem, stream, [](auto... a) { kernel(a...); }, args...):
 * the arguments are evaluated once, on the launching side, and copied; the
 * name (as written at the launch) is for the emulator's messages. */
template <typename S, typename F, typename... A>
static inline cudaError_t emu_launch(const char *name, dim3 grid, dim3 block, size_t shmem, S stream, F fn,
                                     A... args)
{
    typedef emu_closure<F, A...> C;
    void *mem = emu_closure_alloc(sizeof(C));
    if (!mem)
        return cudaErrorLaunchPendingCountExceeded;
    C *c = new (mem) C{emu_launch_args(), fn, std::tuple<A...>(args...)};
    emu_describe_args(c, std::index_sequence_for<A...>());
    if (name)
        emu_launch_name(name);
    return emu_launch_raw(grid, block, shmem, emu_stream(stream), &emu_thunk<C>, &emu_destroy<C>, c);
}

/* cudaLaunchKernel and cudaLaunchCooperativeKernel: the arguments from the array of pointers to
 * them, as the kernel's parameter types say (the pointer is called in device code, where the
 * runtime checks that it is a kernel's). A kernel passed as (void *) is found by its address
 * among the file's kernels (emu/rewrite writes an entry after every kernel that is not a template,
 * in the section emu_kernels: emu_launch_by_address). */
template <typename... P, size_t... I>
static inline cudaError_t emu_launch_unpacked(void (*f)(P...), dim3 grid, dim3 block, void **args, size_t shmem,
                                              cudaStream_t stream, int cooperative, std::index_sequence<I...>)
{
    if (!f || (sizeof...(P) > 0 && !args))
        return cudaErrorInvalidValue;
    if (cooperative) {
        cudaError_t e = emu_launch_cooperative(grid, block, shmem);
        if (e != cudaSuccess)
            return e;
    }
    cudaError_t e = emu_launch(
        emu_kernel_name((const void *)f), grid, block, shmem, stream,
        [f](auto... emu_a_) __attribute__((noinline)) EMU_DEVICE_FN { f(emu_a_...); },
        *static_cast<typename std::remove_cv<typename std::remove_reference<P>::type>::type *>(args[I])...);
    if (cooperative)
        emu_launch_cooperative_end();
    return e;
}
template <typename... P>
static cudaError_t emu_kernel_launcher(const void *kernel, dim3 grid, dim3 block, void **args, size_t shmem,
                                       cudaStream_t stream, int cooperative)
{
    return emu_launch_unpacked((void (*)(P...))kernel, grid, block, args, shmem, stream, cooperative,
                               std::index_sequence_for<P...>());
}
template <typename... P>
constexpr emu_kernel_launch_fn emu_launcher_of(void (*)(P...))
{
    return &emu_kernel_launcher<P...>;
}
/* emu/rewrite's entry after a kernel's definition */
#define EMU_KERNEL_ENTRY(name)                                                                              \
    __attribute__((section("emu_kernels"), used)) static const emu_kernel_entry emu_kernel_entry_##name = {     \
        (const void *)&name, emu_launcher_of(&name), #name};
template <typename... P>
static inline cudaError_t cudaLaunchKernel(void (*f)(P...), dim3 grid, dim3 block, void **args, size_t shmem = 0,
                                           cudaStream_t stream = 0)
{
    return emu_launch_unpacked(f, grid, block, args, shmem, stream, 0, std::index_sequence_for<P...>());
}
static inline cudaError_t cudaLaunchKernel(const void *f, dim3 grid, dim3 block, void **args, size_t shmem = 0,
                                           cudaStream_t stream = 0)
{
    return emu_launch_by_address(f, grid, block, args, shmem, stream, 0);
}
template <typename... P>
static inline cudaError_t cudaLaunchCooperativeKernel(void (*f)(P...), dim3 grid, dim3 block, void **args,
                                                      size_t shmem = 0, cudaStream_t stream = 0)
{
    return emu_launch_unpacked(f, grid, block, args, shmem, stream, 1, std::index_sequence_for<P...>());
}
static inline cudaError_t cudaLaunchCooperativeKernel(const void *f, dim3 grid, dim3 block, void **args,
                                                      size_t shmem = 0, cudaStream_t stream = 0)
{
    return emu_launch_by_address(f, grid, block, args, shmem, stream, 1);
}
/* CUDA's C++ overload of cudaEventCreate with flags */
static inline cudaError_t cudaEventCreate(cudaEvent_t *event, unsigned int flags)
{
    return cudaEventCreateWithFlags(event, flags);
}

template <typename T>
static inline cudaError_t cudaFuncSetAttribute(T *func, cudaFuncAttribute attr, int value)
{
    return cudaFuncSetAttributeRaw((const void *)func, attr, value);
}
template <typename T>
static inline cudaError_t cudaFuncSetCacheConfig(T *func, enum cudaFuncCache config)
{
    return cudaFuncSetCacheConfigRaw((const void *)func, config);
}

/* nvcc's runtime header has these typed overloads: cudaMalloc(&float_ptr, bytes) and the like,
 * without a cast to void **. */
template <typename T> static inline cudaError_t cudaMalloc(T **ptr, size_t bytes)
{
    return cudaMalloc((void **)ptr, bytes);
}
template <typename T> static inline cudaError_t cudaMallocHost(T **ptr, size_t bytes)
{
    return cudaMallocHost((void **)ptr, bytes);
}
template <typename T> static inline cudaError_t cudaMallocHost(T **ptr, size_t bytes, unsigned int flags)
{
    return cudaHostAlloc((void **)ptr, bytes, flags);
}
template <typename T> static inline cudaError_t cudaHostAlloc(T **ptr, size_t bytes, unsigned int flags)
{
    return cudaHostAlloc((void **)ptr, bytes, flags);
}
template <typename T>
static inline cudaError_t cudaMallocManaged(T **ptr, size_t bytes, unsigned int flags = cudaMemAttachGlobal)
{
    return cudaMallocManaged((void **)ptr, bytes, flags);
}

template <typename T>
static inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, T func, int block_size,
                                                                        size_t dynamic_shared)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(blocks, (const void *)func, block_size,
                                                                  dynamic_shared, 0);
}
template <typename T>
static inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *blocks, T func, int block_size,
                                                                                 size_t dynamic_shared,
                                                                                 unsigned int flags)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(blocks, (const void *)func, block_size,
                                                                  dynamic_shared, flags);
}
template <typename T>
static inline cudaError_t cudaOccupancyMaxPotentialBlockSize(int *min_grid, int *block_size, T func,
                                                             size_t dynamic_shared = 0, int block_size_limit = 0)
{
    return cudaOccupancyMaxPotentialBlockSizeRaw(min_grid, block_size, (const void *)func, dynamic_shared,
                                                 block_size_limit);
}
template <typename T>
static inline cudaError_t cudaMemcpyToSymbol(T &symbol, const void *src, size_t count, size_t offset = 0,
                                             cudaMemcpyKind kind = cudaMemcpyHostToDevice)
{
    (void)kind;
    if (offset + count > sizeof(T))
        return cudaErrorInvalidValue;
    return emu_memcpy_to_symbol((char *)&symbol + offset, src, count);
}
template <typename T>
static inline cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count, size_t offset = 0,
                                               cudaMemcpyKind kind = cudaMemcpyDeviceToHost)
{
    (void)kind;
    if (offset + count > sizeof(T))
        return cudaErrorInvalidValue;
    return emu_memcpy_from_symbol(dst, (const char *)&symbol + offset, count);
}

/* cudaDeviceSynchronize() in device code: emu/rewrite renames it to one of these (see there). */
#define EMU_DEVICE_SYNC_WHY                                                                                 \
    "cudaDeviceSynchronize() in device code: a kernel cannot wait for the grids it launched. CUDA 12 "      \
    "removed device-side cudaDeviceSynchronize() (dynamic parallelism 2) and nvcc 13 rejects it for sm_90 " \
    "(\"identifier cudaDeviceSynchronize is undefined in device code\"). Launch the work that needs the "   \
    "child grids' results as a kernel of its own into cudaStreamTailLaunch: it starts when the launching "  \
    "grid and its children are done"
cudaError_t emu_device_cudaDeviceSynchronize(void) __attribute__((unavailable(EMU_DEVICE_SYNC_WHY)));
__attribute__((deprecated(EMU_DEVICE_SYNC_WHY " (nvcc: a warning in a __host__ __device__ function)")))
EMU_INLINE cudaError_t emu_hostdevice_cudaDeviceSynchronize(void) { return cudaDeviceSynchronize(); }
#undef EMU_DEVICE_SYNC_WHY

/* emu/rewrite's dynamic shared buffer names itself through EMU_DYNAMIC_NAME, defined before the
 * lab's poison below. */
#define EMU_DYNAMIC_NAME(name) __asm__(name)
#ifdef EMU_LAB_BUILD
/* A lab build (emucc --lab, which tools/lab-policy asks for): below this line, in the lab file, no
 * code without the load/store hooks (an attribute that turns them off), no inline assembly (its
 * accesses would not be seen either; PTX would not compile for the CPU anyway) and no launch but
 * through <<<>>>. Every header a lab file may include is included above, or uses none of these
 * words (a header it may not include, <iostream> say, is refused by the policy anyway). Other
 * programs have CUDA's rules only: device code is checked on the compiled code
 * (emu/device_check.awk), where inline assembly and functions without the hooks are refused. */
#pragma GCC poison no_sanitize __no_sanitize__ no_sanitize_coverage __no_sanitize_coverage__ no_sanitize_thread __no_sanitize_thread__
#pragma GCC poison disable_sanitizer_instrumentation __disable_sanitizer_instrumentation__ no_instrument_function
#pragma GCC poison asm __asm__ __asm
/* A grid starts only through emu_launch, in emu_thunk, which is device code and checked as such
 * at build time: a launch of the lab file's own making (a thunk that runs host code) is no CUDA. */
#pragma GCC poison emu_launch_raw emu_thunk
#endif

#endif /* __cplusplus */
#endif /* EMU_CUDA_RUNTIME_H */
