# emu/two_pass.awk: nvcc's two passes of a .cu file in one object. emucc compiles a file whose
# code names __CUDA_ARCH__ twice, as nvcc does: once as the device pass (__CUDA_ARCH__ defined),
# once as the host pass (not); this puts the device pass's device code and the host pass's host
# code into two modules that link into one object (ld -r).
#
#   awk -f two_pass.awk -v reached=LIST -v suffix=.emu_dev.HASH -v device_out=D2.ll \
#       -v host_out=H2.ll -v reached_out=LIST2 DEVICE.ll HOST.ll
#
# reached: the device pass's device functions (device_check.awk's reached_out). In the device
# module (D2), those functions alone, each renamed NAME+suffix (with the host pass's copy of the
# same name beside them, a __host__ __device__ function has one body per pass), and the constant
# data they name; the device memory they name that the host pass defines too (a __device__,
# __constant__, __shared__ or __managed__ variable: one object, which cudaMemcpyToSymbol fills) is
# only declared, under a name of the file's own where it is static. In the host module (H2), every
# device-only function (__global__, __device__ without __host__, a launch's lambda and thunk) that
# the device pass has is gone, and every reference to it, a launch's or a table of kernels', leads
# to the device pass's. reached_out: the device module's functions (device code), renamed.

# s with every symbol of the map renamed (@ and $ names: functions, variables, comdats)
function rename(s, map,    out, ref, sigil) {
    out = ""
    while (match(s, /[@$]("[^"]*"|[-a-zA-Z$._0-9]+)/)) {
        sigil = substr(s, RSTART, 1)
        ref = sym_name(substr(s, RSTART, RLENGTH))
        out = out substr(s, 1, RSTART - 1)
        if (ref in map) out = out sigil ref_text(map[ref])
        else out = out substr(s, RSTART, RLENGTH)
        s = substr(s, RSTART + RLENGTH)
    }
    return out s
}

# the symbols a line names
function refs_of(s, list,    n) {
    n = 0
    while (match(s, /@("[^"]*"|[-a-zA-Z$._0-9]+)/)) {
        list[++n] = sym_name(substr(s, RSTART, RLENGTH))
        s = substr(s, RSTART + RLENGTH)
    }
    return n
}

# A declaration of a function from its definition line, under another name.
function declaration_of(line, name,    head, params, n, parts, i, p, depth, ch, k, out) {
    # the ( after @name
    match(line, /@("[^"]*"|[-a-zA-Z$._0-9]+)\(/)
    head = substr(line, 1, RSTART - 1)
    k = RSTART + RLENGTH - 1
    depth = 0
    for (i = k; i <= length(line); i++) {
        ch = substr(line, i, 1)
        if (ch == "(" || ch == "{" || ch == "[" || ch == "<") depth++
        else if (ch == ")" || ch == "}" || ch == "]" || ch == ">") { depth--; if (depth == 0) break }
    }
    params = substr(line, k + 1, i - k - 1)
    sub(/^define /, "", head)
    gsub(/(^| )(private|internal|available_externally|linkonce|weak|common|appending|extern_weak|linkonce_odr|weak_odr|external|dso_local|dso_preemptable|hidden|protected|default|dllimport|dllexport)( |$)/, " ", head)
    gsub(/(^| )(private|internal|available_externally|linkonce|weak|common|appending|extern_weak|linkonce_odr|weak_odr|external|dso_local|dso_preemptable|hidden|protected|default|dllimport|dllexport)( |$)/, " ", head)
    out = ""
    n = split_top(params, parts)
    for (p = 1; p <= n; p++) {
        sub(/ %[-a-zA-Z$._0-9"]+$/, "", parts[p])
        out = out (p > 1 ? ", " : "") parts[p]
    }
    return "declare " trim(head) " @" ref_text(name) "(" out ")"
}
function split_top(s, parts,    n, depth, i, ch, from) {
    n = 0; depth = 0; from = 1
    for (i = 1; i <= length(s); i++) {
        ch = substr(s, i, 1)
        if (ch == "{" || ch == "[" || ch == "<" || ch == "(") depth++
        else if (ch == "}" || ch == "]" || ch == ">" || ch == ")") depth--
        else if (ch == "," && depth == 0) { parts[++n] = trim(substr(s, from, i - from)); from = i + 1 }
    }
    if (trim(substr(s, from)) != "") parts[++n] = trim(substr(s, from))
    return n
}

# A definition of a variable made a declaration: its type, section and alignment kept.
function variable_declaration(line, name,    rest, kind, t, sec, al) {
    rest = line
    sub(/^@("[^"]*"|[-a-zA-Z$._0-9]+) = /, "", rest)
    if (!match(rest, /(^| )(global|constant) /)) return ""
    kind = substr(rest, RSTART, RLENGTH); kind = trim(kind)
    t = first_type(substr(rest, RSTART + RLENGTH))
    sec = ""; al = ""
    if (match(line, /, section "[^"]*"/)) sec = substr(line, RSTART, RLENGTH)
    if (match(line, /, align [0-9]+/)) al = substr(line, RSTART, RLENGTH)
    return "@" ref_text(name) " = external " kind " " t sec al
}

function linkage_of(line,    rest) { # of a definition: internal, private, or other
    rest = line
    sub(/^define /, "", rest)
    sub(/^@("[^"]*"|[-a-zA-Z$._0-9]+) = /, "", rest)
    if (rest ~ /^(internal|private) /) return substr(rest, 1, index(rest, " ") - 1)
    return "other"
}

BEGIN {
    while ((getline line < reached) > 0) if (line != "") in_reached[line] = 1
    device_memory = "^(emu_shared|emu_device|emu_device_ro|emu_constant|emu_managed)$"
}

FNR == 1 { part++ }

part == 1 { D[++nd] = $0 }
part == 2 { H[++nh] = $0 }

# definitions and variables of each module
/^define / {
    if (match($0, /@("[^"]*"|[-a-zA-Z$._0-9]+)\(/)) {
        fn = sym_name(substr($0, RSTART, RLENGTH - 1))
        if (part == 1) { d_def[fn] = nd; d_fn_of[nd] = fn }
        else {
            h_def[fn] = nh
            if ($0 ~ / section "(emu_device_text|emu_kernel_text)"/) device_only[fn] = 1
        }
    }
}
/^@/ {
    v = sym_name($1)
    sec = ""
    if (match($0, /, section "[^"]*"/)) sec = substr($0, RSTART + 11, RLENGTH - 12)
    is_def = $0 !~ /^@("[^"]*"|[-a-zA-Z$._0-9]+) = (external|extern_weak) /
    if (part == 1) { d_var[v] = nd; d_sec[v] = sec; d_var_def[v] = is_def }
    else { h_var[v] = nh; h_var_def[v] = is_def; h_sec[v] = sec }
}

END {
    # the device module's functions and the variables they name, at any depth of constant data
    n = 0
    for (fn in in_reached) if (fn in d_def) { keep_fn[fn] = 1; todo[++n] = fn }
    for (q = 1; q <= n; q++) {
        x = todo[q]
        if (x in keep_fn) {
            for (i = d_def[x]; i <= nd && D[i] !~ /^}/; i++) {
                m = refs_of(D[i], list)
                for (j = 1; j <= m; j++)
                    if ((list[j] in d_var) && !(list[j] in keep_var)) { keep_var[list[j]] = 1; todo[++n] = list[j] }
            }
        } else {
            line = D[d_var[x]]; sub(/^@("[^"]*"|[-a-zA-Z$._0-9]+)/, "", line)
            m = refs_of(line, list)
            for (j = 1; j <= m; j++)
                if ((list[j] in d_var) && !(list[j] in keep_var)) { keep_var[list[j]] = 1; todo[++n] = list[j] }
        }
    }
    # names: the device module's functions, its own data and the device memory both passes share
    for (fn in keep_fn) {
        d_map[fn] = fn suffix
        if (fn in device_only && fn in h_def) h_map[fn] = fn suffix
    }
    for (v in keep_var) {
        if (v ~ /^llvm\./) continue
        if (!d_var_def[v]) continue
        if (d_sec[v] ~ device_memory && (v in h_var) && h_var_def[v]) {
            shared[v] = 1
            if (linkage_of(D[d_var[v]]) != "other" || linkage_of(H[h_var[v]]) != "other") {
                d_map[v] = v suffix; h_map[v] = v suffix; promote[v] = 1
            }
        } else if (linkage_of(D[d_var[v]]) == "other") {
            d_map[v] = v suffix # the device pass's own copy (a table of virtual functions, ...)
        }
    }

    # ---- the device module ----
    for (i = 1; i <= nd; i++) {
        line = D[i]
        if (line ~ /^define /) {
            fn = d_fn_of[i]
            if (!(fn in keep_fn)) { while (i <= nd && D[i] !~ /^}/) i++; continue }
            if (linkage_of(line) != "other") sub(/^define (internal|private) /, "define hidden ", line)
            print rename(line, d_map) > device_out
            continue
        }
        if (line ~ /^@/) {
            v = sym_name(substr(line, 1, index(line, " ") - 1))
            if (v ~ /^llvm\.(used|compiler\.used|global_ctors|global_dtors)$/ || !(v in keep_var)) continue
            if (v in shared) { print variable_declaration(line, (v in d_map) ? d_map[v] : v) > device_out; continue }
            print rename(line, d_map) > device_out
            continue
        }
        print rename(line, d_map) > device_out
    }
    close(device_out)

    # ---- the host module ----
    for (i = 1; i <= nh; i++) {
        line = H[i]
        if (line ~ /^define / && match(line, /@("[^"]*"|[-a-zA-Z$._0-9]+)\(/)) {
            fn = sym_name(substr(line, RSTART, RLENGTH - 1))
            if (fn in h_map) { while (i <= nh && H[i] !~ /^}/) i++; continue }
        }
        if (line ~ /^@/) {
            v = sym_name(substr(line, 1, index(line, " ") - 1))
            if (v in promote) sub(/ = (internal|private) /, " = hidden ", line)
        }
        print rename(line, h_map) > host_out
    }
    for (fn in h_map)
        if (fn in d_def) print declaration_of(D[d_def[fn]], h_map[fn]) > host_out
    close(host_out)

    printf "" > reached_out
    for (fn in keep_fn) print d_map[fn] > reached_out
    close(reached_out)
}
