#!/usr/bin/env bash
# tests/t_describe.sh: puzzles from descriptions.  tests/t_describe.py
# checks described puzzles drawn in the test against its own model of the
# rules; this script checks what the shipped descriptions must give
# (published figures), bad descriptions, and tables whose stored
# description was tampered with.
cd "$(dirname "$0")/.." && . tests/lib.sh
need bin/tbgen "$LOOKUP" "$TABLES/eight.mdb" "$TABLES/p1379.mdb" \
    "$TABLES/century-move.mdb" "$TABLES/ma-line.mdb" "$TABLES/rush-60-line.mdb"
/usr/bin/python3 tests/t_describe.py | sed -e 's/^ok [0-9]*/ok/' \
    -e 's/^not ok [0-9]*/not ok/' >"$TMP/py"
cat "$TMP/py"
n=$(grep -c '^ok\|^not ok' "$TMP/py")

# ---- the shipped 8-puzzles against published figures ----
run eight --stats
check "eight: 181,440 of the 362,880 layouts solvable, at most 31 moves (Reinefeld 1993)" \
    test "$(head -1 "$TMP/out")" = "# eight step: 362880 states, 181440 solvable, 181440 unsolvable, max distance 31"
check "eight: exactly 2 positions at 31 moves" \
    sh -c 'grep -qx "31 2" "$1"' _ "$TMP/out"
run p1379 --count 283104765
check "p1379: Luogu P1379's sample 283104765 takes 4 moves" test "$rc" = 0 -a "$out" = 4
run p1379 --count '283/1.4/765'
check "p1379: the same position drawn with '.': 4" test "$rc" = 0 -a "$out" = 4
run eight --count 123456708
check "eight: one move from solved: 1" test "$rc" = 0 -a "$out" = 1
run eight --count 123456870
check "eight: two tiles swapped (an odd permutation) cannot be solved: 1" \
    test "$rc" = 1 -a -z "$out"
run eight 123456708
check "eight: the answer keeps the user's blank mark '0'" \
    test "$out" = $'1\n1 8 L\n123\n456\n780'

# ---- the classics from their drawn starts against their published optima ----
# (the sources are cited in each puzzles/NAME.txt: Winning Ways, Storer's
# pages at Brandeis, Pegg's MAA column, Hordern 1986, Coffin 2007)
optimum() {   # optimum NAME METRIC MOVES
    run "$1" --start --metric "$2" --count
    check "$1 --start --metric $2: $3 moves, as published" test "$rc" = 0 -a "$out" = "$3"
}
optimum century move 99
optimum century line 111
optimum supercentury move 138
optimum supercentury line 150
optimum quzzle move 84
optimum quzzle line 93
optimum dads move 59
optimum ma move 23
optimum ma line 26
# Fogleman's database (2018): the hardest level, and the hardest without
# walls, with the positions reachable from each
optimum rush-60 line 60
optimum rush-51 line 51
for lv in "rush-60 2332" "rush-51 4780"; do
    set -- $lv
    run "$1" --stats
    check "$1: $2 positions reachable from the start, as Fogleman counts" \
        sh -c 'head -1 "$1" | grep -q ": $2 states, $2 solvable"' _ "$TMP/out" "$2"
done
run rush-60 --count IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM
check "rush-60 in Fogleman's 36-character notation: 60" test "$rc" = 0 -a "$out" = 60
check "rush-60: a position its start cannot reach (the red car in the top row) is refused" \
    expect_error 2 "not one of the 2332 the table covers" rush-60 IAAxooIooLDDJBBLooJoKEEMFFKooMGGHHHM
run century --stats --metric move
check "SuperCentury's start is among Century's farthest layouts: 138 moves" \
    sh -c 'head -1 "$1" | grep -q "max distance 138$" &&
           "$2" supercentury --start --metric move --count | grep -qx 138' _ "$TMP/out" "$LOOKUP"
check "--start of a built-in puzzle: a usage error" \
    expect_usage "klotski has no start of its own" klotski --start
check "--start with a position: a usage error" \
    expect_usage "--start stands for the position" eight --start 123456780

# ---- a header that outgrows half a page: still one leaf page, and read ----
long=$(printf 'x%.0s' $(seq 1 240))
printf 'name t-long\nsummary %s\nsource %s\nsource %s\nmetrics move\nstart AABB/AAcd/..cd/eFFg/eHHi\ngoal ??AA/??AA/????/????/????\n' \
    "$long" "$long" "$long" >"$TMP/long.txt"
