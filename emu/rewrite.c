/* rewrite: turns a CUDA .cu file into C++ the emulator can compile.
 *
 *   rewrite IN.cu OUT.cpp [NAME]     NAME (default IN.cu) is what #line reports
 *
 * Two rewrites, both outside comments, strings and character literals:
 *
 *   callee<<<grid, block[, shmem[, stream]]>>>(args)
 *     -> emu_launch("callee", grid, block, shmem, stream,
 *                   [](auto... emu_a_) __attribute__((noinline)) EMU_DEVICE_FN { callee(emu_a_...); }, args)
 *   callee may be a template (kernel<T, 256>) or qualified (ns::kernel). The
 *   arguments are evaluated once, where the launch is, and passed by value.
 *
 *   __shared__          -> static EMU_SHARED   (one copy in the emu_shared section)
 *   static __shared__   -> static EMU_SHARED
 *   extern __shared__ T name[];
 *                       -> extern EMU_DYNAMIC_SHARED T name[] __asm__("emu_dynamic_shared");
 *     (every extern __shared__ array names the one dynamic shared buffer, as in CUDA)
 *
 *   __device__ on a variable (not a function or lambda)
 *                       -> __device__ EMU_DEVICE_VAR     (the section emu_device: device
 *                          memory, closed to host code like a cudaMalloc block)
 *                       -> __device__ EMU_DEVICE_CONST   (emu_device_ro, for a const one)
 *   __device__ on a function (and a launch's lambda, and __global__ in the header)
 *                       -> __device__ EMU_DEVICE_FN      (the section emu_device_text: device
 *                          code, where emu/device_check.awk starts looking at what it calls)
 *
 * At its end, the output lists the lines that access memory through something volatile
 * (volatile_lines below), for the warp-synchronous check, and the parameter names of every
 * __global__ function (kernel_params below), for the runtime's messages.
 *
 * Text is only moved, never dropped, and a launch keeps its line breaks, so the
 * lines of the output match the input and #line 1 "NAME" makes compiler
 * messages point at the student's file and line.
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char *p;
    size_t n, cap;
} buf;

static void put(buf *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->n + n + 1)
            cap *= 2;
        char *q = realloc(b->p, cap);
        if (!q) {
            fprintf(stderr, "rewrite: out of memory\n");
            exit(1);
        }
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}

static void puts_(buf *b, const char *s) { put(b, s, strlen(s)); }

static const char *src; /* the input, NUL terminated */
static size_t len;
static const char *in_name;

static int is_ident(int c) { return isalnum(c) || c == '_'; }

static int line_of(size_t pos)
{
    int line = 1;
    for (size_t i = 0; i < pos && i < len; i++)
        line += src[i] == '\n';
    return line;
}

static void die_at(size_t pos, const char *msg)
{
    fprintf(stderr, "%s:%d: error: %s\n", in_name, line_of(pos), msg);
    exit(1);
}

/* If a comment, string or character literal starts at i, returns the index
 * just past it; otherwise returns i. */
static size_t skip_literal(size_t i)
{
    char c = src[i];
    if (c == '/' && src[i + 1] == '/') {
        while (i < len && src[i] != '\n') {
            if (src[i] == '\\' && src[i + 1] == '\n')
                i++;
            i++;
        }
        return i;
    }
    if (c == '/' && src[i + 1] == '*') {
        const char *e = strstr(src + i + 2, "*/");
        return e ? (size_t)(e - src) + 2 : len;
    }
    if (c == 'R' && src[i + 1] == '"' && (i == 0 || !is_ident(src[i - 1]))) { /* raw string R"d(...)d" */
        size_t j = i + 2;
        char delim[32];
        size_t d = 0;
        while (j < len && src[j] != '(' && d < sizeof delim - 2)
            delim[d++] = src[j++];
        delim[d] = 0;
        char close[40];
        snprintf(close, sizeof close, ")%s\"", delim);
        const char *e = strstr(src + j, close);
        return e ? (size_t)(e - src) + strlen(close) : len;
    }
    if (c == '"' || (c == '\'' && !(i > 0 && isxdigit((unsigned char)src[i - 1])))) {
        /* a ' right after a (hex) digit is a digit separator: 1'000 */
        size_t j = i + 1;
        while (j < len && src[j] != c && src[j] != '\n') {
            if (src[j] == '\\')
                j++;
            j++;
        }
        return j < len ? j + 1 : len;
    }
    return i;
}

/* From i, finds the first `stop` character at nesting depth 0 (of () [] {}),
 * skipping literals; returns its index, or len. With stop == '>', looks for ">>>". */
static size_t find_close(size_t i, char stop)
{
    int depth = 0;
    while (i < len) {
        size_t j = skip_literal(i);
        if (j != i) {
            i = j;
            continue;
        }
        char c = src[i];
        if (depth == 0) {
            if (stop == '>' && c == '>' && src[i + 1] == '>' && src[i + 2] == '>')
                return i;
            if (stop != '>' && c == stop)
                return i;
        }
        if (c == '(' || c == '[' || c == '{')
            depth++;
        else if (c == ')' || c == ']' || c == '}') {
            if (depth == 0)
                return len; /* unbalanced */
            depth--;
        }
        i++;
    }
    return len;
}

