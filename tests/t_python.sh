#!/usr/bin/env bash
# tests/t_python.sh: scripts/ptb_read.py, the Python reader written from
# tables/FORMAT.md (format 6), agrees with tblookup on the swap table: stored
# values at the starts of random queries (the distance's second bit,
# packed1), the distance histogram, and the digest, which must also catch
# one flipped bit.  On every table (and a zstd one built here): the
# histogram equals tblookup --stats, the digest, stats_sha256 and chunk
# checks pass, and known positions read alike; a damaged value (packed4,
# sparse, zstd) is refused by its check; a format-2 header and an edited
# stats record are refused.
set -u
cd "$(dirname "$0")/.." && . tests/lib.sh
need "$LOOKUP" "$TABLES/swap.mdb" build/tests/t_format
PY=/usr/bin/python3
READ=(scripts/ptb_read.py)
if ! "$PY" -c 'import lmdb, zstandard' 2>/dev/null; then
    echo "not ok 1 - $PY lacks lmdb or zstandard (scripts/install-deps)"
    exit 1
fi
read_table() { "$PY" "${READ[@]}" "$@"; }
# json_field NAME: the number after the first "NAME": in $out
json_field() { printf '%s' "$out" | grep -o "\"$1\":[0-9]*" | head -1 | cut -d: -f2; }
# stored KIND D: what a table of values KIND (FORMAT.md) stores for
# distance D (null: no path)
stored() {
    case "$1,$2" in
        exact,null) echo unsolvable ;;
        exact,*)    echo "$2" ;;
        *,null)     echo 0 ;;
        mod3,*)     echo $(($2 % 3)) ;;
        mod4,*)     echo $(($2 / 2 % 2)) ;;
    esac
}
SWAP_KIND=$(read_table "$TABLES/swap.mdb" | sed -n 's/^values //p')

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
    if [ "$rc" != 0 ] || [ -z "$d" ] || [ "$v" != "$(stored "$SWAP_KIND" "$d")" ]; then
        echo "# record $queries: tblookup $rc distance '$d' at $sub/$idx," \
             "ptb_read.py '$v'" >&2
        bad=$((bad + 1))
    fi
done < <(awk -v RS= '{ printf "%s\n%c", $0, 0 }' "$TMP/all")
check "the P1225 sample's start holds 0 (4 moves, second bit)" \
    test "$SWAP_KIND" = mod4 -a "$sample_d" = 4 -a "$sample_value" = 0
check "$queries queries: each start's stored value is its distance's second bit" \
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
check "--verify-digest fails (status 1) on one flipped bit" \
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

