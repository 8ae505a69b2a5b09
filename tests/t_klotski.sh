#!/usr/bin/env bash
# tests/t_klotski.sh: tblookup klotski end to end: the classic start
# (横刀立马) in three metrics and every query form, seed 002's sample and its
# output format, random layouts of every piece mix answered from the tables
# and by --bfs, each bad input's message and status, and an unsolvable
# layout.
cd "$(dirname "$0")/.." && . tests/lib.sh
need "$LOOKUP" "$TABLES/klotski-step.mdb" "$TABLES/klotski-line.mdb" \
     "$TABLES/klotski-move.mdb"

CLASSIC=$'BAAC\nBAAC\nDEEF\nDGHF\nIKKJ\n'
for mc in step:116 line:90 move:81; do
    IN=$CLASSIC run klotski --metric "${mc%:*}" --count
    check "横刀立马 takes ${mc#*:} moves in the ${mc%:*} metric" \
        test "$rc" = 0 -a "$out" = "${mc#*:}"
done
IN=$CLASSIC run klotski --count
check "step is the default metric" test "$out" = 116
for q in 1A9BF0C00 1a9bf0c 4WVE1 4wve1 short:4WVE1 common:1A9BF0C \
         'BAAC BAAC DEEF DGHF IKKJ' BAAC/BAAC/DEEF/DGHF/IKKJ \
         BAACBAACDEEFDGHFIKKJ 'BAAC BAAC DEEF DGHF I..J' \
         'CAAB CAAB FEED FHGD JKKI'; do
    run klotski --count "$q"
    check "the query '$q' is the classic start too" test "$out" = 116
done

SEED=$'FFBB\nDAAE\nDAAE\nHCCI\nJKKG\n'
IN=$SEED run klotski
check "seed 002's sample takes 49 steps" test "$rc" = 0 -a \
    "$(echo "$out" | head -1)" = 49
check "... printed as seed 002 does: n, then per move '<i> <letter> <dir>', \
5 rows and a blank line" test "$(awk '
    NR == 1 { next }
    (NR - 2) % 7 == 0 { if ($0 != ((NR - 2) / 7 + 1) " " substr($2, 1, 1) \
                                  " " $3 || $3 !~ /^[UDLR]$/) bad++; next }
    (NR - 2) % 7 == 6 { if ($0 != "") bad++; next }
    { if ($0 !~ /^[A-K][A-K][A-K][A-K]$/) bad++ }
    END { print bad + 0, NR }' "$TMP/out")" = "0 344"
check "... and ends with the 2x2 block at the bottom middle" \
    test "$(echo "$out" | tail -2 | cut -c2-3 | tr -d '\n')" = AAAA
IN=$'\xef\xbb\xbfBAAC\r\n\tBAAC\r\nDEEF \r\n\r\nDGHF\r\nIKKJ\r\n' \
    run klotski --count
check "a byte-order mark, CRLF, tabs and blank lines are ignored" \
    test "$out" = 116

# the notation rule: 5 characters a ShortCode, 6-9 hex digits a CommonCode,
# short: and common: say which; the tables agree with --bfs on each
for pair in '1A9BF short:1A9BF' 'common:1A9BF 1A9BF0000' \
            'common:1A9BF 1a9bf0'; do
    set -- $pair
    run klotski --count "$1"; a=$out
    run klotski --count --bfs "$2"; b=$out
    check "'$1' is '$2'" test -n "$a" -a "$a" = "$b"
done
run klotski --count 1A9BF; a=$out
run klotski --count common:1A9BF
check "1A9BF is a ShortCode, not the CommonCode 1A9BF0000" \
    test -n "$a" -a -n "$out" -a "$a" != "$out"
check "a 4-character word is no code" \
    expect_error 2 "'1A9B': a word of 4 characters is no position" klotski 1A9B
check "short: takes exactly 5 characters" \
    expect_error 2 "ShortCode '4WVE12': 6 characters, expected 5" \
    klotski short:4WVE12
# one output notation: a code comes back as the general grid, '.' empty
for q in 4WVE1 1A9BF0C00 3TTXT; do
    run klotski --metric move "$q"
    check "the code $q comes back as a general grid ('.' empty)" \
        test "$(echo "$out" | sed -n '3,7p' | grep -cE '^[A-Z.]{4}$')" = 5 -a \
        "$(echo "$out" | sed -n '3,7p' | grep -c '[.]')" -gt 0
done
IN=$CLASSIC run klotski --metric move
check "a board in the A-K notation comes back in it (K empty)" \
    test "$(echo "$out" | sed -n '3,7p' | grep -cE '^[A-K]{4}$')" = 5
