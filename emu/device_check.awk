# emu/device_check.awk: device code as the emulator must see it, checked on a .cu file's optimized
# and instrumented LLVM IR (emucc compiles to IR, runs this, then compiles the IR to an object).
#
#   awk -f device_check.awk -v source=FILE -v emu_include=DIR [-v fast=1] [-v out=OUT.ll]
#       [-v reached_out=LIST] file.ll                                    (exit 1: refused)
#   awk -f device_check.awk -v check=0 -v reached_in=LIST -v out=OUT.ll file.ll
#
# (lab=1: a lab build, emucc --lab: no device heap either. fast=1: emucc --fast's build, which sees no access: only what it calls and names is checked,
# and its atomics. out=: the module made ready for the code generator, below. reached_out=: the
# functions of device code that the module defines, one a line. check=0 with reached_in=: no
# check, only the module made ready, with those functions as its device code (emucc's two passes,
# emu/two_pass.awk; an empty list: host code only).)
#
# Device code is every function emu/rewrite marked (__global__: the section emu_kernel_text;
# __device__, a launch's lambda: emu_device_text; __host__ __device__: emu_hostdevice_text) and
# every function of the file they reach, whatever the compiler inlined or kept, through calls,
# references or the constant data they name (a virtual function through its class's table). In it:
#   - a call or a reference leaves the file only for the device side of the runtime (the CUDA
#     device API, the access hooks), printf and the math library: a host function called from
#     device code is an error, as nvcc's "calling a __host__ function from a __global__ function
#     is not allowed" (snprintf into host memory, getenv, a host helper that calls them);
#   - a variable it names is device memory (__device__, __constant__, __shared__) or read-only
#     data: a host variable is an error, as nvcc's "identifier is undefined in device code";
#   - its atomics are CUDA's (atomicAdd, ...): the compiler's builtins (__atomic_*, __sync_*), which
#     nvcc refuses in device code as host functions, are errors, whether ThreadSanitizer's pass made
#     them calls or left them instructions (fetch_max, a floating-point add);
#   - every memory access is one the emulator's hooks see: a load or store of
#     a width it skips (a vector wider than 16 bytes, an 80-bit long double, a bit-field or
#     _BitInt of 3, 5, 6 or 7 bytes) or in another address space (__seg_gs), a memory intrinsic
#     or a function left without the hooks are errors;
#   - device-side memory management other than CUDA's device heap (cudaMalloc, cudaMemcpyAsync,
#     realloc) is an error: the host's would run, on memory the checks do not cover;
#   - an intrinsic of the compiler is one that touches no memory;
#   - a kernel's static __shared__ variables, its device functions' included, take at most 48 KiB,
#     as ptxas allows (0xc000 bytes): counted on the optimized code, so that a variable the
#     compiler dropped (never read) counts no more than for nvcc.
# Each error names the file and line (from the IR's debug locations: the innermost one in the
# user's code) and the kernel or device function it was reached from.
#
# The module made ready (out=): the marks of device code taken off (the code stays in .text); a
# read of a built-in variable (threadIdx, blockIdx, blockDim, gridDim: the address a constant)
# without its hook (the answer is always "the thread's own"); and in device code, a call through
# a pointer (a function pointer, a virtual function) first asks the runtime whether it leads to
# device code (emu_device_call: the file's device functions are listed in the section
# emu_device_fns, which emucc adds from reached_out), and malloc, free, new and delete are the
# device heap's (emu_device_malloc, ...: device memory, checked like cudaMalloc's).

# the size in bits of an IR type; -1 where it is not a plain scalar or vector
function type_bits(t,    n, elem, m) {
    if (t ~ /\*$/) return 64
    if (t ~ /^i[0-9]+$/) return substr(t, 2) + 0
    if (t == "half" || t == "bfloat") return 16
    if (t == "float") return 32
    if (t == "double") return 64
    if (t == "fp128") return 128
    if (t ~ /^<[0-9]+ x [^<>]+>$/) {
        m = t; sub(/^</, "", m); sub(/>$/, "", m)
        n = m; sub(/ x .*/, "", n)
        elem = m; sub(/^[0-9]+ x /, "", elem)
        if (type_bits(elem) < 0) return -1
        return (n + 0) * type_bits(elem)
    }
    return -1
}

