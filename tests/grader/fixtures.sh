# The lab-file fixtures of tests/grader/fixtures/ (README there), made into lab files: sourced by
# tests/grader/test-grader.sh and docs/results/h200-seal/measure.sh, which set the placeholders'
# values first: token, class, out, ROOT, home, port, fsize_mb, daemon_delay, results_target and
# solution (the reference solution the fixtures are made from).
# shellcheck shell=bash disable=SC2154 # the values: set by the script that sources this file
fill() { # placeholders -> values
    sed -e "s|@TOKEN@|$token|g" -e "s|@CLASS@|$class|g" -e "s|@OUT@|$out|g" -e "s|@ROOT@|$ROOT|g" \
        -e "s|@HOME@|$home|g" -e "s|@PORT@|$port|g" -e "s|@FSIZE_MB@|$fsize_mb|g" \
        -e "s|@DAEMON_DELAY@|$daemon_delay|g" -e "s|@RESULTS@|$results_target|g"
}
fixture() { # name -> the lab file on stdout
    local f=$ROOT/tests/grader/fixtures/$1
    if [[ -f $f.whole ]]; then fill <"$f.whole"; return; fi
    # @LIBC_LOOKUP@ in a .top: the shared finder of the C library's functions (libc_lookup.inc)
    [[ -f $f.top ]] && awk -v inc="$ROOT/tests/grader/fixtures/libc_lookup.inc" \
        '$0 == "@LIBC_LOOKUP@" { while ((getline l < inc) > 0) print l; next } { print }' "$f.top" | fill
    if [[ -f $f.host ]]; then
        SNIPPET=$(fill <"$f.host") awk '{ print } prev ~ /^unsigned int launch_neighbored\(/ && /^\{/ { print ENVIRON["SNIPPET"] }
            { prev = $0 }' "$solution"
    elif [[ -f $f.sed ]]; then
        sed -f "$f.sed" "$solution"
    else
        cat "$solution"
    fi
}
lay() { # student fixture [class]: a folder with the lab file
    local dir=${3:-$class}/$1
    mkdir -p -- "$dir" && fixture "$2" >"$dir/reduce_divergence.cu"
}
