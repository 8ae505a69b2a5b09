#!/usr/bin/env bash
# tests/t_family.sh: every puzzle of a family (tbgen --family).  The shipped
# Rush Hour families must give what Michael Fogleman's own program gives on
# the same boards (its output, tests/fogleman/, as the independent
# reference: the same boards, moves, component sizes and histograms, as
# sets of lines); families of other boards and metrics what a brute force
# written in tests/t_family.py finds from the definitions; a bad family
# gets one line naming what and where, and status 2.  The levels table
# tbgen writes: read back by tblookup --levels it is his lines, its
# choices (--moves, --at-least, --random, --limit, --stats) those his
# lines give, its bytes the same twice; a level played (--level) has the
# moves and component size a BFS in tests/t_family.py finds from its
# board; a missing, damaged, truncated or crafted table is refused with
# one line and status 3, never a crash; usage errors are status 2.
cd "$(dirname "$0")/.." && . tests/lib.sh
export LC_ALL=C
need bin/tbgen puzzles/families/rush-4x4.txt tests/fogleman/rush-4x4.txt
/usr/bin/python3 tests/t_family.py bin/tbgen "$TMP" | sed -e 's/^ok [0-9]*/ok/' \
    -e 's/^not ok [0-9]*/not ok/' >"$TMP/py"
cat "$TMP/py"
n=$(grep -c '^ok\|^not ok' "$TMP/py")

# full DIR NAME: the levels of DIR/NAME.levels.mdb in tbgen's one-line
# form with the histogram, MOVES BOARD STATES HIST (from --format json)
full() {
    bin/tblookup "$2" --levels --tables "$1" --format json |
        /usr/bin/python3 -c 'import json, sys
for v in json.load(sys.stdin):
    print("%02d %s %d %s" % (v["moves"], v["board"], v["states"],
                             ",".join(map(str, v["histogram"]))))'
}

# same FAMILY [FILE]: the levels table tbgen --family FILE writes (by
# default the shipped FAMILY's), into $TMP/FAMILY, holds Fogleman's lines
# on FAMILY, as sets
same() {
    local f=${2:-puzzles/families/$1.txt} name
    name=$(sed -n 's/^name *//p' "$f")
    bin/tbgen --family "$f" --out "$TMP/$1" -q >"$TMP/o" 2>"$TMP/e" &&
        [ ! -s "$TMP/e" ] && [ ! -s "$TMP/o" ] &&
        full "$TMP/$1" "$name" >"$TMP/$1.lines" &&
        cmp -s <(sort "$TMP/$1.lines") <(sort "tests/fogleman/$1.txt") &&
        return 0
    echo "# $1: $(head -1 "$TMP/e"); lines: ours $(wc -l <"$TMP/$1.lines"), his $(wc -l <"tests/fogleman/$1.txt")" >&2
    diff <(sort "$TMP/$1.lines") <(sort "tests/fogleman/$1.txt") | head -5 >&2
    return 1
}
check "rush-4x4: Fogleman's 32 puzzles on 4x4, line for line" same rush-4x4
check "rush-5x5: Fogleman's 1,730 puzzles on 5x5 (at most 20 moves), line for line" \
    same rush-5x5
check "rush-5x5-walls: Fogleman's 6,041 puzzles on 5x5 with at most one wall (at most 21 moves), line for line" \
    same rush-5x5-walls
sed 's/^family   walls 1$/family   walls 2/' puzzles/families/rush-5x5-walls.txt \
    >"$TMP/r55w2.txt"
check "rush-5x5-walls with 'family walls 2': Fogleman's 7,320 puzzles on 5x5 with at most two walls (1,279 with two), line for line" \
    same rush-5x5-walls2 "$TMP/r55w2.txt"
(cat puzzles/families/rush-4x4.txt; echo 'family walls 1') >"$TMP/r44w.txt"
check "rush-4x4 with 'family walls 1': Fogleman's 32 puzzles again (on 4x4 no minimal puzzle needs a wall)" \
    same rush-4x4-walls "$TMP/r44w.txt"
check "tbgen --family rush-4x4: a shipped family by its name; the same bytes again" \
    sh -c 'bin/tbgen --family rush-4x4 -o "$1/again" -q &&
           cmp "$1/again/rush-4x4.levels.mdb" "$1/rush-4x4/rush-4x4.levels.mdb"' _ "$TMP"
check "tbgen --family rush-5x5 on 1 and 3 threads: the same bytes as on the default" \
    sh -c 'bin/tbgen --family rush-5x5 -o "$1/j1" -q -j 1 &&
           bin/tbgen --family rush-5x5 -o "$1/j3" -q -j 3 &&
           cmp "$1/j1/rush-5x5.levels.mdb" "$1/rush-5x5/rush-5x5.levels.mdb" &&
           cmp "$1/j3/rush-5x5.levels.mdb" "$1/rush-5x5/rush-5x5.levels.mdb"' _ "$TMP"