run klotski 'CAAB CAAB FEED FHGD JKKI'
check "the classic start's mirror: its own letters, 116 moves ending at \
the bottom middle" test "$(echo "$out" | head -1)" = 116 -a \
    "$(echo "$out" | tail -2 | cut -c2-3 | tr -d '\n')" = AAAA -a \
    "$(echo "$out" | sed -n '3,7p' | grep -cE '^[A-K]{4}$')" = 5

run klotski --metric move 1A9BF0C00
check "move metric: a move through several cells lists each step" \
    test "$(echo "$out" | grep -cE '^[0-9]+ [A-J] [UDLR]{2,}$')" -gt 0
run klotski 'BKKC BKKC DEEF DAAF GAAH'
check "a goal layout: just 0" test "$rc" = 0 -a "$out" = 0
run klotski --format json 4WVE1
check "--format json: the distance and 116 moves with boards" \
    test "$(echo "$out" | grep -c '"distance":116,')" = 1 -a \
    "$(echo "$out" | grep -o '"board"' | wc -l)" = 116
run klotski 'xAAy xAAy .zz. w12v w34v'
check "a general grid keeps its own letters and '.': 112 steps, z first" \
    test "$rc" = 0 -a "$(echo "$out" | head -7 | tr '\n' ' ')" = \
    "112 1 z L xAAy xAAy zz.. w12v w34v "

# random layouts of every piece mix (nh 1x2, nv 2x1, n1 1x1), as 5-line
# grids; the table's count must be --bfs's in every metric
awk 'BEGIN { srand(86);
  for (nh = 0; nh <= 7; nh++) for (nv = 0; nh + nv <= 7; nv++)
  for (n1 = 0; 2 * (nh + nv) + n1 <= 14; n1++) {
    for (t = 0; t < 200; t++) {
      for (i = 0; i < 20; i++) c[i] = "."
      h = int(rand() * 12); h = int(h / 3) * 4 + h % 3
      c[h] = c[h + 1] = c[h + 4] = c[h + 5] = "A"
      placed = 0; want = nh + nv + n1
      for (f = 0; placed < want && f < 300; f++) {
        ty = placed < nh ? 1 : placed < nh + nv ? 2 : 3
        x = int(rand() * 20); y = ty == 1 ? x + 1 : ty == 2 ? x + 4 : x
        if ((ty == 1 && x % 4 == 3) || y > 19 || c[x] != "." || c[y] != ".")
          continue
        l = substr("BCDEFGHIJKLMNOPQ", placed + 1, 1); c[x] = c[y] = l
        placed++
      }
      if (placed == want) {
        for (r = 0; r < 5; r++) print c[4*r] c[4*r+1] c[4*r+2] c[4*r+3]
        break
      }
    }
  } }' >"$TMP/batch"
records=$(( $(wc -l <"$TMP/batch") / 5 ))
for m in step line move; do
    "$LOOKUP" klotski --metric $m --batch --count -i "$TMP/batch" \
        >"$TMP/t" 2>"$TMP/te"; r1=$?
    "$LOOKUP" klotski --metric $m --batch --count --bfs -i "$TMP/batch" \
        >"$TMP/b" 2>"$TMP/be"; r2=$?
    check "$m: $records layouts of every piece mix: table counts equal \
--bfs counts" test $r1 -le 1 -a $r1 = $r2 -a "$(wc -l <"$TMP/t")" = "$records"
    check "... line by line, and the same records reported unsolvable" \
        sh -c "cmp -s '$TMP/t' '$TMP/b' && cmp -s '$TMP/te' '$TMP/be'"
done
check "... some of them unsolvable: -1, and said so on stderr" \
    test "$(grep -cx -- -1 "$TMP/t")" -gt 0 -a \
    "$(grep -cx -- -1 "$TMP/t")" = "$(grep -c 'no solution' "$TMP/te")"

# an unsolvable layout: status 1
run klotski 'AAB. AAB. CCDD EEFF GGHH'
check "an unsolvable layout: status 1 and a message" \
    test "$rc" = 1 -a -n "$err" -a -z "$out"

# bad input: one line naming what is wrong, status 2, nothing on stdout
IN='' check "empty input" expect_error 2 'empty query' klotski
IN=$'BAAC\nBAAC\nDEEF\nDGHF\n' \
    check "4 rows" expect_error 2 '4 rows; expected 5 rows' klotski