mkdir -p "$TMP/long"
bin/tbgen -q --puzzle "$TMP/long.txt" --out "$TMP/long"
run t-long --tables "$TMP/long" --count AABB/AAcd/..cd/eFFg/eHHi
check "a table with a long description (a padded header) answers: Quzzle's 84" \
    test "$rc" = 0 -a "$out" = 84
check "... and --verify proves it" \
    sh -c '"$1" --verify --tables "$2" t-long | grep -q " ok: "' _ "$LOOKUP" "$TMP/long"

# ---- bad descriptions: one line with line and column, status 2, nothing written ----
bad() {   # bad WHAT PATTERN TEXT
    local what=$1 pattern=$2
    printf '%s' "$3" >"$TMP/bad.txt"
    mkdir -p "$TMP/badout"
    bin/tbgen --puzzle "$TMP/bad.txt" --out "$TMP/badout" >"$TMP/o" 2>"$TMP/e"
    local st=$?
    if [ "$st" = 2 ] && [ "$(wc -l <"$TMP/e")" = 1 ] && [ ! -s "$TMP/o" ] &&
       grep -qE -- "$pattern" "$TMP/e" && [ -z "$(ls "$TMP/badout")" ]; then
        ok "a bad description: $what"
    else
        fail "a bad description: $what (status $st: $(cat "$TMP/e"))"
    fi
}
bad "a piece that is not connected" \
    "bad.txt: line 3, column 1: piece 'A' is not connected" \
    $'name x\nstart\nA.A\n...\ngoal ???/?A?\n'
bad "a goal piece that is not in the start" \
    "line 3, column 11: goal piece 'Z' is not in the start" \
    $'name x\nstart A../...\ngoal ???/?Z?\n'
bad "a board wider than 8" \
    "line 2, column 15: a board has at most 8 columns" \
    $'name x\nstart A......../.........\ngoal ?????????/????????A\n'
bad "a goal piece on a wall" \
    "line 3, column 8: the board has a wall here" \
    $'name x\nstart A.#/...\ngoal ??A/???\n'
bad "a goal piece drawn in another shape" \
    "line 4, column 7: goal piece 'A' is not drawn in its start's shape" \
    $'name x\nstart\nAA./...\ngoal .A./.A.\n'
bad "an unknown key" "line 2: unknown key 'colour'" \
    $'name x\ncolour red\nstart A./..\ngoal ?A/??\n'
bad "an unknown metric" "line 2, column 14: unknown metric 'slide'" \
    $'name x\nmetrics step slide\nstart A./..\ngoal ?A/??\n'
bad "no goal" "no goal" $'name x\nstart A./..\n'
bad "a built-in puzzle's name" "line 1: 'klotski' is a built-in" \
    $'name klotski\nstart A./..\ngoal ?A/??\n'
bad "covers mixes with more empty cells than the start has" "line 2: covers mixes 3, but the start has 2 empty cells" \
    $'name x\ncovers mixes 3\nstart AB/..\ngoal ?A/??\n'
bad "pieces of one shape that move two ways in a table of mixes" "line 4, column 9: pieces 'B' and 'C' have one shape but move differently, which covers mixes cannot tell apart" \
    $'name x\ncovers mixes 1\naxis B\nstart BBCC/A.../....\ngoal ????/????/???A\n'
bad "an axis piece with no long axis" "line 3, column 7: piece 'A' is as tall as it is wide" \
    $'name x\naxis A\nstart A./..\ngoal ?A/??\n'
# Five 1x1 pieces on an open 8x8 board, the move metric: each piece can go
# to any of the 59 empty cells, 295 moves, more than the built-in puzzles'
# 256 (a state's moves are listed in arrays of its own bound: t_moves.c
# makes them); its plan counts C(64,5) = 7,624,512 layouts.
printf 'name x\nmetrics move\nstart ABCDE.../......../......../......../......../......../......../........\ngoal ????????/????????/????????/????????/????????/????????/????????/???????A\n' >"$TMP/five.txt"
check "five 1x1 pieces on an open 8x8 board in the move metric (up to 295 moves): planned, C(64,5) = 7,624,512 states" \
    sh -c '"$1" --plan --puzzle "$2" --out "$3" 2>&1 | grep -q "x.mdb: 7,624,512 states;"' _ bin/tbgen "$TMP/five.txt" "$TMP/badout"