/* Splits src[a, b) at top-level commas into at most 4 parts. */
static int split_config(size_t a, size_t b, size_t starts[4], size_t ends[4])
{
    int n = 0, depth = 0;
    size_t i = a, part = a;
    while (i < b) {
        size_t j = skip_literal(i);
        if (j != i) {
            i = j;
            continue;
        }
        char c = src[i];
        if (c == '(' || c == '[' || c == '{')
            depth++;
        else if (c == ')' || c == ']' || c == '}')
            depth--;
        else if (c == ',' && depth == 0) {
            if (n == 4)
                return -1;
            starts[n] = part;
            ends[n++] = i;
            part = i + 1;
        }
        i++;
    }
    if (n == 4)
        return -1;
    starts[n] = part;
    ends[n++] = b;
    return n;
}

static int blank(size_t a, size_t b)
{
    for (size_t i = a; i < b; i++)
        if (!isspace((unsigned char)src[i]))
            return 0;
    return 1;
}

static int count_newlines(const char *s, size_t n)
{
    int k = 0;
    for (size_t i = 0; i < n; i++)
        k += s[i] == '\n';
    return k;
}

/* Finds where the callee expression ends before out->n: a postfix expression of identifiers with
 * template arguments, :: qualifiers, member access (. ->), subscripts and calls, or one in
 * parentheses ((*fp)). Returns its start (out->n: none). */
static size_t callee_start(const buf *out)
{
    size_t i = out->n;
    const char *o = out->p;
    for (;;) {
        while (i > 0 && isspace((unsigned char)o[i - 1]))
            i--;
        if (i > 0 && (o[i - 1] == ']' || o[i - 1] == ')')) { /* a subscript, a call, parentheses */
            char close = o[i - 1], open = close == ']' ? '[' : '(';
            int depth = 0;
            while (i > 0) {
                char c = o[--i];
                if (c == close)
                    depth++;
                else if (c == open && --depth == 0)
                    break;
            }
            if (depth != 0)
                return out->n;
            size_t j = i;
            while (j > 0 && isspace((unsigned char)o[j - 1]))
                j--;
            if (j > 0 && (is_ident((unsigned char)o[j - 1]) || o[j - 1] == ']' || o[j - 1] == ')')) {
                i = j; /* what it subscripts or calls */
                continue;
            }
            return i;
        }
        if (i > 0 && o[i - 1] == '>') { /* template arguments */
            int depth = 0;
            while (i > 0) {
                char c = o[--i];
                if (c == '>' || c == ')' || c == ']')
                    depth++;
                else if (c == '<' || c == '(' || c == '[')
                    depth--;
                if (depth == 0)
                    break;
            }
            while (i > 0 && isspace((unsigned char)o[i - 1]))
                i--;
        }
        size_t end = i;
        while (i > 0 && is_ident((unsigned char)o[i - 1]))
            i--;
        if (i == end)
            return out->n; /* no identifier: not a launch we understand */
        size_t j = i;
        while (j > 0 && isspace((unsigned char)o[j - 1]))
            j--;
        if (j >= 2 && o[j - 1] == ':' && o[j - 2] == ':') {
            i = j - 2;
            continue;
        }
        if (j >= 1 && o[j - 1] == '.') {
            i = j - 1;
            continue;
        }
        if (j >= 2 && o[j - 1] == '>' && o[j - 2] == '-') {
            i = j - 2;
            continue;
        }
        return i;
    }
}

/* The identifier that ends just before out->n (skipping spaces), or "". */
static void previous_word(const buf *out, char *word, size_t size)
{
    size_t i = out->n;
    while (i > 0 && isspace((unsigned char)out->p[i - 1]))
        i--;
    size_t end = i;
    while (i > 0 && is_ident((unsigned char)out->p[i - 1]))
        i--;
    size_t n = end - i < size - 1 ? end - i : size - 1;
    memcpy(word, out->p + i, n);
    word[n] = 0;
}

/* The identifier at i (src[i] starts one), its end in *end. */
static size_t word_end(size_t i)
{
    while (i < len && is_ident((unsigned char)src[i]))
        i++;
    return i;
}

static int word_is(size_t i, size_t e, const char *w) { return e - i == strlen(w) && memcmp(src + i, w, e - i) == 0; }

/* From i (an opening bracket), the index just past its closing one; brackets of one kind. */
static size_t skip_balanced(size_t i, char open, char close)
{
    int d = 0;
    while (i < len) {
        size_t j = skip_literal(i);
        if (j != i) {
            i = j;
            continue;
        }
        if (src[i] == open)
            d++;
        else if (src[i] == close && --d == 0)
            return i + 1;
        else if (open == '<' && (src[i] == ';' || src[i] == '{'))
            return i; /* a less-than, not template arguments */
        i++;
    }
    return len;
}

/* After a `__device__` ending at e: 0 when it declares a function or a lambda, 1 a variable,
 * 2 a const variable, 3 a managed one (its own __managed__ section). Reads the declaration's
 * tokens up to its declarator: a name followed by ( is a function, by [ = ; { or , a variable.
 * Inside a preprocessor line nothing is decided (0). */
