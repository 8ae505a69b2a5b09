#!/usr/bin/env bash
# tests/t_patterns.sh: puzzles past a full table, answered by a search
# guided by pattern tables.  tests/t_patterns.py checks the answers against
# its own references (every position of small boards by BFS, walks from
# the 15-puzzle's goal, Korf's published lengths); this script checks bad
# descriptions, missing and damaged pattern tables.
cd "$(dirname "$0")/.." && . tests/lib.sh
need bin/tbgen "$LOOKUP" "$TABLES"/fifteen-pattern-[123].mdb \
    "$TABLES"/fourteen-pattern-[123].mdb "$TABLES"/nineteen-pattern-[1234].mdb
mkdir -p "$TMP/t15" "$TMP/t14" "$TMP/t19"   # (make tables built them)
cp "$TABLES"/fifteen-pattern-[123].mdb "$TMP/t15"
cp "$TABLES"/fourteen-pattern-[123].mdb "$TMP/t14"
cp "$TABLES"/nineteen-pattern-[1234].mdb "$TMP/t19"
mkdir -p "$TMP/py"
/usr/bin/python3 tests/t_patterns.py bin/tbgen "$LOOKUP" "$TMP/py" "$TMP/t15" \
    "$TMP/t14" "$TMP/t19" |
    sed -e 's/^ok [0-9]*/ok/' -e 's/^not ok [0-9]*/not ok/' >"$TMP/out.py"
cat "$TMP/out.py"
n=$((n + $(grep -c '^ok\|^not ok' "$TMP/out.py")))

# ---- positions as numbers ('numbers') ----
run fifteen --tables "$TMP/t15" --count 1 2 3 4 5 6 7 8 9 10 11 12 13 0 14 15
check "fifteen as 16 numbers, 0 the blank: 1 2 ... 13 0 14 15 takes 2 moves" \
    test "$rc" = 0 -a "$out" = 2
run fifteen --tables "$TMP/t15" --moves 13 6 8 12 15 14 0 10 11 7 4 5 9 1 3 2
check "... Korf's instance 1 as numbers: 57 moves, each board in letters" \
    sh -c 'test "$1" = 0 && test "$(head -1 "$2")" = 57 &&
        sed -n 3p "$2" | grep -qx "[0-9A-F.]\{4\}"' _ "$rc" "$TMP/out"
expect_error 2 "column 34: 16 is no number of this puzzle \(0 for the empty cell, 1 to 15\)" \
    fifteen --tables "$TMP/t15" "1 2 3 4 5 6 7 8 9 10 11 12 13 14 16 0"
check "a number past the tiles: refused with its column" test $? = 0

# ---- a pattern table's batch: a position a line, as every board's
# batch reads them (records were split by blank lines alone) ----
pattern_batch() {
    local q
    "$LOOKUP" fifteen-pattern-1 --tables "$TMP/t15" --random-at 12 \
        --limit 4 --seed 3 >"$TMP/pq" || return 1
    "$LOOKUP" fifteen-pattern-1 --tables "$TMP/t15" --batch --count \
        -i "$TMP/pq" >"$TMP/pb" || return 1
    while read -r q; do
        "$LOOKUP" fifteen-pattern-1 --tables "$TMP/t15" --count "$q" || return 1
    done <"$TMP/pq" >"$TMP/pa"
    [ "$(wc -l <"$TMP/pb")" = 4 ] && [ "$(sort -u "$TMP/pb")" = 12 ] &&
        cmp -s "$TMP/pa" "$TMP/pb"
}
check "--batch of a pattern table, a position a line: each answered as asked alone (12)" \
    pattern_batch

# ---- descriptions: what 'patterns' and 'pattern' refuse ----
tiles='name t-bad
covers reachable
distinct all'
refused "patterns on a puzzle of a 2x1 piece: refused, a tile puzzle needed" \
    'line 2: patterns need a tile puzzle' 'name t-bad
patterns 1 2
start 1A/1./2B
goal 1A/1./2B'
refused "a group letter that is no piece: refused with its line" \
    "line 4: 'Z' is no distinct piece of the start" "$tiles
patterns 12 3Z
start 12/3.
goal 12/3."
refused "a letter in two groups: refused with its column" \
    "line 4, column 14: '2' is in two groups" "$tiles
patterns 12 32
start 12/3.
goal 12/3."
refused "'pattern 3' when 'patterns' lists 2 groups: refused" \
    "line 5: pattern 3, but 'patterns' lists 2 groups" "$tiles
