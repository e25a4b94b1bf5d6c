/* Source lines for diagnostics: a code address in the lab program (the return
 * address of a load/store hook or a barrier call) is turned into file:line
 * over the program's own DWARF line tables (emucc's -gline-tables-only), and a data address
 * into the name of the variable holding it.
 *
 * llvm-symbolizer does the work. Its process is made before the harness seals the
 * program (no process can be started after) and waits; llvm-symbolizer starts in it on the
 * first question and is kept running (its answers to later questions take microseconds instead
 * of the tens of milliseconds a fresh start costs). Where no llvm-symbolizer is installed (a
 * GPU machine with the CUDA Toolkit and gcc, running emulator programs built elsewhere), GNU
 * addr2line starts there instead, as a server too (it answers each address as it reads it),
 * so that a sealed program still gets its lines: the lines decide verdicts (a legacy
 * warp exchange passes only through volatile loads, emu_site_volatile). If neither can be
 * started before the seal, each question runs one of them through popen. */
#define _GNU_SOURCE
#include "emu_internal.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
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

/* The file that holds a code or data address (the program, or a shared
 * library), and the address as that file's symbols count it. */
static int object_of(uintptr_t addr, char *obj, size_t size, uintptr_t *rel)
{
    Dl_info info;
    if (!addr || !dladdr((void *)addr, &info) || !info.dli_fbase)
        return -1;
    ssize_t n = readlink("/proc/self/exe", obj, size - 1);
    if (n <= 0)
        return -1;
    obj[n] = 0;
    if (info.dli_fname && info.dli_fname[0] == '/' && strcmp(info.dli_fname, obj) != 0)
        snprintf(obj, size, "%s", info.dli_fname);
    *rel = addr;
    if (((const Elf64_Ehdr *)info.dli_fbase)->e_type == ET_DYN)
        *rel -= (uintptr_t)info.dli_fbase;
    return 0;
}

/* ---- the long-running llvm-symbolizer ---- */

static struct {
    pid_t pid;   /* 0: none */
    pid_t owner; /* the process that started it (a fork must start its own) */
    FILE *to, *from;
    char obj[1024];
    int broken;    /* could not start, or died: use popen */
    int addr2line; /* the process is GNU addr2line (its first line said so), not llvm-symbolizer */
} sym;

/* What the process writes first when it runs addr2line: the parent then ends each question with
 * this address, whose answer (its address echoed by -a, then one frame of "??") marks the end of
 * the question's frames, as llvm-symbolizer's empty line does. */
#define ADDR2LINE_SAYS "#addr2line"
#define ADDR2LINE_END "0x0"
#define ADDR2LINE_END_ECHO "0x0000000000000000"

static void sym_close(void)
{
    if (sym.to)
        fclose(sym.to);
    if (sym.from)
        fclose(sym.from);
    if (sym.pid > 0 && sym.owner == getpid())
        waitpid(sym.pid, NULL, 0); /* it ends when its input closes */
    sym.to = sym.from = NULL;
    sym.pid = 0;
    sym.addr2line = 0;
}

/* Once the harness has sealed the program (no new processes: emu_harness_seal), only the
 * symbolizer started before that answers; without it, no line numbers. */
static int sealed;

static int sym_open(const char *obj)
{
    if (sym.pid && sym.owner == getpid() && strcmp(sym.obj, obj) == 0)
        return 0;
    if (sym.pid && sym.owner != getpid()) {
        /* inherited through fork(): the parent's; drop our copies of its pipes */
        if (sym.to)
            fclose(sym.to);
        if (sym.from)
            fclose(sym.from);
        sym.to = sym.from = NULL;
        sym.pid = 0;
        sym.broken = 0;
    }
    sym_close();
    if (sym.broken || sealed)
        return -1;
    int to[2], from[2];
    if (pipe2(to, O_CLOEXEC) != 0)
        goto fail;
    if (pipe2(from, O_CLOEXEC) != 0) {
        close(to[0]);
        close(to[1]);
        goto fail;
    }
    char objarg[1100];
    snprintf(objarg, sizeof objarg, "--obj=%s", obj);
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        dup2(to[0], 0);
        dup2(from[1], 1);
        if (null >= 0)
            dup2(null, 2);
        closefrom(3); /* no pipe of the program stays open in it */
        /* Most runs never ask (a kernel that passes): wait for the first question before
         * starting llvm-symbolizer, whose start-up (loading LLVM) costs more CPU than a small
         * lab's whole run. The question stays in the pipe for it to read; a program that ends
         * without one closes the pipe, and this process ends too. */
        struct pollfd first = {.fd = 0, .events = POLLIN};
        while (poll(&first, 1, -1) < 0 && errno == EINTR)
            ;
        if (!(first.revents & POLLIN))
            _exit(0);
        execlp("llvm-symbolizer", "llvm-symbolizer", "--functions=linkage", "--inlining", "--demangle", objarg,
               (char *)NULL);
        execlp("llvm-symbolizer-14", "llvm-symbolizer-14", "--functions=linkage", "--inlining", "--demangle", objarg,
               (char *)NULL);
        if (write(1, ADDR2LINE_SAYS "\n", sizeof ADDR2LINE_SAYS) == (ssize_t)sizeof ADDR2LINE_SAYS)
            execlp("addr2line", "addr2line", "-a", "-f", "-i", "-C", "-e", obj, (char *)NULL);
        _exit(127);
    }
    close(to[0]);
    close(from[1]);
    if (pid < 0) {
        close(to[1]);
        close(from[0]);
        goto fail;
    }
    sym.pid = pid;
    sym.owner = getpid();
    sym.to = fdopen(to[1], "w");
    sym.from = fdopen(from[0], "r");
    snprintf(sym.obj, sizeof sym.obj, "%s", obj);
    if (!sym.to || !sym.from) {
        sym_close();
        goto fail;
    }
    return 0;
