/* The compatibility programs' checks: a failed CUDA call or a wrong value ends the program with
 * a message and status 1. Each program prints "ok NAME" when every check passed; run with the
 * name of a wrong variant (listed as "@wrong NAME TAG" in its source) it runs that variant,
 * which the emulator must stop with the diagnosis TAG (emu/tests/compat/run.sh). */
#ifndef COMPAT_CHECK_H
#define COMPAT_CHECK_H
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define CHECK_CUDA(call)                                                                                    \
    do {                                                                                                    \
        cudaError_t err_ = (call);                                                                          \
        if (err_ != cudaSuccess) {                                                                          \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(err_));   \
            std::exit(1);                                                                                   \
        }                                                                                                   \
    } while (0)

#define EXPECT(cond)                                                                                        \
    do {                                                                                                    \
        if (!(cond)) {                                                                                      \
            std::fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond);                        \
            std::exit(1);                                                                                   \
        }                                                                                                   \
    } while (0)

/* argv[1] names a wrong variant to run, or is absent */
static inline bool variant_is(int argc, char **argv, const char *name)
{
    return argc > 1 && std::strcmp(argv[1], name) == 0;
}
#endif