IN=$'BAAC\nBAAC\nDEEF\nDGHF\nIKKJ\nIKKJ\n' \
    check "6 rows" expect_error 2 \
    '6 rows; expected 5 rows of 4 cells \(row 6 is at line 6, column 1\)' \
    klotski
IN=$'BAAC\nBAAC\nDEEF\nDGHFF\nIKKJ\n' \
    check "a row of 5 cells" \
    expect_error 2 'line 4, column 1: 5 cells, expected 4' klotski
IN=$'BAAC\nBAAC\nDEEF\nDGHF\nIKKZ\n' \
    check "a letter past K in the A-K notation" \
    expect_error 2 "line 5, column 4: unexpected 'Z'" klotski
IN=$'BAAC\nBA#C\nDEEF\nDGHF\n.KKJ\n' \
    check "a stray character in a general grid" \
    expect_error 2 "line 2, column 3: unexpected '#'" klotski
IN=$'BAAC\nBAAC\nDEEF\nDGGF\nIKKJ\n' \
    check "a soldier letter on a 1x2 piece" \
    expect_error 2 "line 4, column 2: piece 'G' must be a 1x1 piece" klotski
IN=$'BAAC\nBAAC\nDEEF\nDGHF\nIJKJ\n' \
    check "one letter on two pieces" \
    expect_error 2 "line 5, column 2: piece 'J' is not one solid" klotski
IN=$'AAB.\nAAB.\nAACC\nAAD.\nEEFF\n' \
    check "a 2x4 piece" \
    expect_error 2 "line 1, column 1: piece 'A' is not one solid" klotski
IN=$'B..C\nB..C\nDEEF\nDGHF\nIAAJ\n' \
    check "no 2x2 block" expect_error 2 'no 2x2 block' klotski
IN=$'AA..\nAA..\nBBCC\nBBCC\nDDEE\n' \
    check "two 2x2 blocks" \
    expect_error 2 "line 3, column 1: a second 2x2 block 'B'" klotski
IN=$'AABC\nAABC\nDDEE\nFFGG\nHH.I\n' \
    check "one empty cell" \
    expect_error 2 '1 empty cell, at least 2 needed' klotski
check "a CommonCode with bits past the last piece" \
    expect_error 2 "CommonCode '1A9BF0C0F' is not a layout" klotski 1A9BF0C0F
check "a CommonCode whose 2x2 block does not fit" \
    expect_error 2 "CommonCode 'FA9BF0C00' is not a layout: the 2x2" \
    klotski FA9BF0C00
check "a CommonCode with a non-hex digit" \
    expect_error 2 "CommonCode '1A9BF0C0G': character 9 'G'" klotski 1A9BF0C0G
check "a ShortCode with a digit outside the alphabet" \
    expect_error 2 "ShortCode '1A9B0': character 5 '0'" klotski 1A9B0
check "a ShortCode past the last layout" \
    expect_error 2 "ShortCode 'ZZZZZ' is 33554431, past the last" klotski ZZZZZ
check "a 10-character word" \
    expect_error 2 'line 1, column 1: 10 cells; expected 5 rows' \
    klotski 1A9BF0C00X
IN=$'4WVE1\nBAAC\nBAAC\nDEEF\nDGHF\nIKKJ\nBAAC BAAC DEEF DGHF IKKJ\nBAAC\n' \
    run klotski --batch --count
check "batch: codes, 5-line and one-line grids; a bad record: -2, status 2" \
    test "$rc" = 2 -a "$out" = $'116\n116\n116\n-2' -a \
    "$(printf '%s\n' "$err" | grep -c 'record 4 (from line 8)')" = 1

# A table of the built-in format Klotski had before it was a description:
# the header of main's klotski-step.mdb at d85fee0 (tests/data), put in a
# copy of today's table in place of its own, its ranking taken out.
# Refused as any table of another format is: status 3, 'make tables'.
mkdir -p "$TMP/old"
cp "$TABLES/klotski-step.mdb" "$TMP/old/"
/usr/bin/python3 - "$TMP/old/klotski-step.mdb" \
    tests/data/klotski-step.builtin-header <<'PY'
import sys
import lmdb
env = lmdb.open(sys.argv[1], subdir=False, lock=False, max_dbs=0)
with env.begin(write=True) as txn:
    txn.put(b'header', open(sys.argv[2], 'rb').read())
    txn.delete(b'ranking')
PY
check "a table of the old built-in format: refused, status 3, rebuild with 'make tables'" \
    expect_error 3 "klotski-step.mdb: not a puzzletb table for this puzzle; rebuild it with 'make tables'" \
    klotski --tables "$TMP/old" 4WVE1
echo "1..$n"
