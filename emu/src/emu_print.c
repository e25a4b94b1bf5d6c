/* The lab file's printing calls, as emucc renames them in its object (printf to
 * emu_kernel_printf, and so on): the C library's, in host code and in kernels alike, except in a
 * grid that runs on two cores (emu_parallel.c). There a kernel's print stops the run before it
 * prints, and the grid runs again on one core, which prints every line once and in block order. */
#define _GNU_SOURCE
#include "emu_internal.h"

#include <stdarg.h>
#include <stdio.h>

/* In a kernel of a run on two cores: the run is abandoned and the lane stops (never returns). */
static void before_print(void)
{
    if (emu_cur && emu_parallel_side >= 0)
        emu_parallel_bail_lane(emu_cur, 0);
    if (emu_cur)
        emu_kernel_said++;
}

int emu_kernel_vfprintf(FILE *f, const char *fmt, va_list ap)
{
    before_print();
    return vfprintf(f, fmt, ap);
}

int emu_kernel_vprintf(const char *fmt, va_list ap)
{
    before_print();
    return vprintf(fmt, ap);
}

int emu_kernel_printf(const char *fmt, ...)
{
    before_print();
    va_list ap;
    va_start(ap, fmt);
    int n = vprintf(fmt, ap);
    va_end(ap);
    return n;
}

int emu_kernel_fprintf(FILE *f, const char *fmt, ...)
{
    before_print();
    va_list ap;
    va_start(ap, fmt);
    int n = vfprintf(f, fmt, ap);
    va_end(ap);
    return n;
}

int emu_kernel_puts(const char *s)
{
    before_print();
    return puts(s);
}

int emu_kernel_putchar(int c)
{
    before_print();
    return putchar(c);
}

int emu_kernel_fputs(const char *s, FILE *f)
{
    before_print();
    return fputs(s, f);
}

int emu_kernel_fputc(int c, FILE *f)
{
    before_print();
    return fputc(c, f);
}

int emu_kernel_putc(int c, FILE *f)
{
    before_print();
    return putc(c, f);
}

size_t emu_kernel_fwrite(const void *p, size_t size, size_t n, FILE *f)
{
    before_print();
    return fwrite(p, size, n, f);
}