static int device_declares(size_t e)
{
    size_t line = e;
    while (line > 0 && src[line - 1] != '\n')
        line--;
    while (line < e && (src[line] == ' ' || src[line] == '\t'))
        line++;
    if (src[line] == '#')
        return 0;
    int after_word = 0, is_const = 0, indirect_after_const = 0;
    size_t k = e;
    while (k < len) {
        size_t j = skip_literal(k);
        if (j != k) {
            k = j;
            continue;
        }
        char c = src[k];
        if (isspace((unsigned char)c)) {
            k++;
            continue;
        }
        if (is_ident((unsigned char)c)) {
            size_t we = word_end(k);
            if (word_is(k, we, "operator"))
                return 0;
            if (word_is(k, we, "__managed__"))
                return 3;
            if (word_is(k, we, "__constant__") || word_is(k, we, "__shared__"))
                return 0; /* their own sections */
            if (word_is(k, we, "__attribute__") || word_is(k, we, "__align__") || word_is(k, we, "alignas") ||
                word_is(k, we, "__launch_bounds__") || word_is(k, we, "decltype") || word_is(k, we, "__declspec")) {
                k = we;
                while (k < len && isspace((unsigned char)src[k]))
                    k++;
                if (k < len && src[k] == '(')
                    k = skip_balanced(k, '(', ')');
                after_word = 0;
                continue;
            }
            if (word_is(k, we, "const") || word_is(k, we, "constexpr")) {
                is_const = 1;
                indirect_after_const = 0;
            }
            after_word = !word_is(k, we, "__device__") && !word_is(k, we, "__host__");
            k = we;
            continue;
        }
        if (c == '<' && after_word) {
            k = skip_balanced(k, '<', '>');
            continue;
        }
        if (c == '(') {
            if (!after_word)
                return 0; /* a lambda: [] __device__ (...) */
            size_t n = k + 1;
            while (n < len && isspace((unsigned char)src[n]))
                n++;
            if (src[n] == '*' || src[n] == '&' || src[n] == '^')
                return 1; /* a pointer to a function: a variable */
            return 0;
        }
        if (c == '[' || c == '=' || c == ';' || c == '{' || c == ',')
            return is_const && !indirect_after_const ? 2 : 1;
        if (c == '*' || c == '&')
            indirect_after_const = 1;
        if (c == ')' || c == '}')
            return 0;
        after_word = 0;
        k++;
    }
    return 0;
}

/* After a `__device__` ending at e that declares a function (device_declares: 0): 1 when the
 * attribute marking device code may follow it there, that is, outside a preprocessor line, not
 * in a lambda (`[] __device__ (...)`, which the marked code reaches through its calls) and not
 * before a C++11 attribute (a GNU attribute may not precede one). */
static int device_function(size_t e)
{
    size_t line = e;
    while (line > 0 && src[line - 1] != '\n')
        line--;
    while (line < e && (src[line] == ' ' || src[line] == '\t'))
        line++;
    if (src[line] == '#')
        return 0;
    size_t k = e;
    while (k < len && isspace((unsigned char)src[k]))
        k++;
    if (k < len && (src[k] == '(' || src[k] == '[' || src[k] == '{' || src[k] == '-'))
        return 0; /* a lambda's parameters, a C++11 attribute, a lambda's body or -> */
    if (k + 7 <= len && memcmp(src + k, "alignas", 7) == 0)
        return 0;
    size_t we = k;
    while (we < len && is_ident((unsigned char)src[we]))
        we++;
    if (word_is(k, we, "__constant__") || word_is(k, we, "__shared__") || word_is(k, we, "__managed__"))
        return 0; /* a variable of another memory space */
    size_t b = e - 10; /* the start of __device__: a lambda's ] or mutable before it? */
    while (b > 0 && isspace((unsigned char)src[b - 1]))
        b--;
    if (b > 0 && (src[b - 1] == ']' || src[b - 1] == ')'))
        return 0;
    return 1;
}

/* Device code may not call cudaDeviceSynchronize(): CUDA 12 removed device-side waiting for
 * child grids (CDP2), and nvcc 13 rejects it in a __global__ or __device__ function ("calling a
 * __host__ function ... is not allowed", "identifier cudaDeviceSynchronize is undefined in
 * device code"); in a __host__ __device__ function it only warns. The same here, at compile
 * time: in the body of every __global__ / __device__ function (and __device__ lambda) the name
 * becomes emu_device_cudaDeviceSynchronize (cuda_runtime.h declares it unavailable, with the
 * reason) or, in a __host__ __device__ one, emu_hostdevice_cudaDeviceSynchronize (deprecated:
 * a warning). The compiler decides after the preprocessor, so a call in #if 0 is no error. */
#define MAX_DEVICE_SYNCS 256
static size_t device_sync_at[MAX_DEVICE_SYNCS];
static int device_sync_host_too[MAX_DEVICE_SYNCS], device_syncs;

/* From i, the start of the next identifier outside literals (a word no identifier character
 * precedes), or len. */
static size_t next_word(size_t i)
{
    while (i < len) {
        size_t j = skip_literal(i);
        if (j != i)
            i = j;
        else if (is_ident((unsigned char)src[i]) && !(i > 0 && is_ident((unsigned char)src[i - 1])))
            return i;
        else
            i++;
    }
    return len;
}

