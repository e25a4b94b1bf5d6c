/* Host API of the emulator that is not memory, launches or errors: events,
 * streams, device properties, cudaDeviceSynchronize/Reset. Everything runs synchronously: a launch has
 * finished when emu_launch_raw returns, so events simply read the clock. */
#define _POSIX_C_SOURCE 200809L
#include "emu_internal.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

cudaError_t cudaDeviceSynchronize(void) { return emu_sticky_error(); }

/* As on a GPU, a reset ends the context: the sticky error goes, and so does device memory. */
cudaError_t cudaDeviceReset(void)
{
    emu_error_reset();
    emu_mem_reset();
    return cudaSuccess;
}

/* ---- events and streams ---- */

struct CUevent_st {
    double ms;
    int recorded;
};

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

cudaError_t cudaEventCreate(cudaEvent_t *event)
{
    if (!event)
        return cudaErrorInvalidValue;
    *event = calloc(1, sizeof **event);
    return *event ? cudaSuccess : cudaErrorMemoryAllocation;
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{
    (void)flags;
    return cudaEventCreate(event);
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
    (void)stream;
    if (!event)
        return cudaErrorInvalidResourceHandle;
    event->ms = now_ms();
    event->recorded = 1;
    return emu_sticky_error();
}

cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
    if (!event)
        return cudaErrorInvalidResourceHandle;
    return emu_sticky_error();
}

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    if (!ms || !start || !end)
        return cudaErrorInvalidResourceHandle;
    if (!start->recorded || !end->recorded)
        return cudaErrorInvalidResourceHandle;
    *ms = (float)(end->ms - start->ms);
    return emu_sticky_error();
}

cudaError_t cudaEventDestroy(cudaEvent_t event)
{
    free(event);
    return cudaSuccess;
}

/* What an event or a stream waits for is done when its call returns. */
cudaError_t cudaEventQuery(cudaEvent_t event)
{
    if (!event)
        return cudaErrorInvalidResourceHandle;
    return emu_sticky_error();
}

cudaError_t cudaStreamQuery(cudaStream_t stream)
{
    (void)stream;
    return emu_sticky_error();
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
    (void)stream;
    (void)flags;
    return event ? emu_sticky_error() : cudaErrorInvalidResourceHandle;
}

/* A host function in a stream runs when the work before it is done: now. */
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *user_data)
{
    (void)stream;
    if (!fn)
        return cudaErrorInvalidValue;
    if (emu_sticky_error())
        return emu_sticky_error();
    fn(user_data);
    return cudaSuccess;
}

struct CUstream_st {
    int unused;
};

cudaError_t cudaStreamCreate(cudaStream_t *stream)
{
    if (!stream)
        return cudaErrorInvalidValue;
    *stream = calloc(1, sizeof **stream);
    return *stream ? cudaSuccess : cudaErrorMemoryAllocation;
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags)
{
    (void)flags;
    return cudaStreamCreate(stream);
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
    (void)stream;
    return emu_sticky_error();
}

cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    if ((uintptr_t)stream > 16)
        free(stream);
    return cudaSuccess;
}

/* ---- the device ---- */

/* The device the emulator is, to the program: an NVIDIA H100 SXM5 (80 GB HBM3), with the figures
 * its runtime reports (this kit's H100 runs, docs/results/h100-2026-11-24-sanity.md: 132 SMs, SM
 * clock 1980 MHz, HBM3 at 2619 MHz on a 5120-bit bus, 81559 MiB; 50 MB of L2, 228 KiB of shared
 * memory per SM, 227 KiB of it for one block), so that a launch function sizes its grid as on that
 * GPU (lab_sm_count()), and nothing it asks tells it that it runs on a CPU. The harness knows the
 * backend without asking the device (LAB_BACKEND). */
#define EMU_DEVICE_NAME "NVIDIA H100 80GB HBM3"
enum { SMS = 132, CC_MAJOR = EMU_DEVICE_CC / 10, CC_MINOR = EMU_DEVICE_CC % 10, MEM_KHZ = 2619000, BUS_BITS = 5120, SM_KHZ = 1980000,
       L2_BYTES = 50 << 20 };

cudaError_t cudaGetDeviceCount(int *count)
{
    if (!count)
        return cudaErrorInvalidValue;
    *count = 1;
    return cudaSuccess;
}

cudaError_t cudaGetDevice(int *device)
{
    if (!device)
        return cudaErrorInvalidValue;
    *device = 0;
    return cudaSuccess;
}

