#!/usr/bin/env bash
# tests/t_analyse.sh: tblookup's analysis end to end, for every puzzle:
# --analyse (every move, each distance checked by --bfs on the position
# after it), --solutions, --random-at (each position at the asked distance
# by --bfs, the same seed the same output, an impossible distance a clear
# error), the round trip of every --stats and --random-at line, the JSON
# schema checked with python3's json module, and --stats --format svg
# parsed by xml.etree with one bar per distance.
cd "$(dirname "$0")/.." && . tests/lib.sh
need "$LOOKUP" "$TABLES/swap.mdb" "$TABLES/four.mdb" "$TABLES/frog.mdb" \
     "$TABLES/klotski-step.mdb" "$TABLES/klotski-line.mdb" \
     "$TABLES/klotski-move.mdb"
PY=/usr/bin/python3

SWAP=$'1111\n0000\n1110\n0010\n1010\n0101\n1010\n0101'
FOUR=BWBO/WBWB/BWBW/WBWO
TABLES_ALL="swap: four: frog: klotski:step klotski:line klotski:move"

# ---- --analyse ------------------------------------------------------------

run swap --analyse "$SWAP"
check "swap --analyse, P1225 sample: 'solvable 4', then 12 moves" \
    test "$rc" = 0 -a "$(echo "$out" | head -1)" = "solvable 4" -a \
    "$(echo "$out" | tail -n +2 | grep -cE '^[1-4]{4} [0-9]+$')" = 12
check "... best first: the distances are sorted and begin with 3" \
    test "$(echo "$out" | tail -n +2 | cut -d' ' -f2 | sort -n | tr '\n' ' ')" \
    = "$(echo "$out" | tail -n +2 | cut -d' ' -f2 | tr '\n' ' ')" -a \
    "$(echo "$out" | sed -n 2p | cut -d' ' -f2)" = 3
run klotski --analyze 4WVE1
check "klotski --analyze 横刀立马: 'solvable 116', the best move at 115" \
    test "$rc" = 0 -a "$(echo "$out" | head -1)" = "solvable 116" -a \
    "$(echo "$out" | sed -n 2p | awk '{print $NF}')" = 115
run klotski --analyse --moves 'BAAC BAAC DEEF DGHF IKKJ'
check "... with --moves, a 5-row board after each move" \
    test "$(echo "$out" | grep -cE '^[A-K]{4}$')" = \
    $(( 5 * ($(echo "$out" | grep -cE '^[A-J] [UDLR]+ [0-9-]+$')) )) -a \
    "$(echo "$out" | grep -cE '^[A-J] [UDLR]+ [0-9-]+$')" -gt 3
run frog --analyse WB.WB
check "frog --analyse of an unsolvable row: status 1, 'unsolvable -'" \
    test "$rc" = 1 -a "$(echo "$out" | head -1)" = "unsolvable -"
run four --analyse BBBB/WWWW/BWBW/WBOO
check "four --analyse of a goal: 'goal 0' and no moves (the game ended)" \
    test "$rc" = 0 -a "$out" = "goal 0"

# Every move's distance in the JSON analysis against --bfs of the position
# after it (for four the other side moves next; for swap the target stays).
analysis_vs_bfs() {  # PUZZLE METRIC POSITION
    local puzzle=$1 metric=$2 pos=$3 bad=0 n=0
    run "$puzzle" ${metric:+--metric $metric} --analyse --format json "$pos"
    printf '%s' "$out" | $PY -c '
import json, sys
a = json.load(sys.stdin)
for m in a["analysis"]:
    board = m["board"].replace("\n", " ")
    extra = "-"
    if a["puzzle"] == "swap":
        board += " " + a["query"]["target"].replace("\n", " ")
    if a["puzzle"] == "four":
        extra = "W" if a["query"]["to_move"] == "B" else "B"
    d = m["distance"]
    print(board, extra, -1 if d is None else d, sep="|")
' >"$TMP/moves" || return 1
    while IFS="|" read -r board side want; do
        n=$((n + 1))
        [ "$side" = - ] && side=""
        if [ -n "$side" ] && [ "$want" != -1 ]; then
            got=$("$LOOKUP" "$puzzle" --bfs --count --first "$side" "$board")
        elif [ "$want" != -1 ]; then
            got=$("$LOOKUP" "$puzzle" ${metric:+--metric $metric} --bfs \
                  --count "$board")
        else
            "$LOOKUP" "$puzzle" ${metric:+--metric $metric} --bfs --count \
                ${side:+--first $side} "$board" >/dev/null 2>&1
            got=$([ $? = 1 ] && echo -1)
        fi
        [ "$got" = "$want" ] || { bad=$((bad + 1)); echo "# $board: $got"; }
    done <"$TMP/moves"
    [ "$n" -gt 0 ] && [ "$bad" = 0 ]
}
check "swap: every ranked move's distance is --bfs's" \
    analysis_vs_bfs swap "" "$SWAP"
