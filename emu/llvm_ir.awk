# emu/llvm_ir.awk: what the awk programs that read LLVM's textual IR share (device_check.awk,
# two_pass.awk): loaded beside each with a second -f.

function trim(s) { sub(/^ +/, "", s); sub(/ +$/, "", s); return s }
function ref_text(name) { return name ~ /^[-a-zA-Z$._][-a-zA-Z$._0-9]*$/ ? name : "\"" name "\"" }

function sym_name(s) { # "@name" or "@\"name\"" -> name
    s = substr(s, 2)
    if (substr(s, 1, 1) == "\"")
        s = substr(s, 2, length(s) - 2)
    return s
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
    rest = substr(s, length(t) + 1)
    if (substr(rest, 1, 2) == " (") { # a function type: its parameters, then its pointers
        depth = 0
        for (i = 2; i <= length(rest); i++) {
            ch = substr(rest, i, 1)
            if (ch == "(") depth++
            else if (ch == ")") { depth--; if (depth == 0) break }
        }
        t = t substr(rest, 1, i)
        rest = substr(rest, i + 1)
        while (substr(rest, 1, 1) == "*") { t = t "*"; rest = substr(rest, 2) }
    }
    return t
}
