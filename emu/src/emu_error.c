/* The error state of the emulator: the host's last error (cudaGetLastError),
 * the sticky error of a failed kernel (every later call returns it, as on a
 * GPU), the message cudaGetErrorString gives for it, and the last error of the
 * device side (cudaGetLastError in a kernel). It depends on no other unit, so
 * memory, launches and the API can all report errors through it. */
#include "emu_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

char emu_error_message[4096];
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

void emu_host_error(cudaError_t code, const char *fmt, ...)
{
    if (emu_cur) /* a host call's error met in a kernel on two cores: said by the run on one */
        emu_parallel_bail_lane(emu_cur, 0);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(emu_error_message, sizeof emu_error_message, fmt, ap);
    va_end(ap);
    fprintf(stderr, "emu: %s\n", emu_error_message);
    emu_set_error(code, 0, emu_error_message);
}

void emu_error_reset(void)
{
    sticky_error = cudaSuccess;
    last_error = cudaSuccess;
    message_error = cudaSuccess;
    sticky_seen = 0;
    emu_error_message[0] = 0;
}

/* ---- the device side ---- */

static int device_side;          /* a grid is running: runtime calls come from its threads */
static cudaError_t device_error; /* what a device-side cudaGetLastError returns */

void emu_error_device_side(int on) { device_side = on; }
int emu_in_kernel(void) { return device_side; }
void emu_device_set_error(cudaError_t code) { device_error = code; }

cudaError_t emu_device_last_error(int clear)
{
    cudaError_t e = device_error;
    if (clear)
        device_error = cudaSuccess;
    return e;
}

/* ---- the runtime API of errors ---- */

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

const char *cudaGetErrorName(cudaError_t error)
{
    switch (error) {
#define N(e) case e: return #e;
        N(cudaSuccess) N(cudaErrorInvalidValue) N(cudaErrorMemoryAllocation) N(cudaErrorInitializationError)
        N(cudaErrorInvalidConfiguration) N(cudaErrorInvalidSymbol) N(cudaErrorInvalidDevicePointer)
        N(cudaErrorInvalidMemcpyDirection) N(cudaErrorLaunchMaxDepthExceeded) N(cudaErrorLaunchPendingCountExceeded)
        N(cudaErrorInvalidDeviceFunction) N(cudaErrorNoDevice) N(cudaErrorInvalidDevice)
        N(cudaErrorInvalidResourceHandle) N(cudaErrorNotReady) N(cudaErrorIllegalAddress)
        N(cudaErrorLaunchOutOfResources) N(cudaErrorLaunchTimeout) N(cudaErrorAssert) N(cudaErrorMisalignedAddress)
        N(cudaErrorLaunchFailure) N(cudaErrorHostMemoryAlreadyRegistered) N(cudaErrorHostMemoryNotRegistered)
        N(cudaErrorCooperativeLaunchTooLarge) N(cudaErrorNotSupported) N(cudaErrorUnknown)
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
    case cudaErrorHostMemoryAlreadyRegistered: return "part or all of the requested memory range is already mapped";
    case cudaErrorHostMemoryNotRegistered: return "pointer does not correspond to a registered memory region";
    case cudaErrorMisalignedAddress: return "misaligned address";
    case cudaErrorLaunchFailure: return "unspecified launch failure";
    case cudaErrorCooperativeLaunchTooLarge: return "too many blocks in cooperative launch";
    case cudaErrorNotSupported: return "operation not supported";
    case cudaErrorUnknown: return "unknown error";
    }
    return "unknown error";
}

