#!/usr/bin/env bash
# tests/t_blocks.sh: families of general blocks ('family blocks N', tbgen
# --family).  Small boards (2x3, 3x3, 2x4; every metric; pieces of at most
# N cells) give what a brute force written in tests/t_blocks.py finds from
# the rules (man puzzletb-description, FAMILIES OF BLOCKS), and tbgen
# --plan the counts it makes; the levels table is the same bytes twice, on
# one thread and two, and after a kill and a resume from its checkpoint;
# its --stats the counts of its lines; a family the computation cannot
# take is refused with one line naming why, status 2.
cd "$(dirname "$0")/.." && . tests/lib.sh
export LC_ALL=C
need bin/tbgen bin/tblookup puzzles/families/blocks-4x4.txt
/usr/bin/python3 tests/t_blocks.py bin/tbgen "$TMP" >"$TMP/py"
renumber "" "$TMP/py"

# bad FILE PATTERN: tbgen --family FILE refuses it: status 2, nothing on
# stdout, one line on stderr matching PATTERN (grep -E)
bad() {
    bin/tbgen --family "$1" --out "$TMP/bad" >"$TMP/o" 2>"$TMP/e"
    local r=$?
    [ "$r" = 2 ] && [ ! -s "$TMP/o" ] && [ "$(wc -l <"$TMP/e")" = 1 ] &&
        grep -qE -- "$2" "$TMP/e" &&
        ! ls "$TMP/bad"/*.mdb >/dev/null 2>&1 && return 0
    echo "# status $r: $(cat "$TMP/e")" >&2
    return 1
}
F=puzzles/families/blocks-4x4.txt
sed 's/^family   blocks 15$/family   blocks 16/' "$F" >"$TMP/b16.txt"
check "blocks 16 on 16 cells: refused (a cell must stay empty)" \
    bad "$TMP/b16.txt" "family blocks: pieces of 16 cells at most on 16 cells: from 1 to 15$"
sed 's/^family   blocks 15$/family   blocks 0/' "$F" >"$TMP/b0.txt"
check "blocks 0: refused, its line named" \
    bad "$TMP/b0.txt" "line [0-9]+: family: expected .* or 'blocks N', got 'family   blocks 0'$"
printf 'family   alone\n' | cat "$F" - >"$TMP/alone.txt"
check "blocks with a Rush Hour filter: refused" \
    bad "$TMP/alone.txt" "family blocks goes alone"
sed '0,/^\.\.\.\.$/s//..#./' "$F" >"$TMP/wall.txt"
check "a board with a wall: refused" \
    bad "$TMP/wall.txt" "family blocks: the board has walls"
sed 's/^metrics  move$/metrics  move/' "$F" | sed '/^start$/,/^$/c\
start\
A.......\
........\
........\
........\

' | sed 's|^goal .*|goal     ????????/????????/????????/???????A|' >"$TMP/big.txt"
check "a board of 32 cells: refused" \
    bad "$TMP/big.txt" "family blocks: a board of 8 x 4"

# a 3x3 family built twice: the same bytes; --stats counts its lines
cat >"$TMP/b3.txt" <<'EOF'
name     blocks-3x3
metrics  move
distinct A
start
A..
...
...

goal     ???/???/??A
family   blocks 8
EOF
mkdir -p "$TMP/one" "$TMP/two"
bin/tbgen --family "$TMP/b3.txt" --out "$TMP/one" -q &&
    bin/tbgen --family "$TMP/b3.txt" --out "$TMP/two" -q
check "a blocks family built twice: the same bytes" \
    cmp -s "$TMP/one/blocks-3x3.levels.mdb" "$TMP/two/blocks-3x3.levels.mdb"
stats_agree() {
    bin/tblookup blocks-3x3 --levels -t "$TMP/one" | cut -d' ' -f1 |
        sort | uniq -c | awk '{print $2, $1}' | sort -r >"$TMP/want"
    bin/tblookup blocks-3x3 --levels --stats -t "$TMP/one" >"$TMP/got"
    cmp -s "$TMP/want" "$TMP/got"
}
check "--levels --stats: the number of levels at each move count" stats_agree
# every move count of the 3x3 family played (--level N): the description
# engine's own search from the level's board (a description of its own,
# tbgen not involved) must find the level's moves, else status 3
play_all() {
    local m out
    for m in $(bin/tblookup blocks-3x3 --levels -t "$TMP/one" | cut -d' ' -f1 |
               sort -u); do
        out=$(bin/tblookup blocks-3x3 --level "$((10#$m))" -t "$TMP/one") ||
            { echo "# --level $m: status $?" >&2; return 1; }
        [ "$(sed -n 2p <<<"$out")" = "$((10#$m))" ] &&
            bin/tblookup blocks-3x3 --levels -t "$TMP/one" |
            grep -qx "$(head -1 <<<"$out" | cut -d' ' -f2-)" ||
            { echo "# --level $m: $(head -2 <<<"$out")" >&2; return 1; }
    done
}
check "--level N for every N of the 3x3 family: a level of N moves, as the engine's search finds" \
    play_all
# the 3x4 family (518 tasks with goals, the heaviest taken first): one
# thread and two give the same bytes
cp tests/data/blocks-3x4.txt "$TMP/b34.txt"
mkdir -p "$TMP/j1" "$TMP/j2"
bin/tbgen --family "$TMP/b34.txt" --out "$TMP/j1" -q -j 1 &&
    bin/tbgen --family "$TMP/b34.txt" --out "$TMP/j2" -q -j 2
check "a blocks family on one thread and on two: the same bytes" \
    cmp -s "$TMP/j1/blocks-3x4.levels.mdb" "$TMP/j2/blocks-3x4.levels.mdb"
# a build killed once its checkpoint
# holds 3 tasks (the weights kept beside it), its last record (with
# puzzles) then cut short, resumes from the others, none of that record's
# puzzles taken back ("resumed from its checkpoint, N - 1 of 2,216 tasks
# done"), writes the same bytes, and removes both files
resume() {
    local d=$TMP/ck c=$TMP/ck/blocks-3x4.levels.ckpt n
    rm -rf "$d" && mkdir -p "$d" || return 1
    kill_at 3 "$c" bin/tbgen --family "$TMP/b34.txt" -o "$d" -q -j 1
    n=$(grep -c '^end ' "$c")
    [ "$n" -ge 3 ] && [ -s "$c.weights" ] &&
        [ "$(grep '^task ' "$c" | tail -1 | cut -d' ' -f3)" -gt 0 ] ||
        { echo "# $n tasks in the checkpoint" >&2; return 1; }
    truncate -s -30 "$c" || return 1
    TBGEN_LOG_EVERY=1000 bin/tbgen --family "$TMP/b34.txt" -o "$d" -j 2 \
        >"$TMP/o" 2>"$TMP/e" || { cat "$TMP/e" >&2; return 1; }
    grep -q "resumed from its checkpoint, $((n - 1)) of 2,216 tasks done" \
        "$TMP/e" &&
        cmp "$d/blocks-3x4.levels.mdb" "$TMP/j1/blocks-3x4.levels.mdb" &&
        [ ! -e "$c" ] && [ ! -e "$c.weights" ] && return 0
    echo "# $n tasks; $(head -1 "$TMP/e")" >&2
    return 1
}
check "a blocks family killed and run again: resumed from its checkpoint (its last task cut short), the same bytes" \
    resume
# --plan --sample N: 1 task in N of the order searched, timed; the whole
# expected from the goals counted (the counts checked in t_blocks.py)
sample() {
    bin/tbgen --plan --family "$TMP/b34.txt" --sample 10 -j 2 >"$TMP/o" \
        2>"$TMP/e" || return 1
    [ "$(wc -l <"$TMP/o")" = 2 ] &&
        grep -q "^$TMP/b34.txt: a sample of 1 task in 10 (222 of 2,216 tasks): [0-9,]* goal layouts the goal piece can leave; its search [0-9.]* s of CPU" "$TMP/o" &&
        grep -q "^$TMP/b34.txt: in all, 101,063 goal layouts the goal piece can leave (counted: the sample's [0-9.]* times); its count and search" "$TMP/o" &&
        [ ! -e "$TMP/blocks-3x4.levels.mdb" ]
}
check "--plan --sample 10 of a blocks family: its sample searched and timed, the whole expected" \
    sample
echo "1..$n"