# ---- plans: figures before anything is allocated; too large is refused ----
printf 'name t-big\nstart\nabcdefgh\nij......\n........\n........\n........\n........\n........\n........\ngoal ????????/????????/????????/????????/????????/????????/????????/???????a\n' >"$TMP/big.txt"
mkdir -p "$TMP/bigout"
bin/tbgen --puzzle "$TMP/big.txt" --out "$TMP/bigout" >"$TMP/o" 2>"$TMP/e"; st=$?
check "ten 1x1 pieces on 8x8: refused before building, with C(64,10) = 151,473,214,816 states and the memory (status 1, nothing written)" \
    sh -c '[ "$1" = 1 ] && [ ! -s "$2" ] && [ "$(wc -l <"$3")" = 1 ] &&
           grep -q "t-big.mdb: 151,473,214,816 states need .* GB of memory during generation; this machine has" "$3" &&
           [ -z "$(ls "$4")" ]' _ "$st" "$TMP/o" "$TMP/e" "$TMP/bigout"
# 15 distinct tiles on 5x6: 30!/15! layouts, past the engine's 2^40
python3 -c 'import math; assert math.perm(30, 15) > 2 ** 40'
printf 'name t-huge\ndistinct all\nstart\n12345\n6789A\nBCDEF\n.....\n.....\n.....\n\ngoal\n12345\n6789A\nBCDEF\n.....\n.....\n.....\n' >"$TMP/huge.txt"
bin/tbgen --puzzle "$TMP/huge.txt" --out "$TMP/bigout" >"$TMP/o" 2>"$TMP/e"; st=$?
check "15 distinct tiles on 5x6 (30!/15! > 2^40 layouts): one line naming the engine's limits (status 1, nothing written)" \
    sh -c '[ "$1" = 1 ] && [ ! -s "$2" ] && [ "$(wc -l <"$3")" = 1 ] &&
           grep -q "t-huge: too big for the description engine (a table of layouts or mixes: at most 2^40 layouts" "$3" &&
           [ -z "$(ls "$4")" ]' _ "$st" "$TMP/o" "$TMP/e" "$TMP/bigout"
bin/tbgen --plan --puzzle eight --out "$TMP/bigout" >"$TMP/o" 2>&1
check "tbgen --plan: eight's 362,880 states (9!), and builds nothing" \
    sh -c 'grep -q "eight.mdb: 362,880 states; generation needs at most" "$1" &&
           [ -z "$(ls "$2")" ]' _ "$TMP/o" "$TMP/bigout"
check "... and an estimate of its search's time, from a sample" \
    grep -qE "; its search (under a minute|about [0-9]+ min) of CPU, .* on [0-9]+ threads \(from a sample\)$" "$TMP/o"
bin/tbgen --plan --puzzle eleven --out "$TMP/bigout" >"$TMP/o" 2>&1
check "tbgen --plan: eleven's 239,500,800 states (12!/2, the 3x4 puzzle's solvable half: no search), and builds nothing" \
    sh -c 'grep -q "eleven.mdb: 239,500,800 states; generation needs at most" "$1" &&
           [ -z "$(ls "$2")" ]' _ "$TMP/o" "$TMP/bigout"
# Klotski's universe on the boards of issue 23, counted by the programme
# alone: the counts the issue gives (one 2x2 block, any mix of 1x2, 2x1
# and 1x1 pieces, at least two empty cells).  A goal that is its own mirror
# image gives a state per pair of mirror images: klotski-4x6's layouts are
# counted with its goal moved left, and klotski (the built-in puzzle, a
# description the library keeps) has 14,673,066 pairs.  No 5x5 layout is its own mirror
# image (the 2x2 block cannot be centred on 5 columns), so klotski-5x5,
# whose two goals are each other's mirror image, has half its layouts.
plan_states() {
    bin/tbgen --plan --puzzle "$1" --metric step --out "$TMP/bigout" 2>&1 |
        sed -n 's/.*-step\.mdb: \([0-9,]*\) states; .*/\1/p'
}
sed 's/^?AA?$/AA??/' puzzles/klotski-4x6.txt >"$TMP/k46-left.txt"
check "tbgen --plan: Klotski on 4x6 has 1,749,098,135 layouts" \
    test "$(plan_states "$TMP/k46-left.txt")" = 1,749,098,135
