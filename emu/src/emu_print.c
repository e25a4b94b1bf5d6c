/* The lab file's printing calls, as emucc renames them in its object (printf to
 * emu_kernel_printf, and so on): the C library's, in host code and in kernels alike, except in a
 * grid that runs on two cores (emu_parallel.c). There a kernel's print stops the run before it
 * prints, and the grid runs again on one core, which prints every line once and in block order. */
#define _GNU_SOURCE
#include "emu_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* A kernel's format with a %n conversion: CUDA's device printf has none, and the C library's would
 * write the count where its argument points, an access the emulator does not see. */
static void refuse_count_conversion(const char *fmt, uintptr_t site)
{
    for (const char *p = fmt; p && *p; p++) {
        if (*p != '%')
            continue;
        p++;
        while (*p && strchr("-+ #0'123456789.*$hlLqjzt", *p))
            p++;
        if (*p == 'n')
            emu_lane_fault(emu_cur, cudaErrorLaunchFailure, EMU_TAG_TRAP, site,
                           "printf with %%n in a kernel: CUDA's device printf has no %%n, and here it would "
                           "write memory past the emulator's checks");
        if (!*p)
            break;
    }
}

/* In a kernel of a run on two cores: the run is abandoned and the lane stops (never returns). */
#define before_print(fmt) before_print_at(fmt, (uintptr_t)__builtin_return_address(0))
static void before_print_at(const char *fmt, uintptr_t site)
{
    if (emu_cur)
        refuse_count_conversion(fmt, site);
    if (emu_cur && emu_parallel_side >= 0)
        emu_parallel_bail_lane(emu_cur, 0);
    if (emu_cur)
        emu_kernel_said++;
}

int emu_kernel_vfprintf(FILE *f, const char *fmt, va_list ap)
{
    before_print(fmt);
    return vfprintf(f, fmt, ap);
}

int emu_kernel_vprintf(const char *fmt, va_list ap)
{
    before_print(fmt);
    return vprintf(fmt, ap);
}

int emu_kernel_printf(const char *fmt, ...)
{
    before_print(fmt);
    va_list ap;
    va_start(ap, fmt);
    int n = vprintf(fmt, ap);
    va_end(ap);
    return n;
}

int emu_kernel_fprintf(FILE *f, const char *fmt, ...)
{
    before_print(fmt);
    va_list ap;
    va_start(ap, fmt);
    int n = vfprintf(f, fmt, ap);
    va_end(ap);
    return n;
}

int emu_kernel_puts(const char *s)
{
    before_print(NULL);
    return puts(s);
}

int emu_kernel_putchar(int c)
{
    before_print(NULL);
    return putchar(c);
}

int emu_kernel_fputs(const char *s, FILE *f)
{
    before_print(NULL);
    return fputs(s, f);
}

int emu_kernel_fputc(int c, FILE *f)
{
    before_print(NULL);
    return fputc(c, f);
}

int emu_kernel_putc(int c, FILE *f)
{
    before_print(NULL);
    return putc(c, f);
}

size_t emu_kernel_fwrite(const void *p, size_t size, size_t n, FILE *f)
{
    before_print(NULL);
    return fwrite(p, size, n, f);
}