patterns 12 3
pattern 3
start 12/3.
goal 12/3."
bin/tbgen --puzzle eight --patterns --out "$TMP/x" >"$TMP/o" 2>"$TMP/e"
check "tbgen --patterns on a puzzle without groups: usage error, status 2" \
    sh -c 'test "$1" = 2 && grep -q "eight has no .patterns. nor .abstraction. line" "$2"' _ \
    "$?" "$TMP/e"

# ---- missing and damaged pattern tables ----
q=D68CFE.AB7459132
mkdir -p "$TMP/none" "$TMP/two"
expect_usage "unknown puzzle 'fifteen'" fifteen --tables "$TMP/none" "$q"
check "fifteen with no tables at all: unknown puzzle, status 2" test $? = 0
cp "$TMP/t15/fifteen-pattern-1.mdb" "$TMP/t15/fifteen-pattern-2.mdb" "$TMP/two"
expect_error 3 "fifteen.mdb: table not found, and its pattern tables: table not found; build them with 'tbgen --puzzle fifteen --patterns" \
    fifteen --tables "$TMP/two" "$q"
check "fifteen with a pattern table missing: status 3, how to build them" \
    test $? = 0
expect_error 3 "fifteen.mdb: table not found; --stats needs a full table, and fifteen is answered by a search from its pattern tables" \
    fifteen --tables "$TMP/t15" --stats
check "fifteen --stats: status 3, a full table needed and why there is none" \
    test $? = 0