check "tbgen --family: its summary names the table and its levels" \
    sh -c 'bin/tbgen --family rush-4x4 -o "$1/again" |
           grep -q "^$1/again/rush-4x4.levels.mdb: 32 levels, .* kB, [0-9.]* s$"' _ "$TMP"

# ---- bad families ----
# bad FILE PATTERN: status 2, nothing on stdout, one stderr line matching
bad() {
    bin/tbgen --family "$1" >"$TMP/o" 2>"$TMP/e"; local r=$?
    [ "$r" = 2 ] && [ ! -s "$TMP/o" ] && [ "$(wc -l <"$TMP/e")" = 1 ] &&
        grep -qE -- "$2" "$TMP/e" && return 0
    echo "# status $r: $(cat "$TMP/e")" >&2
    return 1
}
F=puzzles/families/rush-4x4.txt
sed 's/^family   alone$/family   walls 3/' "$F" >"$TMP/walls3.txt"
check "family walls 3: refused, its line named" \
    bad "$TMP/walls3.txt" "^tbgen: $TMP/walls3.txt: line 2[0-9]: family: expected 'walls 0', 'walls 1', 'walls 2', 'alone', 'open-lines' or 'blocks N', got 'family   walls 3'$"
sed 's/^family   alone$/family   lonely/' "$F" >"$TMP/key.txt"
check "an unknown family key: refused, its line named" \
    bad "$TMP/key.txt" "line 2[0-9]: family: expected .*got 'family   lonely'"
sed 's/^family   alone$/family   alone at once/' "$F" >"$TMP/trail.txt"
check "a family key with more after it: refused, its line named" \
    bad "$TMP/trail.txt" "line 2[0-9]: family: expected .*got 'family   alone at once'"
sed 's/^family   alone$/family walls -1/' "$F" >"$TMP/minus.txt"
check "family walls -1: refused" \
    bad "$TMP/minus.txt" "line 2[0-9]: family: expected .*got 'family walls -1'"
sed 's/^covers.*/covers   layouts/' "$F" >"$TMP/layouts.txt"
check "a family that does not cover mixes: refused" \
    bad "$TMP/layouts.txt" "a family's description covers mixes"
sed 's/^axis.*/axis     A/' "$F" >"$TMP/axis.txt"
check "a family whose pieces move both ways: refused" \
    bad "$TMP/axis.txt" "moves both ways: in a family every piece moves along its axis"
sed 's/^distinct.*//' "$F" >"$TMP/nodistinct.txt"
check "a family with no distinct piece: refused, the key to add named" \
    bad "$TMP/nodistinct.txt" "a family needs a distinct piece \('distinct X'\)"
cat >"$TMP/r88.txt" <<'EOF'
name     rush-8x8
metrics  line
distinct A
axis     all
empty    o
covers   mixes 0
start
BBCooooo
DoCooooo
DAAooooo
DEEEoooo
oooooooo
oooooooo
oooooooo
oooooooo

goal     ????????/????????/??????AA/????????/????????/????????/????????/????????
EOF
bin/tbgen --family "$TMP/r88.txt" >"$TMP/o" 2>"$TMP/e"; r=$?
check "Rush Hour on 8x8 as one family: refused, its 32 pieces a layout named (status 2)" \
    sh -c '[ "$1" = 2 ] && [ ! -s "$2" ] && grep -q "may hold 32 pieces, more than 21" "$3"' \
    _ "$r" "$TMP/o" "$TMP/e"
check "a family that is no file nor shipped name: a usage error" \
    sh -c 'bin/tbgen --family no-such-family 2>"$1"; [ $? = 2 ] &&
           grep -q "unknown family .no-such-family." "$1"' _ "$TMP/e"
# resume: rush-5x5-walls killed once its checkpoint holds 100 tasks, its
# last record then cut short (a kill in its write), and run again: it
# takes back the tasks whole and writes the bytes of the run above (whose
# lines are Fogleman's); its checkpoint removed at the end
export TMP
resume() {
    local d=$TMP/ck c=$TMP/ck/rush-5x5-walls.levels.ckpt n
    rm -rf "$d" && mkdir -p "$d" || return 1
    kill_at 100 "$c" bin/tbgen --family rush-5x5-walls -o "$d" -q -j 2
    n=$(grep -c '^end ' "$c")
    [ "$n" -ge 100 ] || { echo "# $n tasks in the checkpoint" >&2; return 1; }
    cp "$c" "$TMP/partial.ckpt"
    truncate -s -30 "$c" || return 1
    TBGEN_LOG_EVERY=1000 bin/tbgen --family rush-5x5-walls -o "$d" -j 2 \
        >"$TMP/o" 2>"$TMP/e" || { cat "$TMP/e" >&2; return 1; }
    grep -q "resumed from its checkpoint, $((n - 1)) of 936 tasks done" "$TMP/e" &&
        cmp "$d/rush-5x5-walls.levels.mdb" \
            "$TMP/rush-5x5-walls/rush-5x5-walls.levels.mdb" && [ ! -e "$c" ] &&
        return 0
    echo "# $n tasks; $(head -1 "$TMP/e")" >&2
    return 1
}
check "tbgen --family killed and run again: resumed from its checkpoint (its last task cut short), the same bytes" \
    resume