cudaError_t cudaSetDevice(int device) { return device == 0 ? cudaSuccess : cudaErrorInvalidDevice; }

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
    if (!prop)
        return cudaErrorInvalidValue;
    if (device != 0)
        return cudaErrorInvalidDevice;
    memset(prop, 0, sizeof *prop);
    snprintf(prop->name, sizeof prop->name, "%s", EMU_DEVICE_NAME);
    prop->totalGlobalMem = (size_t)81559 << 20;
    prop->sharedMemPerBlock = 48 << 10;
    prop->regsPerBlock = 65536;
    prop->warpSize = 32;
    prop->maxThreadsPerBlock = 1024;
    prop->maxThreadsDim[0] = 1024;
    prop->maxThreadsDim[1] = 1024;
    prop->maxThreadsDim[2] = 64;
    prop->maxGridSize[0] = 2147483647;
    prop->maxGridSize[1] = 65535;
    prop->maxGridSize[2] = 65535;
    prop->clockRate = SM_KHZ;
    prop->totalConstMem = 64 << 10;
    prop->major = CC_MAJOR;
    prop->minor = CC_MINOR;
    prop->multiProcessorCount = SMS;
    prop->memoryClockRate = MEM_KHZ;
    prop->memoryBusWidth = BUS_BITS;
    prop->l2CacheSize = L2_BYTES;
    prop->maxThreadsPerMultiProcessor = 2048;
    prop->sharedMemPerMultiprocessor = 228 << 10;
    prop->sharedMemPerBlockOptin = 227 << 10;
    prop->regsPerMultiprocessor = 65536;
    prop->maxBlocksPerMultiProcessor = 32;
    prop->canMapHostMemory = 1;
    prop->unifiedAddressing = 1;
    prop->managedMemory = 1;
    prop->concurrentManagedAccess = 1;
    prop->cooperativeLaunch = 1;
    prop->concurrentKernels = 1;
    prop->asyncEngineCount = 3;
    prop->ECCEnabled = 1;
    prop->memPitch = 2147483647;
    prop->textureAlignment = 512;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int device)
{
    struct cudaDeviceProp p;
    if (!value)
        return cudaErrorInvalidValue;
    if (cudaGetDeviceProperties(&p, device) != cudaSuccess)
        return cudaErrorInvalidDevice;
    switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: *value = p.maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: *value = p.maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: *value = p.maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: *value = p.maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: *value = p.maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: *value = p.maxGridSize[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = (int)p.sharedMemPerBlock; break;
    case cudaDevAttrTotalConstantMemory: *value = (int)p.totalConstMem; break;
    case cudaDevAttrWarpSize: *value = 32; break;
    case cudaDevAttrClockRate: *value = p.clockRate; break;
    case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
    case cudaDevAttrMemoryClockRate: *value = p.memoryClockRate; break;
    case cudaDevAttrGlobalMemoryBusWidth: *value = p.memoryBusWidth; break;
    case cudaDevAttrL2CacheSize: *value = p.l2CacheSize; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrComputeCapabilityMajor: *value = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: *value = p.minor; break;
    case cudaDevAttrMaxRegistersPerBlock: *value = p.regsPerBlock; break;
    case cudaDevAttrCanMapHostMemory: *value = p.canMapHostMemory; break;
    case cudaDevAttrConcurrentKernels: *value = p.concurrentKernels; break;
    case cudaDevAttrUnifiedAddressing: *value = p.unifiedAddressing; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *value = (int)p.sharedMemPerMultiprocessor; break;
    case cudaDevAttrManagedMemory: *value = p.managedMemory; break;
    case cudaDevAttrConcurrentManagedAccess: *value = p.concurrentManagedAccess; break;
    case cudaDevAttrCooperativeLaunch: *value = p.cooperativeLaunch; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = (int)p.sharedMemPerBlockOptin; break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: *value = p.maxBlocksPerMultiProcessor; break;
    default: return cudaErrorInvalidValue;
    }
    return cudaSuccess;
}

/* ---- small host calls that nvcc's runtime has ---- */

/* Registered host ranges: page-locking means nothing here, but the calls' errors are CUDA's. */
static struct host_range {
    const char *start;
    size_t bytes;
} *registered;
static size_t registered_n, registered_cap;

cudaError_t cudaHostRegister(void *ptr, size_t bytes, unsigned int flags)
{
    if (!ptr || !bytes || (flags & ~0x0fu))
        return cudaErrorInvalidValue;
    struct cudaPointerAttributes a;
    if (cudaPointerGetAttributes(&a, ptr) == cudaSuccess && a.type == cudaMemoryTypeDevice)
        return cudaErrorInvalidValue; /* device memory is not host memory to lock */
    const char *p = ptr;
    for (size_t i = 0; i < registered_n; i++)
        if (p < registered[i].start + registered[i].bytes && registered[i].start < p + bytes)
            return cudaErrorHostMemoryAlreadyRegistered;
    if (registered_n == registered_cap) {
        size_t cap = registered_cap ? 2 * registered_cap : 16;
        struct host_range *r = realloc(registered, cap * sizeof *r);
        if (!r)
            return cudaErrorMemoryAllocation;
        registered = r;
        registered_cap = cap;
    }
    registered[registered_n].start = p;
    registered[registered_n++].bytes = bytes;
    return cudaSuccess;
}

