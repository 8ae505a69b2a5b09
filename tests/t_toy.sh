#!/usr/bin/env bash
# tests/t_toy.sh: a puzzle with its own query options needs one file and one
# registry line, nothing else.  build/toy/ is the library compiled with
# tests/toy/puzzle_toy.c added through -DPTB_TEST_PUZZLES and linked with the
# unchanged tblookup and tbgen (see the Makefile).  Answers are checked
# against the toy's rule, worked out here: from cell x the goal 0 takes
# ceil(x / 2) moves.  The second toy, tests/toy/puzzle_grid.c, has a
# parity: its table in packed1 (one bit a state plus the parity,
# tables/FORMAT.md) answers r + c from row r, column c (the rule), is
# proven by --verify and read alike by scripts/ptb_read.py.  The third,
# tests/toy/puzzle_line.c, walks a track of 600 cells: distances to 599,
# past what a byte holds, answered on every surface of tblookup.
cd "$(dirname "$0")/.." && . tests/lib.sh
LOOKUP=build/toy/tblookup
need "$LOOKUP" build/toy/tbgen

build/toy/tbgen --quiet --puzzle toy --out "$TMP/t"
check "tbgen builds the toy's table" test -f "$TMP/t/toy.mdb"
check "the toy's header changes nothing in the public header" \
    sh -c '! grep -q toy lib/puzzletb.h lookup/main.c gen/main.c'

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

# The line: distances past a byte.  From cell x of the track the goal takes
# x moves (the rule); the siding's cells 600..611 never reach it.
for enc in zstd packed3; do
    build/toy/tbgen --quiet --puzzle line --encoding $enc --out "$TMP/l-$enc"
    check "the line's table in $enc: max_distance 599" \
        sh -c '/usr/bin/python3 scripts/ptb_read.py "$1" |
               grep -qx "max_distance 599"' _ "$TMP/l-$enc/line.mdb"
    bad=
    for x in $(seq 0 611); do
        out=$(build/toy/tblookup line -t "$TMP/l-$enc" --count "$x" 2>/dev/null)
        rc=$?
        if [ "$x" -lt 600 ]; then
            [ "$rc" = 0 ] && [ "$out" = "$x" ] || bad="$bad $x"
        else
            [ "$rc" = 1 ] && [ -z "$out" ] || bad="$bad $x"
        fi
    done
    check "$enc: every cell 0..599 answers x, 600..611 no solution${bad:+ (wrong:$bad)}" \
        test -z "$bad"
    run --verify line --tables "$TMP/l-$enc"
    check "$enc: --verify proves 612 values, distances to 599" \
        test "$rc" = 0 -a -n "$(echo "$out" | grep '612 values proven')"
done
T="$TMP/l-packed3"
# The proof holds whatever the BFS's ops give (lib/answer/verify.c): goals()
# broken as an engine bug would break it cannot prove the right table, and
# a table built with unmoves() broken is refused.  Built without 301 before
# 300, cells 301.. are stored unsolvable (0), and 301 lies in layer 301;
# with 310 before 300, the BFS puts 310 at 301 and 306 at 305 (310, 309,
# 308, 307, 306), where 306's distance is 306.  The line is reversible, so
# the proof takes its layers from moves(): unmoves() broken while it runs
# still proves the right table.
fault() { PTB_TEST_LINE_FAULT=$1; export PTB_TEST_LINE_FAULT; }
fault goal
check "--verify, goals() giving cell 5 too: refused, naming it" \
    expect_error 3 'index 5 .*: distance 0 on a state that is no goal' \
    --verify line --tables "$T"
for f in missing extra; do
    fault $f
    build/toy/tbgen --quiet --puzzle line --encoding packed3 --out "$TMP/l-$f"
    run --verify line --tables "$T"
    check "--verify with unmoves() broken ($f) proves the right table" \
        test "$rc" = 0 -a -n "$(echo "$out" | grep '612 values proven')"
done
unset PTB_TEST_LINE_FAULT
check "--verify, a table built with unmoves() of 300 leaving out 301: refused, naming 301" \
    expect_error 3 'index 301 .*: stored value is not the distance mod 3' \
    --verify line --tables "$TMP/l-missing"
check "--verify, a table built with unmoves() of 300 adding 310: refused, naming 306" \
    expect_error 3 'index 306 .*: stored value is not the distance mod 3' \
    --verify line --tables "$TMP/l-extra"
run line -t "$T" --moves 599
check "--moves 599: 599 numbered moves, each back, the last to 0" \
    test "$rc" = 0 -a "$(printf '%s\n' "$out" | grep -cE '^[0-9]+ back$')" = 599 \
    -a "$(printf '%s\n' "$out" | tail -n 1)" = 0
run line -t "$T" --analyse 450
check "--analyse 450: solvable 450, back to 449, on to 451" \
    test "$out" = $'solvable 450\nback 449\non 451'
run line -t "$T" --format json 300
check "--format json 300: distance 300 and 300 moves" \
    /usr/bin/python3 -c 'import json, sys; a = json.loads(sys.argv[1])
assert a["distance"] == 300 and len(a["moves"]) == 300
assert [m["distance"] for m in a["moves"]] == list(range(299, -1, -1))' "$out"
run line -t "$T" --solutions 599
check "--solutions 599: one line" test "$rc" = 0 -a "$out" = 1
run line -t "$T" --random-at 555
check "--random-at 555: cell 555" test "$rc" = 0 -a "$out" = 0:555
run line -t "$T" --stats
check "--stats: 600 solvable, 12 unsolvable, one cell at each distance to 599" \
    sh -c 'head -n 1 "$1" | grep -q "600 solvable, 12 unsolvable, max distance 599" &&
           test "$(grep -cE "^[0-9]+ 1$" "$1")" = 600 &&
           test "$(grep -E "^[0-9]+ 1$" "$1" | tail -n 1)" = "599 1"' \
    _ "$TMP/out"
run line -t "$T" --stats --format svg
check "--stats --format svg: 600 bars, the last at 599" \
    sh -c 'test "$(grep -o "class=\"bar\"" "$1" | wc -l)" = 600 &&
           grep -q "data-distance=\"599\"" "$1"' _ "$TMP/out"

echo "1..$n"
