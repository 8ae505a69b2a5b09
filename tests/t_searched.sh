#!/usr/bin/env bash
# tests/t_searched.sh: a puzzle past a full table (fifteen, the 15-puzzle)
# answered by search from its pattern tables through the Python module
# (python/tests/test_patterns.py), tbserve (tests/t_serve.py --patterns) and
# the page (tests/t_web.py --patterns), as tblookup answers it, each also
# under ASan and UBSan but the page, on the pattern tables make tables
# built (copied to a folder of their own).
cd "$(dirname "$0")/.." && . tests/lib.sh
PY=/usr/bin/python3
need bin/tbgen "$LOOKUP" build/python/puzzletb build/san/python/puzzletb \
    bin/tbserve build/san/tbserve "$TABLES/fifteen-pattern-1.mdb" \
    "$TABLES/fifteen-pattern-2.mdb" "$TABLES/fifteen-pattern-3.mdb"
mkdir -p "$TMP/t15"
cp "$TABLES"/fifteen-pattern-[123].mdb "$TMP/t15"
# python_tests PKGDIR LABEL [ENV...]: python/tests/test_patterns.py on the
# package in PKGDIR
python_tests() {
    local dir=$1 label=$2 r; shift 2
    env "$@" PYTHONPATH="$PWD/$dir" TBLOOKUP="$LOOKUP" \
        PUZZLETB_PATTERNS="$TMP/t15" "$PY" python/tests/tap.py test_patterns \
        >"$TMP/py" 2>&1; r=$?
    renumber "$label" "$TMP/py"
    check "${label}python/tests/tap.py test_patterns exits 0" test $r = 0
}
python_tests build/python "Python: "
# the module and library built with AddressSanitizer and UBSan (preloaded)
python_tests build/san/python "Python, ASan/UBSan: " \
    LD_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc \
    -print-file-name=libubsan.so)" ASAN_OPTIONS=detect_leaks=0
# tbserve, and again under ASan and UBSan (its exit status checked)
for serve in bin/tbserve build/san/tbserve; do
    TBSERVE=$serve LOOKUP=$LOOKUP "$PY" tests/t_serve.py --patterns "$TMP/t15" \
        >"$TMP/serve" 2>&1; r=$?
    renumber "$serve: " "$TMP/serve"
    check "$serve: tests/t_serve.py --patterns exits 0" test $r = 0
done
# the page in a browser (tests/t_web.py --patterns)
"$PY" tests/t_web.py --patterns "$TMP/t15" >"$TMP/web" 2>&1; r=$?
renumber "page: " "$TMP/web"
check "page: tests/t_web.py --patterns exits 0" test $r = 0
echo "1..$n"