static void check_device_sync(void)
{
    size_t i = 0;
    while (i < len) {
        if ((i = next_word(i)) >= len)
            break;
        size_t e = word_end(i);
        int global = word_is(i, e, "__global__"), device = word_is(i, e, "__device__");
        size_t line = i;
        while (line > 0 && src[line - 1] != '\n')
            line--;
        while (line < i && (src[line] == ' ' || src[line] == '\t'))
            line++;
        if (!(global || (device && device_declares(e) == 0)) || src[line] == '#') {
            i = e;
            continue;
        }
        /* the declaration's start (after the previous ; { } or #line) up to its body or its ; */
        size_t start = i;
        while (start > 0 && !strchr(";{}#", src[start - 1]))
            start--;
        size_t k = e, paren = 0;
        int depth = 0;
        while (k < len) {
            size_t jj = skip_literal(k);
            if (jj != k) {
                k = jj;
                continue;
            }
            char c = src[k];
            if (c == '(' && depth++ == 0)
                paren = k; /* the last one before the body: the parameter list */
            else if (c == ')')
                depth--;
            else if (depth == 0 && (c == ';' || c == '{'))
                break;
            k++;
        }
        if (k >= len || src[k] != '{') {
            i = k;
            continue;
        }
        int host_too = 0;
        for (size_t w = start; w < (paren ? paren : k); w++)
            if (is_ident((unsigned char)src[w]) && (w == 0 || !is_ident((unsigned char)src[w - 1]))) {
                size_t we = word_end(w);
                host_too |= word_is(w, we, "__host__");
                w = we;
            }
        size_t body_end = skip_balanced(k, '{', '}');
        for (size_t w = k; w < body_end; w++) {
            size_t jj = skip_literal(w);
            if (jj != w) {
                w = jj - 1;
                continue;
            }
            if (!is_ident((unsigned char)src[w]) || (w > 0 && is_ident((unsigned char)src[w - 1])))
                continue;
            size_t we = word_end(w);
            if (word_is(w, we, "cudaDeviceSynchronize") && device_syncs < MAX_DEVICE_SYNCS) {
                device_sync_at[device_syncs] = w;
                device_sync_host_too[device_syncs++] = host_too;
            }
            w = we - 1;
        }
        i = body_end;
    }
}

/* The words of the declaration around src[i, e) (a __shared__ or __device__): back to the previous
 * ; { } or preprocessor line, and on to its declarator's ( [ = ; { or ,. 1 when one is w. */
static int declaration_has(size_t i, size_t e, const char *w)
{
    size_t b = i;
    while (b > 0 && !strchr(";{}", src[b - 1]) && !(src[b - 1] == '\n' && src[b] == '#'))
        b--;
    size_t f = e;
    int angle = 0;
    while (f < len && (angle > 0 || !strchr("([=;{,", src[f]))) {
        angle += src[f] == '<';
        angle -= src[f] == '>' && angle > 0;
        f++;
    }
    for (size_t k = b; k < f;) {
        size_t j = skip_literal(k);
        if (j != k) {
            k = j;
            continue;
        }
        if (is_ident((unsigned char)src[k]) && (k == 0 || !is_ident((unsigned char)src[k - 1]))) {
            size_t we = word_end(k);
            if (word_is(k, we, w) && !(k == i && we == e))
                return 1;
            k = we;
            continue;
        }
        k++;
    }
    return 0;
}

/* A launch through something else than a function's name (a function pointer in an array or a
 * member, a call that returns one): src of the callee is not one identifier, with template
 * arguments and :: qualifiers. */
static int callee_is_name(const char *callee)
{
    const char *p = callee;
    while (isspace((unsigned char)*p))
        p++;
    int depth = 0;
    for (; *p; p++) {
        if (*p == '<')
            depth++;
        else if (*p == '>')
            depth--;
        else if (depth == 0 && !is_ident((unsigned char)*p) && *p != ':' && !isspace((unsigned char)*p))
            return 0;
    }
    return 1;
}

/* The file declares name as a pointer to a function (`(*name)`): a launch through it reads the
 * pointer where the launch is, as for any other expression. */
static int declared_pointer(const char *name)
{
    size_t n = strlen(name);
    for (size_t i = 0; i + n + 2 < len; i++) {
        if (src[i] != '(')
            continue;
        size_t k = i + 1;
        while (k < len && isspace((unsigned char)src[k]))
            k++;
        if (src[k] != '*')
            continue;
        k++;
        while (k < len && isspace((unsigned char)src[k]))
            k++;
        if (k + n <= len && memcmp(src + k, name, n) == 0 && !is_ident((unsigned char)src[k + n]))
            return 1;
    }
    return 0;
}

