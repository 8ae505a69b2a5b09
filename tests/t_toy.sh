#!/usr/bin/env bash
# tests/t_toy.sh: a puzzle with its own query options needs one file and one
# registry line, nothing else.  build/toy/ is the library compiled with
# tests/toy/puzzle_toy.c added through -DPTB_TEST_PUZZLES and linked with the
# unchanged tblookup and tbgen (see the Makefile).  Answers are checked
# against the toy's rule, worked out here: from cell x the goal 0 takes
# ceil(x / 2) moves.
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
echo "1..$n"