sed 's/^??AA?$/?AA??/' puzzles/klotski-5x5.txt >"$TMP/k55-one.txt"
check "tbgen --plan: Klotski on 5x5 (one goal, not its own mirror image) has 4,984,931,936 layouts" \
    test "$(plan_states "$TMP/k55-one.txt")" = 4,984,931,936
check "tbgen --plan: klotski-5x5 (two goals, mirror images) has 2,492,465,968 states, half of them" \
    test "$(plan_states klotski-5x5)" = 2,492,465,968
check "tbgen --plan: klotski has 14,673,066 states, pairs of mirror images of its 29,334,498 layouts" \
    test "$(plan_states klotski)" = 14,673,066
# Klotski on 4x7 (klotski-4x6 with a row of two 1x2 pieces more, its goal
# moved left so that no state folds a mirror image): the plan of each
# metric, the move metric's layouts with up to 303 moves, counts the
# layouts a count cell by cell written here finds (one 2x2 block and any
# mix of 1x2, 2x1 and 1x1 pieces, at least two cells empty; the same count
# gives 4x5's 29,334,498 and 4x6's 1,749,098,135)
klotski_layouts() {
    python3 - "$1" "$2" <<'PY'
import sys
from collections import defaultdict
w, h = int(sys.argv[1]), int(sys.argv[2])
cur = defaultdict(int)
cur[(0, 0, 0)] = 1          # cells ahead covered, block placed, empty (<= 2)
for i in range(w * h):
    r, c = divmod(i, w)
    nxt = defaultdict(int)
    quad = 2 | 1 << w | 1 << (w + 1)
    for (mask, blk, e), n in cur.items():
        if mask & 1:
            nxt[(mask >> 1, blk, e)] += n
            continue
        nxt[(mask >> 1, blk, min(e + 1, 2))] += n          # empty
        nxt[(mask >> 1, blk, e)] += n                      # 1x1
        if c + 1 < w and not mask & 2:                     # 1x2
            nxt[((mask | 2) >> 1, blk, e)] += n
        if r + 1 < h and not mask & 1 << w:                # 2x1
            nxt[((mask | 1 << w) >> 1, blk, e)] += n
        if not blk and c + 1 < w and r + 1 < h and not mask & quad:
            nxt[((mask | quad) >> 1, 1, e)] += n           # 2x2
    cur = nxt
print('{:,}'.format(sum(n for (m, b, e), n in cur.items() if b and e == 2)))
PY
}
check "the count written here: Klotski on 4x5 has 29,334,498 layouts, on 4x6 1,749,098,135" \
    test "$(klotski_layouts 4 5) $(klotski_layouts 4 6)" = "29,334,498 1,749,098,135"
sed -e 's/^?AA?$/AA??/' -e 's/^KKLL$/KKLL\nMMNN/' -e 's/^goal$/goal\n????/' \
    puzzles/klotski-4x6.txt >"$TMP/k47.txt"
k47=$(klotski_layouts 4 7)
for m in step line move; do
    bin/tbgen --plan --puzzle "$TMP/k47.txt" --metric "$m" --out "$TMP/bigout" \
        >"$TMP/o" 2>&1; st=$?
    check "tbgen --plan --metric $m: Klotski on 4x7 has $k47 layouts (status $st)" \
        sh -c '[ "$1" = 0 ] && grep -q -- "-$2\.mdb: $3 states; " "$4"' _ \
        "$st" "$m" "$k47" "$TMP/o"
done
check "tbgen --plan builds nothing" test -z "$(ls "$TMP/bigout")"

# ---- Klotski's classic shape: the layouts of 横刀立马's pieces ----
# Klotski's description without its covers line covers the start's pieces
# only: 65,880 layouts, which t_describe.py checks one by one in the step
# metric against its own BFS (the same farthest, 126 steps; 101 lines and
# 93 moves by that model too).  The klotski tables, a search of their own
# over every mix, must put its farthest layouts as far.
printf '%s\n' 'name t-classic' 'distinct A' 'metrics step line move' start \
    BAAC BAAC DEEF DGHF I..J '' goal '????' '????' '????' '?AA?' '?AA?' \
    >"$TMP/classic.txt"
