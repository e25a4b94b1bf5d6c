/* Host API of the emulator that is not memory or launches: errors, events,
 * streams, device properties. Everything runs synchronously: a launch has
 * finished when emu_launch_raw returns, so events simply read the clock. */
#define _POSIX_C_SOURCE 200809L
#include "emu_internal.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

char emu_error_message[2400];
static cudaError_t last_error = cudaSuccess;   /* what cudaGetLastError returns (and clears) */
static cudaError_t sticky_error = cudaSuccess; /* a failed kernel: every later call returns it */
static cudaError_t message_error = cudaSuccess; /* the error emu_error_message describes */
static int sticky_seen;                          /* the program has been told about the sticky error */

void emu_set_error(cudaError_t code, int sticky, const char *message)
{
    if (message && message != emu_error_message)
        snprintf(emu_error_message, sizeof emu_error_message, "%s", message);
    if (message)
        message_error = code;
    if (sticky && sticky_error == cudaSuccess)
        sticky_error = code;
    if (last_error == cudaSuccess)
        last_error = code;
}

cudaError_t emu_sticky_error(void)
{
    if (sticky_error != cudaSuccess)
        sticky_seen = 1;
    return sticky_error;
}

/* A program that ignores a failed kernel still must not exit 0. */
__attribute__((destructor)) static void emu_check_unreported(void)
{
    if (sticky_error != cudaSuccess && !sticky_seen) {
        fprintf(stderr, "emu: the program ended without checking a failed kernel: %s\n", emu_error_message);
        fflush(stderr);
        _Exit(70);
    }
}

cudaError_t cudaGetLastError(void)
{
    if (emu_in_kernel())
        return emu_device_last_error(1);
    cudaError_t e = last_error;
    if (sticky_error != cudaSuccess) {
        sticky_seen = 1;
        return sticky_error;
    }
    last_error = cudaSuccess;
    return e;
}

cudaError_t cudaPeekAtLastError(void)
{
    if (emu_in_kernel())
        return emu_device_last_error(0);
    if (sticky_error != cudaSuccess) {
        sticky_seen = 1;
        return sticky_error;
    }
    return last_error;
}

cudaError_t cudaDeviceSynchronize(void) { return emu_sticky_error(); }

/* As on a GPU, a reset ends the context: the sticky error goes, and so does device memory. */
cudaError_t cudaDeviceReset(void)
{
    sticky_error = cudaSuccess;
    last_error = cudaSuccess;
    message_error = cudaSuccess;
    sticky_seen = 0;
    emu_error_message[0] = 0;
    emu_mem_reset();
    return cudaSuccess;
}

const char *cudaGetErrorName(cudaError_t error)
{
    switch (error) {
#define N(e) case e: return #e;
        N(cudaSuccess) N(cudaErrorInvalidValue) N(cudaErrorMemoryAllocation) N(cudaErrorInitializationError)
        N(cudaErrorInvalidConfiguration) N(cudaErrorInvalidSymbol) N(cudaErrorInvalidDevicePointer)
        N(cudaErrorInvalidMemcpyDirection) N(cudaErrorLaunchMaxDepthExceeded) N(cudaErrorLaunchPendingCountExceeded)
        N(cudaErrorInvalidDeviceFunction) N(cudaErrorNoDevice) N(cudaErrorInvalidDevice)
        N(cudaErrorInvalidResourceHandle) N(cudaErrorNotReady) N(cudaErrorIllegalAddress)
        N(cudaErrorLaunchOutOfResources) N(cudaErrorLaunchTimeout) N(cudaErrorAssert) N(cudaErrorLaunchFailure)
        N(cudaErrorUnknown)
#undef N
    }
    return "cudaErrorUnknown";
}

const char *cudaGetErrorString(cudaError_t error)
{
    if (error != cudaSuccess && error == message_error && emu_error_message[0])
        return emu_error_message;
    switch (error) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInitializationError: return "initialization error";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorInvalidSymbol: return "invalid device symbol";
    case cudaErrorInvalidDevicePointer: return "invalid device pointer";
    case cudaErrorInvalidMemcpyDirection: return "invalid copy direction for memcpy";
    case cudaErrorLaunchMaxDepthExceeded: return "launch would exceed maximum depth of nested launches";
    case cudaErrorLaunchPendingCountExceeded: return "launch would exceed the pending launch count";
    case cudaErrorInvalidDeviceFunction: return "invalid device function";
    case cudaErrorNoDevice: return "no CUDA-capable device is detected";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorInvalidResourceHandle: return "invalid resource handle";
    case cudaErrorNotReady: return "device not ready";
    case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
    case cudaErrorLaunchOutOfResources: return "too many resources requested for launch";
    case cudaErrorLaunchTimeout: return "the launch timed out and was terminated";
    case cudaErrorAssert: return "device-side assert triggered";
    case cudaErrorLaunchFailure: return "unspecified launch failure";
    case cudaErrorUnknown: return "unknown error";
    }
    return "unknown error";
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

#define EMU_DEVICE_NAME "CPU emulator (emu)"
enum { SMS = 1, CC_MAJOR = 9, CC_MINOR = 0, MEM_KHZ = 1000000, BUS_BITS = 64, SM_KHZ = 1000000 };

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
    prop->totalGlobalMem = (size_t)16 << 30;
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
    prop->l2CacheSize = 0;
    prop->maxThreadsPerMultiProcessor = 2048;
    prop->sharedMemPerMultiprocessor = 228 << 10;
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
    default: return cudaErrorInvalidValue;
    }
    return cudaSuccess;
}
