#!/usr/bin/env bash
# tests/t_hostile.sh: crafted tables whose header carries a valid
# meta_sha256 (so only the reader's own range checks stand between them and
# the code), the reproducers of issue 10 that apply to format 4: each must
# be refused with exit status 3 and one line on stderr, by a query, by
# --stats and by --verify, and never end in a signal; a crafted stats record
# (histogram, farthest states) by --stats and --verify, while queries, which
# do not read it, answer from the values.  The records are rewritten by
# tests/craft.py from tables/FORMAT.md's description.
cd "$(dirname "$0")/.." && . tests/lib.sh
need "$LOOKUP" "$TABLES/four.mdb" "$TABLES/klotski-move.mdb"
mkdir -p "$TMP/t"

# craft FILE 'KEY VALUE'...: each pair replaces the line of KEY (or is
# added when KEY has no line, or when KEY starts with '+'): 'distance' and
# 'farthest' lines in the stats record, others in the header; the checksums
# that cover them are recomputed (tests/craft.py)
craft() {
    local file=$1 e pairs=(); shift
    cp "$TABLES/$file" "$TMP/t/$file"
    for e in "$@"; do pairs+=("${e%% *}" "${e#* }"); done
    /usr/bin/python3 tests/craft.py "$TMP/t/$file" "${pairs[@]}"
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
    expect_error 3 . --verify "$p" "${args[@]}"
}

# stats_refused WHAT FILE: a damaged stats record (the histogram and the
# farthest states) is refused by --stats and --verify with status 3, while
# queries, which never read it, still answer from the proven values
stats_refused() {
    local file=$1 p m args
    p=${file%.mdb}; m=${p#*-}; p=${p%%-*}
    args=(-t "$TMP/t"); [ "$m" != "$p" ] && args+=(--metric "$m")
    local q='BWBO/WBWB/BWBW/WBWO' want=5
    [ "$p" = klotski ] && q=$'BAAC\nBAAC\nDEEF\nDGHF\nIKKJ' want=81
    run "$p" "${args[@]}" --count "$q"
    [ "$rc" = 0 ] && [ "$out" = "$want" ] &&
    expect_error 3 . "$p" "${args[@]}" --stats &&
    expect_error 3 . --verify "$p" "${args[@]}"
}

craft four.mdb "+unknown_key 1"
run four -t "$TMP/t" --count BWBO/WBWB/BWBW/WBWO
check "control: an unknown key with a valid meta_sha256 is read: 5 moves" \
    test "$rc" = 0 -a "$out" = 5

cases=(
    "max_distance 300"
    "max_distance 4000000000"
    "block_values 4294967296"
    "block_values 65536"
    "block_values 6"
    "dictionary 200000000"
    "values_bytes 18446744073709551615"
    "states 823681"
    "subtables 2"
    "format 2"
    "values mod3"
    "encoding packed3"
    "puzzle frog"
)
for c in "${cases[@]}"; do
    craft four.mdb "$c"
    check "four.mdb with '$c' (valid meta_sha256): exit 3 everywhere" \
        refused "$c" four.mdb
done
stats_cases=(
    "farthest 0 99999999"
    "farthest 7 0"
    "distance 300 5"
    "distance 4000000000 1"
    "distance 8 1"
    "+distance 9 1"
)
for c in "${stats_cases[@]}"; do
    craft four.mdb "$c"
    check "four.mdb with stats line '$c' (valid stats_sha256): --stats and --verify exit 3, a query answers" \
        stats_refused four.mdb
done
craft four.mdb "+farthest 0 1" "+farthest 0 2" "+farthest 0 3" \
    "+farthest 0 4" "+farthest 0 5" "+farthest 0 6" "+farthest 0 7" \
    "+farthest 0 8" "+farthest 0 9"
check "four.mdb with nine more farthest lines: --stats and --verify exit 3" \
    stats_refused four.mdb
craft four.mdb "+padding $(head -c 17000 /dev/zero | tr '\0' x)"
check "four.mdb with a header of 17 KB: exit 3 everywhere" \
    refused big four.mdb
craft klotski-move.mdb "farthest 0 999999999999"
check "klotski-move.mdb with a farthest index past its subtable: --stats and --verify exit 3" \
    stats_refused klotski-move.mdb