bin/tbgen --quiet --puzzle "$TMP/classic.txt" --out "$TMP/cl" >"$TMP/o" 2>&1
for lv in "step 126" "line 101" "move 93"; do
    set -- $lv
    "$LOOKUP" --tables "$TMP/cl" --stats --farthest 8 --metric "$1" \
        "$TMP/classic.txt" >"$TMP/far" 2>&1
    far=$(awk '/^# farthest:/ { n++ } n == 1 && !/^#/' "$TMP/far")
    got=$(printf '%s\n' "$far" |
          "$LOOKUP" --tables "$TABLES" klotski --metric "$1" --batch --count |
          sort -u)
    check "Klotski's classic shape, $1: the farthest of its 65,880 layouts at $2 (klotski's distance for each of $(printf '%s\n' "$far" | wc -l))" \
        sh -c 'grep -q "^# farthest: [0-9]* at distance $2\$" "$1" &&
               [ -n "$3" ] && [ "$4" = "$2" ]' _ "$TMP/far" "$2" "$far" "$got"
done
run --list tables
check "tblookup --list tables: each table with its puzzle, metric and summary" \
    sh -c 'grep -qE "^century-line.mdb +century +line +J. H. Conway" "$1" &&
           grep -qE "^eight.mdb +eight +step +the 8-puzzle" "$1" &&
           grep -qE "^klotski-move.mdb +klotski +move " "$1"' _ "$TMP/out"
run --list puzzles
check "tblookup --list puzzles: the described ones after the built-in ones" \
    sh -c 'grep -qx klotski "$1" && grep -qx quzzle "$1"' _ "$TMP/out"

# ---- tables whose stored description was changed ----
PY=/usr/bin/python3
mkdir -p "$TMP/cr"
cp "$TABLES/eight.mdb" "$TMP/cr/"
"$PY" tests/craft.py "$TMP/cr/eight.mdb" description 'name nine' 2>/dev/null
check "a table whose description names another puzzle: refused, status 3" \
    expect_error 3 "eight: not a puzzletb table for this puzzle" eight --tables "$TMP/cr" 123456780
cp "$TABLES/eight.mdb" "$TMP/cr/"
"$PY" tests/craft.py "$TMP/cr/eight.mdb" +description 'start 12' 2>/dev/null
check "a stored description that does not read: the table is refused, status 3" \
    expect_error 3 "eight: not a puzzletb table for this puzzle" eight --tables "$TMP/cr" 123456780
cp "$TABLES/eight.mdb" "$TMP/cr/eight.mdb"
cp "$TABLES/p1379.mdb" "$TMP/cr/eight-step.mdb"
check "p1379's table under eight's name is not eight's: still eight.mdb answers" \
    sh -c '"$1" eight --tables "$2" --count 123456708 | grep -qx 1' _ "$LOOKUP" "$TMP/cr"
cp "$TABLES/rush-60-step.mdb" "$TMP/cr/p1379.mdb"
check "p1379.mdb holding another puzzle's table: refused, status 3 (found by scripts/faults)" \
    expect_error 3 "p1379: not a puzzletb table for this puzzle" p1379 --tables "$TMP/cr" 283104765

# ---- the stored ranking (FORMAT.md, "ranking") ----
# The programme's graph (eight's table): checked node by node as a walk
# first comes to one, the root at open.  Cell 8 is eight's last.
craft_graph() {
    cp "$TABLES/eight.mdb" "$TMP/cr/eight.mdb"
    "$PY" tests/craft.py "$TMP/cr/eight.mdb" graph^ "$1" 2>/dev/null
}
craft_graph '0 1'
check "a stored graph whose root's total is wrong: refused at open, status 3" \
    expect_error 3 "eight: not a puzzletb table for this puzzle" eight --tables "$TMP/cr" 867254301
for c in 2 4 8; do   # (cell 1: the root's edges, checked at open)
    craft_graph "$c 2"
    check "a stored graph with every node of cell $c's total wrong: the query refused, status 3" \
        expect_error 3 "eight.mdb: table is corrupt" eight --tables "$TMP/cr" 867254301
    check "... --analyse too" \
        expect_error 3 "eight.mdb: table is corrupt" eight --tables "$TMP/cr" --analyse 867254301
done
check "... and --stats, whose farthest position is unranked through it" \
    sh -c '"$1" eight --tables "$2" --stats >/dev/null 2>&1; test $? = 3' _ "$LOOKUP" "$TMP/cr"
check "... and --random-at (no position given)" \
    expect_error 3 "eight.mdb: table is corrupt" eight --tables "$TMP/cr" --random-at 20