# the progress's size kept beside the checkpoint: a run with progress
# counts each task's numbers once (its first pass) into CKPT.weights; a
# run that resumes reads them instead of counting again (a weight changed
# with its SHA-256 made again shows in the total it prints), counts again
# when the file is missing (a checkpoint of an older build), damaged or
# of another family, and writes the same table; both files removed at
# the end.  Sums computed here from the files' lines.
weights_py='import hashlib, re, sys
ck, wf, mode = sys.argv[1:4]
done = {int(t) for t in re.findall(r"^end (\d+) ", open(ck).read(), re.M)}
lines = open(wf).read().split("\n")
n = int(lines[2].split()[1])
w = lines[3:3 + n]
assert lines[0] == "puzzletb family weights 1" and len(w) == n == 936
assert all(x.isdigit() for x in w) and lines[3 + n].startswith("end ")
left = [i for i in range(n) if i not in done]
true = sum(int(w[i]) for i in left)
if mode == "sum":
    print(true)
    sys.exit()
w[left[0]] = str(int(w[left[0]]) + 1000000007)
body = "\n".join(lines[:3] + w) + "\n"
end = lines[3 + n]
if mode == "changed":
    end = "end " + hashlib.sha256(body.encode()).hexdigest()
    true += 1000000007
open(wf, "w").write(body + end + "\n")
print(true)'
weights() {
    local d=$TMP/wk c=$TMP/wk/rush-5x5-walls.levels.ckpt n case total
    rm -rf "$d" && mkdir -p "$d" || return 1
    kill_at 20 "$c" env TBGEN_LOG_EVERY=1000 \
        bin/tbgen --family rush-5x5-walls -o "$d" -j 2 2>/dev/null
    [ -s "$c.weights" ] || { echo "# no weights file" >&2; return 1; }
    cp "$c" "$TMP/wk.ckpt" && cp "$c.weights" "$TMP/wk.weights" || return 1
    for case in kept changed damaged missing quiet; do
        rm -rf "$d" && mkdir -p "$d" && cp "$TMP/wk.ckpt" "$c" &&
            cp "$TMP/wk.weights" "$c.weights" || return 1
        total=$(/usr/bin/python3 -c "$weights_py" "$c" "$c.weights" \
                    "$( [ $case = changed ] && echo changed ||
                        { [ $case = damaged ] && echo damaged || echo sum; } )") ||
            return 1
        [ $case = missing ] && rm "$c.weights"
        if [ $case = quiet ]; then
            bin/tbgen --family rush-5x5-walls -o "$d" -j 2 -q >"$TMP/o" 2>"$TMP/e"
        else
            TBGEN_LOG_EVERY=0 bin/tbgen --family rush-5x5-walls -o "$d" -j 2 \
                >"$TMP/o" 2>"$TMP/e"
        fi || { echo "# $case: $(head -1 "$TMP/e")" >&2; return 1; }
        n=$(grep -m1 'layouts searched' "$TMP/e" |
            sed 's/.* of \([0-9,]*\) layouts.*/\1/' | tr -d ,)
        { [ $case = quiet ] || [ "$n" = "$total" ]; } &&
            cmp -s "$d/rush-5x5-walls.levels.mdb" \
                "$TMP/rush-5x5-walls/rush-5x5-walls.levels.mdb" &&
            [ ! -e "$c" ] && [ ! -e "$c.weights" ] &&
            [ ! -e "$c.weights.tmp" ] ||
            { echo "# $case: total $n, expected $total" >&2; return 1; }
    done
}
check "tbgen --family resumed: its progress sized by the weights kept beside the checkpoint (read, not counted: a changed weight shows), counted again when they are missing or damaged, the same bytes" \
    weights
# refused: ckpt DESCRIPTION FAMILY-FILE MESSAGE
ckpt() {
    local d=$TMP/ck2
    rm -rf "$d" && mkdir -p "$d" && cp "$TMP/partial.ckpt" "$d/rush-5x5-walls.levels.ckpt"
    [ -n "$4" ] && sed -i "$4" "$d/rush-5x5-walls.levels.ckpt"
    bin/tbgen --family "$2" -o "$d" -q >"$TMP/o" 2>"$TMP/e"; local r=$?
    [ "$r" = 1 ] && [ ! -e "$d/rush-5x5-walls.levels.mdb" ] &&
        grep -q "$3" "$TMP/e" && return 0
    echo "# $1: status $r: $(head -1 "$TMP/e")" >&2
    return 1
}
(cat puzzles/families/rush-5x5-walls.txt; echo '# another text') >"$TMP/other.txt"
check "a checkpoint of another family's text: refused (status 1), nothing written" \
    ckpt other "$TMP/other.txt" "checkpoint of another family or run"
check "a checkpoint with a level changed in a whole record: refused (status 1)" \
    ckpt damaged rush-5x5-walls "a damaged checkpoint" '0,/^[0-9][0-9] /s/^\([0-9]*\) \([^ ]*\) \([0-9]\)/\1 \2 1\3/'
