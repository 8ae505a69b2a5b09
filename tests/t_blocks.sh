#!/usr/bin/env bash
# tests/t_blocks.sh: families of general blocks ('family blocks N', tbgen
# --family).  Small boards (2x3, 3x3, 2x4; every metric; pieces of at most
# N cells) give what a brute force written in tests/t_blocks.py finds from
# the rules (man puzzletb-description, FAMILIES OF BLOCKS); the levels
# table is the same bytes twice and its --stats the counts of its lines; a
# family the computation cannot take is refused with one line naming why,
# status 2.
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
check "--plan of a blocks family: refused" sh -c \
    'bin/tbgen --plan --family "$1" >"$2/o" 2>"$2/e"; test $? = 2 &&
     test ! -s "$2/o" && grep -q "a blocks family has no plan" "$2/e"' \
    _ "$F" "$TMP"

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
echo "1..$n"
