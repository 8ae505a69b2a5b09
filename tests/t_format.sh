#!/usr/bin/env bash
# tests/t_format.sh: table format 6 from the outside.  Format-1 and
# format-5 tables are refused (status 3, the file named); a truncated table
# is refused; four and frog built in every other encoding that holds exact
# values are proven by --verify and answer as the generated tables do; the
# generated swap table (packed1) and a packed3 and a zstd one (built with
# the encoding forced) answer the P1225 sample (4 moves, the published
# answer), are read alike by scripts/ptb_read.py and proven by --verify;
# each fails --verify naming the state when one value is changed with its
# digest recomputed, and is refused when the bytes of the start's value
# are damaged.  Crafted headers with out-of-range sizes are refused.  A full disk during tbgen is reported as such and
# leaves the previous table intact.
cd "$(dirname "$0")/.." && . tests/lib.sh
need "$LOOKUP" build/tests/t_format build/tests/shim_enospc.so \
    "$TABLES/swap.mdb"
PY=/usr/bin/python3
SAMPLE=$'1111\n0000\n1110\n0010\n1010\n0101\n1010\n0101\n'

# a format-1 table: named databases "meta" and "blocks" (FORMAT.md, v1)
mkdir -p "$TMP/f1"
"$PY" - "$TMP/f1/swap.mdb" <<'PYEOF'
import hashlib, sys, lmdb
env = lmdb.open(sys.argv[1], subdir=False, lock=False, max_dbs=2)
with env.begin(write=True) as txn:
    meta = env.open_db(b'meta', txn=txn)
    blocks = env.open_db(b'blocks', txn=txn)
    body = 'magic puzzletb\nformat 1\npuzzle swap\nmetric swap\n'
    txn.put(b'header', (body + 'meta_sha256 ' +
                        hashlib.sha256(body.encode()).hexdigest() +
                        '\n').encode(), db=meta)
    txn.put(b'\0' * 8, b'x', db=blocks)
env.close()
PYEOF
IN=$SAMPLE run swap --tables "$TMP/f1"
check "a format-1 table: status 3, one line naming the file" \
    test "$rc" = 3 -a -z "$out" -a "$(printf '%s\n' "$err" | wc -l)" = 1 -a \
    -n "$(printf '%s' "$err" | grep -F "$TMP/f1/swap.mdb")"
"$PY" scripts/ptb_read.py "$TMP/f1/swap.mdb" >/dev/null 2>"$TMP/e"; r=$?
check "... and ptb_read.py calls it format 1" \
    test $r = 1 -a -n "$(grep 'format 1' "$TMP/e")"

mkdir -p "$TMP/f5"
cp "$TABLES/swap.mdb" "$TMP/f5/"
LC_ALL=C perl -0pi -e 's/\nformat 6\n/\nformat 5\n/' "$TMP/f5/swap.mdb"
IN=$SAMPLE run swap --tables "$TMP/f5"
check "a format-5 table: status 3, 'another format version', file named" \
    test "$rc" = 3 -a -z "$out" -a \
    -n "$(printf '%s' "$err" | grep -F "$TMP/f5/swap.mdb: table has another format version")"

mkdir -p "$TMP/tr"
head -c 20000 "$TABLES/swap.mdb" >"$TMP/tr/swap.mdb"
IN=$SAMPLE run swap --tables "$TMP/tr"
check "a truncated table: status 3" test "$rc" = 3 -a -z "$out"

# a zstd swap table (tbgen would store it packed1)
mkdir -p "$TMP/z"
build/tests/t_format --build swap "$TMP/z" zstd
check "a zstd swap table is built" test -f "$TMP/z/swap.mdb"

# crafted headers that pass their own checksum: every size is range-checked
# before use, so each is refused (status 3), never a crash or an answer
craft() {
    rm -rf "$TMP/cr"; mkdir -p "$TMP/cr"; cp "$TMP/z/swap.mdb" "$TMP/cr/"
    "$PY" tests/craft.py "$TMP/cr/swap.mdb" "$1" "$2"
    IN=$SAMPLE run swap --tables "$TMP/cr" "${@:3}"
    check "crafted header, $1 $2${3:+ ($3)}: refused with status 3" \
        test "$rc" = 3 -a -z "$out"
}
rm -rf "$TMP/cr"; mkdir -p "$TMP/cr"; cp "$TMP/z/swap.mdb" "$TMP/cr/"
"$PY" tests/craft.py "$TMP/cr/swap.mdb" comment 'a key readers ignore'
IN=$SAMPLE run swap --tables "$TMP/cr"
check "control: a crafted header with an unknown key still answers (4)" \
    test "$rc" = 0 -a "$(printf '%s\n' "$out" | head -1)" = 4
