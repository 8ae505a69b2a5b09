#!/usr/bin/env bash
# tests/t_abstract.sh: puzzles answered by a search guided by abstractions
# combined by maximum ('abstraction' lines).  tests/t_abstract.py ties the
# answers to full tables (Century, rush-60, boards drawn there); this
# script checks bad descriptions, the abstractions' tables (self-describing,
# proven by --verify), missing and damaged ones.
cd "$(dirname "$0")/.." && . tests/lib.sh
need bin/tbgen "$LOOKUP" "$TABLES/century-move.mdb" "$TABLES/rush-60-line.mdb"
mkdir -p "$TMP/py"
/usr/bin/python3 tests/t_abstract.py bin/tbgen "$LOOKUP" "$TMP/py" "$TABLES" |
    sed -e 's/^ok [0-9]*/ok/' -e 's/^not ok [0-9]*/not ok/' >"$TMP/out.py"
cat "$TMP/out.py"
n=$((n + $(grep -c '^ok\|^not ok' "$TMP/out.py")))

# ---- descriptions: what 'abstraction' refuses ----
board='start aBBc/dBBe/df.e/gf.h/iijj
goal ????/????/????/?BB?/?BB?'
refused "an abstraction that leaves out a piece the goal names: refused with its line" \
    "line 2: the abstraction keeps no 'B', which a goal places" "name t-bad
abstraction adf
$board"
refused "a letter that is no piece: refused with its line" \
    "line 3: 'Z' is no piece of the start" "name t-bad
abstraction Bd
abstraction BZ
$board"
refused "a letter given twice: refused with its column" \
    "line 2, column 15: 'd' is listed twice" "name t-bad
abstraction Bdd
$board"
refused "'abstraction all': refused, it names the pieces kept" \
    "line 2, column 13: an abstraction names the pieces it keeps, not all" \
    "name t-bad
abstraction all
$board"
refused "'patterns' and 'abstraction' together: refused" \
    "'patterns' and 'abstraction' do not go together" "name t-bad
distinct all
patterns 12 3
abstraction 1
start 12/3.
goal 12/3."
refused "abstractions of a table of mixes: refused" \
    "abstractions need 'covers layouts' or 'covers reachable', not mixes" \
    "name t-bad
covers mixes 2
distinct B
abstraction B
$board"
refused "nine abstractions: refused, at most 8" "line 10: at most 8 abstractions" \
    "name t-bad
$(for i in 1 2 3 4 5 6 7 8 9; do echo "abstraction B"; done)
$board"
refused "'pattern 3' with two abstractions: refused" \
    "line 4: pattern 3, but the description has 2 abstractions" "name t-bad
abstraction Bd
abstraction Ba
pattern 3
$board"

# ---- the abstractions' tables ----
printf 'name t-ab\nmetrics move step\nabstraction Bdij\nabstraction Ba\n%s\n' \
    "$board" >"$TMP/ab.txt"
bin/tbgen -q --puzzle "$TMP/ab.txt" --patterns --out "$TMP/ab"
check "tbgen --patterns: a table per abstraction and metric, NAME-pattern-N-METRIC.mdb" \
    sh -c 'test "$(ls "$1" | tr "\n" " ")" = "t-ab-pattern-1-move.mdb t-ab-pattern-1-step.mdb t-ab-pattern-2-move.mdb t-ab-pattern-2-step.mdb "' _ "$TMP/ab"
run --tables "$TMP/ab" --verify t-ab-pattern-1 t-ab-pattern-2
check "tblookup --verify proves the four" \
    sh -c 'test "$1" = 0 && test "$(grep -c " ok: " "$2")" = 4' _ "$rc" "$TMP/out"
p7=.A.B/CDDB/EFGG/HIJJ/HIJJ
run t-ab --tables "$TMP/ab" -m step --count "$p7"
check "the puzzle found by its abstractions' tables alone (no description): a position 7 steps from the goal answered by search, 7 as century's full table says" \
    sh -c 'test "$1" = 0 && test "$2" = "$3"' _ "$rc" "$out" \
    "$("$LOOKUP" century --tables "$TABLES" -m step --count "$p7")"
for j in 1 2; do
    "$LOOKUP" t-ab --tables "$TMP/ab" -j $j --moves "$p7" >"$TMP/j$j" 2>&1
done
check "on 1 and 2 threads: the same line" cmp -s "$TMP/j1" "$TMP/j2"

mkdir -p "$TMP/miss" && cp "$TMP/ab"/t-ab-pattern-1-* "$TMP/miss"
expect_error 3 "and its pattern tables: table not found; build them with .tbgen --puzzle t-ab --patterns" \
    "$TMP/ab.txt" --tables "$TMP/miss" --count "$p7"
check "an abstraction's table missing: status 3, the table named" test $? = 0

mkdir -p "$TMP/bad" && cp "$TMP/ab"/* "$TMP/bad"
python3 - "$TMP/bad/t-ab-pattern-2-move.mdb" <<'PY'
import sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
for i in range(len(b) - 4096, len(b) - 64, 97):
    b[i] ^= 0x5A
open(p, "wb").write(b)
PY
run "$TMP/ab.txt" --tables "$TMP/bad" --count "$p7"
check "an abstraction's table damaged: refused (status 3) or the right answer, never another" \
    sh -c 'test "$1" = 3 || { test "$1" = 0 && test "$2" = "$3"; }' _ "$rc" "$out" \
    "$("$LOOKUP" century --tables "$TABLES" --count "$p7")"
# a value changed with every checksum and the digest made again
# (tests/tamper.py): only a proof of the values finds it, and the search
# proves a small abstraction's table when it opens
mkdir -p "$TMP/tam" && cp "$TMP/ab"/* "$TMP/tam"
/usr/bin/python3 tests/tamper.py "$TMP/tam/t-ab-pattern-1-move.mdb" 0 100 >/dev/null
expect_error 3 "and its pattern tables: table is corrupt" \
    "$TMP/ab.txt" --tables "$TMP/tam" --count "$p7"
check "an abstraction's table with a value changed and its checksums made again: refused (status 3), never answered from" \
    test $? = 0
echo "1..$n"