# every table: the histogram, the digest and checks, and known positions
for f in "$TABLES"/*.mdb; do
    case $f in *.levels.mdb) continue ;; esac   # (no distances)
    b=$(basename "$f" .mdb)
    p=$(read_table "$f" | sed -n 's/^puzzle //p')
    m=$(read_table "$f" | sed -n 's/^metric //p')
    run "$p" --metric "$m" --stats
    printf '%s\n' "$out" | grep -E '^[0-9]+ [0-9]+$' >"$TMP/stats"
    read_table "$f" --histogram 2>&1 | grep -E '^[0-9]+ [0-9]+$' >"$TMP/hist"
    enc=$(read_table "$f" | sed -n 's/^encoding //p')
    check "$b ($enc): --histogram is tblookup --stats, line by line" \
        test -s "$TMP/stats" -a "$(cat "$TMP/stats")" = "$(cat "$TMP/hist")"
    read_table "$f" --verify-digest >/dev/null 2>&1; r=$?
    check "$b ($enc): --verify-digest passes (digest, stats_sha256, checks)" \
        test $r = 0
done
# same_value FILE PUZZLE [ARGS...]: ptb_read.py reads tblookup's start as
# stored() says
same_value() {
    local file=$1 sub idx d want v; shift
    run "$@" --format json
    sub=$(json_field subtable) idx=$(json_field index)
    d=$(printf '%s' "$out" | grep -o '"distance":[0-9a-z]*' | head -1 | cut -d: -f2)
    v=$(read_table "$TABLES/$file" --value "$sub" "$idx" 2>&1)
    want=$(stored "$(read_table "$TABLES/$file" | sed -n 's/^values //p')" "$d")
    [ -n "$sub" ] && [ -n "$d" ] && [ "$v" = "$want" ] && return 0
    echo "# $*: tblookup $sub/$idx distance '$d', ptb_read.py '$v'" >&2
    return 1
}
check "four: a start at 5 moves reads 5 (packed4)" \
    same_value four.mdb four BWBO/WBWB/BWBW/WBWO
check "frog: the 12-a-side start reads 168 (sparse)" \
    same_value frog.mdb frog --n 12
check "frog: a row with no solution reads unsolvable (sparse, no entry)" \
    same_value frog.mdb frog .BBBBWBBBBBBBWWWWWWWWWWWB
for m in step line move; do
    check "klotski-$m: 横刀立马 reads its distance mod 3 (packed3)" \
        same_value "klotski-$m.mdb" klotski --metric $m 'BAAC BAAC DEEF DGHF IKKJ' &&
    check "klotski-$m: the boxed-in layout reads 0" \
        same_value "klotski-$m.mdb" klotski --metric $m 'AAB. AAB. CCDD EEFF GGHH'
done

# a damaged in-place value is refused, never read
for c in "four 0 5000" "frog 11 33803997" "frog 11 5"; do
    set -- $c
    cp "$TABLES/$1.mdb" "$TMP/bad/$1.mdb"
    what=$("$PY" tests/corrupt.py "$TMP/bad/$1.mdb" "$2" "$3")
    read_table "$TMP/bad/$1.mdb" --value "$2" "$3" >"$TMP/v" 2>"$TMP/e"; r=$?
    read_table "$TMP/bad/$1.mdb" --verify-digest >/dev/null 2>&1; r2=$?
    check "$1 $2 $3, $what: --value and --verify-digest refuse it (chunk check)" \
        test $r = 1 -a $r2 = 1 -a ! -s "$TMP/v" -a \
        -n "$(grep 'fails its check' "$TMP/e")"
done

# zstd (no generated table has it): four built so, read alike, and a byte of
# a frame flipped
mkdir -p "$TMP/z"
build/tests/t_format --build four "$TMP/z" zstd
run four --tables "$TMP/z" --stats
printf '%s\n' "$out" | grep -E '^[0-9]+ [0-9]+$' >"$TMP/stats"
read_table "$TMP/z/four.mdb" --histogram 2>&1 | grep -E '^[0-9]+ [0-9]+$' >"$TMP/hist"
check "four (zstd): --histogram is tblookup --stats, line by line" \
    test -s "$TMP/stats" -a "$(cat "$TMP/stats")" = "$(cat "$TMP/hist")"
read_table "$TMP/z/four.mdb" --verify-digest >/dev/null 2>&1; r=$?
check "four (zstd): --verify-digest passes" test $r = 0
run four --tables "$TMP/z" --format json BWBO/WBWB/BWBW/WBWO
sub=$(json_field subtable) idx=$(json_field index)
v=$(read_table "$TMP/z/four.mdb" --value "$sub" "$idx" 2>&1)
check "four (zstd): a start at 5 moves reads 5" test "$v" = 5
"$PY" tests/corrupt.py "$TMP/z/four.mdb" "$sub" "$idx" >/dev/null
read_table "$TMP/z/four.mdb" --verify-digest >/dev/null 2>&1; r=$?
read_table "$TMP/z/four.mdb" --value "$sub" "$idx" >"$TMP/v" 2>&1; r2=$?
check "four (zstd), a byte of the start's frame flipped: refused" \
    test $r = 1 -a $r2 = 1

# other format versions and an edited stats record
cp "$TABLES/four.mdb" "$TMP/bad/four.mdb"
"$PY" tests/craft.py "$TMP/bad/four.mdb" format 2
read_table "$TMP/bad/four.mdb" >/dev/null 2>"$TMP/e"; r=$?
check "a format-2 header: refused (status 1), naming format 2" \
    test $r = 1 -a -n "$(grep 'format 2' "$TMP/e")"
cp "$TABLES/four.mdb" "$TMP/bad/four.mdb"
LC_ALL=C perl -0pi -e 's/\ndistance 8 80\n/\ndistance 8 81\n/' "$TMP/bad/four.mdb"
read_table "$TMP/bad/four.mdb" --histogram >/dev/null 2>"$TMP/e"; r=$?
read_table "$TMP/bad/four.mdb" --value 0 5000 >/dev/null 2>&1; r2=$?
check "an edited stats record: --histogram fails naming stats_sha256; --value reads on" \
    test $r = 1 -a $r2 = 0 -a -n "$(grep stats_sha256 "$TMP/e")"
echo "1..$n"
