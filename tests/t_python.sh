#!/usr/bin/env bash
# tests/t_python.sh: scripts/ptb_read.py, the Python reader written from
# tables/FORMAT.md, agrees with tblookup on the swap table: stored values at
# the starts of random queries (distance mod 3), the distance histogram, and
# the digest, which must also catch one flipped byte in a block.
set -u
cd "$(dirname "$0")/.." && . tests/lib.sh
need "$LOOKUP" "$TABLES/swap.mdb"
PY=/usr/bin/python3
READ=(scripts/ptb_read.py)
if ! "$PY" -c 'import lmdb, zstandard' 2>/dev/null; then
    echo "not ok 1 - $PY lacks lmdb or zstandard (scripts/install-deps)"
    exit 1
fi
read_table() { "$PY" "${READ[@]}" "$@"; }
# json_field NAME: the number after the first "NAME": in $out
json_field() { printf '%s' "$out" | grep -o "\"$1\":[0-9]*" | head -1 | cut -d: -f2; }

# the P1225 sample, then random records (same number of black cells)
SAMPLE=$'1111\n0000\n1110\n0010\n1010\n0101\n1010\n0101\n'
seed=$RANDOM
echo "# random queries from seed $seed"
awk -v seed="$seed" 'BEGIN { srand(seed);
  for (r = 0; r < 10; r++) {
    k = int(rand() * 17)
    for (b = 0; b < 2; b++) {
      for (i = 0; i < 16; i++) c[i] = 0
      for (j = 0; j < k; ) { x = int(rand() * 16); if (!c[x]) { c[x] = 1; j++ } }
      for (i = 0; i < 16; i += 4) print c[i] c[i+1] c[i+2] c[i+3]
    }
    print ""
  } }' >"$TMP/records"
printf '%s\n' "$SAMPLE" | cat - "$TMP/records" >"$TMP/all"
bad=0 queries=0 sample_value=
while IFS= read -r -d '' rec; do
    IN=$rec run swap --format json
    sub=$(json_field subtable) idx=$(json_field index) d=$(json_field distance)
    v=$(read_table "$TABLES/swap.mdb" --value "$sub" "$idx" 2>&1)
    [ $queries = 0 ] && sample_value=$v sample_d=$d sample_sub=$sub \
        sample_idx=$idx
    queries=$((queries + 1))
    if [ "$rc" != 0 ] || [ -z "$d" ] || [ "$v" != $((d % 3)) ]; then
        echo "# record $queries: tblookup $rc distance '$d' at $sub/$idx," \
             "ptb_read.py '$v'" >&2
        bad=$((bad + 1))
    fi
done < <(awk -v RS= '{ printf "%s\n%c", $0, 0 }' "$TMP/all")
check "the P1225 sample's start holds 1 (4 moves, mod 3)" \
    test "$sample_d" = 4 -a "$sample_value" = 1
check "$queries queries: each start's stored value is its distance mod 3" \
    test $bad = 0 -a $queries = 11
read_table "$TABLES/swap.mdb" --value 0 99999999 >/dev/null 2>&1; r=$?
check "--value with an index out of range: status 2" test $r = 2

# the histogram: tblookup --stats and ptb_read.py --histogram, "D N" lines
run swap --stats
printf '%s\n' "$out" | grep -E '^[0-9]+ [0-9]+$' >"$TMP/stats"
read_table "$TABLES/swap.mdb" --histogram >"$TMP/hist.out"; r=$?
grep -E '^[0-9]+ [0-9]+$' "$TMP/hist.out" >"$TMP/hist"
check "--histogram (checks residues and digest) succeeds" test $r = 0
check "tblookup swap --stats prints $(wc -l <"$TMP/stats") distances" \
    test "$(wc -l <"$TMP/stats")" -gt 1
check "... and --histogram the same, line by line" \
    cmp -s "$TMP/stats" "$TMP/hist"

# the meta record
read_table "$TABLES/swap.mdb" >"$TMP/meta"; r=$?
check "the meta record starts with the magic and ends with meta_sha256" \
    test $r = 0 -a "$(head -1 "$TMP/meta")" = "magic puzzletb" -a \
    "$(tail -1 "$TMP/meta" | cut -d' ' -f1)" = meta_sha256

# digests: the fresh table passes; a flipped byte in a block fails
read_table "$TABLES/swap.mdb" --verify-digest >"$TMP/v" 2>&1; r=$?
check "--verify-digest passes on the fresh table" test $r = 0
mkdir -p "$TMP/bad"
cp "$TABLES/swap.mdb" "$TMP/bad/"
"$PY" tests/corrupt.py "$TMP/bad/swap.mdb" "$sample_sub" "$sample_idx" >/dev/null
read_table "$TMP/bad/swap.mdb" --verify-digest >"$TMP/v" 2>"$TMP/e"; r=$?
check "--verify-digest fails (status 1) on one flipped byte of a block" \
    test $r = 1 -a ! -s "$TMP/v" -a "$(wc -l <"$TMP/e")" = 1
read_table "$TMP/bad/swap.mdb" --histogram >/dev/null 2>&1; r=$?
check "--histogram fails on it too" test $r = 1
cp "$TABLES/swap.mdb" "$TMP/bad/swap.mdb"
# one digit of the "states" line changed, the length kept
LC_ALL=C perl -0pi -e 's/(\nstates \d*)(\d)\n/$1 . ($2 + 1) % 10 . "\n"/e' \
    "$TMP/bad/swap.mdb"
read_table "$TMP/bad/swap.mdb" --verify-digest >/dev/null 2>"$TMP/e"; r=$?
check "--verify-digest fails on an edited header, naming meta_sha256" \
    test $r = 1 -a "$(grep -c meta_sha256 "$TMP/e")" = 1
echo "1..$n"
