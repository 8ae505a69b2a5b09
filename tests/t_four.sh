#!/usr/bin/env bash
# tests/t_four.sh: tblookup four end to end: the codevs sample through every
# input path and output form, table answers against --bfs on random boards
# and every first-mover choice, unsolvable boards (status 1) and each bad
# input's one-line message (status 2).
cd "$(dirname "$0")/.." && . tests/lib.sh
need "$LOOKUP" "$TABLES/four.mdb"

SAMPLE=$'BWBO\nWBWB\nBWBW\nWBWO\n'
printf '%s' "$SAMPLE" >"$TMP/sample"
run four -i "$TMP/sample"
check "codevs sample from a file: 5 moves" test "$rc" = 0 -a "$out" = 5
IN=$SAMPLE run four
check "... from standard input: 5" test "$rc" = 0 -a "$out" = 5
run four BWBO/WBWB/BWBW/WBWO
check "... as one argument with rows split by '/': 5" test "$out" = 5
IN=$SAMPLE run four --bfs
check "... by --bfs: 5" test "$rc" = 0 -a "$out" = 5
for side in B W; do
    IN=$SAMPLE run four --first $side --count
    check "... with --first $side: 5" test "$rc" = 0 -a "$out" = 5
done

IN=$SAMPLE run four --moves
colours=$(echo "$out" | grep -E '^[0-9]+ [BW] [1-4]{2}-[1-4]{2}$' |
          cut -d' ' -f2 | tr -d '\n')
check "--moves: 5 moves, colours alternating from black (BWBWB)" \
    test "$colours" = BWBWB
check "... the first is B 24-14, as the seed's explanation starts" \
    test "$(echo "$out" | sed -n 2p)" = "1 B 24-14"
check "... the last board has four blacks on a diagonal" \
    test "$(echo "$out" | tail -4 | tr '\n' /)" = "BWBB/WOBW/BWBW/WOBW/"
IN=$SAMPLE run four --format json
check "--format json: distance 5 and the move B 24-14" \
    test "$(echo "$out" | grep -c '"distance":5.*"move":"B 24-14"')" = 1

run four BBBB/WWWW/BWBW/WBOO
check "a goal board prints 0" test "$rc" = 0 -a "$out" = 0
check "black boxed in with black first: status 1, one line" \
    expect_error 1 'no solution' four --first B WOOW/BWWB/WBWB/BBWB
check "... the same by --bfs" \
    expect_error 1 'no solution' four --bfs --first B WOOW/BWWB/WBWB/BBWB
run four WOOW/BWWB/WBWB/BBWB
check "... with either side first, white wins in 1" test "$rc" = 0 -a "$out" = 1

printf '%s\n%s\n%s\n' "$SAMPLE" $'BBBB\nWWWW\nBWBW\nWBOO' \
    WOOW/BWWB/WBWB/BBWB >"$TMP/batch"
run four --batch -i "$TMP/batch"
check "--batch: three records answered 5, 0, 1" \
    test "$rc" = 0 -a "$(echo $out)" = "5 0 1"

# Random boards, every first-mover choice: the table against --bfs.
awk 'BEGIN { srand(1004);
  for (r = 0; r < 200; r++) {
    s = "BBBBBBBWWWWWWWOO"
    for (i = 16; i > 1; i--) {
      j = int(rand() * i) + 1
      a = substr(s, i, 1); b = substr(s, j, 1)
      s = substr(s, 1, j - 1) a substr(s, j + 1)
      s = substr(s, 1, i - 1) b substr(s, i + 1)
    }
    for (i = 1; i <= 16; i += 4) print substr(s, i, 4)
  } }' >"$TMP/random"
for first in "" "--first B" "--first W"; do
    "$LOOKUP" four $first --batch --count -i "$TMP/random" >"$TMP/t" 2>&1
    "$LOOKUP" four $first --batch --count --bfs -i "$TMP/random" >"$TMP/b" 2>&1
    check "200 random boards, ${first:-either side first}: table = --bfs" \
        test "$(wc -l <"$TMP/t")" -ge 200 -a \
        "$(cmp -s "$TMP/t" "$TMP/b"; echo $?)" = 0
done

# Bad input: one line naming what is wrong, status 2, nothing on stdout.
IN='' check "empty input" expect_error 2 'empty input' four
IN=$'BWBO\nWBWB\nBWBW\n' \
    check "3 lines" expect_error 2 'line 3: expected 4 rows, got 3' four
IN=$'BWBO\nWBWB\nBWBW\nWBWO\nBWBW\n' \
    check "5 lines" expect_error 2 'line 5, column 1: one row too many' four
IN=$'BWBO\nWBWBW\nBWBW\nWBWO\n' \
    check "a line of 5" \
    expect_error 2 'line 2, column 1: expected 4 characters, got 5' four
IN=$'BWBO\nWBWB\nBWXW\nWBWO\n' \
    check "a wrong character" \
    expect_error 2 "line 3, column 3: unexpected 'X'" four
IN=$'BWBO\nWBWB\nBWBW\nWBWW\n' \
    check "wrong counts" expect_error 2 'board has 7 B, 8 W and 1 O' four
IN=$SAMPLE check "--first X: a usage error naming --first" \
    expect_usage "^tblookup: --first: expected B or W, got 'X'$" four --first X

echo "1..$n"