check "four: every ranked move's distance is --bfs's" \
    analysis_vs_bfs four "" "$FOUR"
check "frog: every ranked move's distance is --bfs's" \
    analysis_vs_bfs frog "" W.BWB
for m in step line move; do
    check "klotski $m: every ranked move's distance is --bfs's (seed 002)" \
        analysis_vs_bfs klotski $m 'BAAC BAAC DEEF DGHF IKKJ'
done

# ---- --solutions ---------------------------------------------------------

run swap --solutions "$SWAP"
check "swap --solutions, P1225 sample: 24 (its four swaps in any order)" \
    test "$rc" = 0 -a "$out" = 24
run frog --solutions --n 3
check "frog --solutions --n 3: 2 (the line and its mirror image)" \
    test "$rc" = 0 -a "$out" = 2
run klotski --solutions 4WVE1
check "klotski --solutions 横刀立马: a number, exactly" \
    test "$rc" = 0 -a -n "$(echo "$out" | grep -xE '[1-9][0-9]*')"
run four --solutions --format json "$FOUR"
check "--solutions --format json: {\"solutions\": N} by python3's json" \
    $PY -c 'import json,sys; d=json.loads(sys.argv[1])
assert d["schema"] == 1 and d["solutions"] >= 1' "$out"
check "--solutions of an unsolvable row: status 1, one line, no stdout" \
    expect_error 1 'no solution' frog --solutions WB.WB

# ---- --random-at ---------------------------------------------------------

# random_ok PUZZLE METRIC D N [POSITION]: N lines, each at D by --bfs
random_ok() {
    local puzzle=$1 metric=$2 d=$3 want=$4 bad=0 k=0
    run "$puzzle" ${metric:+--metric $metric} --random-at "$d" --limit "$want" \
        --seed 11 ${5:+"$5"}
    [ "$rc" = 0 ] || return 1
    printf '%s\n' "$out" >"$TMP/drawn"
    while IFS= read -r pos; do
        k=$((k + 1))
        got=$("$LOOKUP" "$puzzle" ${metric:+--metric $metric} --bfs --count \
              "$pos")
        [ "$got" = "$d" ] || { bad=$((bad + 1)); echo "# $pos: $got"; }
    done <"$TMP/drawn"
    [ "$k" = "$want" ] && [ "$bad" = 0 ]
}
check "four --random-at 6: 10 positions, each at 6 by --bfs" \
    random_ok four "" 6 10
check "frog --random-at 16 --n 5: 5 rows of 5 frogs a side, each at 16" \
    random_ok frog "" 16 5 --n=5
check "frog --random-at 30: 5 rows, each at 30 by --bfs" \
    random_ok frog "" 30 5
check "swap --random-at 7 with the sample's target: 6 pairs, each at 7" \
    random_ok swap "" 7 6 "$SWAP"
check "klotski move --random-at 4: 3 layouts, each at 4 by --bfs" \
    random_ok klotski move 4 3
# A mod-3 table draws in one of three ways (lib/answer/analyse.c): the search
# outward from the goals (above, a near distance), sampling (a distance
# whose states are many, far from the goals: 785 of klotski step's are at
# 100) or the farthest states the stats record lists (all of them: 3 at
# klotski move's 138).
check "klotski step --random-at 100: 5 layouts, each at 100 by --bfs" \
    random_ok klotski step 100 5
check "klotski move --random-at 138 --limit 5: the 3 at the farthest distance, each at 138 by --bfs" \
    random_ok klotski move 138 3
check "... asked for 5, it gives those 3, each once" \
    sh -c 'test "$(bin/tblookup klotski --metric move --random-at 138 --limit 5 |
                   sort -u | wc -l)" = 3'