check "... and --verify says it is not the description's" \
    expect_error 3 "the stored ranking is not the description's" eight --tables "$TMP/cr" --verify
for c in 3 5; do
    cp "$TABLES/eight.mdb" "$TMP/cr/eight.mdb"
    "$PY" tests/craft.py "$TMP/cr/eight.mdb" 'graph>' "$c" 2>/dev/null
    check "a stored graph whose cell $c edges lead to other nodes of the same totals: refused, status 3 (found by scripts/faults)" \
        expect_error 3 "eight.mdb: table is corrupt" eight --tables "$TMP/cr" 867254301
done
craft_graph 'spare 1'
check "a stored graph with a byte changed in a unit no node reads still answers: 31" \
    sh -c '"$1" eight --tables "$2" --count 867254301 | grep -qx 31' _ "$LOOKUP" "$TMP/cr"
check "... but it is not the description's, and --verify says so, status 3" \
    expect_error 3 "the stored ranking is not the description's" eight --tables "$TMP/cr" --verify

# A node with an edge for a choice its state cannot make, where the start
# of quzzle and of Ma's Puzzle is ranked: a kind with no piece left (but
# that fits), or with one left that overlaps a covered cell; it takes the
# place of an edge the start does not take, and leads to a node forged in
# spare units with that edge's total and the choice's state, so only the
# node's test of its choices can refuse it.  Then an edge the start takes
# (after the root's) with its before, or its kind, one off: nothing else
# tells (tests/craft.py, choice+).
for p in quzzle ma; do
    start=$("$LOOKUP" "$p" --metric move --start --format json |
            "$PY" -c 'import json, sys; print(json.load(sys.stdin)["query"]["code"])')
    for why in avail fits before kind; do
        cp "$TABLES/$p-move.mdb" "$TMP/cr/$p-move.mdb"
        "$PY" tests/craft.py "$TMP/cr/$p-move.mdb" choice+ "$why $start" 2>/dev/null
        case $why in
        avail|fits) what="an edge for a choice its state cannot make ($why)" ;;
        *) what="the $why of an edge the start takes one off" ;;
        esac
        check "a stored graph with $what, $p: the start refused, status 3" \
            expect_error 3 "$p-move.mdb: table is corrupt" "$p" --metric move --tables "$TMP/cr" --start
        check "... --analyse too" \
            expect_error 3 "$p-move.mdb: table is corrupt" "$p" --metric move --tables "$TMP/cr" --start --analyse
        check "... and --verify says it is not the description's" \
            expect_error 3 "the stored ranking is not the description's" "$p" --metric move --tables "$TMP/cr" --verify
    done
    # Two edges the start does not take, at a node its walk reaches, led to
    # forged nodes of the same states: one of total 0 (or past 2^40), the
    # other keeping the sums; or one led to a forged node of the same state
    # and total two cells on.  Only the test of an edge's total, or of its
    # next node's cell, tells (tests/craft.py, edge+).
    for why in zero huge later; do
        cp "$TABLES/$p-move.mdb" "$TMP/cr/$p-move.mdb"
        "$PY" tests/craft.py "$TMP/cr/$p-move.mdb" edge+ "$why $start" 2>/dev/null
        case $why in
        later) what="an edge to a node two cells on" ;;
        *) what="an edge to a node of total $why (the sums kept)" ;;
        esac
        check "a stored graph with $what, $p: the start refused, status 3" \
            expect_error 3 "$p-move.mdb: table is corrupt" "$p" --metric move --tables "$TMP/cr" --start
        check "... and --verify says it is not the description's" \
            expect_error 3 "the stored ranking is not the description's" "$p" --metric move --tables "$TMP/cr" --verify
    done
done

# A graph's fold rows (century's table, its mirror image folded): the
# root's row is checked at open, with the counts of the rows its paths
# lead to and their nodes' fold row numbers; the others as ranking comes
# to them (FORMAT.md, "ranking").
craft_fold() {
    cp "$TABLES/century-move.mdb" "$TMP/cr/century-move.mdb"
    "$PY" tests/craft.py "$TMP/cr/century-move.mdb" fold^ "$1" 2>/dev/null
}
for w in root rows 'rootpath off' 'rootpath end' guide frow; do
    craft_fold "$w 1"
    check "stored fold rows with $w damaged: refused at open, status 3" \
        expect_error 3 "century: not a puzzletb table for this puzzle" century --tables "$TMP/cr" --metric move --start
