/* Source lines for diagnostics: a code address in the lab program (the return
 * address of a load/store hook or a barrier call) is turned into file:line
 * with addr2line over the program's own DWARF (emucc compiles with -g). */
#define _GNU_SOURCE
#include "emu_internal.h"

#include <dlfcn.h>
#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void chomp(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = 0;
}

/* Keeps the last two path components: "solutions/03-x/file.cu" stays readable. */
static const char *short_path(const char *p)
{
    const char *last = strrchr(p, '/');
    if (!last)
        return p;
    const char *q = last;
    while (q > p && q[-1] != '/')
        q--;
    return q > p ? q : p;
}

void emu_describe_site(uintptr_t site, char *buf, size_t size)
{
    Dl_info info;
    char exe[1024], cmd[1400], func[6][512], loc[6][512];
    int frames = 0;
    uintptr_t addr = site ? site - 1 : 0; /* the call, not the instruction after it */

    snprintf(buf, size, "code address %#lx", (unsigned long)site);
    if (!site || !dladdr((void *)site, &info) || !info.dli_fbase)
        return;
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)info.dli_fbase;
    if (eh->e_type == ET_DYN)
        addr -= (uintptr_t)info.dli_fbase;
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return;
    exe[n] = 0;
    if (info.dli_fname && info.dli_fname[0] == '/' && strcmp(info.dli_fname, exe) != 0)
        snprintf(exe, sizeof exe, "%s", info.dli_fname);
    /* llvm-symbolizer reads clang's DWARF 5 inline records; GNU addr2line is the fallback */
    static const char *const tools[] = {
        "llvm-symbolizer --functions=linkage --inlining --demangle --obj='%s' %#lx 2>/dev/null",
        "llvm-symbolizer-14 --functions=linkage --inlining --demangle --obj='%s' %#lx 2>/dev/null",
        "addr2line -f -i -C -e '%s' %#lx 2>/dev/null",
    };
    for (size_t t = 0; t < sizeof tools / sizeof tools[0] && frames == 0; t++) {
        snprintf(cmd, sizeof cmd, tools[t], exe, (unsigned long)addr);
        FILE *p = popen(cmd, "r");
        if (!p)
            continue;
        while (frames < 6 && fgets(func[frames], sizeof func[frames], p)) {
            chomp(func[frames]);
            if (!func[frames][0])
                break; /* llvm-symbolizer ends the answer with an empty line */
            if (!fgets(loc[frames], sizeof loc[frames], p))
                break;
            chomp(loc[frames]);
            char *disc = strstr(loc[frames], " (discriminator");
            if (disc)
                *disc = 0;
            /* file:line:column -> file:line */
            char *c1 = strrchr(loc[frames], ':');
            if (c1 && c1 != strchr(loc[frames], ':')) {
                char *c0 = c1 - 1;
                while (c0 > loc[frames] && *c0 != ':')
                    c0--;
                if (*c0 == ':')
                    *c1 = 0;
            }
            frames++;
        }
        if (pclose(p) != 0 && frames == 0)
            continue;
        if (frames && loc[0][0] == '?')
            frames = 0;
    }
    /* frames of the emulator's own inline wrappers (__syncthreads() in cuda_runtime.h) are skipped */
    int first = 0;
    while (first + 1 < frames && strstr(loc[first], "cuda_runtime.h"))
        first++;
    if (frames == 0 || loc[first][0] == '?')
        return;
    /* the launch's lambda (emu/rewrite's [](auto... a) { kernel(a...); }) is no frame a student wrote */
    while (frames > first + 1 && strstr(func[frames - 1], "::$_") && strstr(func[frames - 1], "operator()"))
        frames--;
    /* strip the parameter list the demangler adds */
    for (int i = 0; i < frames; i++) {
        char *paren = strchr(func[i], '(');
        if (paren)
            *paren = 0;
    }
    if (first + 1 < frames)
        snprintf(buf, size, "%s (in %s, called from %s)", short_path(loc[first]), func[first], func[frames - 1]);
    else
        snprintf(buf, size, "%s (in %s)", short_path(loc[first]), func[first]);
}
