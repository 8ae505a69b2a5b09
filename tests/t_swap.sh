#!/usr/bin/env bash
# tests/t_swap.sh: tblookup swap end to end: the P1225 sample in every output
# form, batch answers against --bfs, each bad input's message and status,
# and refusal of missing, corrupt, truncated and wrong-version tables.
cd "$(dirname "$0")/.." && . tests/lib.sh
need "$LOOKUP" "$TABLES/swap.mdb"

SAMPLE=$'1111\n0000\n1110\n0010\n1010\n0101\n1010\n0101\n'
IN=$SAMPLE run swap
check "P1225 sample: 4 moves, then 4 lines abcd" \
    test "$rc" = 0 -a "$(echo "$out" | head -1)" = 4 -a \
    "$(echo "$out" | tail -n +2 | grep -cE '^[1-4]{4}$')" = 4
IN=$SAMPLE run swap --count
check "--count prints only the number (P4289 output)" test "$out" = 4
IN=$SAMPLE run swap --format json
check "--format json has distance and 4 moves with boards" \
    test "$(echo "$out" | grep -o '"board"' | wc -l)" = 4 -a \
    "$(echo "$out" | grep -c '"distance":4,')" = 1
IN=$'1111\n0000\n1110\n0010\n\n1010\n0101\n1010\n0101\n' run swap --count
check "a blank line between the boards (P4289 input) is accepted" test "$out" = 4

# batch: random records answered from tables and by search must agree
awk 'BEGIN { srand(4289);
  for (r = 0; r < 300; r++) {
    k = int(rand() * 17)
    for (b = 0; b < 2; b++) {
      for (i = 0; i < 16; i++) c[i] = 0
      for (j = 0; j < k; ) { x = int(rand() * 16); if (!c[x]) { c[x] = 1; j++ } }
      for (i = 0; i < 16; i += 4) print c[i] c[i+1] c[i+2] c[i+3]
    }
  } }' >"$TMP/batch"
"$LOOKUP" swap --batch --count -i "$TMP/batch" >"$TMP/t" 2>&1; r1=$?
"$LOOKUP" swap --batch --count --bfs -i "$TMP/batch" >"$TMP/b" 2>&1; r2=$?
check "300 batch records: table counts equal --bfs counts" \
    test $r1 = 0 -a $r2 = 0 -a "$(wc -l <"$TMP/t")" = 300
check "... line by line" cmp -s "$TMP/t" "$TMP/b"

# bad input: one line naming what is wrong, status 2, nothing on stdout
IN='' check "empty input" expect_error 2 'empty input' swap
IN=$'1111\n0000\n1110\n0010\n1010\n0101\n1010\n' \
    check "7 lines" expect_error 2 'line 7: expected 8 rows' swap
IN=$'1111\n0000\n1110\n0010\n1010\n0101\n1010\n0101\n1111\n' \
    check "9 lines" expect_error 2 'line 9, column 1: .*found more' swap
IN=$'1111\n0000\n1120\n0010\n1010\n0101\n1010\n0101\n' \
    check "a wrong character" expect_error 2 "line 3, column 3: expected 0 or 1, got '2'" swap
IN=$'1111\n00000\n1110\n0010\n1010\n0101\n1010\n0101\n' \
    check "a line of 5 characters" \
    expect_error 2 'line 2, column 1: expected 4 digits 0/1, got 5' swap
IN=$'1111\n0000\n1110\n0011\n1010\n0101\n1010\n0101\n' \
    check "different numbers of black pieces" expect_error 2 'start has 9 black .* target has 8' swap
check "unknown option: a usage error" \
    expect_usage "unknown option '--frobnicate'" swap --frobnicate
run --help; check "--help: status 0 and usage on stdout" test "$rc" = 0 -a -n "$out"
run --version; check "--version: status 0" test "$rc" = 0 -a -n "$out"
IN=$SAMPLE check "unknown puzzle: a usage error" \
    expect_usage "unknown puzzle 'nosuch'" nosuch

# tables that must be refused with status 3, naming the file and the fix
mkdir -p "$TMP/t1" "$TMP/t2" "$TMP/t3" "$TMP/t4" "$TMP/t5"
IN=$SAMPLE check "missing table: status 3, names file and rebuild command" \
    expect_error 3 "$TMP/t1/swap.mdb: table not found; rebuild it with 'make tables'" \
    swap --tables "$TMP/t1"
cp "$TABLES/swap.mdb" "$TMP/t2/"
size=$(stat -c %s "$TMP/t2/swap.mdb")
truncate -s $((size / 2)) "$TMP/t2/swap.mdb"
IN=$SAMPLE check "truncated table: status 3" \
    expect_error 3 'swap.mdb: table file is truncated' swap --tables "$TMP/t2"
cp "$TABLES/swap.mdb" "$TMP/t3/"
LC_ALL=C perl -0pi -e 's/\nformat 6\n/\nformat 7\n/' "$TMP/t3/swap.mdb"
IN=$SAMPLE check "table of another format version: status 3" \
    expect_error 3 'another format version' swap --tables "$TMP/t3"
head -c 65536 /dev/urandom >"$TMP/t5/swap.mdb"
IN=$SAMPLE check "a file that is no table: status 3" \
    expect_error 3 'swap.mdb: not a puzzletb table' swap --tables "$TMP/t5"
cp "$TABLES/swap.mdb" "$TMP/t5/swap.mdb"
check "mdb_stat and mdb_dump (lmdb-utils) open a table" sh -c \
    "mdb_stat -n '$TMP/t5/swap.mdb' | grep -q 'Entries: 5' &&
     mdb_dump -n -p '$TMP/t5/swap.mdb' | grep -q 'magic puzzletb'"
# one flipped byte inside the frame the sample reads: refused, not answered
cp "$TABLES/swap.mdb" "$TMP/t4/"
IN=$SAMPLE run swap --format json
sub=$(echo "$out" | sed -n 's/.*"subtable":\([0-9]*\).*/\1/p')
idx=$(echo "$out" | sed -n 's/.*"index":\([0-9]*\).*/\1/p')
/usr/bin/python3 tests/corrupt.py "$TMP/t4/swap.mdb" "$sub" "$idx" >/dev/null
IN=$SAMPLE check "a flipped byte in the block read: status 3, never an answer" \
    expect_error 3 'swap.mdb: table is corrupt' swap --tables "$TMP/t4"
# a flipped byte anywhere: refused, or the same answers as before
"$LOOKUP" swap --batch --count -i "$TMP/batch" >"$TMP/good" 2>&1
size=$(stat -c %s "$TABLES/swap.mdb"); bad=0
for i in $(seq 1 12); do
    cp "$TABLES/swap.mdb" "$TMP/t4/swap.mdb"
    pos=$(( (RANDOM * 32768 + RANDOM) % size ))
    byte=$(od -An -tu1 -j $pos -N1 "$TMP/t4/swap.mdb" | tr -d ' ')
    printf "$(printf '\\%03o' $(( byte ^ 1 )))" |
        dd of="$TMP/t4/swap.mdb" bs=1 seek=$pos conv=notrunc status=none
    "$LOOKUP" swap --batch --count --tables "$TMP/t4" -i "$TMP/batch" \
        >"$TMP/flip" 2>/dev/null; r=$?
    if ! { [ $r = 3 ] || { [ $r = 0 ] && cmp -s "$TMP/flip" "$TMP/good"; }; }; then
        echo "# flip at byte $pos: status $r" >&2; bad=$((bad + 1))
    fi
done
check "12 random single-byte flips: each refused (3) or answers unchanged" test $bad = 0
echo "1..$n"