fail:
    sym.broken = 1;
    return -1;
}

/* fgets that a signal (the launch's time-limit alarm) does not cut short. */
static char *read_line(char *buf, int size, FILE *f)
{
    for (;;) {
        errno = 0;
        char *r = fgets(buf, size, f);
        if (r || errno != EINTR)
            return r;
        clearerr(f);
    }
}

/* Writes one line to the process; 0 when it took it. */
static int sym_send(const char *text)
{
    struct sigaction ign, old;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ign, &old); /* a symbolizer that died must not kill the program */
    int ok = fprintf(sym.to, "%s\n", text) > 0 && fflush(sym.to) == 0;
    sigaction(SIGPIPE, &old, NULL);
    return ok ? 0 : -1;
}

/* Sends one question ("0x1234" or "DATA 0x1234"); the answer's lines, up to
 * the empty line that ends it, go to lines[]. Returns their count, or -1. addr2line's answers
 * come in the same "function, then file:line" pairs, after the address echoed; it has no DATA
 * mode, so a DATA question gets no lines from it (the messages then give offsets, not names). */
static int sym_ask(const char *obj, const char *question, char lines[][512], int max)
{
    if (sym_open(obj) != 0)
        return -1;
    int data = strncmp(question, "DATA", 4) == 0;
    if (sym.addr2line && data)
        return 0;
    int ok = sym_send(question) == 0 && (!sym.addr2line || sym_send(ADDR2LINE_END) == 0);
    int n = 0, echo = sym.addr2line; /* addr2line echoes the question's address first */
    char line[512];
    while (ok) {
        if (!read_line(line, sizeof line, sym.from)) {
            ok = 0;
            break;
        }
        chomp(line);
        if (!sym.addr2line && n == 0 && strcmp(line, ADDR2LINE_SAYS) == 0) {
            sym.addr2line = echo = 1; /* the first answer of the process: it is addr2line */
            ok = sym_send(ADDR2LINE_END) == 0;
            continue;
        }
        if (sym.addr2line) {
            if (echo) {
                echo = 0;
                continue;
            }
            if (strcmp(line, ADDR2LINE_END_ECHO) == 0) { /* the end mark's answer: one frame of "??" */
                ok = read_line(line, sizeof line, sym.from) && read_line(line, sizeof line, sym.from);
                if (data)
                    n = 0;
                break;
            }
        } else if (!line[0]) {
            break;
        }
        if (n < max)
            snprintf(lines[n++], sizeof lines[0], "%s", line);
    }
    if (!ok) {
        sym_close();
        sym.broken = 1;
        return -1;
    }
    return n;
}

/* ---- code addresses ---- */