check "a checkpoint with a task's end line changed: refused (status 1)" \
    ckpt damaged rush-5x5-walls "a damaged checkpoint" '0,/^end /s/^end \([0-9]*\) ./end \1 0/'
check "--family with --puzzle: a usage error" \
    sh -c 'bin/tbgen --family rush-4x4 --puzzle four 2>/dev/null; [ $? = 2 ]'

# ---- --plan: the counts; --sample N: 1 task in N counted and searched ----
bin/tbgen --plan --family rush-5x5-walls >"$TMP/plan" 2>&1
bin/tbgen --plan --family rush-5x5-walls --sample 2 --processes 4 -j 1 \
    >"$TMP/sample" 2>&1
all=$(sed -n 's/^rush-5x5-walls: \([0-9,]*\) configurations.*/\1/p' "$TMP/plan" | tr -d ,)
part=$(sed -n 's/.*(468 of 936 tasks): \([0-9,]*\) configurations.*/\1/p' "$TMP/sample" | tr -d ,)
check "--plan --family: one line, its configurations and 936 tasks" \
    eval 'test "$(wc -l <"$TMP/plan")" = 1 && grep -q "configurations.* 936 tasks;" "$TMP/plan"'
check "--sample 2: tasks 1, 3, ... (468 of 936), at most the family's configurations, twice them within 25 % ($part of $all)" \
    awk -v p="$part" -v a="$all" 'BEGIN { exit !(p > 0 && p < a && 2 * p > 0.75 * a && 2 * p < 1.25 * a) }'
check "--sample 2 --processes 4: the sample's search timed, levels among his 6,041; the whole's time, on 4 processes" \
    eval 'n=$(sed -n "s/.*s on 1 thread, \([0-9]*\) levels$/\1/p" "$TMP/sample")
          test "${n:-0}" -gt 0 && test "$n" -lt 6041 &&
          grep -q "^rush-5x5-walls: in all, about .* of CPU, .* here on 1 thread; .* on 4 processes of 1 thread (tbgen-mpi -np 5" "$TMP/sample"'
check "--sample without --plan --family, or 0: usage errors (status 2)" \
    sh -c 'bin/tbgen --family rush-4x4 --sample 2 2>/dev/null; [ $? = 2 ] &&
           { bin/tbgen --plan --family rush-4x4 --sample 0 2>/dev/null; [ $? = 2 ]; }'

# ---- the levels table: tblookup FAMILY --levels, --level N ----
export L4=$TMP/rush-4x4 L5=$TMP/rush-5x5 LW=$TMP/rush-5x5-walls
FW=tests/fogleman/rush-5x5-walls.txt
# his lines hardest first (moves descending, then boards in byte order)
cut -d' ' -f1-3 "$FW" | sort -k1,1nr -k2,2 >"$TMP/his3"
check "--levels: Fogleman's MOVES BOARD STATES, hardest first, in order" \
    cmp -s <(bin/tblookup rush-5x5-walls --levels -t "$LW") "$TMP/his3"
check "--levels --stats: his count of puzzles at each number of moves" \
    cmp -s <(bin/tblookup rush-5x5-walls --levels --stats -t "$LW") \
           <(cut -d' ' -f1 "$FW" | sort -r | uniq -c | awk '{ print $2, $1 }')
check "--levels --moves 15: his puzzles of 15 moves" \
    cmp -s <(bin/tblookup rush-5x5-walls --levels --moves 15 -t "$LW") \
           <(awk '$1 == 15' "$TMP/his3")
check "--levels --at-least 18: his puzzles of 18 moves or more" \
    cmp -s <(bin/tblookup rush-5x5-walls --levels --at-least 18 -t "$LW") \
           <(awk '$1 >= 18' "$TMP/his3")
check "--levels --at-least 18 --stats: their counts" \
    cmp -s <(bin/tblookup rush-5x5-walls --levels --at-least 18 --stats -t "$LW") \
           <(awk '$1 >= 18 { print $1 }' "$TMP/his3" | uniq -c | awk '{ print $2, $1 }')
check "--levels --limit 3: the three hardest" \
    cmp -s <(bin/tblookup rush-5x5-walls --levels --limit 3 -t "$LW") \
           <(head -3 "$TMP/his3")
r() { bin/tblookup rush-5x5-walls --levels --random -t "$LW" "$@"; }
export -f r
check "--random --seed 7 --limit 5: five distinct levels of his, the same twice" \
    bash -c '[ "$(r --seed 7 --limit 5 | sort -u | grep -cxFf "$1")" = 5 ] &&
           cmp -s <(r --seed 7 --limit 5) <(r --seed 7 --limit 5)' _ "$TMP/his3"
check "--random: another seed, other levels; --moves 10 --random keeps to 10 moves" \
    bash -c '! cmp -s <(r --seed 7 --limit 5) <(r --seed 8 --limit 5) &&
           [ "$(r --moves 10 --limit 4 | cut -c1-3 | sort -u)" = "10 " ]'