static void rewrite(buf *out)
{
    size_t i = 0;
    int dyn_pending = 0; /* an extern __shared__ declaration waits for its ';' */
    int depth_at_dyn = 0, depth = 0;
    while (i < len) {
        size_t j = skip_literal(i);
        if (j != i) {
            put(out, src + i, j - i);
            i = j;
            continue;
        }
        char c = src[i];
        if (c == '<' && src[i + 1] == '<' && src[i + 2] == '<') {
            size_t cs = callee_start(out);
            if (cs == out->n)
                die_at(i, "<<< without a kernel name before it");
            char *callee = strndup(out->p + cs, out->n - cs);
            int lost = count_newlines(callee, strlen(callee));
            out->n = cs;
            size_t cfg = i + 3, cfg_end = find_close(cfg, '>');
            if (cfg_end >= len)
                die_at(i, "kernel launch: no matching >>>");
            size_t st[4], en[4];
            int parts = split_config(cfg, cfg_end, st, en);
            if (parts < 2)
                die_at(i, "kernel launch: <<<grid, block[, shared bytes[, stream]]>>> needs at least two values");
            size_t k = cfg_end + 3;
            while (k < len && isspace((unsigned char)src[k])) {
                lost += src[k] == '\n';
                k++;
            }
            if (src[k] != '(')
                die_at(k, "kernel launch: expected ( and the kernel's arguments after >>>");
            size_t args = k + 1, args_end = find_close(args, ')');
            if (args_end >= len)
                die_at(k, "kernel launch: no matching ) after the arguments");
            /* newlines inside the callee are moved after the call */
            for (char *p = callee; *p; p++)
                if (*p == '\n')
                    *p = ' ';
            /* the kernel's name, as written, for the emulator's messages */
            puts_(out, "emu_launch(\"");
            const char *name_end = callee + strlen(callee);
            while (name_end > callee && isspace((unsigned char)name_end[-1]))
                name_end--;
            for (const char *p = callee; p < name_end; p++) {
                if (*p == '"' || *p == '\\')
                    puts_(out, "\\");
                if (!(isspace((unsigned char)*p) && (p == callee || isspace((unsigned char)p[-1]))))
                    put(out, p, 1);
            }
            puts_(out, "\",");
            for (int p = 0; p < 4; p++) {
                if (p)
                    puts_(out, ",");
                if (p < parts && !blank(st[p], en[p]))
                    put(out, src + st[p], en[p] - st[p]);
                else
                    puts_(out, " 0");
            }
            /* A function's name (a template, an overload set: the call picks it as in CUDA) is called
             * in the lambda, which copies what it names of the launching function ([=]: a pointer
             * to a kernel in a local variable). Any other callee (an element of an array of
             * pointers, a member, a call, a pointer the file declares) is read once, at the launch. */
            char *name = strndup(callee, (size_t)(name_end - callee));
            const char *bare = name;
            while (isspace((unsigned char)*bare))
                bare++;
            if (callee_is_name(name) && !declared_pointer(bare)) {
                puts_(out, ", [=](auto... emu_a_) __attribute__((noinline)) EMU_DEVICE_FN { ");
                puts_(out, callee);
                puts_(out, "(emu_a_...); }");
            } else {
                puts_(out, ", [emu_k_ = (");
                puts_(out, callee);
                puts_(out, ")](auto... emu_a_) __attribute__((noinline)) EMU_DEVICE_FN { emu_k_(emu_a_...); }");
            }
            free(name);
            if (!blank(args, args_end)) {
                puts_(out, ",");
                put(out, src + args, args_end - args);
            } else {
                /* keep line breaks of an empty argument list */
                for (int n = count_newlines(src + args, args_end - args); n > 0; n--)
                    puts_(out, "\n");
            }
            puts_(out, ")");
            for (; lost > 0; lost--)
                puts_(out, "\n");
            free(callee);
            i = args_end + 1;
            continue;
        }
        if (is_ident((unsigned char)c) && (i == 0 || !is_ident((unsigned char)src[i - 1]))) {
            size_t e = i;
            while (e < len && is_ident((unsigned char)src[e]))
                e++;
            if (isdigit((unsigned char)c)) { /* a number: copy it whole (1e5f, 0x1p3) */
                while (e < len && (is_ident((unsigned char)src[e]) || src[e] == '.' || src[e] == '\'' ||
                                   ((src[e] == '+' || src[e] == '-') && strchr("eEpP", src[e - 1]))))
                    e++;
                put(out, src + i, e - i);
                i = e;
                continue;
            }
            if (e - i == 10 && memcmp(src + i, "__shared__", 10) == 0) {
                /* the declaration's other words, in any order (extern float __shared__ a[];
                 * extern volatile __shared__ ...; static volatile __shared__ ...) */
                if (declaration_has(i, e, "extern")) {
                    puts_(out, "EMU_DYNAMIC_SHARED");
                    dyn_pending = 1;
                    depth_at_dyn = depth;
                } else if (declaration_has(i, e, "static")) {
                    puts_(out, "EMU_SHARED");
                } else {
                    puts_(out, "static EMU_SHARED");
                }
            } else if (word_is(i, e, "__noinline__")) {
                /* (not a macro: the C++ library spells the attribute __attribute__((__noinline__))) */
                puts_(out, "__attribute__((noinline))");
            } else if (e - i == 10 && memcmp(src + i, "__device__", 10) == 0) {
                char prev[32];
                previous_word(out, prev, sizeof prev);
                put(out, src + i, e - i);
                int kind = strcmp(prev, "__managed__") == 0 || strcmp(prev, "__constant__") == 0 ? -1 : device_declares(e);
                if (kind == 0 && device_function(e)) {
                    puts_(out, declaration_has(i, e, "__host__") ? " EMU_HOSTDEVICE_FN" : " EMU_DEVICE_FN");
                } else if (kind == 1 || kind == 2) {
                    /* after any C++11 attributes (alignas(16), [[...]]): a GNU attribute may not precede them */
                    size_t at = e;
                    for (;;) {
                        size_t k = at;
                        while (k < len && isspace((unsigned char)src[k]))
                            k++;
                        if (k + 7 <= len && memcmp(src + k, "alignas", 7) == 0 && !is_ident((unsigned char)src[k + 7])) {
                            k += 7;
                            while (k < len && isspace((unsigned char)src[k]))
                                k++;
                            if (k < len && src[k] == '(') {
                                at = skip_balanced(k, '(', ')');
                                continue;
                            }
                        } else if (k + 1 < len && src[k] == '[' && src[k + 1] == '[') {
                            at = skip_balanced(k, '[', ']');
                            continue;
                        }
                        break;
                    }
                    put(out, src + e, at - e);
                    puts_(out, kind == 1 ? " EMU_DEVICE_VAR" : " EMU_DEVICE_CONST");
                    e = at;
                }
            } else {
                int sync = -1;
                for (int d = 0; d < device_syncs && sync < 0; d++)
                    if (device_sync_at[d] == i)
                        sync = d;
                if (sync >= 0)
                    puts_(out, device_sync_host_too[sync] ? "emu_hostdevice_" : "emu_device_");
                put(out, src + i, e - i);
            }
            i = e;
            continue;
        }
        if (c == '(' || c == '[' || c == '{')
            depth++;
        else if (c == ')' || c == ']' || c == '}')
            depth--;
        if (dyn_pending && ((c == ';' || c == ',') && depth == depth_at_dyn)) {
            puts_(out, " EMU_DYNAMIC_NAME(\"emu_dynamic_shared\")");
            dyn_pending = c == ',';
        }
        put(out, &c, 1);
        i++;
    }
}