/* Fills func[]/loc[] with the inlining chain of a code address (innermost first). */
static int frames_of(uintptr_t site, char func[6][512], char loc[6][512])
{
    char obj[1024], question[64], lines[12][512];
    uintptr_t rel;
    int frames = 0;
    if (object_of(site, obj, sizeof obj, &rel) != 0)
        return 0;
    rel -= 1; /* the call, not the instruction after it */
    snprintf(question, sizeof question, "%#lx", (unsigned long)rel);
    int n = sym_ask(obj, question, lines, 12);
    if (n >= 0) {
        for (int i = 0; i + 1 < n && frames < 6; i += 2, frames++) {
            snprintf(func[frames], 512, "%.511s", lines[i]);
            snprintf(loc[frames], 512, "%.511s", lines[i + 1]);
        }
    } else if (!sealed) {
        /* one run per question: llvm-symbolizer-14, or GNU addr2line */
        static const char *const tools[] = {
            "llvm-symbolizer --functions=linkage --inlining --demangle --obj='%s' %#lx 2>/dev/null",
            "llvm-symbolizer-14 --functions=linkage --inlining --demangle --obj='%s' %#lx 2>/dev/null",
            "addr2line -f -i -C -e '%s' %#lx 2>/dev/null",
        };
        char cmd[1400];
        for (size_t t = 0; t < sizeof tools / sizeof tools[0] && frames == 0; t++) {
            snprintf(cmd, sizeof cmd, tools[t], obj, (unsigned long)rel);
            FILE *p = popen(cmd, "r");
            if (!p)
                continue;
            while (frames < 6 && fgets(func[frames], 512, p)) {
                chomp(func[frames]);
                if (!func[frames][0])
                    break; /* llvm-symbolizer ends the answer with an empty line */
                if (!fgets(loc[frames], 512, p))
                    break;
                chomp(loc[frames]);
                frames++;
            }
            if (pclose(p) != 0 && frames == 0)
                continue;
            if (frames && loc[0][0] == '?')
                frames = 0;
        }
    }
    for (int i = 0; i < frames; i++) {
        char *disc = strstr(loc[i], " (discriminator");
        if (disc)
            *disc = 0;
        /* file:line:column -> file:line */
        char *c1 = strrchr(loc[i], ':');
        if (c1 && c1 != strchr(loc[i], ':')) {
            char *c0 = c1 - 1;
            while (c0 > loc[i] && *c0 != ':')
                c0--;
            if (*c0 == ':')
                *c1 = 0;
        }
    }
    return frames;
}

static void describe_site_uncached(uintptr_t site, char *buf, size_t size)
{
    char func[6][512], loc[6][512];
    snprintf(buf, size, "code address %#lx", (unsigned long)site);
    int frames = frames_of(site, func, loc);
    /* frames of the emulator's own inline wrappers (__syncthreads() in cuda_runtime.h, a tile's
     * shfl_down in cooperative_groups.h: the headers of emu/include) are skipped */
    int first = 0;
    while (first + 1 < frames && (strstr(loc[first], "cuda_runtime.h") || strstr(loc[first], "emu/include/")))
        first++;
    if (frames == 0 || loc[first][0] == '?')
        return;
    /* the launch's lambda (emu/rewrite's [](auto... a) { kernel(a...); }) is no frame a student wrote */
    while (frames > first + 1 && strstr(func[frames - 1], "::$_") && strstr(func[frames - 1], "operator()"))
        frames--;
    /* strip the parameter list the demangler adds, and the return type it puts before a
     * template's name ("void reduce<512u>" -> "reduce<512u>") */
    for (int i = 0; i < frames; i++) {
        char *paren = strchr(func[i], '(');
        if (paren)
            *paren = 0;
        char *angle = strchr(func[i], '<'), *space = NULL;
        for (char *p = func[i]; *p && (!angle || p < angle); p++)
            if (*p == ' ')
                space = p;
        if (angle && space)
            memmove(func[i], space + 1, strlen(space + 1) + 1);
    }
    if (first + 1 < frames)
        snprintf(buf, size, "%s (in %s, called from %s)", short_path(loc[first]), func[first], func[frames - 1]);
    else
        snprintf(buf, size, "%s (in %s)", short_path(loc[first]), func[first]);
}

/* Every answer is remembered: races and warnings name the same few sites again and again. */
#define SITE_CACHE 128
static struct {
    uintptr_t site;
    char text[512];
} site_cache[SITE_CACHE];
static unsigned int site_cache_next;

void emu_describe_site(uintptr_t site, char *buf, size_t size)
{
    for (unsigned int i = 0; i < SITE_CACHE; i++) {
        if (site && site_cache[i].site == site) {
            snprintf(buf, size, "%s", site_cache[i].text);
            return;
        }
    }
    unsigned int i = site_cache_next++ % SITE_CACHE;
    describe_site_uncached(site, site_cache[i].text, sizeof site_cache[i].text);
    site_cache[i].site = site;
    snprintf(buf, size, "%s", site_cache[i].text);
}

void emu_describe_line(uintptr_t site, char *buf, size_t size)
{
    emu_describe_site(site, buf, size);
    char *paren = strstr(buf, " (in ");
    if (paren)
        *paren = 0;
}

/* ---- data addresses ---- */

