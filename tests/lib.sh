# tests/lib.sh: helpers for the shell tests (sourced).  Each check prints a
# TAP line; tests/run adds them up.  Run from the top of the tree.
n=0
LOOKUP=${LOOKUP:-bin/tblookup}
TABLES=${PUZZLETB_TABLES:-tables}
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT

ok()   { n=$((n + 1)); echo "ok $n - $*"; }
fail() { n=$((n + 1)); echo "not ok $n - $*"; }
# check "what must hold" command...: passes when the command succeeds
check() { local what=$1; shift; if "$@"; then ok "$what"; else fail "$what"; fi; }

# renumber LABEL FILE: the TAP lines of FILE (another test's) after ours,
# each "what" prefixed with LABEL; other lines as they are
renumber() {
    local line
    while IFS= read -r line; do
        case $line in
        "ok "*)     n=$((n + 1)); echo "ok $n - $1${line#ok * - }" ;;
        "not ok "*) n=$((n + 1)); echo "not ok $n - $1${line#not ok * - }" ;;
        1..*)       ;;
        *)          echo "$line" ;;
        esac
    done <"$2"
}

# run ARGS...: runs tblookup with stdin from $IN (if set); sets $out, $err, $rc
run() {
    if [ -n "${IN+x}" ]; then
        printf '%s' "$IN" | "$LOOKUP" "$@" >"$TMP/out" 2>"$TMP/err"; rc=$?
    else
        "$LOOKUP" "$@" </dev/null >"$TMP/out" 2>"$TMP/err"; rc=$?
    fi
    out=$(cat "$TMP/out"); err=$(cat "$TMP/err")
}

# expect_error STATUS PATTERN ARGS...: exit STATUS, empty stdout, and exactly
# one stderr line, "tblookup: " then text matching PATTERN (grep -E), never
# "(null)"
expect_error() {
    local status=$1 pattern=$2; shift 2
    run "$@"
    if [ "$rc" -eq "$status" ] && [ -z "$out" ] &&
       [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] &&
       [ "${err#tblookup: }" != "$err" ] &&
       [ "${err#*(null)}" = "$err" ] &&
       printf '%s' "$err" | grep -qE -- "$pattern"; then
        return 0
    fi
    echo "# expected status $status and /$pattern/; got $rc: $err | $out" >&2
    return 1
}

# expect_usage PATTERN ARGS...: a usage error: status 2, empty stdout, and
# two stderr lines: "tblookup: " then text matching PATTERN, then
# "Try 'tblookup --help'."; never "(null)"
expect_usage() {
    local pattern=$1; shift
    run "$@"
    local first=${err%%$'\n'*}
    if [ "$rc" -eq 2 ] && [ -z "$out" ] &&
       [ "$(printf '%s\n' "$err" | wc -l)" -eq 2 ] &&
       [ "${err#*$'\n'}" = "Try 'tblookup --help'." ] &&
       [ "${first#tblookup: }" != "$first" ] &&
       [ "${err#*(null)}" = "$err" ] &&
       printf '%s' "$first" | grep -qE -- "$pattern"; then
        return 0
    fi
    echo "# expected status 2 and /$pattern/; got $rc: $err | $out" >&2
    return 1
}

# refused WHAT PATTERN DESCRIPTION: tbgen --plan of the description refuses
# it: status 2, nothing on stdout, one stderr line matching PATTERN (grep -E)
refused() {
    printf '%s\n' "$3" >"$TMP/bad.txt"
    bin/tbgen --puzzle "$TMP/bad.txt" --plan >"$TMP/o" 2>"$TMP/e"; local rc=$?
    check "$1" sh -c 'test "$1" = 2 && test ! -s "$2" &&
        test "$(wc -l <"$3")" = 1 && grep -qE -- "$4" "$3"' _ "$rc" "$TMP/o" \
        "$TMP/e" "$2"
}

# need FILE...: the script cannot run without these: one failure, and stop
# (make test builds them first, so a missing one is a bug, never a skip)
need() {
    for f in "$@"; do
        if [ ! -e "$f" ]; then
            echo "not ok 1 - $f is missing (make tables builds it)"; exit 1
        fi
    done
}

# kill_at N CKPT COMMAND...: COMMAND in the background, killed (-9) once
# its checkpoint CKPT holds N tasks, or after 60 s
kill_at() {
    local n=$1 c=$2 p i=0 k
    shift 2
    "$@" & p=$!
    while [ "$i" -lt 1200 ] && kill -0 "$p" 2>/dev/null; do
        k=$(grep -c '^end ' "$c" 2>/dev/null)
        [ "${k:-0}" -ge "$n" ] && break
        sleep 0.05; i=$((i + 1))
    done
    kill -9 "$p" 2>/dev/null; wait "$p" 2>/dev/null
}