# the bytes a load or store of the type writes (LLVM's store size: whole bytes); -1 as above
function type_bytes(t,    b) {
    b = type_bits(t)
    return b < 0 ? -1 : int((b + 7) / 8)
}

function demangle(name,    cmd, out) {
    if (name !~ /^_Z/) return name
    if (name in demangled) return demangled[name]
    cmd = "c++filt -- '" name "'"
    out = name
    if ((cmd | getline out) <= 0) out = name
    close(cmd)
    demangled[name] = out
    return out
}

# "file:line" of a debug location: the innermost one in the user's code (not the emulator's or
# the system's headers), else the innermost one
function where(dbg,    d, f, path, first) {
    first = ""
    for (d = dbg; d != ""; d = loc_at[d]) {
        if (!(d in loc_line)) break
        f = scope_file[loc_scope[d]]
        path = file_name[f]
        if (path !~ /^\//) path = file_dir[f] "/" path
        if (first == "") first = file_name[f] ":" loc_line[d]
        if (path !~ /^\/usr\// && index(path, emu_include) != 1)
            return file_name[f] ":" loc_line[d]
    }
    return first != "" ? first : source
}

function refuse(fn, line_no, what, why,    dbg, m) {
    if (!check) return
    dbg = ""
    if (match(L[line_no], /!dbg ![0-9]+/)) dbg = substr(L[line_no], RSTART + 5, RLENGTH - 5)
    m = where(dbg) ": error: [device-code] " what " in device code (" via_of(fn) "): " why
    if (!(m in said)) {
        said[m] = 1
        print m > "/dev/stderr"
        refused = 1
    }
}

function via_of(fn,    r) {
    r = root_of[fn]
    if (r == fn) return "in " demangle(fn)
    return "in " demangle(fn) ", reached from " demangle(r)
}

# ---- sizes of IR types (x86-64), for the static shared memory of a kernel ----
# tsize(t) is the bytes an object of type t takes (its alloc size), talign the alignment of the last
# type asked; -1 where the type is not known (an opaque struct)
function split_top(s, parts,    n, depth, i, ch, from) { # s split at its top-level commas
    n = 0; depth = 0; from = 1
    for (i = 1; i <= length(s); i++) {
        ch = substr(s, i, 1)
        if (ch == "{" || ch == "[" || ch == "<" || ch == "(") depth++
        else if (ch == "}" || ch == "]" || ch == ">" || ch == ")") depth--
        else if (ch == "," && depth == 0) { parts[++n] = trim(substr(s, from, i - from)); from = i + 1 }
    }
    if (trim(substr(s, from)) != "" || n > 0) parts[++n] = trim(substr(s, from))
    return n
}
function tsize(t,    n, elem, size, align, parts, k, i, a, packed, b) {
    t = trim(t)
    if (t ~ /\*$/) { talign = 8; return 8 }
    if (t ~ /^i[0-9]+$/) {
        b = substr(t, 2) + 0
        talign = b <= 8 ? 1 : b <= 16 ? 2 : b <= 32 ? 4 : 8
        size = int((b + 7) / 8)
        return int((size + talign - 1) / talign) * talign
    }
    if (t == "half" || t == "bfloat") { talign = 2; return 2 }
    if (t == "float") { talign = 4; return 4 }
    if (t == "double") { talign = 8; return 8 }
    if (t == "x86_fp80" || t == "fp128") { talign = 16; return 16 }
    if (t ~ /^\[[0-9]+ x .*\]$/) {
        n = t; sub(/^\[/, "", n); sub(/ x .*/, "", n)
        elem = t; sub(/^\[[0-9]+ x /, "", elem); sub(/\]$/, "", elem)
        size = tsize(elem)
        return size < 0 ? -1 : (n + 0) * size
    }
    if (t ~ /^<[0-9]+ x .*>$/) {
        size = type_bytes(t)
        if (size < 0) return -1
        for (a = 1; a < size; a *= 2);
        talign = a
        return a
    }
    if (t ~ /^%/) {
        if (!(t in struct_body)) return -1
        return tsize(struct_body[t])
    }
    packed = t ~ /^<\{.*\}>$/
    if (t ~ /^<?\{.*\}>?$/) {
        sub(/^<?\{/, "", t); sub(/\}>?$/, "", t)
        n = split_top(t, parts)
        size = 0; align = 1
        for (k = 1; k <= n; k++) {
            i = tsize(parts[k])
            if (i < 0) return -1
            a = packed ? 1 : talign
            size = int((size + a - 1) / a) * a + i
            if (a > align) align = a
        }
        talign = align
        return int((size + align - 1) / align) * align
    }
    return -1
}

# ---- a call through a pointer, made to ask the runtime first (out=) ----
# The pointer type of the callee of a call or invoke line whose callee is %name (from its return
# type and its arguments' types, or the explicit function type a variadic call spells); "" where
# the line cannot be read.
function callee_type(line, callee_at,    pre, k, w, nw, words, ret, args, n, parts, i, types, rest, depth, ch) {
    pre = substr(line, 1, callee_at - 1)
    if (!match(pre, /(^|[ =])(call|invoke) /)) return ""
    rest = substr(pre, RSTART + RLENGTH)
    # fast-math flags, calling conventions, return attributes: then the type
    for (;;) {
        rest = trim(rest)
        w = rest; sub(/[ (].*/, "", w)
        if (w ~ /^(fast|nnan|ninf|nsz|arcp|contract|afn|reassoc|fastcc|coldcc|ccc|tailcc|swiftcc|noundef|nonnull|noalias|zeroext|signext|inreg)$/) {
            rest = substr(rest, length(w) + 1); continue
        }
        if (w ~ /^(align|cc)$/) { rest = substr(rest, length(w) + 1); rest = trim(rest); sub(/^[0-9]+/, "", rest); continue }
        if (w ~ /^(dereferenceable|dereferenceable_or_null|addrspace)\(/ || rest ~ /^(dereferenceable|dereferenceable_or_null|addrspace)\(/) {
            sub(/^[a-z_]+\([0-9]+\)/, "", rest); continue
        }
        break
    }
    ret = trim(rest)
    if (ret ~ /\)\*?$/ && ret ~ / \(/) return ret "*" # a variadic call: the function type itself
    # the arguments: from the ( after the callee to its match
    rest = substr(line, callee_at)
    k = index(rest, "(")
    depth = 0
    for (i = k; i <= length(rest); i++) {
        ch = substr(rest, i, 1)
        if (ch == "(" || ch == "{" || ch == "[" || ch == "<") depth++
        else if (ch == ")" || ch == "}" || ch == "]" || ch == ">") { depth--; if (depth == 0) break }
    }
    args = substr(rest, k + 1, i - k - 1)
    n = split_top(args, parts)
    types = ""
    for (i = 1; i <= n; i++) types = types (i > 1 ? ", " : "") first_type(parts[i])
    return ret " (" types ")*"
}

BEGIN {
    if (check == "") check = 1
    device_api = "^(emu_(launch_raw|launch_name|launch_flags|closure_alloc|thread_idx|block_idx|block_dim|grid_dim|" \
        "syncthreads|syncthreads_op|syncwarp|threadfence|warp_op|activemask|atomic_site|atomic_cas_next|trap|" \
        "atomic_(i32|u32|u64|i64|f32|f64)|grid_sync|grid_valid|clock64|device_call|tc_[a-z0-9_]+)|" \
        "__tsan_(unaligned_)?(read|write)(1|2|4|8|16)|__tsan_vptr_(read|update)|" \
        "cuda(GetLastError|PeekAtLastError|GetErrorString|GetErrorName|GetDevice|GetDeviceCount|DeviceGetAttribute|" \
        "DeviceGetLimit|StreamCreateWithFlags|StreamDestroy|StreamWaitEvent|EventCreateWithFlags|EventRecord|" \
        "EventDestroy|FuncGetAttributes|RuntimeGetVersion)|" \
        "memcpy|memmove|memset|printf|vprintf|puts|putchar|__assert_fail|clock|" \
        "__gxx_personality_v0|_Unwind_Resume|__cxa_begin_catch|__cxa_end_catch|_ZSt9terminatev|__stack_chk_fail|" \
        "__cxa_pure_virtual)$"
    math = "^((sin|cos|tan|asin|acos|atan|atan2|sinh|cosh|tanh|asinh|acosh|atanh|exp|exp2|exp10|expm1|log|log2|" \
        "log10|log1p|logb|ilogb|pow|sqrt|cbrt|hypot|fabs|floor|ceil|round|trunc|fmod|remainder|remquo|fmin|fmax|" \
        "fdim|fma|erf|erfc|lgamma|tgamma|ldexp|frexp|modf|scalbn|scalbln|nextafter|rint|lrint|llrint|lround|" \
        "llround|nearbyint|copysign|sincos|nan|j0|j1|jn|y0|y1|yn)f?|abs|labs|llabs)$"
    # intrinsics that touch no memory (or only the thread's own stack)
    intrinsics = "^llvm\\.(dbg|lifetime|assume|experimental\\.noalias|expect|invariant|launder|strip|" \
        "[us](min|max)|abs|fsh[lr]|ctpop|ctlz|cttz|bswap|bitreverse|fabs|sqrt|fma|fmuladd|floor|ceil|trunc|" \
        "round|roundeven|rint|nearbyint|l?lround|l?lrint|minnum|maxnum|minimum|maximum|copysign|exp|exp2|log|" \
        "log2|log10|pow|powi|sin|cos|canonicalize|[us](add|sub|mul)\\.with\\.overflow|[us](add|sub|shl)\\.sat|" \
        "trap|ubsantrap|debugtrap|stacksave|stackrestore|objectsize|is\\.constant|prefetch|sideeffect|" \
        "donothing|ptrmask|annotation|var\\.annotation|vector\\.reduce|experimental\\.vector\\.reduce|" \
        "smul\\.fix|umul\\.fix|is\\.fpclass|frexp|ldexp)(\\.|$)"
    device_sections = "^(emu_shared|emu_device|emu_device_ro|emu_constant|emu_volatile_lines|emu_kernel_params)$"
    builtin_vars = "^(threadIdx|blockIdx|blockDim|gridDim|emu_dynamic_shared)$"
    # CUDA's device heap (malloc, free, new, delete in device code): the runtime's, in device memory
    heap["malloc"] = "emu_device_malloc"; heap["calloc"] = "emu_device_calloc"; heap["free"] = "emu_device_free"
    heap["_Znwm"] = "emu_device_new"; heap["_Znam"] = "emu_device_new_array"
    heap["_ZdlPv"] = "emu_device_delete"; heap["_ZdaPv"] = "emu_device_delete_array"
    heap["_ZdlPvm"] = "emu_device_delete_sized"; heap["_ZdaPvm"] = "emu_device_delete_array_sized"
    mark_sections = "emu_device_text|emu_kernel_text|emu_hostdevice_text"
    if (reached_in != "")
        while ((getline line < reached_in) > 0) if (line != "") given[line] = 1
}

{ L[NR] = $0 }

/^define / {
    fn = ""
    if (match($0, /@("[^"]*"|[-a-zA-Z$._0-9]+)\(/)) fn = sym_name(substr($0, RSTART, RLENGTH - 1))
    defined[fn] = 1
    define_line[fn] = NR
    body_from[fn] = NR + 1
    if (reached_in == "" && $0 ~ / section "(emu_device_text|emu_kernel_text|emu_hostdevice_text)"/)
        roots[++nroots] = fn
    if (reached_in != "" && (fn in given)) roots[++nroots] = fn
    if ($0 ~ / section "emu_kernel_text"/) is_kernel[fn] = 1
    attr_of[fn] = ""
    if (match($0, / #[0-9]+( |$)/)) { attr_of[fn] = substr($0, RSTART + 1, RLENGTH - 1); sub(/ $/, "", attr_of[fn]) }
    if (match($0, /!dbg ![0-9]+/)) fn_dbg[fn] = substr($0, RSTART + 5, RLENGTH - 5)
    in_body = 1
    next
}
in_body && /^}/ { body_to[fn] = NR - 1; in_body = 0; next }
in_body { next }

/^declare / {
    if (match($0, /@("[^"]*"|[-a-zA-Z$._0-9]+)\(/)) {
        name = sym_name(substr($0, RSTART, RLENGTH - 1))
        declared[name] = 1
        declare_line[name] = $0
    }
    next
}

/^%[-a-zA-Z$._0-9"]+ = type / {
    name = $1
    t = $0; sub(/^[^=]*= type /, "", t)
    struct_body[name] = t
    next
}

/^@/ {
    name = $1
    name = sym_name(name)
    var[name] = 1
    var_line[name] = NR
    for (i = 3; i <= NF; i++) {
        if ($i == "global") break
        if ($i == "constant") { is_const[name] = 1; break }
        if ($i ~ /^thread_local/) is_tls[name] = 1
        if ($i == "alias" || $i == "ifunc") { is_alias[name] = 1; break }
    }
    if (match($0, /, section "[^"]*"/)) section_of[name] = substr($0, RSTART + 11, RLENGTH - 12)
    next
}

/^attributes #[0-9]+ = / { hooked[$2] = index($0, " sanitize_thread ") > 0; next }

/^![0-9]+ = / {
    id = $1
    if ($0 ~ /!DILocation\(/) {
        if (match($0, /line: [0-9]+/)) loc_line[id] = substr($0, RSTART + 6, RLENGTH - 6)
        if (match($0, /scope: ![0-9]+/)) loc_scope[id] = substr($0, RSTART + 7, RLENGTH - 7)
        if (match($0, /inlinedAt: ![0-9]+/)) loc_at[id] = substr($0, RSTART + 11, RLENGTH - 11)
    } else if ($0 ~ /!DIFile\(/) {
        if (match($0, /filename: "[^"]*"/)) file_name[id] = substr($0, RSTART + 11, RLENGTH - 12)
        if (match($0, /directory: "[^"]*"/)) file_dir[id] = substr($0, RSTART + 12, RLENGTH - 13)
    } else if (match($0, /[ (]file: ![0-9]+/)) {
        scope_file[id] = substr($0, RSTART + 7, RLENGTH - 7)
        if (match($0, / line: [0-9]+/)) scope_line[id] = substr($0, RSTART + 7, RLENGTH - 7)
    }
    next
}

# A function of the file that device code reaches (through a call, a reference, or constant data it
# names: a class's table of virtual functions).
function reach(ref, from) {
    if (ref in reached) return
    reached[ref] = 1
    root_of[ref] = root_of[from]
    queue[++queued] = ref
}

# The functions the initializer of variable v names, at any depth of constant data (a table of
# virtual functions, of function pointers): device code reaches them.
function reach_through(v, from,    rest, ref) {
    if (v in data_seen) return
    data_seen[v] = 1
    rest = L[var_line[v]]
    sub(/^@("[^"]*"|[-a-zA-Z$._0-9]+)/, "", rest)
    while (match(rest, /@("[^"]*"|[-a-zA-Z$._0-9]+)/)) {
        ref = sym_name(substr(rest, RSTART, RLENGTH))
        rest = substr(rest, RSTART + RLENGTH)
        if (ref in defined) reach(ref, from)
        else if (ref in var) reach_through(ref, from)
    }
}

# One function of device code: its references and its instructions.
function check_function(fn,    i, line, rest, s, ref, t, bytes, op, callee, local, def, base, ptr) {
    split("", local)
    if (!(fn in attr_of) || !hooked[attr_of[fn]])
        unhooked = 1
    else
        unhooked = 0
    for (i = body_from[fn]; i <= body_to[fn]; i++) {
        line = L[i]
        # references to functions and variables
        rest = line
        while (match(rest, /@("[^"]*"|[-a-zA-Z$._0-9]+)/)) {
            ref = sym_name(substr(rest, RSTART, RLENGTH))
            rest = substr(rest, RSTART + RLENGTH)
            refs[fn, ref] = 1
            if (ref in defined) {
                if (!((fn, ref) in edge)) { edge[fn, ref] = 1; callees[fn] = callees[fn] SUBSEP ref }
                reach(ref, fn)
            } else if (ref ~ /^llvm\./) {
                if (ref !~ intrinsics && !(fast && ref ~ /^llvm\.mem(cpy|move|set)/)) {
                    if (ref ~ /^llvm\.mem(cpy|move|set)/)
                        refuse(fn, i, "a memory copy the emulator does not see (" ref ")", \
                            "it is compiled without the emulator's access hooks")
                    else
                        refuse(fn, i, "the compiler intrinsic " ref, \
                            "it may touch memory the emulator's hooks do not see; write the access in C++")
                }
            } else if (ref in var) {
                if (section_of[ref] == "emu_shared" && !((fn, ref) in shared_use)) {
                    shared_use[fn, ref] = 1; shared_of[fn] = shared_of[fn] SUBSEP ref
                }
                if (is_tls[ref] || (!is_const[ref] && !(section_of[ref] ~ device_sections) && ref !~ builtin_vars))
                    refuse(fn, i, "the host variable " demangle(ref), \
                        "device code uses only device memory (__device__, __constant__, __shared__ variables and " \
                        "what the kernel's pointers point to); nvcc: \"identifier is undefined in device code\"")
                if (is_alias[ref])
                    refuse(fn, i, "the alias " demangle(ref), "the emulator cannot tell what it names")
                reach_through(ref, fn)
            } else if (ref ~ /^__tsan_atomic/) {
                op = ref; sub(/^__tsan_atomic([0-9]+)?_/, "", op)
                refuse(fn, i, "an atomic builtin of the compiler (__atomic_*, __sync_*, std::atomic: here " op ")", \
                    "to nvcc a host function (\"calling a __host__ function(\"__atomic_fetch_add_4\") from a " \
                    "__global__ function is not allowed\"); use CUDA's atomic functions (atomicAdd, atomicCAS, " \
                    "...) and __threadfence()")
            } else if ((ref in heap) && lab) {
                refuse(fn, i, "device-side memory management (" demangle(ref) ")", \
                    "a lab kernel allocates nothing: the launch function allocates with cudaMalloc and passes " \
                    "the memory to the kernel (the device heap works outside lab builds)")
            } else if (ref in heap) {
                uses_heap[ref] = 1 # CUDA's device heap (the runtime's, out=)
            } else if (ref ~ /^(cuda(Memcpy|Memset)[A-Za-z0-9]*|cudaMalloc|cudaFree|realloc|reallocarray|aligned_alloc|posix_memalign|memalign|valloc|_Zn[wa]m.+|_Zd[la]Pv.+)$/) {
                refuse(fn, i, "device-side memory management (" demangle(ref) ")", \
                    "the emulator has CUDA's device heap (malloc, free, new and delete) but no device-side " \
                    "cudaMalloc, copies or other allocators: the host's would run unseen, on memory the kernel's " \
                    "checks do not cover. Allocate and copy in the launch function")
            } else if (!(ref ~ device_api) && !(ref ~ math)) {
                refuse(fn, i, "a call of " demangle(ref) "()", \
                    "it is a host function, and device code may call only device functions (its own __device__ " \
                    "functions, CUDA's device API, printf and the math library); nvcc: \"calling a __host__ " \
                    "function from a __global__ function is not allowed\"")
            }
        }
        # locals: the thread's own stack, which the hooks need not see
        if (match(line, /^ *%[-a-zA-Z$._0-9"]+ = alloca /)) {
            def = line; sub(/^ */, "", def); sub(/ .*/, "", def); local[def] = 1
        } else if (match(line, /^ *%[-a-zA-Z$._0-9"]+ = (bitcast|getelementptr|addrspacecast) /)) {
            def = line; sub(/^ */, "", def); sub(/ .*/, "", def)
            base = line; sub(/^[^=]*= [a-z]+ (inbounds )?/, "", base)
            if (match(base, /%[-a-zA-Z$._0-9"]+/) && (substr(base, RSTART, RLENGTH) in local)) local[def] = 1
        }
        if (line ~ /= (atomicrmw|cmpxchg) /) {
            op = line; sub(/^.*= /, "", op); sub(/ (volatile )?[a-z0-9]+\*? .*/, "", op)
            t = line; sub(/^.*= atomicrmw (volatile )?/, "", t); sub(/ .*/, "", t)
            refuse(fn, i, "an atomic builtin of the compiler (" (op ~ /^atomicrmw/ ? t : "compare-and-swap") \
                "), an instruction the emulator cannot see", "use CUDA's atomic functions (atomicAdd, atomicMax, " \
                "atomicMin, atomicCAS, ...), which it checks and counts; nvcc refuses the compiler's builtins in " \
                "device code")
        }
        if (!fast && (line ~ /= load / || line ~ /^ *store /)) {
            s = line
            if (s ~ /= load /) sub(/^.*= load (atomic )?(volatile )?/, "", s)
            else sub(/^ *store (atomic )?(volatile )?/, "", s)
            t = first_type(s)
            bytes = type_bytes(t)
            ptr = line; sub(/, align [0-9]+.*$/, "", ptr); sub(/, !.*$/, "", ptr); sub(/^.* /, "", ptr)
            if (line ~ /addrspace\(/)
                refuse(fn, i, "a memory access in another address space (" t ")", \
                    "the emulator's hooks see only ordinary pointers (no __seg_fs, __seg_gs)")
            else if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8 && bytes != 16 && !(ptr in local))
                refuse(fn, i, "a " (bytes > 0 ? bytes "-byte " : "") "memory access (" t ") that the emulator " \
                    "cannot see", "a GPU loads and stores 1, 2, 4, 8 or 16 bytes at a time, and so do the " \
                    "emulator's hooks: no vector wider than 16 bytes, long double, or bit-field or _BitInt of " \
                    "another width")
            else if (unhooked && !(ptr in local))
                refuse(fn, i, "a memory access of a function compiled without the emulator's access hooks", \
                    "every access of device code must go through them")
        }
        if (line ~ /(^|[ =])(call|invoke) /) {
            callee = ""
            if (match(line, /[@%]("[^"]*"|[-a-zA-Z$._0-9]+)\(/)) callee = substr(line, RSTART, 1)
            if (callee == "%" && callee_type(line, RSTART) == "")
                refuse(fn, i, "a call through a pointer the emulator cannot read", \
                    "it asks the runtime at every such call whether the pointer leads to device code, and could " \
                    "not make the question for this one")
            if (line ~ / asm (sideeffect )?(alignstack )?(inteldialect )?"[^"]/)
                refuse(fn, i, "inline assembly", "its memory accesses would go unseen")
        }
    }
}

# A kernel's static __shared__ variables, its device functions' included (ptxas's count).
function shared_limit(k,    seen, todo, n, q, f, list, m, j, v, total, names, size, known, dbg) {
    split("", seen); split("", todo); split("", known)
    n = 1; todo[1] = k; seen[k] = 1
    total = 0; names = ""
    for (q = 1; q <= n; q++) {
        f = todo[q]
        m = split(shared_of[f], list, SUBSEP)
        for (j = 2; j <= m; j++) {
            v = list[j]
            if (v in known) continue
            known[v] = 1
            size = var_size(v)
            if (size < 0) return
            total += size
            names = names (names == "" ? "" : ", ") demangle(v) " (" size " bytes)"
        }
        m = split(callees[f], list, SUBSEP)
        for (j = 2; j <= m; j++)
            if (!(list[j] in seen)) { seen[list[j]] = 1; todo[++n] = list[j] }
    }
    if (total <= 49152) return
    dbg = fn_dbg[k]
    m = (dbg in scope_file) ? file_name[scope_file[dbg]] ":" scope_line[dbg] : source
    print m ": error: [device-code] the kernel " demangle(k) " has " total " bytes of static __shared__ " \
        "variables, more than 48 KiB (49152), the most static shared memory a kernel may have: nvcc (ptxas) " \
        "refuses it (uses too much shared data, 0xc000 max). Its variables: " names ". Use smaller tiles, or " \
        "extern __shared__ memory with cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, " \
        "bytes)" > "/dev/stderr"
    refused = 1
}

# the bytes a global variable takes (its type, from its definition line); -1: not known
function var_size(v,    line, t) {
    line = L[var_line[v]]
    sub(/^@("[^"]*"|[-a-zA-Z$._0-9]+) = /, "", line)
    if (!match(line, /(^| )(global|constant) /)) return -1
    t = first_type(substr(line, RSTART + RLENGTH))
    return tsize(t)
}

# ---- the module made ready for the code generator (out=) ----
function finish(    i, line, fn, in_fn, a, rest, ref, pre, n, t, dbg, k) {
    k = 0
    for (i = 1; i <= NR; i++) {
        line = L[i]
        if (line ~ /^define /) {
            fn = ""
            if (match(line, /@("[^"]*"|[-a-zA-Z$._0-9]+)\(/)) fn = sym_name(substr(line, RSTART, RLENGTH - 1))
            in_fn = fn in reached
            sub(/ section "(emu_device_text|emu_kernel_text|emu_hostdevice_text)"/, "", line)
        } else if (line ~ /^}/) {
            in_fn = 0
        } else if (line ~ /^  call void @__tsan_(unaligned_)?read[0-9]+\(i8\* /) {
            # a read of a built-in variable at a constant address: no hook
            a = line; gsub(/%(struct|class)\.(uint3|dim3)/, "", a)
            if (a !~ /%/ && a ~ /@(threadIdx|blockIdx|blockDim|gridDim)[ ,)]/) continue
        } else if (in_fn) {
            # CUDA's device heap
            if (line ~ /@(malloc|calloc|free|_Znwm|_Znam|_ZdlPv|_ZdaPv|_ZdlPvm|_ZdaPvm)[(,) ]/) {
                rest = line; line = ""
                while (match(rest, /@("[^"]*"|[-a-zA-Z$._0-9]+)/)) {
                    ref = sym_name(substr(rest, RSTART, RLENGTH))
                    pre = substr(rest, 1, RSTART - 1)
                    rest = substr(rest, RSTART + RLENGTH)
                    if (ref in heap) { line = line pre "@" heap[ref]; heap_used[ref] = 1 }
                    else line = line pre "@" ref_text(ref)
                }
                line = line rest
            }
            # a call through a pointer asks the runtime first
            if (line ~ /(^|[ =])(call|invoke) / && match(line, /[@%]("[^"]*"|[-a-zA-Z$._0-9]+)\(/) &&
                substr(line, RSTART, 1) == "%") {
                ref = substr(line, RSTART, RLENGTH - 1)
                t = callee_type(line, RSTART)
                dbg = ""
                if (match(line, /, !dbg ![0-9]+/)) dbg = substr(line, RSTART, RLENGTH)
                if (t != "") {
                    k++
                    print "  %emu.fp." k " = bitcast " t " " ref " to i8*" > out
                    print "  call void @emu_device_call(i8* %emu.fp." k ")" dbg > out
                    call_checked = 1
                }
            }
        }
        print line > out
    }
    if (call_checked) print "declare void @emu_device_call(i8*)" > out
    for (ref in heap_used) {
        line = declare_line[ref]
        sub(/@("[^"]*"|[-a-zA-Z$._0-9]+)\(/, "@" heap[ref] "(", line)
        print line > out
    }
    close(out)
}

# a symbol as the IR writes it

END {
    for (r = 1; r <= nroots; r++) {
        fn = roots[r]
        if (!(fn in reached)) { reached[fn] = 1; root_of[fn] = fn; queue[++queued] = fn }
    }
    for (q = 1; q <= queued; q++)
        check_function(queue[q])
    if (check)
        for (fn in is_kernel)
            if (fn in reached) shared_limit(fn)
    if (refused) exit 1
    if (reached_out != "") {
        printf "" > reached_out
        for (fn in reached)
            if (L[define_line[fn]] !~ /^define (available_externally|private) /) print fn > reached_out
        close(reached_out)
    }
    if (out != "") finish()
    exit 0
}