/* ---- volatile accesses ----
 * The load/store hooks cannot tell a volatile access from another, and the legacy
 * warp-synchronous idiom (lab 05's last warp) works only through volatile ones: without it,
 * the compiler may keep each lane's value in a register. So the output ends with the lines of
 * this file that access memory through something volatile, as a string in the section
 * emu_volatile_lines ("NAME<TAB>line line ...\n"), which the runtime reads (emu_diag.c):
 * a line counts when it has the word volatile (a declaration, a cast) or names a variable or
 * parameter declared volatile anywhere in the file. Data only: no code of the file's own runs
 * before main(), and a line wrongly counted only keeps the old warning. */
static int type_word(const char *w, size_t n)
{
    static const char *const words[] = {"int", "unsigned", "signed", "char", "short", "long", "float", "double",
                                        "bool", "void", "const", "volatile", "struct", "auto", "restrict",
                                        "__restrict__", "__restrict", "size_t", "int32_t", "uint32_t", "int64_t",
                                        "uint64_t", "float2", "float4", "int2", "int4", "uint2", "uint4"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strlen(words[i]) == n && memcmp(words[i], w, n) == 0)
            return 1;
    return 0;
}

static void volatile_lines(buf *out)
{
    int lines = line_of(len) + 1;
    char *marked = calloc((size_t)lines + 1, 1);
    size_t names[256][2];
    int name_count = 0;
    if (!marked)
        return;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < len;) {
            if ((i = next_word(i)) >= len)
                break;
            size_t e = word_end(i);
            if (pass == 0 && word_is(i, e, "volatile")) {
                marked[line_of(i)] = 1;
                /* the name it declares: the last word before = ; , ) [ ( { > at this depth */
                size_t k = e, last = 0, last_end = 0;
                while (k < len && !strchr("=;,)[({>", src[k])) {
                    size_t l = skip_literal(k);
                    if (l != k) {
                        k = l;
                    } else if (is_ident((unsigned char)src[k])) {
                        last = k;
                        last_end = word_end(k);
                        k = last_end;
                    } else {
                        k++;
                    }
                }
                if (last_end > last && !type_word(src + last, last_end - last) && !isdigit((unsigned char)src[last]) &&
                    name_count < 256) {
                    names[name_count][0] = last;
                    names[name_count++][1] = last_end;
                }
            } else if (pass == 1) {
                for (int n = 0; n < name_count; n++)
                    if (e - i == names[n][1] - names[n][0] && memcmp(src + i, src + names[n][0], e - i) == 0)
                        marked[line_of(i)] = 1;
            }
            i = e;
        }
    }
    uint64_t h = 1469598103934665603ull; /* a name of its own per file: headers get one too */
    for (const char *p = in_name; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ull;
    char head[400];
    snprintf(head, sizeof head,
             "\n#ifndef EMU_VOLATILE_LINES_%016llx\n#define EMU_VOLATILE_LINES_%016llx\n"
             "__attribute__((section(\"emu_volatile_lines\"), used)) static const char "
             "emu_volatile_lines_%016llx[] = \"",
             (unsigned long long)h, (unsigned long long)h, (unsigned long long)h);
    puts_(out, head);
    for (const char *p = in_name; *p; p++) {
        if (*p == '"' || *p == '\\')
            puts_(out, "\\");
        put(out, p, 1);
    }
    puts_(out, "\\t");
    for (int l = 1; l <= lines; l++)
        if (marked[l]) {
            char number[16];
            snprintf(number, sizeof number, "%d ", l);
            puts_(out, number);
        }
    puts_(out, "\\n\";\n#endif\n");
    free(marked);
}

