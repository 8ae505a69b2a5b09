#!/usr/bin/env bash
# tests/t_toy.sh: a puzzle with its own query options needs one file and one
# registry line, nothing else.  build/toy/ is the library compiled with
# tests/toy/puzzle_toy.c added through -DPTB_TEST_PUZZLES and linked with the
# unchanged tblookup and tbgen (see the Makefile).  Answers are checked
# against the toy's rule, worked out here: from cell x the goal 0 takes
# ceil(x / 2) moves.  The second toy, tests/toy/puzzle_grid.c, has a
# parity: its table in packed1 (one bit a state plus the parity,
# tables/FORMAT.md) answers r + c from row r, column c (the rule), is
# proven by --verify and read alike by scripts/ptb_read.py.
cd "$(dirname "$0")/.." && . tests/lib.sh
LOOKUP=build/toy/tblookup
need "$LOOKUP" build/toy/tbgen

build/toy/tbgen --quiet --puzzle toy --out "$TMP/t"
check "tbgen builds the toy's table" test -f "$TMP/t/toy.mdb"
check "the toy's header changes nothing in the public header" \
    sh -c '! grep -q toy common/puzzletb.h lookup/main.c gen/main.c'

bad=
for x in $(seq 0 63); do
    run toy --count --tables "$TMP/t" "$x"
    [ "$rc" = 0 ] && [ "$out" = $(( (x + 1) / 2 )) ] || bad="$bad $x"
done
check "every cell x 0..63 answers ceil(x/2)${bad:+ (wrong:$bad)}" test -z "$bad"

run toy --count --tables "$TMP/t" --from 37
check "--from, the toy's own option standing for the position: 19" \
    test "$rc" = 0 -a "$out" = 19
run toy --count --tables "$TMP/t" -o from=37
check "... spelled -o from=37: the same" test "$rc" = 0 -a "$out" = 19
run toy --count --tables "$TMP/t" --twice yes 21
check "--twice yes 21 reads cell 42: 21 moves" test "$rc" = 0 -a "$out" = 21
run --help
check "--help lists the toy with both options and their help" \
    sh -c 'grep -q "^  toy " "$1" && grep -q -- "--from X .*0\.\.63" "$1" &&
           grep -q -- "--twice yes|no" "$1"' _ "$TMP/out"
run --list options toy
check "--list options toy: --from X and --twice yes|no" \
    test "$out" = $'--from X\n--twice yes|no'
check "--from with a position: a usage error" \
    expect_usage "--from stands for the position" toy -t "$TMP/t" --from 3 4
check "--from 64: a usage error naming --from" \
    expect_usage "^tblookup: --from: expected a cell 0..63, got '64'$" \
    toy -t "$TMP/t" --from 64
check "--twice maybe: a usage error naming --twice" \
    expect_usage "^tblookup: --twice: expected yes or no" toy --twice maybe 3
check "another puzzle does not take the toy's option" \
    expect_usage "^tblookup: swap takes no option --twice" swap --twice yes

build/toy/tbgen --quiet --puzzle grid --encoding packed1 --out "$TMP/g"
hdr=$(/usr/bin/python3 scripts/ptb_read.py "$TMP/g/grid.mdb")
check "the grid's table: encoding packed1, values mod4" \
    test -n "$(echo "$hdr" | grep -x 'encoding packed1')" -a \
    -n "$(echo "$hdr" | grep -x 'values mod4')"
bad=
for r in 0 1 2 7 50 98 99; do
    for c in 0 1 3 64 99; do
        run grid --count --tables "$TMP/g" "$r $c"
        [ "$rc" = 0 ] && [ "$out" = $((r + c)) ] || bad="$bad $r/$c"
    done
done
check "35 cells (r, c) answer r + c${bad:+ (wrong:$bad)}" test -z "$bad"
run grid --tables "$TMP/g" --moves "3 2"
check "a line from 3 2: 5 moves, each one up or left" \
    test "$rc" = 0 -a "$(printf '%s\n' "$out" | grep -cE '^[1-5] (up|left)$')" = 5
run --verify grid --tables "$TMP/g"
check "--verify proves the packed1 table" test "$rc" = 0
v=$(/usr/bin/python3 scripts/ptb_read.py "$TMP/g/grid.mdb" --value 0 5307)
check "ptb_read.py reads 53 7 (distance 60) as its second bit, 0" \
    test "$v" = 0
echo "1..$n"