done
for f in off before end same; do
    craft_fold "path $f 1"
    check "stored fold rows with each row's first path's $f damaged: the start refused, status 3" \
        expect_error 3 "century-move.mdb: table is corrupt" century --tables "$TMP/cr" --metric move --start
done
check "... and --verify says it is not the description's" \
    expect_error 3 "the stored ranking is not the description's" century --tables "$TMP/cr" --metric move --verify
craft_ranking() {
    cp "$TABLES/eight.mdb" "$TMP/cr/eight.mdb"
    "$PY" tests/craft.py "$TMP/cr/eight.mdb" "$@" 2>/dev/null
}
craft_ranking ranking- x
check "a table with no stored ranking (format 5 could have none): refused, status 3" \
    expect_error 3 "eight.mdb: not a puzzletb table for this puzzle; rebuild it" eight --tables "$TMP/cr" 867254301
craft_ranking ranking^ '0 1'
check "a stored ranking that is not the graph (format 5's nodes start with 1): refused, status 3" \
    expect_error 3 "eight: not a puzzletb table for this puzzle" eight --tables "$TMP/cr" 867254301

# ---- a component's stored trie (FORMAT.md, "ranking": the component's trie) ----
craft_trie() {
    cp "$TABLES/rush-60-line.mdb" "$TMP/cr/rush-60-line.mdb"
    "$PY" tests/craft.py "$TMP/cr/rush-60-line.mdb" "$@" 2>/dev/null
}
rush_count() {   # rush_count: the start's answer from the crafted table
    "$LOOKUP" rush-60 --tables "$TMP/cr" --start --count 2>/dev/null
}
craft_trie ranking- x
check "a component table with no stored trie: refused, status 3" \
    expect_error 3 "rush-60-line.mdb: not a puzzletb table for this puzzle; rebuild it" rush-60 --tables "$TMP/cr" --start
craft_trie ranking^ '0 1'
check "a stored trie with a level too many: refused, status 3" \
    expect_error 3 "rush-60: not a puzzletb table for this puzzle" rush-60 --tables "$TMP/cr" --start
craft_trie ranking^ '4 64'
check "a stored trie with a piece out of range: refused, status 3" \
    expect_error 3 "rush-60: not a puzzletb table for this puzzle" rush-60 --tables "$TMP/cr" --start
len=$("$PY" -c 'import lmdb,sys
e = lmdb.open(sys.argv[1], subdir=False, readonly=True, lock=False)
print(len(e.begin().get(b"ranking")))' "$TABLES/rush-60-line.mdb")
craft_trie ranking^ "$((len - 1)) 128"
check "a stored trie with a bit past its last node, or a layout too many: refused, status 3" \
    expect_error 3 "rush-60: not a puzzletb table for this puzzle" rush-60 --tables "$TMP/cr" --start
start=$("$LOOKUP" rush-60 --start --format json | sed 's/.*"index":\([0-9]*\).*/\1/')
craft_trie leaf\> "$((start + 1))"
check "a stored trie with a layout moved keeps its shape and still answers the start: 60" \
    test "$(rush_count)" = 60
check "... but it is not the description's, and --verify says so, status 3" \
    expect_error 3 "the stored ranking is not the description's" rush-60 --tables "$TMP/cr" --verify
cp "$TABLES/rush-60-line.mdb" "$TMP/cr/rush-60-line.mdb"
"$PY" - "$TMP/cr/rush-60-line.mdb" <<'PYEOF'
import sys
import lmdb
env = lmdb.open(sys.argv[1], subdir=False, lock=False, map_size=1 << 24)
with env.begin(write=True) as txn:
    r = bytearray(txn.get(b'ranking'))
    r[len(r) // 2] ^= 4
    txn.put(b'ranking', bytes(r))
PYEOF
check "a damaged stored trie (its check fails): refused, status 3" \
    expect_error 3 "rush-60: table is corrupt" rush-60 --tables "$TMP/cr" --start

cp "$TABLES/eight.mdb" "$TMP/cr/eight.mdb"
printf 'X' | dd of="$TMP/cr/eight.mdb" bs=1 seek=11310 conv=notrunc status=none
run eight --tables "$TMP/cr" --count 123456708
check "a damaged header: no answer" test "$rc" != 0 -a -z "$out"
echo "1..$n"