craft block_values 4294967296
craft block_values 0
craft block_values 6
craft max_distance 300 --stats
craft distance '4000000000 1' --stats
craft farthest '0 99999999' --stats
craft farthest '99999 0' --stats
craft dictionary 200000000
craft values_bytes 5
craft states 1
craft values packed3
craft values mod4
craft index0 5
# packed1 (the generated table): mod4 values need every state solvable and
# the packed1 encoding
craft_p1() {
    rm -rf "$TMP/cr"; mkdir -p "$TMP/cr"; cp "$TABLES/swap.mdb" "$TMP/cr/"
    "$PY" tests/craft.py "$TMP/cr/swap.mdb" "$@"
    IN=$SAMPLE run swap --tables "$TMP/cr"
    check "crafted packed1 header, $*: refused with status 3" \
        test "$rc" = 3 -a -z "$out"
}
craft_p1 solvable 39572682
craft_p1 values mod3
craft_p1 encoding packed3
craft_p1 block_values 16384

# a packed3 swap table
mkdir -p "$TMP/p3"
build/tests/t_format --build swap "$TMP/p3" packed3
check "a packed3 swap table is built" test -f "$TMP/p3/swap.mdb"
hdr=$("$PY" scripts/ptb_read.py "$TMP/p3/swap.mdb")
check "its header says encoding packed3, values mod3" \
    test -n "$(echo "$hdr" | grep -x 'encoding packed3')" -a \
    -n "$(echo "$hdr" | grep -x 'values mod3')"
IN=$SAMPLE run swap --tables "$TMP/p3" --format json
sub=$(printf '%s' "$out" | sed -n 's/.*"subtable":\([0-9]*\).*/\1/p')
idx=$(printf '%s' "$out" | sed -n 's/.*"index":\([0-9]*\).*/\1/p')
check "the P1225 sample from it: 4 moves" \
    test "$rc" = 0 -a -n "$(printf '%s' "$out" | grep '"distance":4')"
v=$("$PY" scripts/ptb_read.py "$TMP/p3/swap.mdb" --value "$sub" "$idx")
check "ptb_read.py reads its start as 1 (4 mod 3)" test "$v" = 1
"$PY" scripts/ptb_read.py "$TMP/p3/swap.mdb" --histogram >"$TMP/h3"; r1=$?
"$PY" scripts/ptb_read.py "$TMP/z/swap.mdb" --histogram >"$TMP/hz"; r2=$?
"$PY" scripts/ptb_read.py "$TABLES/swap.mdb" --histogram >"$TMP/h1"; r3=$?
check "ptb_read.py --histogram: the same for packed3, zstd and packed1" \
    test $r1 = 0 -a $r2 = 0 -a $r3 = 0 -a -n "$(cat "$TMP/h3")" &&
    cmp -s "$TMP/h3" "$TMP/hz" && cmp -s "$TMP/h3" "$TMP/h1"
# damaged DIR ENCODING: the swap table in DIR is proven by --verify; with
# one value changed and everything that would give it away recomputed
# (tamper.py: checks, or frame and index; digest) --verify names the state
# (an early one, where it stops: t_verify.sh changes one near the end);
# with the bytes of the start's value damaged and the checks left as they
# were (corrupt.py: packed3 a byte out of range, zstd a byte of the frame
# flipped) the query and --verify are refused (3).  t_verify.sh does the
# same to the packed1 table.
damaged() {
    run --verify swap --tables "$1"
    check "--verify proves the $2 table" test "$rc" = 0
    cp "$1/swap.mdb" "$1/orig.mdb"
    "$PY" tests/tamper.py "$1/swap.mdb" 40 10 >/dev/null
    check "$2, one value changed, digest recomputed: --verify names the state" \
        expect_error 3 'inconsistent at subtable 40 index 10 .*: stored value is not the distance mod 3' \
        --verify swap --tables "$1"
    cp "$1/orig.mdb" "$1/swap.mdb"
    "$PY" tests/corrupt.py "$1/swap.mdb" "$sub" "$idx" >/dev/null
    IN=$SAMPLE run swap --tables "$1"
    check "$2, the bytes of the start's value damaged: the query is refused (3)" \
        test "$rc" = 3 -a -z "$out"
    run --verify swap --tables "$1"
    check "... and --verify refuses it" test "$rc" = 3
}
damaged "$TMP/p3" packed3
damaged "$TMP/z" zstd
# packed1, the generated table: the start's bit flipped, its chunk check
# left as it was
mkdir -p "$TMP/p1"
cp "$TABLES/swap.mdb" "$TMP/p1/"
"$PY" tests/corrupt.py "$TMP/p1/swap.mdb" "$sub" "$idx" >/dev/null
IN=$SAMPLE run swap --tables "$TMP/p1"
check "packed1, the start's bit flipped: the query is refused (3)" \
    test "$rc" = 3 -a -z "$out"
# a subtable size that is not the puzzle's, with the total kept (the sizes of
# the P1225 sample's subtable and the next one moved by 1): each size is
# checked the first time a value of its subtable is read, and --verify
# checks them all
mkdir -p "$TMP/sz"
cp "$TABLES/swap.mdb" "$TMP/sz/swap.mdb"
"$PY" - "$TMP/sz/swap.mdb" "$sub" <<'PYEOF'
import struct, sys, lmdb
env = lmdb.open(sys.argv[1], subdir=False, lock=False)
s = int(sys.argv[2])
with env.begin(write=True) as txn:
    raw = bytearray(txn.get(b'sizes'))
    a, b = struct.unpack_from('>QQ', raw, 8 * s)
    struct.pack_into('>QQ', raw, 8 * s, a + 1, b - 1)
    txn.put(b'sizes', bytes(raw))