cp -r "$TMP/t15" "$TMP/cut"
f=$TMP/cut/fifteen-pattern-2.mdb
head -c $(( $(stat -c %s "$f") / 2 )) "$f" >"$f.x" && mv "$f.x" "$f"
expect_error 3 "fifteen: table file is truncated" fifteen --tables "$TMP/cut" "$q"
check "fifteen with a truncated pattern table: refused, status 3" test $? = 0
cp -r "$TMP/t15" "$TMP/flip"
f=$TMP/flip/fifteen-pattern-1.mdb
/usr/bin/python3 - "$f" <<'PY'
import sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
for i in range(len(b) // 3, 2 * len(b) // 3, 4099):
    b[i] ^= 0x5A
open(p, "wb").write(bytes(b))
PY
run --verify --tables "$TMP/flip" fifteen-pattern-1
check "a pattern table with bytes flipped fails --verify, status 3" \
    test "$rc" = 3
run fifteen --tables "$TMP/flip" --count "$q"
check "... and a search on it answers 57 (Korf's instance 1) or refuses, status 3" \
    sh -c 'test "$1" = 3 || { test "$1" = 0 && test "$2" = 57; }' _ "$rc" "$out"

# ---- tbgen: the full table refused, its plan beside the pattern tables' ----
bin/tbgen --puzzle fifteen --plan --out "$TMP/plan" >"$TMP/o" 2>"$TMP/e"
check "tbgen --plan fifteen: the full table (10,461,394,944,000 states) and its three pattern tables (57,657,600, 57,657,600 and 43,680)" \
    sh -c 'test "$(grep -c "" "$1")" = 4 &&
        grep -q "fifteen.mdb: 10,461,394,944,000 states" "$1" &&
        grep -q "fifteen-pattern-1.mdb: 57,657,600 states" "$1" &&
        grep -q "fifteen-pattern-3.mdb: 43,680 states" "$1"' _ "$TMP/o"
bin/tbgen --puzzle fifteen --out "$TMP/plan" >"$TMP/o" 2>"$TMP/e"
check "tbgen fifteen: refused (status 1) in one line that names --patterns" \
    sh -c 'test "$1" = 1 && test "$(wc -l <"$2")" = 1 &&
        grep -q "tbgen --puzzle fifteen --patterns" "$2" &&
        test ! -e "$3/fifteen.mdb"' _ "$?" "$TMP/e" "$TMP/plan"

# ---- threads: the same line as one thread's ----
for j in 1 2 3; do
    "$LOOKUP" fifteen --tables "$TMP/t15" -j $j --moves 13 6 8 12 15 14 0 10 11 7 4 5 9 1 3 2 >"$TMP/j$j" 2>&1
done
check "Korf's instance 1 on 1, 2 and 3 threads: the same 57 moves" \
    sh -c 'test "$(head -1 "$1")" = 57 && cmp -s "$1" "$2" && cmp -s "$1" "$3"' _ \
    "$TMP/j1" "$TMP/j2" "$TMP/j3"
expect_usage "--threads takes a number from 0 to 256, got '300'" fifteen -j 300 "$q"
check "--threads 300: usage error" test $? = 0

# ---- the default groups of a big tile puzzle that names none ----
grep -v '^patterns' puzzles/fifteen.txt | sed 's/^name .*/name t-f15/' >"$TMP/f15.txt"
bin/tbgen --puzzle "$TMP/f15.txt" --plan --out "$TMP/plan" >"$TMP/o" 2>&1
check "a 4x4 tile puzzle without 'patterns': 6-6-3 groups by default (57,657,600, 57,657,600 and 43,680 states)" \
    sh -c 'grep -q "t-f15-pattern-1.mdb: 57,657,600 states" "$1" &&
        grep -q "t-f15-pattern-2.mdb: 57,657,600 states" "$1" &&
        grep -q "t-f15-pattern-3.mdb: 43,680 states" "$1" &&
        ! grep -q "pattern-4" "$1"' _ "$TMP/o"
# the 24-puzzle: 25!/2 positions pass 2^64; 24 tiles, more kinds than
# the engine once took; groups by default of 4 tiles, 25 x 24 x 23 x 22
# places times the blank's 21 = 6,375,600 states (5 tiles: 127,512,000,
# past 2^26)
printf 'name t-f24\nmetrics step\ndistinct all\ncovers reachable\nstart\n12345\n6789A\nBCDEF\nGHIJK\nLMNO.\n\ngoal\n12345\n6789A\nBCDEF\nGHIJK\nLMNO.\n' >"$TMP/f24.txt"
bin/tbgen --puzzle "$TMP/f24.txt" --plan --out "$TMP/plan" >"$TMP/o" 2>"$TMP/e"
check "a 5x5 tile puzzle's plan: past 2^64 states, no table; six default groups of 4 tiles, 6,375,600 states each" \
    sh -c 'test "$1" = 0 && grep -q "t-f24.mdb: more than 18,446,744,073,709,551,614 states" "$2" &&
        test "$(grep -c "t-f24-pattern-[1-6].mdb: 6,375,600 states" "$2")" = 6 &&
        ! grep -q "pattern-7" "$2"' _ "$?" "$TMP/o"
bin/tbgen --puzzle "$TMP/f24.txt" --out "$TMP/plan" >"$TMP/o" 2>"$TMP/e"
check "... and its full table refused (status 1), its pattern tables named" \
    sh -c 'test "$1" = 1 && grep -q "more than 18,446,744,073,709,551,614 states.*tbgen --puzzle t-f24 --patterns" "$2"' \
    _ "$?" "$TMP/e"
bin/tbgen --puzzle nineteen --plan --out "$TMP/plan" >"$TMP/o" 2>"$TMP/e"
check "tbgen --plan nineteen: 20!/2 = 1,216,451,004,088,320,000 states, past what an index ranks: its search not estimated; its four pattern tables" \
    sh -c 'test "$1" = 0 &&
        grep -q "nineteen.mdb: 1,216,451,004,088,320,000 states.*its search not estimated" "$2" &&
        test "$(grep -c "nineteen-pattern-[1-4].mdb: " "$2")" = 4' _ "$?" "$TMP/o"
bin/tbgen --puzzle eleven --patterns --plan --out "$TMP/plan" >"$TMP/o" 2>"$TMP/e"
check "the 3x4 puzzle (a table fits): no default groups, --patterns refused" \
    sh -c 'test "$1" = 2 && grep -q "eleven has no .patterns. nor .abstraction. line" "$2"' _ "$?" "$TMP/e"

# ---- twentyfour: Korf and Felner's 6-6-6-6 groups, planned ----
# Each table places its 6 tiles and the blank on 25 cells: 25!/18! states.
bin/tbgen --puzzle twentyfour --patterns --plan --out "$TMP/plan" >"$TMP/o" 2>"$TMP/e"
check "twentyfour's four pattern tables: 25!/18! = $((25*24*23*22*21*20*19)) states each" \
    sh -c 'test "$1" = 0 && n=$(printf "%s" "$3" | sed ":a;s/\B[0-9]\{3\}\>/,&/;ta") &&
        test "$(grep -c "twentyfour-pattern-[1-4].mdb: $n states" "$2")" = 4' \
    _ "$?" "$TMP/o" "$((25*24*23*22*21*20*19))"

# ---- fifteen-78: Korf and Felner's 7-8 groups, planned ----
bin/tbgen --puzzle fifteen-78 --patterns --plan --out "$TMP/plan" >"$TMP/o" 2>"$TMP/e"
check "fifteen-78's pattern tables: 518,918,400 and 4,151,347,200 states" \
    sh -c 'grep -q "fifteen-78-pattern-1.mdb: 518,918,400 states" "$1" &&
        grep -q "fifteen-78-pattern-2.mdb: 4,151,347,200 states" "$1"' _ "$TMP/o"