run four --random-at 5 --limit 4 --seed 99
first=$out
run four --random-at 5 --limit 4 --seed 99
check "the same seed draws the same positions" test "$out" = "$first"
run four --random-at 5 --limit 4 --seed 100
check "another seed draws others" test "$out" != "$first"
check "an impossible distance: status 1, one line naming the farthest" \
    expect_error 1 'no position is at distance 9 \(the farthest are at 8' \
    four --random-at 9
check "a distance past any table: a usage error" \
    expect_usage '--random-at takes a number from 0 to 1022' \
    four --random-at 1023
check "--seed without --random-at: a usage error" \
    expect_usage '--seed goes with --random-at' four --seed 1 "$FOUR"
check "--random-at with --count: a usage error" \
    expect_usage 'cannot be combined' four --random-at 3 --count

# ---- codes that round-trip ------------------------------------------------

# Every line --stats prints after "# farthest" is an input at that distance.
stats_round_trip() {  # PUZZLE METRIC [--farthest N]
    local puzzle=$1 metric=$2 bad=0 k=0 d=""
    shift 2
    "$LOOKUP" "$puzzle" ${metric:+--metric $metric} --stats "$@" \
        >"$TMP/stats" || return 1
    while IFS= read -r line; do
        case "$line" in "# farthest: "*) d=${line##* }; continue ;; esac
        [ -n "$d" ] || continue
        k=$((k + 1))
        got=$("$LOOKUP" "$puzzle" ${metric:+--metric $metric} --count \
              "$line" 2>&1)
        [ "$got" = "$d" ] || { bad=$((bad + 1)); echo "# $line: $got"; }
    done <"$TMP/stats"
    [ "$k" -gt 0 ] && [ "$bad" = 0 ]
}
for pm in $TABLES_ALL; do
    p=${pm%%:*} m=${pm#*:}
    check "$p $m --stats: every farthest line is an input at its distance" \
        stats_round_trip "$p" "$m"
done
check "four --stats --farthest 20: 20 lines over 2 distances, each an input" \
    stats_round_trip four "" --farthest 20
check "... exactly 20 of them" \
    test "$(grep -vcE '^#|^distance|^[0-9]+ [0-9]+$' "$TMP/stats")" = 20
check "--farthest without --stats: a usage error" \
    expect_usage '--farthest goes with --stats' four --farthest 3 "$FOUR"

# Every --random-at line as input: the --count answer is the distance.
for pm in "four: 3" "frog: 12" "klotski:step 6"; do
    p=${pm%%:*} rest=${pm#*:} m=${rest%% *} d=${rest#* }
    run "$p" ${m:+--metric $m} --random-at "$d" --limit 3
    bad=0
    while IFS= read -r pos; do
        got=$("$LOOKUP" "$p" ${m:+--metric $m} --count "$pos" 2>&1)
        [ "$got" = "$d" ] || bad=1
    done <<<"$out"
    check "$p $m --random-at $d: every line pasted back answers $d" \
        test "$bad" = 0 -a "$(echo "$out" | wc -l)" = 3
done

# ---- JSON -----------------------------------------------------------------

SCHEMA='
import json, sys
a = json.loads(sys.stdin.read())
puzzle = sys.argv[1]
need = ["schema", "puzzle", "metric", "subtable", "index", "input", "query",
        "category", "distance", "moves"]
assert all(k in a for k in need), [k for k in need if k not in a]
assert a["schema"] == 1 and a["puzzle"] == puzzle, a["puzzle"]
assert a["category"] in ("goal", "solvable", "unsolvable")
q = {"swap": ["start", "target", "code"], "four": ["to_move", "code"],
     "frog": ["n", "code"], "klotski": ["common_code", "short_code", "code"]}
assert all(k in a["query"] for k in q[puzzle]), a["query"]
lists = [a["moves"]] + ([a["analysis"]] if sys.argv[2] == "analysis" else [])
for moves in lists:
    for m in moves:
        assert {"move", "detail", "board", "distance"} <= set(m), m
        d = m["detail"]
        assert "piece" in d and "from" in d and "to" in d, d
        assert "direction" in d or "path" in d, d
if sys.argv[2] == "analysis":
    ds = [m["distance"] for m in a["analysis"]]
    key = [999 if d is None else d for d in ds]
    assert key == sorted(key), ds
    assert len(a["moves"]) == (a["distance"] or 0)
print(a["query"]["code"])
'
# json_ok PUZZLE KIND QOPTS ARGS...: the schema holds, and the query's code
# given back as input (with QOPTS) answers the same distance
json_ok() {
    local puzzle=$1 kind=$2 qopts=$3 code
    shift 3
    run "$puzzle" $qopts "$@"
    code=$(printf '%s' "$out" | $PY -c "$SCHEMA" "$puzzle" "$kind") ||
        return 1
    want=$(printf '%s' "$out" | $PY -c \
        'import json,sys; print(json.load(sys.stdin)["distance"])')
    got=$("$LOOKUP" "$puzzle" $qopts --count "$code" 2>/dev/null)
    [ "$want" = "$got" ] || { echo "# code $code: $got, want $want"; return 1; }
}
check "swap JSON: the schema's fields; query.code answers the same" \
    json_ok swap answer "" --format json "$SWAP"
check "four JSON (first W)" \
    json_ok four answer "--first W" --format json "$FOUR"
check "frog JSON" json_ok frog answer "" --format json WWW.BBB
check "klotski JSON: common_code and short_code beside the board" \
    json_ok klotski answer "" --format json 4WVE1
check "swap --analyse JSON: the ranked moves, sorted, with their details" \
    json_ok swap analysis "" --analyse --format json "$SWAP"
check "four --analyse JSON" \
    json_ok four analysis "" --analyse --format json "$FOUR"
check "frog --analyse JSON" \
    json_ok frog analysis "" --analyse --format json W.BWB
for m in step line move; do
    check "klotski $m --analyse JSON" json_ok klotski analysis "--metric $m" \
        --analyse --format json 'BAAC BAAC DEEF DGHF IKKJ'
done
run klotski --format json 4WVE1
check "klotski JSON: 横刀立马 is CommonCode 1A9BF0C00, ShortCode 4WVE1" \
    $PY -c 'import json,sys; q=json.loads(sys.argv[1])["query"]
assert q["common_code"]=="1A9BF0C00" and q["short_code"]=="4WVE1", q' "$out"
run frog --format json WB.WB
check "JSON of an unsolvable row: category unsolvable, distance null" \
    $PY -c 'import json,sys; a=json.loads(sys.argv[1])
assert a["category"]=="unsolvable" and a["distance"] is None' "$out"

# ---- SVG ------------------------------------------------------------------

svg_ok() {  # PUZZLE METRIC
    local puzzle=$1 metric=$2
    "$LOOKUP" "$puzzle" ${metric:+--metric $metric} --stats --format json \
        >"$TMP/stats.json" || return 1
    "$LOOKUP" "$puzzle" ${metric:+--metric $metric} --stats --format svg \
        >"$TMP/h.svg" || return 1
    $PY - "$TMP/h.svg" "$TMP/stats.json" <<'EOF'
import json, sys, xml.etree.ElementTree as ET
svg = ET.parse(sys.argv[1]).getroot()
st = json.load(open(sys.argv[2]))
ns = "{http://www.w3.org/2000/svg}"
assert svg.tag == ns + "svg"
bars = [r for r in svg.iter(ns + "rect") if r.get("class") == "bar"]
assert [int(b.get("data-distance")) for b in bars] == \
    list(range(st["max_distance"] + 1)), len(bars)
assert [int(b.get("data-count")) for b in bars] == st["histogram"]
uns = [r for r in svg.iter(ns + "rect") if r.get("class") == "unsolvable"]
assert len(uns) == 1 and int(uns[0].get("data-count")) == st["unsolvable"]
title = "".join(t.text or "" for t in svg.iter(ns + "text")
                if t.get("class") == "title")
assert st["puzzle"] in title and st["metric"] in title, title
assert "{:,}".format(st["states"]) in title, title
labels = [t.text for t in svg.iter(ns + "text")
          if t.get("class") in ("xlabel", "ylabel")]
assert len(labels) == 2 and all(labels), labels
EOF
}
for pm in $TABLES_ALL; do
    p=${pm%%:*} m=${pm#*:}
    check "$p $m --stats --format svg: well-formed, a bar per distance with \
its count, unsolvable apart, title and axis labels" svg_ok "$p" "$m"
done
check "--format svg without --stats: a usage error" \
    expect_usage '--format svg goes with --stats' four --format svg "$FOUR"