/* ---- kernel parameters ----
 * An access out of bounds is named by the kernel's parameter it came from ("C[1024], parameter C
 * of mat_mul"): the runtime knows which argument of the launch points into the block, and the
 * names come from here. The output ends with every __global__ function's parameter names, as a
 * string in the section emu_kernel_params ("kernel<TAB>A B C n\n" per definition or declaration;
 * "-" for an unnamed one), which the runtime reads (emu_diag.c). Data only: a wrong entry only
 * names an argument wrongly in a message. */

/* The name src[a, b) declares: its last word outside brackets before a default value or array
 * bounds; 0 (and "-") when that word is a type (an unnamed parameter). */
static void parameter_name(size_t a, size_t b, char *name, size_t size)
{
    size_t last = 0, last_end = 0;
    int depth = 0;
    for (size_t i = a; i < b;) {
        char c = src[i];
        if (depth == 0 && (c == '=' || c == '['))
            break;
        if (c == '(' || c == '<')
            depth++;
        else if ((c == ')' || c == '>') && depth > 0)
            depth--;
        if (depth == 0 && is_ident((unsigned char)c) && !isdigit((unsigned char)c)) {
            last = i;
            last_end = word_end(i);
            i = last_end;
            continue;
        }
        i++;
    }
    if (last_end > last && !type_word(src + last, last_end - last) && !word_is(last, last_end, "__restrict__"))
        snprintf(name, size, "%.*s", (int)(last_end - last), src + last);
    else
        snprintf(name, size, "-");
}

/* src[a, b) is an empty parameter list: nothing, or void */
static int no_parameters(size_t a, size_t b)
{
    while (a < b && isspace((unsigned char)src[a]))
        a++;
    while (b > a && isspace((unsigned char)src[b - 1]))
        b--;
    return a == b || word_is(a, b, "void");
}

static void put_escaped(buf *out, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '"' || s[i] == '\\')
            puts_(out, "\\");
        put(out, &s[i], 1);
    }
}