int emu_describe_data(uintptr_t addr, char *name, size_t size, size_t *offset)
{
    char obj[1024], question[80], lines[4][512];
    uintptr_t rel;
    unsigned long start = 0, bytes = 0;
    if (object_of(addr, obj, sizeof obj, &rel) != 0)
        return 0;
    /* llvm-symbolizer's DATA mode: the variable's name, then "start size" */
    snprintf(question, sizeof question, "DATA %#lx", (unsigned long)rel);
    if (sym_ask(obj, question, lines, 4) < 2)
        return 0;
    if (!lines[0][0] || lines[0][0] == '?' || sscanf(lines[1], "%lu %lu", &start, &bytes) != 2 || rel < start)
        return 0;
    /* "reduce(int*)::sdata" -> "sdata" */
    const char *n = lines[0], *colon = strstr(n, "::");
    while (colon) {
        n = colon + 2;
        colon = strstr(n, "::");
    }
    snprintf(name, size, "%s", n);
    *offset = (size_t)(rel - start);
    return 1;
}

void emu_symbolizer_start(void)
{
    char obj[1024];
    uintptr_t rel;
    if (object_of((uintptr_t)&emu_symbolizer_start, obj, sizeof obj, &rel) == 0)
        sym_open(obj);
}

void emu_symbolizer_seal(void) { sealed = 1; }

/* ---- volatile accesses ---- */

/* emu/rewrite ends every file it rewrites with the lines that access memory through something
 * volatile, in this section: "NAME<TAB>line line ...\n" per file, NUL-terminated. */
extern const char __start_emu_volatile_lines[] __attribute__((weak));
extern const char __stop_emu_volatile_lines[] __attribute__((weak));

int emu_site_volatile(uintptr_t site)
{
    char where[512];
    emu_describe_line(site, where, sizeof where);
    char *colon = strrchr(where, ':');
    if (!colon)
        return -2; /* no source line: no llvm-symbolizer or addr2line to ask */
    if (!__start_emu_volatile_lines || !__stop_emu_volatile_lines)
        return -1;
    *colon = 0;
    long line = strtol(colon + 1, NULL, 10);
    for (const char *entry = __start_emu_volatile_lines; entry < __stop_emu_volatile_lines;) {
        if (!*entry) { /* the padding between two files' entries */
            entry++;
            continue;
        }
        size_t length = strnlen(entry, (size_t)(__stop_emu_volatile_lines - entry));
        const char *tab = memchr(entry, '\t', length);
        if (tab) {
            char name[512];
            snprintf(name, sizeof name, "%.*s", (int)(tab - entry), entry);
            if (strcmp(short_path(name), where) == 0) {
                for (const char *p = tab + 1; p < entry + length;) {
                    char *end;
                    long listed = strtol(p, &end, 10);
                    if (end == p)
                        break;
                    if (listed == line)
                        return 1;
                    p = end;
                }
                return 0;
            }
        }
        entry += length;
    }
    return -1;
}

/* ---- kernel parameters ---- */

/* emu/rewrite ends every file it rewrites with its __global__ functions' parameter names, in this
 * section: "kernel<TAB>A B n\n" per function ("-" for an unnamed parameter), NUL-terminated. */
extern const char __start_emu_kernel_params[] __attribute__((weak));
extern const char __stop_emu_kernel_params[] __attribute__((weak));

int emu_kernel_param(const char *kernel, unsigned int index, unsigned int count, char *name, size_t size)
{
    if (!kernel || !__start_emu_kernel_params || !__stop_emu_kernel_params)
        return -1;
    /* the launch's name as written: "ns::reduce<512>" -> "reduce" */
    size_t base_len = strcspn(kernel, "< \t");
    const char *base = kernel;
    for (const char *c = strstr(kernel, "::"); c && (size_t)(c - kernel) < base_len; c = strstr(c + 2, "::"))
        base = c + 2;
    base_len -= (size_t)(base - kernel);
    for (const char *entry = __start_emu_kernel_params; entry < __stop_emu_kernel_params;) {
        size_t length = strcspn(entry, "\n");
        const char *end = entry + length, *tab = memchr(entry, '\t', length);
        if (tab && (size_t)(tab - entry) == base_len && memcmp(entry, base, base_len) == 0) {
            /* an entry with as many parameters as the launch has arguments (another overload, or
             * a list the rewriter read wrongly, a macro say, does not count) */
            char words[EMU_ARGS_MAX + 1][128];
            unsigned int n = 0;
            for (const char *p = tab + 1; p < end && n <= EMU_ARGS_MAX;) {
                size_t w = strcspn(p, " \n");
                if (w > (size_t)(end - p))
                    w = (size_t)(end - p);
                if (w)
                    snprintf(words[n++], sizeof words[0], "%.*s", (int)w, p);
                p += w + 1;
            }
            if (n == count && index < n && strcmp(words[index], "-") != 0) {
                snprintf(name, size, "%s", words[index]);
                return 0;
            }
        }
        entry = end + 1;
        while (entry < __stop_emu_kernel_params && !*entry) /* the padding between files' entries */
            entry++;
    }
    return -1;
}
