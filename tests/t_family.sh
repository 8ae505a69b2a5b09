#!/usr/bin/env bash
# tests/t_family.sh: every puzzle of a family (tbgen --family).  The shipped
# Rush Hour families must give what Michael Fogleman's own program gives on
# the same boards (its output, tests/fogleman/, as the independent
# reference: the same boards, moves, component sizes and histograms, as
# sets of lines); families of other boards and metrics what a brute force
# written in tests/t_family.py finds from the definitions; a bad family
# gets one line naming what and where, and status 2.
cd "$(dirname "$0")/.." && . tests/lib.sh
export LC_ALL=C
need bin/tbgen puzzles/families/rush-4x4.txt tests/fogleman/rush-4x4.txt
/usr/bin/python3 tests/t_family.py bin/tbgen "$TMP" | sed -e 's/^ok [0-9]*/ok/' \
    -e 's/^not ok [0-9]*/not ok/' >"$TMP/py"
cat "$TMP/py"
n=$(grep -c '^ok\|^not ok' "$TMP/py")

# same FAMILY [FILE]: tbgen --family FILE's lines (by default the shipped
# FAMILY's) are Fogleman's on FAMILY, as sets
same() {
    bin/tbgen --family "${2:-puzzles/families/$1.txt}" >"$TMP/$1" 2>"$TMP/e" &&
        [ ! -s "$TMP/e" ] &&
        cmp -s <(sort "$TMP/$1") <(sort "tests/fogleman/$1.txt") && return 0
    echo "# $1: $(head -1 "$TMP/e"); lines: ours $(wc -l <"$TMP/$1"), his $(wc -l <"tests/fogleman/$1.txt")" >&2
    diff <(sort "$TMP/$1") <(sort "tests/fogleman/$1.txt") | head -5 >&2
    return 1
}
check "rush-4x4: Fogleman's 32 puzzles on 4x4, line for line" same rush-4x4
check "rush-5x5: Fogleman's 1,730 puzzles on 5x5 (at most 20 moves), line for line" \
    same rush-5x5
check "rush-5x5-walls: Fogleman's 6,041 puzzles on 5x5 with at most one wall (at most 21 moves), line for line" \
    same rush-5x5-walls
(cat puzzles/families/rush-4x4.txt; echo 'family walls 1') >"$TMP/r44w.txt"
check "rush-4x4 with 'family walls 1': Fogleman's 32 puzzles again (on 4x4 no minimal puzzle needs a wall)" \
    same rush-4x4-walls "$TMP/r44w.txt"
check "rush-4x4: ordered by moves, then by board" \
    cmp -s "$TMP/rush-4x4" <(sort -k1,1n -k2,2 "$TMP/rush-4x4")
check "tbgen --family rush-4x4: a shipped family by its name" \
    sh -c 'bin/tbgen --family rush-4x4 | cmp -s - "$1"' _ "$TMP/rush-4x4"

# ---- bad families ----
# bad FILE PATTERN: status 2, nothing on stdout, one stderr line matching
bad() {
    bin/tbgen --family "$1" >"$TMP/o" 2>"$TMP/e"; local r=$?
    [ "$r" = 2 ] && [ ! -s "$TMP/o" ] && [ "$(wc -l <"$TMP/e")" = 1 ] &&
        grep -qE -- "$2" "$TMP/e" && return 0
    echo "# status $r: $(cat "$TMP/e")" >&2
    return 1
}
F=puzzles/families/rush-4x4.txt
sed 's/^family   alone$/family   walls 2/' "$F" >"$TMP/walls2.txt"
check "family walls 2: refused, its line named" \
    bad "$TMP/walls2.txt" "^tbgen: $TMP/walls2.txt: line 2[0-9]: family: expected 'walls 0', 'walls 1', 'alone' or 'open-lines', got 'family   walls 2'$"
sed 's/^family   alone$/family   lonely/' "$F" >"$TMP/key.txt"
check "an unknown family key: refused, its line named" \
    bad "$TMP/key.txt" "line 2[0-9]: family: expected .*got 'family   lonely'"
sed 's/^family   alone$/family   alone at once/' "$F" >"$TMP/trail.txt"
check "a family key with more after it: refused, its line named" \
    bad "$TMP/trail.txt" "line 2[0-9]: family: expected .*got 'family   alone at once'"
sed 's/^family   alone$/family walls -1/' "$F" >"$TMP/minus.txt"
check "family walls -1: refused" \
    bad "$TMP/minus.txt" "line 2[0-9]: family: expected .*got 'family walls -1'"
sed 's/^covers.*/covers   layouts/' "$F" >"$TMP/layouts.txt"
check "a family that does not cover mixes: refused" \
    bad "$TMP/layouts.txt" "a family's description covers mixes"
sed 's/^axis.*/axis     A/' "$F" >"$TMP/axis.txt"
check "a family whose pieces move both ways: refused" \
    bad "$TMP/axis.txt" "moves both ways: in a family every piece moves along its axis"
sed 's/^distinct.*//' "$F" >"$TMP/nodistinct.txt"
check "a family with no distinct piece: refused, the key to add named" \
    bad "$TMP/nodistinct.txt" "a family needs a distinct piece \('distinct X'\)"
cat >"$TMP/r66.txt" <<'EOF'
name     rush-6x6
metrics  line
distinct A
axis     all
empty    o
covers   mixes 0
start
BBCooo
DoCooo
DAAooo
DEEEoo
oooooo
oooooo

goal     ??????/??????/????AA/??????/??????/??????
EOF
bin/tbgen --family "$TMP/r66.txt" >"$TMP/o" 2>"$TMP/e"; r=$?
check "Rush Hour on 6x6 as one family: refused, its 347,158,132,022 layouts named (status 1)" \
    sh -c '[ "$1" = 1 ] && [ ! -s "$2" ] && grep -q "347158132022 layouts, more than 4294967296" "$3"' \
    _ "$r" "$TMP/o" "$TMP/e"
check "a family that is no file nor shipped name: a usage error" \
    sh -c 'bin/tbgen --family no-such-family 2>"$1"; [ $? = 2 ] &&
           grep -q "unknown family .no-such-family." "$1"' _ "$TMP/e"
check "--family with --puzzle: a usage error" \
    sh -c 'bin/tbgen --family rush-4x4 --puzzle four 2>/dev/null; [ $? = 2 ]'
