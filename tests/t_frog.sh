#!/usr/bin/env bash
# tests/t_frog.sh: tblookup frog end to end: the classic n = 3 answer in the
# seed's numbering, n(n+2) moves for every standard start n = 1..12, the
# classic circles, table answers against --bfs, dead ends (status 1) and
# each bad input's one-line message (status 2).
cd "$(dirname "$0")/.." && . tests/lib.sh
need "$LOOKUP" "$TABLES/frog.mdb"

run frog WWW.BBB
check "WWW.BBB: 16 boards numbered No.  0 to No. 15" \
    test "$rc" = 0 -a "$(echo "$out" | wc -l)" = 16 -a \
    "$(echo "$out" | head -1)" = "No.  0: WWW.BBB" -a \
    "$(echo "$out" | tail -1)" = "No. 15: BBB.WWW"
check "... every line is 'No. NN: ' and a row of 7" \
    test "$(echo "$out" | grep -cE '^No\. [ 1][0-9]: [WB.]{7}$')" = 16
IN=$'WWW.BBB\n' run frog --bfs
check "... --bfs prints the same answer" test "$rc" = 0 -a \
    "$(echo "$out" | tail -1)" = "No. 15: BBB.WWW"
run frog --moves WWW.BBB
check "--moves: the first move is W 3-4, then the board" \
    test "$(echo "$out" | sed -n 2,3p | tr '\n' /)" = "1 W 3-4/WW.WBBB/"
run frog --format json WWW.BBB
check "--format json: distance 15" \
    test "$(echo "$out" | grep -c '"distance":15,')" = 1

# Each move's detail in JSON against the boards before and after it (the
# cell left empty is 'from', the one filled 'to', two apart a jump), on
# positions stored as themselves and as their mirror images.
json_moves_match_boards() {
    "$LOOKUP" frog --format json "$@" | python3 -c '
import json, sys
d = json.load(sys.stdin)
board = d["query"]["code"]
bad = 0
for m in d["moves"]:
    after, det = m["board"], m["detail"]
    gone = [i + 1 for i in range(len(board)) if board[i] != "." and after[i] == "."]
    came = [i + 1 for i in range(len(board)) if board[i] == "." and after[i] != "."]
    bad += (gone, came) != ([det["from"]], [det["to"]]) or \
        det["piece"] != board[det["from"] - 1] or \
        det["direction"] != ("right" if det["to"] > det["from"] else "left") or \
        det["jump"] != (abs(det["to"] - det["from"]) == 2) or \
        m["move"] != "%s %d-%d" % (det["piece"], det["from"], det["to"])
    board = after
sys.exit(bad != 0 or not d["moves"])'
}
bad=""
for q in WW.BB WWW.BBB BWW.BBW WW.WBBB WBW.B W.WBB BW.WB WWWW.BBBB; do
    json_moves_match_boards "$q" || bad="$bad $q"
done
check "--format json: each move's from, to, direction and jump are the boards'${bad:+ (not:$bad)}" \
    test -z "$bad"

bad=""
for k in $(seq 12); do
    run frog --n "$k" --count
    [ "$rc" = 0 ] && [ "$out" = $((k * (k + 2))) ] || bad="$bad $k"
done
check "--n N, N = 1..12: the start takes N(N+2) moves${bad:+ (wrong:$bad)}" \
    test -z "$bad"
run frog --n 12
check "--n 12: 169 numbered boards, the last No. 168" \
    test "$(echo "$out" | wc -l)" = 169 -a \
    "$(echo "$out" | tail -1)" = "No. 168: BBBBBBBBBBBB.WWWWWWWWWWWW"

run frog --count '○ ○ ○ . ● ● ●'
check "the seed's circles with '.': 15" test "$rc" = 0 -a "$out" = 15
run frog --count '○○○ ●●●'
check "the seed's circles, one blank as the empty cell: 15" test "$out" = 15

# Every arrangement for n = 3, the table against --bfs.
perl -e 'my %s; sub g { my ($r, $w, $b, $e) = @_;
  if (!$w && !$b && !$e) { print "$r\n"; return }
  g("${r}W", $w - 1, $b, $e) if $w; g("${r}B", $w, $b - 1, $e) if $b;
  g("${r}.", $w, $b, $e - 1) if $e } g("", 3, 3, 1)' >"$TMP/all"
"$LOOKUP" frog --batch --count -i "$TMP/all" >"$TMP/t" 2>&1
"$LOOKUP" frog --batch --count --bfs -i "$TMP/all" >"$TMP/b" 2>&1
check "all 140 arrangements for n = 3: 72 solvable" \
    test "$(grep -c '^[0-9]' "$TMP/t")" = 72
check "... and the table equals --bfs line by line" cmp -s "$TMP/t" "$TMP/b"

check "WB.WB, a dead end with two moves: status 1, one line" \
    expect_error 1 'no solution' frog WB.WB
check ".WWWBBB, a dead end with no move: status 1" \
    expect_error 1 'no solution' frog .WWWBBB
check "... the same by --bfs" expect_error 1 'no solution' frog --bfs .WWWBBB

# Bad input: one line naming what is wrong, status 2, nothing on stdout.
check "unequal counts" expect_error 2 'unequal counts: 2 W and 1 B' frog WW.B
check "no empty cell" expect_error 2 "expected one empty cell '.', got 0" \
    frog WWBB
check "two empty cells" expect_error 2 "expected one empty cell '.', got 2" \
    frog W..B
check "an unknown character" \
    expect_error 2 "line 1, column 2: unexpected 'X'" frog WX.B
check "blanks without '.'" expect_error 2 "2 blanks and no '.'" frog 'WW  BB'
IN=. check "no pieces" expect_error 2 'no pieces' frog
check "n = 13" expect_error 2 'n = 13: the tables hold n from 1 to 12' \
    frog WWWWWWWWWWWWW.BBBBBBBBBBBBB
check "--n 13: a usage error naming --n" \
    expect_usage "^tblookup: --n: expected a number from 1 to 12, got '13'$" \
    frog --n 13
IN=$'WWW.BBB\nWWW.BBB\n' check "two rows as one query" \
    expect_error 2 'expected one row' frog

printf 'WWW.BBB\nWB.WB\nWW.BB\n' >"$TMP/mixed"
"$LOOKUP" frog --batch --count -i "$TMP/mixed" >"$TMP/mixed.out" 2>"$TMP/mixed.err"
check "batch --count: one line per record, -1 for a dead end, status 1" \
    test $? = 1 -a "$(tr '\n' ' ' <"$TMP/mixed.out")" = "15 -1 8 " -a \
    "$(grep -c 'record 2' "$TMP/mixed.err")" = 1
echo "1..$n"
