# emu/device_check.awk: device code as the emulator must see it, checked on a .cu file's optimized
# and instrumented LLVM IR (emucc compiles to IR, runs this, then compiles the IR to an object).
#
#   awk -f device_check.awk -v source=FILE -v emu_include=DIR [-v fast=1] file.ll   (exit 1: refused)
#
# (fast=1: emucc --fast's build, which sees no access: only what it calls and names is checked,
# and its atomics.)
#
# Device code is every function emu/rewrite marked (__global__, __device__, a launch's lambda:
# the section emu_device_text) and every function of the file they reach, whatever the compiler
# inlined or kept. In it:
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
#   - a call through a pointer (a function pointer, a virtual function) is an error: where it
#     leads is not known at build time;
#   - device-side memory management (malloc, new, cudaMemcpyAsync, cudaMalloc) is an error: the
#     host's would run, on memory the checks do not cover;
#   - an intrinsic of the compiler is one that touches no memory.
# Each error names the file and line (from the IR's debug locations: the innermost one in the
# user's code) and the kernel or device function it was reached from.

function sym_name(s) { # "@name" or "@\"name\"" -> name
    s = substr(s, 2)
    if (substr(s, 1, 1) == "\"")
        s = substr(s, 2, length(s) - 2)
    return s
}

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

# the type that starts s (a load's or store's first operand type)
function first_type(s,    c, depth, i, ch, t, rest) {
    c = substr(s, 1, 1)
    if (c == "<" || c == "[" || c == "{") {
        depth = 0
        for (i = 1; i <= length(s); i++) {
            ch = substr(s, i, 1)
            if (ch == "<" || ch == "[" || ch == "{") depth++
            else if (ch == ">" || ch == "]" || ch == "}") { depth--; if (depth == 0) break }
        }
        t = substr(s, 1, i)
        rest = substr(s, i + 1)
        while (substr(rest, 1, 1) == "*") { t = t "*"; rest = substr(rest, 2) }
        return t
    }
    t = s
    sub(/[ ,].*/, "", t)
    return t
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

BEGIN {
    device_api = "^(emu_(launch_raw|launch_name|closure_alloc|thread_idx|block_idx|block_dim|grid_dim|syncthreads|" \
        "syncthreads_op|syncwarp|threadfence|warp_op|activemask|atomic_site|atomic_cas_next|trap|atomic_(i32|u32|u64|" \
        "f32|f64)|tc_[a-z0-9_]+)|__tsan_(unaligned_)?(read|write)(1|2|4|8|16)|__tsan_vptr_(read|update)|" \
        "cuda(GetLastError|PeekAtLastError|GetErrorString|GetErrorName|GetDevice|GetDeviceCount|DeviceGetAttribute|" \
        "DeviceGetLimit|StreamCreateWithFlags|StreamDestroy|StreamWaitEvent|EventCreateWithFlags|EventRecord|" \
        "EventDestroy|FuncGetAttributes|RuntimeGetVersion)|" \
        "memcpy|memmove|memset|printf|vprintf|puts|putchar|__assert_fail|" \
        "__gxx_personality_v0|_Unwind_Resume|__cxa_begin_catch|__cxa_end_catch|_ZSt9terminatev|__stack_chk_fail)$"
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
}

{ L[NR] = $0 }

/^define / {
    fn = ""
    if (match($0, /@("[^"]*"|[-a-zA-Z$._0-9]+)\(/)) fn = sym_name(substr($0, RSTART, RLENGTH - 1))
    defined[fn] = 1
    body_from[fn] = NR + 1
    if ($0 ~ / section "emu_device_text"/) roots[++nroots] = fn
    attr_of[fn] = ""
    if (match($0, / #[0-9]+( |$)/)) { attr_of[fn] = substr($0, RSTART + 1, RLENGTH - 1); sub(/ $/, "", attr_of[fn]) }
    in_body = 1
    next
}
in_body && /^}/ { body_to[fn] = NR - 1; in_body = 0; next }
in_body { next }

/^declare / {
    if (match($0, /@("[^"]*"|[-a-zA-Z$._0-9]+)\(/)) declared[sym_name(substr($0, RSTART, RLENGTH - 1))] = 1
    next
}

/^@/ {
    name = $1
    name = sym_name(name)
    var[name] = 1
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
    }
    next
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
            if (ref in defined) {
                if (!(ref in reached)) { reached[ref] = 1; root_of[ref] = root_of[fn]; queue[++queued] = ref }
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
                if (is_tls[ref] || (!is_const[ref] && !(section_of[ref] ~ device_sections) && ref !~ builtin_vars))
                    refuse(fn, i, "the host variable " demangle(ref), \
                        "device code uses only device memory (__device__, __constant__, __shared__ variables and " \
                        "what the kernel's pointers point to); nvcc: \"identifier is undefined in device code\"")
                if (is_alias[ref])
                    refuse(fn, i, "the alias " demangle(ref), "the emulator cannot tell what it names")
            } else if (ref ~ /^__tsan_atomic/) {
                op = ref; sub(/^__tsan_atomic([0-9]+)?_/, "", op)
                refuse(fn, i, "an atomic builtin of the compiler (__atomic_*, __sync_*, std::atomic: here " op ")", \
                    "to nvcc a host function (\"calling a __host__ function(\"__atomic_fetch_add_4\") from a " \
                    "__global__ function is not allowed\"); use CUDA's atomic functions (atomicAdd, atomicCAS, " \
                    "...) and __threadfence()")
            } else if (ref ~ /^(cuda(Memcpy|Memset)[A-Za-z0-9]*|cudaMalloc|cudaFree|malloc|free|calloc|realloc|_Zn[wa]m|_Zd[la]Pv.*)$/) {
                refuse(fn, i, "device-side memory management (" demangle(ref) ")", \
                    "the emulator has no device heap or device-side copies: the host's would run unseen, on " \
                    "memory the kernel's checks do not cover. Allocate and copy in the launch function")
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
            if (callee == "%")
                refuse(fn, i, "a call through a pointer (a function pointer or a virtual function)", \
                    "the emulator cannot tell at build time that it calls device code")
            if (line ~ / asm (sideeffect )?(alignstack )?(inteldialect )?"[^"]/)
                refuse(fn, i, "inline assembly", "its memory accesses would go unseen")
        }
    }
}

END {
    for (r = 1; r <= nroots; r++) {
        fn = roots[r]
        if (!(fn in reached)) { reached[fn] = 1; root_of[fn] = fn; queue[++queued] = fn }
    }
    for (q = 1; q <= queued; q++)
        check_function(queue[q])
    exit refused
}