check "--random without --limit: every level chosen, shuffled" \
    bash -c 'cmp -s <(r --moves 12 | sort) <(awk "\$1 == 12" "$1" | sort) &&
           ! cmp -s <(r --moves 12) <(awk "\$1 == 12" "$1")' _ "$TMP/his3"
check "--levels --format json: a JSON array of every level, with histograms" \
    bash -c 'bin/tblookup rush-5x5-walls --levels -t "$1" --format json |
           /usr/bin/python3 -c "import json, sys; v = json.load(sys.stdin)
assert len(v) == 6041 and v[0][\"index\"] == 0
assert all(sum(x[\"histogram\"]) == x[\"states\"] for x in v)"' _ "$LW"

# play FAMILY DIR W H MOVES SEED: tblookup --level MOVES answers with a line
# of the length a BFS written here finds from the level's board, the level
# one of Fogleman's with that many moves and its component's size
play() {
    local out board states want
    out=$(bin/tblookup "$1" --level "$5" --seed "$6" -t "$2") || return 1
    read -r _ _ board states <<<"$(head -1 <<<"$out")"
    want=$(/usr/bin/python3 tests/t_family.py --level "$3" "$4" 2 "$board")
    grep -qx "$(printf %02d "$5") $board $states" \
            <(cut -d' ' -f1-3 "tests/fogleman/$1.txt") &&
        [ "$(sed -n 2p <<<"$out")" = "$5" ] && [ "$want" = "$5 $states" ] &&
        [ "$(grep -c '^[0-9]* [A-Z] ' <<<"$out")" = "$5" ] && return 0
    echo "# $1 --level $5 --seed $6: $board $states; BFS: $want; got $(sed -n 2p <<<"$out")" >&2
    return 1
}
export -f play
check "--level 7 on rush-4x4: its line as long as a BFS of its component finds" \
    play rush-4x4 "$L4" 4 4 7 0
check "--level 20 on rush-5x5 (two seeds): the same" \
    bash -c 'play rush-5x5 "$1" 5 5 20 0 && play rush-5x5 "$1" 5 5 20 5' _ "$L5"
check "--level 21 on rush-5x5-walls, levels with a wall (four seeds): the same" \
    bash -c 'for s in 0 1 2 3; do play rush-5x5-walls "$1" 5 5 21 $s || exit 1; done' _ "$LW"
check "--level 9 --format json: the level and its answer, of 9 moves" \
    bash -c 'bin/tblookup rush-5x5-walls --level 9 --seed 4 -t "$1" --format json |
           /usr/bin/python3 -c "import json, sys; v = json.load(sys.stdin)
assert v[\"level\"][\"moves\"] == 9 and v[\"answer\"][\"distance\"] == 9
assert len(v[\"answer\"][\"moves\"]) == 9"' _ "$LW"
check "--level 99: no level of 99 moves, one line, status 1" \
    bash -c 'bin/tblookup rush-4x4 --level 99 -t "$1" >"$2/o" 2>"$2/e"
             [ $? = 1 ] && [ ! -s "$2/o" ] && [ "$(wc -l <"$2/e")" = 1 ] &&
             grep -q "^tblookup: rush-4x4: no level of 99 moves$" "$2/e"' _ "$L4" "$TMP"

# ---- damaged levels tables: one line, status 3, never a crash ----
# A table's header, statistics and family are checked at open, each block
# of levels when a level of it is read (tables/FORMAT.md): damage there
# is refused by what reads it, and only by that.
# refused DIR PATTERN [FAMILY [CALLS]]: each of CALLS ("--levels", "--level
# 7" and "--levels --stats" by default, '|' between) on DIR's table of
# FAMILY (rush-4x4) fails with status 3, nothing on stdout and one line
# matching PATTERN
refused() {
    local a r calls
    IFS='|' read -ra calls <<<"${4:---levels|--level 7|--levels --stats}"
    for a in "${calls[@]}"; do
        bin/tblookup "${3:-rush-4x4}" $a -t "$1" >"$TMP/o" 2>"$TMP/e"; r=$?
        [ "$r" = 3 ] && [ ! -s "$TMP/o" ] && [ "$(wc -l <"$TMP/e")" = 1 ] &&
            grep -qE -- "$2" "$TMP/e" && continue
        echo "# $a: status $r: $(head -2 "$TMP/e")" >&2
        return 1
    done
}
# answered DIR FAMILY CALLS: each of CALLS ('|' between) on DIR's table
# prints what it prints on the intact table ($TMP/FAMILY), status 0
answered() {
    local a calls
    IFS='|' read -ra calls <<<"$3"
    for a in "${calls[@]}"; do
        cmp -s <(bin/tblookup "$2" $a -t "$1" 2>&1) \
               <(bin/tblookup "$2" $a -t "$TMP/$2" 2>&1) &&
            bin/tblookup "$2" $a -t "$1" >/dev/null 2>&1 && continue
        echo "# $a: $(bin/tblookup "$2" $a -t "$1" 2>&1 | head -2)" >&2
        return 1
    done
}
# bad NAME [FAMILY]: a copy of FAMILY's (rush-4x4's) levels table in
# $TMP/NAME
bad() {
    mkdir -p "$TMP/$1" &&
        cp "$TMP/${2:-rush-4x4}/${2:-rush-4x4}.levels.mdb" "$TMP/$1/"
}
B=rush-4x4.levels.mdb
# flip DIR STRING [FAMILY]: one byte of the first STRING in DIR's table of
# FAMILY (rush-4x4) flipped
flip() {
    /usr/bin/python3 - "$1/${3:-rush-4x4}.levels.mdb" "$2" <<'PY'
import sys
path, what = sys.argv[1], sys.argv[2].encode()
data = bytearray(open(path, 'rb').read())
at = data.index(what)
data[at] ^= 0x01
open(path, 'wb').write(data)
PY
}
# craft DIR OLD NEW [KEY VALUE [RECORD]]: the "levels" record (or RECORD)
# with OLD made NEW; for "levels", its blocks' ends and SHA-256 in
# "blocks" and levels_bytes made again from its lines (block_levels a
# block), for "stats" its length and SHA-256; a header line KEY set to
# VALUE ("-": the line taken out) and meta_sha256 recomputed: a table
# that passes its checksums, written from tables/FORMAT.md
craft() {
    /usr/bin/python3 - "$1/$B" "$2" "$3" "${4:-}" "${5:-}" "${6:-levels}" <<'PY'
import hashlib, os, struct, sys
import lmdb
path, old, new, key, value, rec = sys.argv[1:7]
env = lmdb.open(path, subdir=False, lock=False, max_dbs=0,
                map_size=2 * os.path.getsize(path) + (16 << 20))
with env.begin(write=True) as txn:
    head = bytes(txn.get(b'header')).decode().splitlines()
    hv = dict(l.split(' ', 1) for l in head)
    data = bytes(txn.get(rec.encode())).replace(old.encode(), new.encode(), 1)
    txn.put(rec.encode(), data)
    set_ = {}
    if rec == 'levels':
        lines, per = data.splitlines(True), int(hv['block_levels'])
        blocks, end = b'', 0
        for b in range(0, len(lines), per):
            chunk = b''.join(lines[b:b + per])
            end += len(chunk)
            blocks += struct.pack('<Q', end) + hashlib.sha256(chunk).digest()
        txn.put(b'blocks', blocks)
        set_['levels_bytes'] = str(len(data))
    if rec == 'stats':
        set_['stats_bytes'] = str(len(data))
        set_['stats_sha256'] = hashlib.sha256(data).hexdigest()
    if key:
        set_[key] = value
    lines = []
    for l in head:
        k = l.split(' ', 1)[0]
        if k != 'meta_sha256' and set_.get(k) != '-':
            lines.append(k + ' ' + set_[k] if k in set_ else l)
    body = ''.join(l + '\n' for l in lines)
    txn.put(b'header', (body + 'meta_sha256 ' +
                        hashlib.sha256(body.encode()).hexdigest() +
                        '\n').encode())
env.close()
PY
}
LV='--levels|--level 7'      # the calls that read rush-4x4's one block
export TMP
export -f refused answered
mkdir -p "$TMP/none"
check "a missing levels table: 'table not found', tbgen --family named" \
    refused "$TMP/none" "rush-4x4.levels.mdb: table not found \(tbgen --family builds it\)$"
bad flipped && flip "$TMP/flipped" "EBBBE.CCEAAFDDDF"
check "a byte of a level flipped: --levels and --level corrupt (its block's SHA-256), rebuild named" \
    refused "$TMP/flipped" "corrupt .*; rebuild it with 'tbgen --family rush-4x4'$" rush-4x4 "$LV"
check "... --stats, which reads no level, answers as the intact table" \
    answered "$TMP/flipped" rush-4x4 "--levels --stats|--levels --stats --format json"
bad family && flip "$TMP/family" "summary"
check "a byte of the family's text flipped: corrupt" \
    refused "$TMP/family" "corrupt"
bad stats && flip "$TMP/stats" "$(printf '07 3\n06 6\n')"
check "a byte of the statistics flipped: corrupt at open" \
    refused "$TMP/stats" "corrupt"
bad head && flip "$TMP/head" "max_moves"
check "a byte of the header flipped: refused" refused "$TMP/head" "corrupt|format"
bad short && truncate -s 8192 "$TMP/short/$B"
check "a levels table cut short: refused" refused "$TMP/short" "truncated|corrupt"
bad empty && : >"$TMP/empty/$B"
check "an empty file: refused" refused "$TMP/empty" "truncated|format"
bad other && mv "$TMP/other/$B" "$TMP/other/rush-5x5.levels.mdb"
check "another family's levels table under this name: refused" \
    refused "$TMP/other" "not a puzzletb table|format" rush-5x5
mkdir -p "$TMP/dist" && cp "$TABLES/eight.mdb" "$TMP/dist/$B"
check "a distance table as a levels table: refused" \
    refused "$TMP/dist" "not a puzzletb table"
bad old && craft "$TMP/old" x x levels_format -
check "a levels table of the first format (no levels_format line): another format version, rebuild named" \
    refused "$TMP/old" "table has another format version; rebuild it with 'tbgen --family rush-4x4'$"
bad newer && craft "$TMP/newer" x x levels_format 3
check "... and of levels_format 3: the same" \
    refused "$TMP/newer" "another format version; rebuild"
bad moves && craft "$TMP/moves" "07 EBBBE.CCEAAFDDDF 8 1,1,1,1,1,1,1,1" \
    "07 EBBBE.CCEAAFDDDF 8 1,1,1,1,1,1,1,1"
check "crafted: a table that passes every check reads (the crafting is sound)" \
    answered "$TMP/moves" rush-4x4 "--levels|--levels --stats|--level 7"
bad sum && craft "$TMP/sum" "EBBBE.CCEAAFDDDF 8 " "EBBBE.CCEAAFDDDF 9 "
check "crafted: a component's size that is not its histogram's sum: corrupt" \
    refused "$TMP/sum" "corrupt" rush-4x4 "$LV"
bad order && craft "$TMP/order" "07 E.BBECCCAA.FDD.F 34" "06 E.BBECCCAA.FDD.F 34"
check "crafted: a level's moves not those the statistics give its place: corrupt" \
    refused "$TMP/order" "corrupt" rush-4x4 "$LV"
bad board && craft "$TMP/board" "EBBBE.CCEAAFDDDF" "EBBBE.CCEAAFDDD"
check "crafted: a board a cell short: corrupt" \
    refused "$TMP/board" "corrupt" rush-4x4 "$LV"
bad many && craft "$TMP/many" "x" "x" levels 4000000000
check "crafted: four billion levels claimed in a small record: corrupt at open, nothing allocated" \
    refused "$TMP/many" "corrupt"
# heads: crafted header lines, each in a table of its own, every call
# refused: numbers out of range, or not those of the records
heads() {
    local kv i=0
    for kv in "block_levels 0" "block_levels 65537" "block_levels 1" \
              "levels 31" "levels_bytes $1" "max_moves 255" "max_moves 6" \
              "width 9" "stats_bytes 9000"; do
        i=$((i + 1))
        bad "head$i" && craft "$TMP/head$i" x x $kv &&
            refused "$TMP/head$i" "corrupt|not a puzzletb table" || { echo "# $kv" >&2; return 1; }
    done
}
check "crafted headers (block_levels 0, 1 and 65537, levels 31, levels_bytes one more, max_moves 255 and 6, width 9, stats_bytes 9000): each refused at open" \
    heads "$(( $(/usr/bin/python3 -c 'import lmdb, sys
e = lmdb.open(sys.argv[1], subdir=False, lock=False, readonly=True)
print(len(e.begin().get(b"levels")))' "$L4/$B") + 1 ))"
bad count && craft "$TMP/count" "$(printf '06 6\n05 5\n')" "$(printf '04 6\n05 5\n')" "" "" stats
check "crafted: statistics out of order (06 made 04, before 05): corrupt at open" \
    refused "$TMP/count" "corrupt"
bad lie && craft "$TMP/lie" "07 EBBBE.CCEAAFDDDF 8 " "07 EBBBE.CCEAAFDD.F 8 "
check "crafted: a level whose board is 6 moves from a goal, said 7: listed, but played refused as corrupt" \
    bash -c 'bin/tblookup rush-4x4 --levels --moves 7 -t "$1" | grep -q "^07 EBBBE.CCEAAFDD.F 8$" &&
             bin/tblookup rush-4x4 --level 7 --seed 0 -t "$1" >"$2/o" 2>"$2/e"
             [ $? = 3 ] && [ ! -s "$2/o" ] && [ "$(wc -l <"$2/e")" = 1 ] &&
             grep -q "corrupt" "$2/e"' _ "$TMP/lie" "$TMP"
check "a levels table in the tables directory: the puzzles' listing passes it by" \
    bash -c 'bin/tblookup --list tables -t "$1" >/dev/null' _ "$L4"

# rush-5x5-walls' 6,041 levels lie in 24 blocks of 256: a byte of a level
# of 12 moves flipped refuses what reads its block, and only that
W=rush-5x5-walls
bad blk $W && flip "$TMP/blk" "$(awk '$1 == 12 { print $2; exit }' "$TMP/his3")" $W
check "a byte of a level of 12 moves in rush-5x5-walls flipped: --levels and --moves 12 corrupt" \
    refused "$TMP/blk" "corrupt" $W "--levels|--levels --moves 12|--levels --moves 12 --random --seed 3"
check "... the levels of other blocks, --stats and a level of 21 moves answered as intact" \
    answered "$TMP/blk" $W "--levels --at-least 18|--levels --moves 5 --format json|--levels --stats|--level 21 --seed 2|--levels --limit 3"
bad last $W && flip "$TMP/last" "$(tail -1 "$TMP/his3" | cut -d' ' -f2)" $W
check "a byte of its last level flipped: --levels --moves 1 corrupt; --moves 21 and --level 21 answered" \
    bash -c 'refused "$1" corrupt rush-5x5-walls "--levels --moves 1|--levels" &&
             answered "$1" rush-5x5-walls "--levels --moves 21|--level 21"' _ "$TMP/last"
# --levels keeps the text of what it read up to a limit, then only checks
# the rest and reads it again to print ($TBLOOKUP_LEVELS_BUFFER=2000: a
# few dozen lines kept): the same output as one pass, and a damaged
# block past the limit still prints nothing
buffered() {
    local a
    for a in "--levels" "--levels --format json" "--levels --random --seed 4" \
             "--levels --at-least 10 --format json --random --limit 900"; do
        cmp -s <(bin/tblookup $W $a -t "$TMP/$W") \
               <(TBLOOKUP_LEVELS_BUFFER=2000 bin/tblookup $W $a -t "$TMP/$W") ||
            { echo "# $a" >&2; return 1; }
    done
    TBLOOKUP_LEVELS_BUFFER=2000 refused "$TMP/blk" corrupt $W "--levels|--levels --format json" &&
        TBLOOKUP_LEVELS_BUFFER=2000 refused "$TMP/last" corrupt $W "--levels|--levels --random --seed 1"
}
check "--levels past its buffer (the rest checked, then read again): the same lines; a damaged block past it prints nothing" \
    buffered
bad ends $W && /usr/bin/python3 - "$TMP/ends/$W.levels.mdb" <<'PY'
import os, struct, sys
import lmdb
env = lmdb.open(sys.argv[1], subdir=False, lock=False, max_dbs=0,
                map_size=2 * os.path.getsize(sys.argv[1]) + (16 << 20))
with env.begin(write=True) as txn:
    b = bytearray(txn.get(b'blocks'))
    b[40:48] = struct.pack('<Q', 1 << 40)     # block 1's end past the record
    txn.put(b'blocks', bytes(b))
env.close()
PY
check "crafted: block 1's end past the levels: blocks 1 and 2 corrupt (levels of 13 moves lie in blocks 0 and 1), block 0 answered" \
    bash -c 'refused "$1" corrupt rush-5x5-walls "--levels|--levels --at-least 13" &&
             answered "$1" rush-5x5-walls "--levels --at-least 14|--levels --stats"' _ "$TMP/ends"

# every 127th byte of a levels table flipped in turn: each call on each
# copy is refused (status 3) or answers as on the intact table; never a
# crash and never another answer
flips() {
    local size at bad=0 a r refused=0 calls=("--levels" "--level 5" "--levels --stats")
    size=$(stat -c %s "$L4/$B")
    for a in 0 1 2; do
        bin/tblookup rush-4x4 ${calls[$a]} -t "$L4" >"$TMP/f.want$a" 2>&1
    done
    mkdir -p "$TMP/f"
    for ((at = 0; at < size; at += 127)); do
        cp "$L4/$B" "$TMP/f/$B"
        printf "$(printf '\\%03o' $(( $(od -An -tu1 -j$at -N1 "$L4/$B") ^ 255 )))" |
            dd of="$TMP/f/$B" bs=1 seek=$at conv=notrunc status=none
        for a in 0 1 2; do
            bin/tblookup rush-4x4 ${calls[$a]} -t "$TMP/f" >"$TMP/f.got" 2>&1; r=$?
            [ $r = 3 ] && { refused=$((refused + 1)); continue; }
            [ $r = 0 ] && cmp -s "$TMP/f.got" "$TMP/f.want$a" && continue
            echo "# byte $at flipped: ${calls[$a]}: status $r: $(head -1 "$TMP/f.got")" >&2
            bad=1
        done
    done
    echo "# $refused of $(( (size + 126) / 127 * 3 )) calls refused" >&2
    return $bad
}
check "every 127th byte of a levels table flipped: each call refused, or the same answers (never a crash)" flips

# ---- usage ----
export TMP
u() {
    bin/tblookup "$@" -t "$L4" >"$TMP/o" 2>"$TMP/e"; local r=$?
    [ "$r" = 2 ] && [ ! -s "$TMP/o" ] && grep -q "^tblookup: " "$TMP/e" &&
        grep -q "Try 'tblookup --help'" "$TMP/e" && return 0
    echo "# $*: status $r: $(head -1 "$TMP/e")" >&2
    return 1
}
export -f u
check "--levels with --level: a usage error" u rush-4x4 --levels --level 7
check "--level with --random, --limit or --moves: a usage error" \
    bash -c 'u rush-4x4 --level 7 --random && u rush-4x4 --level 7 --limit 2 &&
             u rush-4x4 --level 7 --moves 3'
check "--limit 0, --moves x, --format svg, a position: usage errors" \
    bash -c 'u rush-4x4 --levels --limit 0 && u rush-4x4 --levels --moves x &&
             u rush-4x4 --levels --format svg && u rush-4x4 --levels ABC'
check "--levels --help: tblookup's help, status 0" \
    bash -c 'bin/tblookup rush-4x4 --levels --help | grep -q "^       tblookup FAMILY --levels"'
