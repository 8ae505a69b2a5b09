#!/usr/bin/env bash
# tests/t_hostile.sh: crafted tables whose header carries a valid
# meta_sha256 (so only the reader's own range checks stand between them and
# the code), the reproducers of issue 10 that apply to format 2: each must
# be refused with exit status 3 and one line on stderr, by a query, by
# --stats and by --verify, and never end in a signal.  The header is
# rewritten here with python3-lmdb from tables/FORMAT.md's description.
cd "$(dirname "$0")/.." && . tests/lib.sh
need "$LOOKUP" "$TABLES/four.mdb" "$TABLES/klotski-move.mdb"
mkdir -p "$TMP/t"

# craft FILE 'KEY VALUE'...: each pair replaces the header line of KEY (or
# is added before meta_sha256 when KEY has no line, or when KEY starts with
# '+'); then meta_sha256 is recomputed
craft() {
    local file=$1; shift
    cp "$TABLES/$file" "$TMP/t/$file"
    /usr/bin/python3 - "$TMP/t/$file" "$@" <<'PY'
import hashlib, os, sys
import lmdb
path, edits = sys.argv[1], sys.argv[2:]
env = lmdb.open(path, subdir=False, lock=False, max_dbs=0,
                map_size=2 * os.path.getsize(path) + (16 << 20))
with env.begin(write=True) as txn:
    lines = [l for l in bytes(txn.get(b'header')).decode().splitlines()
             if not l.startswith('meta_sha256 ')]
    for e in edits:
        key, _, value = e.partition(' ')
        if key.startswith('+'):
            lines.append(key[1:] + ' ' + value)
            continue
        hit = [i for i, l in enumerate(lines) if l.split(' ', 1)[0] == key]
        if hit:
            lines[hit[0]] = key + ' ' + value
        else:
            lines.append(key + ' ' + value)
    body = '\n'.join(lines) + '\n'
    body += 'meta_sha256 ' + hashlib.sha256(body.encode()).hexdigest() + '\n'
    txn.put(b'header', body.encode())
env.close()
PY
}

# refused WHAT FILE: every command refuses the crafted FILE with status 3
refused() {
    local what=$1 file=$2 p m args
    p=${file%.mdb}; m=${p#*-}; p=${p%%-*}
    args=(-t "$TMP/t"); [ "$m" != "$p" ] && args+=(--metric "$m")
    local q='BWBO/WBWB/BWBW/WBWO'
    [ "$p" = klotski ] && q=$'BAAC\nBAAC\nDEEF\nDGHF\nIKKJ'
    expect_error 3 . "$p" "${args[@]}" "$q" &&
    expect_error 3 . "$p" "${args[@]}" --stats &&
    expect_error 3 . --verify "$p" -t "$TMP/t"
}

craft four.mdb "+unknown_key 1"
run four -t "$TMP/t" --count BWBO/WBWB/BWBW/WBWO
check "control: an unknown key with a valid meta_sha256 is read: 5 moves" \
    test "$rc" = 0 -a "$out" = 5

cases=(
    "max_distance 300"
    "max_distance 4000000000"
    "block_values 4294967296"
    "block_values 0"
    "block_values 6"
    "farthest 0 99999999"
    "farthest 7 0"
    "distance 300 5"
    "distance 4000000000 1"
    "dictionary 200000000"
    "values_bytes 18446744073709551615"
    "states 823681"
    "subtables 2"
    "format 3"
    "values mod3"
    "encoding packed3"
    "puzzle frog"
)
for c in "${cases[@]}"; do
    craft four.mdb "$c"
    check "four.mdb with '$c' (valid meta_sha256): exit 3 everywhere" \
        refused "$c" four.mdb
done
craft four.mdb "+farthest 0 1" "+farthest 0 2" "+farthest 0 3" \
    "+farthest 0 4" "+farthest 0 5" "+farthest 0 6" "+farthest 0 7" \
    "+farthest 0 8" "+farthest 0 9"
check "four.mdb with nine more farthest lines: exit 3 everywhere" \
    refused nine four.mdb
craft four.mdb "+padding $(head -c 17000 /dev/zero | tr '\0' x)"
check "four.mdb with a header of 17 KB: exit 3 everywhere" \
    refused big four.mdb
craft klotski-move.mdb "farthest 0 999999999999"
check "klotski-move.mdb with a farthest index past its subtable: exit 3" \
    refused far klotski-move.mdb
