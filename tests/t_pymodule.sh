#!/usr/bin/env bash
# tests/t_pymodule.sh: the Python module (import puzzletb).  Runs its unit
# tests (python/tests, against bin/tblookup; one TAP line each), then checks
# it as installed: `make install DESTDIR=... PREFIX=/usr` puts it where
# Debian's python3 looks, and it imports from the staged tree with
# PYTHONPATH, its default tables directory compiled in; PREFIX=/usr/local
# uses /usr/local/lib/python3.X/dist-packages; uninstall removes it; and
# `pip install .` (Debian's pip and setuptools, no network) builds it too.
set -u
cd "$(dirname "$0")/.." && . tests/lib.sh
PY=/usr/bin/python3
need "$LOOKUP" "$TABLES/swap.mdb" "$TABLES/klotski-move.mdb" \
    build/python/puzzletb build/san/python/puzzletb
# unit PKGDIR LABEL [ENV...]: runs python/tests on the package in PKGDIR,
# renumbering its TAP lines after ours
unit() {
    local dir=$1 label=$2 r; shift 2
    env "$@" PYTHONPATH="$PWD/$dir" TBLOOKUP="$LOOKUP" \
        PUZZLETB_TABLES="$TABLES" "$PY" python/tests/tap.py >"$TMP/unit" 2>&1
    r=$?
    renumber "$label" "$TMP/unit"
    check "${label}python/tests/tap.py exits 0" test $r = 0
}
unit build/python ""
# again on the module and library built with AddressSanitizer and UBSan
# (preloaded, as python3 is not; Python's own allocations at exit are not
# leaks of ours)
if [ -d build/san/python/puzzletb ]; then
    san="$(gcc -print-file-name=libasan.so)"
    san="$san $(gcc -print-file-name=libubsan.so)"
    unit build/san/python "ASan/UBSan: " LD_PRELOAD="$san" \
        ASAN_OPTIONS=detect_leaks=0
fi

# ---- installed: DESTDIR staging with PREFIX=/usr ----
S=$TMP/stage L=$TMP/local
inst() {
    make -s --no-print-directory TABLES="$TMP/tables" "$@" \
        >"$TMP/make.log" 2>&1 && return 0
    sed 's/^/# /' "$TMP/make.log" >&2
    return 1
}
mkdir -p "$TMP/tables" "$TMP/elsewhere"
cp "$TABLES/swap.mdb" "$TMP/tables/"
check "make install DESTDIR=<stage> PREFIX=/usr succeeds" \
    inst install DESTDIR="$S" PREFIX=/usr
SITE=$S/usr/lib/python3/dist-packages
check "the module is in <stage>/usr/lib/python3/dist-packages/puzzletb" \
    test -f "$SITE/puzzletb/__init__.py" -a \
    -n "$(ls "$SITE"/puzzletb/_puzzletb*.so 2>/dev/null)"
# imported from elsewhere, so the source tree's build/python cannot be used
imported() {
    (cd "$TMP/elsewhere" && env -u PUZZLETB_TABLES PYTHONPATH="$1" "$PY" \
        -c 'import puzzletb, sys
print(puzzletb.__file__)
print(puzzletb.TABLES_DIR)
with puzzletb.open(sys.argv[1]) as tb:
    print(tb.distance("swap", sys.argv[2]))' "$2" "$3")
}
P1225=$'1111\n0000\n1110\n0010\n1010\n0101\n1010\n0101'
out=$(imported "$SITE" "$S/usr/share/puzzletb/tables" "$P1225" 2>&1)
echo "$out" | sed 's/^/# /'
check "it imports from the staged tree with PYTHONPATH" \
    test "$(echo "$out" | sed -n 1p)" = "$SITE/puzzletb/__init__.py"
check "... its default tables directory is /usr/share/puzzletb/tables" \
    test "$(echo "$out" | sed -n 2p)" = /usr/share/puzzletb/tables
check "... and it answers from the staged tables: 4" \
    test "$(echo "$out" | sed -n 3p)" = 4
check "... linked statically: it needs no libpuzzletb.so" \
    test -z "$(ldd "$SITE"/puzzletb/_puzzletb*.so | grep libpuzzletb)"
check "no staged file of the module contains the staging path" \
    test -z "$(grep -rlF "$S" "$SITE")"
check "make uninstall DESTDIR=<stage> PREFIX=/usr removes it" \
    inst uninstall DESTDIR="$S" PREFIX=/usr
check "... no file left behind" test -z "$(find "$S" ! -type d)"

# ---- PREFIX=/usr/local (staged): Debian's path for local packages ----
want=$("$PY" -c 'import sys
print("/usr/local/lib/python%d.%d/dist-packages" % sys.version_info[:2])')
check "$want is on /usr/bin/python3's path" \
    "$PY" -c "import sys; sys.exit('$want' not in sys.path)"
check "make install DESTDIR=<stage> PREFIX=/usr/local succeeds" \
    inst install DESTDIR="$L" PREFIX=/usr/local
check "... the module goes to $want" \
    test -f "$L$want/puzzletb/__init__.py"
inst uninstall DESTDIR="$L" PREFIX=/usr/local

# ---- pip install . from the checkout, without network ----
"$PY" -m pip install --no-build-isolation --no-index --no-deps \
    --root-user-action=ignore --target "$TMP/pip" . >"$TMP/pip.log" 2>&1
r=$?
[ $r = 0 ] || sed 's/^/# /' "$TMP/pip.log"
check "pip install --no-build-isolation --no-index . succeeds" test $r = 0
out=$(imported "$TMP/pip" "$(cd "$TABLES" && pwd)" "$P1225" 2>&1)
echo "$out" | sed 's/^/# /'
check "... the pip-installed module imports and answers: 4" \
    test "$(echo "$out" | sed -n 1p)" = "$TMP/pip/puzzletb/__init__.py" \
    -a "$(echo "$out" | sed -n 3p)" = 4
check "... its default tables directory is /usr/local/share/puzzletb/tables" \
    test "$(echo "$out" | sed -n 2p)" = /usr/local/share/puzzletb/tables
echo "1..$n"