PYEOF
check "a size moved: the query in that subtable is refused (3)" \
    expect_error 3 'swap.mdb: .*corrupt.*rebuild it' \
    swap --tables "$TMP/sz" "$SAMPLE"
run swap --tables "$TMP/sz" 1000 0000 0000 0000 0000 0000 0000 0001
check "... one in another subtable is answered: 6 moves" \
    test "$rc" = 0 -a "$(printf '%s' "$out" | head -1)" = 6
check "... and --verify refuses the table (3), naming the sizes" \
    expect_error 3 'a subtable size is not the puzzle.s' \
    --verify swap --tables "$TMP/sz"
# a table out of the page cache is read in first through a map of the
# reader's own (read_in_huge in lib/format/table_read.c), then answered as ever:
# 横刀立马 in 116 steps, the published optimum; where the kernel has huge
# pages (the read-in's hint) the whole file is then cached
mkdir -p "$TMP/cold"
cp "$TABLES/klotski-step.mdb" "$TMP/cold/klotski-step.mdb"
sync
"$PY" -c 'import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)' "$TMP/cold/klotski-step.mdb"
resident() { fincore -n -o PAGES "$TMP/cold/$1" 2>/dev/null | tr -d ' '; }
if [ "$(resident klotski-step.mdb)" = 0 ]; then
    run klotski --tables "$TMP/cold" -c BAAC BAAC DEEF DGHF IKKJ
    pages=$(( $(stat -c %s "$TMP/cold/klotski-step.mdb") / 4096 ))
    check "a table out of the page cache: 横刀立马 in 116 steps" \
        test "$rc" = 0 -a "$out" = 116
    if [ -d /sys/kernel/mm/transparent_hugepage ]; then
        check "... and the whole table was read in ($pages pages)" \
            test "$(resident klotski-step.mdb)" = "$pages"
    else
        ok "# SKIP no huge pages in this kernel: nothing read in whole"
    fi
    # so tbgen leaves what it wrote out of the page cache, for that read-in
    bin/tbgen -q --puzzle four --out "$TMP/cold" >/dev/null 2>&1
    check "tbgen leaves the table it wrote out of the page cache" \
        test "$(resident four.mdb)" = 0
else
    ok "# SKIP the page cache keeps the copy (tmpfs?): no cold read"
    ok "# SKIP the same"
    ok "# SKIP the same"
fi
# four and frog in the other encodings that hold exact values: each table
# is proven by --verify (every value against its neighbours) and gives the
# generated table's answers
FOUR_IN=$'BWBO\nWBWB\nBWBW\nWBWO\n'
for pe in "four zstd" "four sparse" "frog zstd" "frog packed4"; do
    set -- $pe
    d=$TMP/enc-$1-$2
    mkdir -p "$d"
    if [ "$1 $2" = "frog packed4" ]; then  # distances over 14: refused
        build/tests/t_format --build "$1" "$d" "$2" 2>/dev/null
        check "frog in packed4 (distances up to 168) is refused, no file" \
            test $? != 0 -a ! -e "$d/frog.mdb"
        continue
    fi
    build/tests/t_format --build "$1" "$d" "$2"
    check "$1 built in $2" test -n "$("$PY" scripts/ptb_read.py \
        "$d/$1.mdb" | grep -x "encoding $2")"
    run --verify "$1" --tables "$d"
    check "--verify proves $1 in $2" test "$rc" = 0
    case $1 in
        four) queries=("-i -" "--first W -i -" "--first B -i -") ;;
        *) queries=("--n 5" "--n 12" "WBW.BWB" "BW.WB") ;;
    esac
    for q in "${queries[@]}"; do
        IN=$FOUR_IN run "$1" $q --tables "$d"; a=$out ra=$rc
        IN=$FOUR_IN run "$1" $q
        check "$1 in $2, $q: the generated table's answer" \
            test "$ra" = "$rc" -a "$a" = "$out" -a -n "$out$err"
    done
done

# a full disk while writing (a shim fails every write to *.tmp; then only
# the allocation of its blocks, before LMDB maps it): the error is named,
# the previous table stays as it was, no temporary file is left
mkdir -p "$TMP/full"
cp "$TABLES/four.mdb" "$TMP/full/"
before=$(sha256sum <"$TMP/full/four.mdb")
for what in write fallocate; do
    SHIM_ENOSPC=$what LD_PRELOAD=$PWD/build/tests/shim_enospc.so \
        bin/tbgen -q --puzzle four --out "$TMP/full" >"$TMP/o" 2>"$TMP/e"
    r=$?
    check "tbgen on a full disk ($what fails): fails, saying 'No space left on device'" \
        test $r != 0 -a -n "$(grep -i 'no space left' "$TMP/e")"
    check "... the previous table intact, no temporary file left" \
        test "$(sha256sum <"$TMP/full/four.mdb")" = "$before" -a \
        "$(ls "$TMP/full")" = four.mdb
done
echo "1..$n"