static void kernel_params(buf *out)
{
    buf table = {0};
    for (size_t i = 0; i < len;) {
        if ((i = next_word(i)) >= len)
            break;
        size_t e = word_end(i);
        if (!word_is(i, e, "__global__")) {
            i = e;
            continue;
        }
        /* the parameter list: the last ( at depth 0 before the body or the ; */
        size_t k = e, paren = 0;
        int depth = 0;
        while (k < len) {
            size_t jj = skip_literal(k);
            if (jj != k) {
                k = jj;
                continue;
            }
            char c = src[k];
            if (c == '(' && depth++ == 0)
                paren = k;
            else if (c == ')')
                depth--;
            else if (depth == 0 && (c == ';' || c == '{'))
                break;
            k++;
        }
        i = k;
        size_t name_end = paren;
        while (name_end > e && isspace((unsigned char)src[name_end - 1]))
            name_end--;
        size_t name = name_end;
        while (name > e && is_ident((unsigned char)src[name - 1]))
            name--;
        if (!paren || name == name_end)
            continue;
        size_t close = find_close(paren + 1, ')');
        put(&table, src + name, name_end - name);
        put(&table, "\t", 1);
        /* the parameters: top-level commas ((), [], {} and template arguments < > apart) */
        size_t part = paren + 1;
        int angle = 0, first = 1;
        depth = 0;
        for (size_t p = paren + 1; p <= close && close < len; p++) {
            size_t jj = skip_literal(p);
            if (jj != p) {
                p = jj - 1;
                continue;
            }
            char c = src[p];
            if (c == '(' || c == '[' || c == '{')
                depth++;
            else if ((c == ')' || c == ']' || c == '}') && p < close)
                depth--;
            else if (c == '<')
                angle++;
            else if (c == '>' && angle > 0)
                angle--;
            if ((c == ',' && depth == 0 && angle == 0) || p == close) {
                char param[128];
                parameter_name(part, p, param, sizeof param);
                if (!(first && p == close && no_parameters(part, p))) {
                    if (!first)
                        put(&table, " ", 1);
                    puts_(&table, param);
                    first = 0;
                }
                part = p + 1;
            }
        }
        put(&table, "\n", 1);
    }
    if (!table.n) {
        free(table.p);
        return;
    }
    uint64_t h = 1469598103934665603ull;
    for (const char *p = in_name; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ull;
    char head[400];
    snprintf(head, sizeof head,
             "\n#ifndef EMU_KERNEL_PARAMS_%016llx\n#define EMU_KERNEL_PARAMS_%016llx\n"
             "__attribute__((section(\"emu_kernel_params\"), used)) static const char "
             "emu_kernel_params_%016llx[] = \"",
             (unsigned long long)h, (unsigned long long)h, (unsigned long long)h);
    puts_(out, head);
    for (size_t i = 0; i < table.n; i++) {
        if (table.p[i] == '\t')
            puts_(out, "\\t");
        else if (table.p[i] == '\n')
            puts_(out, "\\n");
        else
            put_escaped(out, &table.p[i], 1);
    }
    puts_(out, "\";\n#endif\n");
    free(table.p);
}

/* ---- kernels known by their address ----
 * cudaLaunchKernel((void *)kernel, ...) and cudaLaunchCooperativeKernel pass a kernel as a bare
 * address, with its arguments as an array of pointers: the runtime finds how to unpack them in
 * the section emu_kernels, where each kernel of the file has an entry (EMU_KERNEL_ENTRY in
 * cuda_runtime.h). Written only in a file that names one of those calls, for each kernel defined
 * at file scope that is not a template and whose name no other kernel of the file has (&name must
 * name one function). */
static int file_names(const char *w)
{
    for (size_t i = 0; (i = next_word(i)) < len;) {
        size_t e = word_end(i);
        if (word_is(i, e, w))
            return 1;
        i = e;
    }
    return 0;
}

static void kernel_entries(buf *out)
{
    if (!file_names("cudaLaunchKernel") && !file_names("cudaLaunchCooperativeKernel"))
        return;
    enum { MAX_KERNELS = 256 };
    static char names[MAX_KERNELS][128];
    static int count[MAX_KERNELS], defined[MAX_KERNELS];
    int n = 0, depth = 0;
    for (size_t i = 0; i < len;) {
        size_t j = skip_literal(i);
        if (j != i) {
            i = j;
            continue;
        }
        char c = src[i];
        if (c == '{')
            depth++;
        else if (c == '}')
            depth--;
        if (!is_ident((unsigned char)c) || (i > 0 && is_ident((unsigned char)src[i - 1]))) {
            i++;
            continue;
        }
        size_t e = word_end(i);
        if (!word_is(i, e, "__global__")) {
            i = e;
            continue;
        }
        /* a template: "template" in the declaration before __global__ */
        size_t b = i;
        while (b > 0 && !strchr(";{}", src[b - 1]))
            b--;
        int is_template = 0;
        for (size_t k = b; (k = next_word(k)) < i;) {
            size_t ke = word_end(k);
            is_template |= word_is(k, ke, "template");
            k = ke;
        }
        /* the name before the first ( and whether a body follows */
        size_t k = e, paren = 0;
        while (k < len && !strchr("(;{", src[k]))
            k++;
        if (k >= len || src[k] != '(')
            continue;
        paren = k;
        size_t close = find_close(paren + 1, ')');
        size_t after = close + 1;
        while (after < len && (isspace((unsigned char)src[after]) || is_ident((unsigned char)src[after])))
            after++; /* (attributes such as __launch_bounds__ are macros without their own braces) */
        size_t name_end = paren;
        while (name_end > e && isspace((unsigned char)src[name_end - 1]))
            name_end--;
        size_t name = name_end;
        while (name > e && is_ident((unsigned char)src[name - 1]))
            name--;
        i = e;
        if (name == name_end || name_end - name >= sizeof names[0] || (name > 0 && src[name - 1] == ':'))
            continue;
        int at = 0;
        while (at < n && !word_is(name, name_end, names[at]))
            at++;
        if (at == n) {
            if (n == MAX_KERNELS)
                continue;
            snprintf(names[n], sizeof names[0], "%.*s", (int)(name_end - name), src + name);
            count[n] = defined[n] = 0;
            n++;
        }
        if (is_template || depth != 0)
            count[at] = 2; /* a template or a kernel in a namespace or class: not by its bare name */
        else if (after < len && src[after] == '{') {
            count[at]++; /* (a declaration alone names the same kernel) */
            defined[at] = 1;
        }
    }
    for (int k = 0; k < n; k++)
        if (defined[k] && count[k] == 1) {
            puts_(out, "\nEMU_KERNEL_ENTRY(");
            puts_(out, names[k]);
            puts_(out, ")");
        }
    puts_(out, "\n");
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: rewrite IN.cu OUT.cpp [NAME]\n");
        return 2;
    }
    in_name = argc == 4 ? argv[3] : argv[1];
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    buf in = {0};
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        put(&in, chunk, n);
    fclose(f);
    if (!in.p)
        put(&in, "", 0);
    src = in.p;
    len = in.n;

    buf out = {0};
    puts_(&out, "#line 1 \"");
    for (const char *p = in_name; *p; p++) {
        if (*p == '"' || *p == '\\')
            puts_(&out, "\\");
        put(&out, p, 1);
    }
    puts_(&out, "\"\n");
    check_device_sync();
    rewrite(&out);
    volatile_lines(&out);
    kernel_params(&out);
    kernel_entries(&out);

    FILE *o = fopen(argv[2], "wb");
    if (!o) {
        perror(argv[2]);
        return 1;
    }
    if (fwrite(out.p, 1, out.n, o) != out.n || fclose(o) != 0) {
        perror(argv[2]);
        return 1;
    }
    free(in.p);
    free(out.p);
    return 0;
}
