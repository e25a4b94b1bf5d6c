/* Calls through a pointer in device code (a function pointer, a virtual function, a launch through
 * a pointer to a kernel): where the pointer leads is known only when the call runs, so emucc makes
 * every such call ask here first (device_check.awk). The answer is the list of the program's device
 * functions, which emucc writes into the section emu_device_fns of each object (the functions
 * device_check.awk checked as device code, each entry its distance from the entry): a pointer to
 * anything else, a host function of the program or the C library's, stops the thread, as a GPU
 * cannot run host code. */
#include "emu_internal.h"

#include <stdlib.h>

extern const intptr_t __start_emu_device_fns[] __attribute__((weak));
extern const intptr_t __stop_emu_device_fns[] __attribute__((weak));

static uintptr_t *device_fns; /* the addresses, sorted */
static size_t device_fn_count;

static int by_address(const void *a, const void *b)
{
    uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;
    return x < y ? -1 : x > y;
}

static void load_device_fns(void)
{
    static int loaded;
    if (loaded)
        return;
    loaded = 1;
    if (!__start_emu_device_fns || __stop_emu_device_fns <= __start_emu_device_fns)
        return;
    size_t n = (size_t)(__stop_emu_device_fns - __start_emu_device_fns);
    device_fns = malloc(n * sizeof *device_fns);
    if (!device_fns) {
        fprintf(stderr, "emu: out of memory for the list of device functions\n");
        abort();
    }
    for (size_t i = 0; i < n; i++)
        device_fns[i] = (uintptr_t)&__start_emu_device_fns[i] + (uintptr_t)__start_emu_device_fns[i];
    qsort(device_fns, n, sizeof *device_fns, by_address);
    device_fn_count = n;
}

int emu_is_device_function(const void *fn)
{
    load_device_fns();
    uintptr_t key = (uintptr_t)fn;
    return bsearch(&key, device_fns, device_fn_count, sizeof *device_fns, by_address) != NULL;
}

void emu_device_call(const void *fn)
{
    emu_lane *l = emu_cur;
    if (!l || emu_is_device_function(fn))
        return; /* (host code calls what it likes: a __host__ __device__ function on the host) */
    char what[512];
    if (fn)
        emu_describe_site((uintptr_t)fn + 1, what, sizeof what);
    else
        snprintf(what, sizeof what, "a null pointer");
    emu_lane_fault(l, cudaErrorIllegalAddress, EMU_TAG_CRASH, (uintptr_t)__builtin_return_address(0),
                   "a call through a pointer to %s, which is not device code: device code calls only __device__ "
                   "and __global__ functions (a pointer to a __device__ function is taken in device code, or "
                   "copied from a __device__ variable with cudaMemcpyFromSymbol)",
                   what);
}