/* p lies in a range cudaHostRegister registered (emu_hostmem.c: it cannot be mapped) */
int emu_host_registered(const void *p);
int emu_host_registered(const void *p)
{
    for (size_t i = 0; i < registered_n; i++)
        if ((const char *)p >= registered[i].start && (const char *)p < registered[i].start + registered[i].bytes)
            return 1;
    return 0;
}

cudaError_t cudaHostUnregister(void *ptr)
{
    for (size_t i = 0; i < registered_n; i++)
        if (registered[i].start == (const char *)ptr) {
            registered[i] = registered[--registered_n];
            return cudaSuccess;
        }
    return cudaErrorHostMemoryNotRegistered;
}

cudaError_t cudaDriverGetVersion(int *version)
{
    if (!version)
        return cudaErrorInvalidValue;
    *version = CUDART_VERSION;
    return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int *version) { return cudaDriverGetVersion(version); }

/* The cache split is a hint on a GPU; here there is no cache to split. */
cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache config)
{
    return config >= cudaFuncCachePreferNone && config <= cudaFuncCachePreferEqual ? cudaSuccess
                                                                                   : cudaErrorInvalidValue;
}

cudaError_t cudaFuncSetCacheConfigRaw(const void *func, enum cudaFuncCache config)
{
    if (!func)
        return cudaErrorInvalidDeviceFunction;
    return cudaDeviceSetCacheConfig(config);
}

cudaError_t cudaProfilerStart(void) { return cudaSuccess; }
cudaError_t cudaProfilerStop(void) { return cudaSuccess; }

/* ---- occupancy: the limits of one SM of the emulated device ---- */

#define MAX_BLOCKS_PER_SM 32

int emu_blocks_per_sm(int block_size, size_t dynamic_shared);
static int blocks_per_sm(const struct cudaDeviceProp *p, int block_size, size_t dynamic_shared);
/* How many blocks of a size fit on one SM at once (a cooperative launch's limit, emu_coop.c). */
int emu_blocks_per_sm(int block_size, size_t dynamic_shared)
{
    struct cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    return blocks_per_sm(&p, block_size, dynamic_shared);
}

static int blocks_per_sm(const struct cudaDeviceProp *p, int block_size, size_t dynamic_shared)
{
    int warps = (block_size + 31) / 32;
    int by_threads = p->maxThreadsPerMultiProcessor / (warps * 32);
    int blocks = by_threads < MAX_BLOCKS_PER_SM ? by_threads : MAX_BLOCKS_PER_SM;
    if (dynamic_shared > 0) {
        size_t by_shared = p->sharedMemPerMultiprocessor / dynamic_shared;
        if (by_shared < (size_t)blocks)
            blocks = (int)by_shared;
    }
    return blocks;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *blocks, const void *func, int block_size,
                                                                   size_t dynamic_shared, unsigned int flags)
{
    struct cudaDeviceProp p;
    (void)flags;
    if (!blocks || block_size <= 0)
        return cudaErrorInvalidValue;
    if (!func)
        return cudaErrorInvalidDeviceFunction;
    cudaGetDeviceProperties(&p, 0);
    if (block_size > p.maxThreadsPerBlock || dynamic_shared > p.sharedMemPerMultiprocessor) {
        *blocks = 0;
        return cudaSuccess;
    }
    *blocks = blocks_per_sm(&p, block_size, dynamic_shared);
    return cudaSuccess;
}

/* The block size (a multiple of 32, at most the limit) that keeps the most threads resident
 * per SM, the larger one on a tie; the grid that fills every SM with it. */
cudaError_t cudaOccupancyMaxPotentialBlockSizeRaw(int *min_grid, int *block_size, const void *func,
                                                  size_t dynamic_shared, int block_size_limit)
{
    struct cudaDeviceProp p;
    if (!min_grid || !block_size || block_size_limit < 0)
        return cudaErrorInvalidValue;
    if (!func)
        return cudaErrorInvalidDeviceFunction;
    cudaGetDeviceProperties(&p, 0);
    int limit = block_size_limit && block_size_limit < p.maxThreadsPerBlock ? block_size_limit : p.maxThreadsPerBlock;
    int best = 0, best_threads = 0, best_blocks = 0;
    for (int b = limit / 32 * 32; b >= 32; b -= 32) {
        int n = blocks_per_sm(&p, b, dynamic_shared);
        if (n * b > best_threads) {
            best = b;
            best_threads = n * b;
            best_blocks = n;
        }
    }
    *block_size = best;
    *min_grid = best_blocks * p.multiProcessorCount;
    return cudaSuccess;
}
