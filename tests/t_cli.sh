#!/usr/bin/env bash
# tests/t_cli.sh: the command line as one way in.  Every mistake of issue 8
# gets one precise answer (a usage error is one line naming it plus "Try
# 'tblookup --help'.", status 2, nothing on stdout, never "(null)"); files
# and positions never mix; the same position written each allowed way (BOM,
# CRLF, tabs, '/', spaces, blank lines, case, several arguments) gives the
# same answer, which is also --bfs's; --batch goes on past bad records with
# bounded memory; write errors are reported and a closed pipe is quiet;
# errors keep their cause (permission denied, no space left) and leave no
# partial table.  Answers are compared with --bfs (a search from scratch)
# or with the puzzles' published numbers (frog: n(n+2)).
cd "$(dirname "$0")/.." && . tests/lib.sh
need "$LOOKUP" bin/tbgen "$TABLES/swap.mdb" "$TABLES/four.mdb" \
    "$TABLES/frog.mdb"
TOP=$PWD
SWAP=$'1111\n0000\n1110\n0010\n1010\n0101\n1010\n0101\n'
FOUR=$'BWBO\nWBWB\nBWBW\nWBWO\n'

# ---- usage errors ----
check "swap --first B: swap takes no --first" \
    expect_usage "^tblookup: swap takes no option --first" swap --first B x
check "swap --n 3 FILE: names --n, never (null)" \
    expect_usage "^tblookup: swap takes no option --n" swap --n 3 FILE
check "frog --n 3 WW.BB: a position and an option standing for one" \
    expect_usage "^tblookup: --n stands for the position" frog --n 3 WW.BB
check "frog --count --n 13: the value, named by its option" \
    expect_usage "^tblookup: --n: expected a number from 1 to 12, got '13'$" \
    frog --count --n 13
check "frog --n 3 --batch: an option standing for the position" \
    expect_usage "--n stands for the position: .*--batch" frog --n 3 --batch
check "--count --moves" \
    expect_usage "^tblookup: --count and --moves cannot be combined$" \
    four --count --moves BWBO/WBWB/BWBW/WBWO
check "--count --format json" \
    expect_usage "^tblookup: --count and --format json cannot be combined$" \
    four --count --format json BWBO/WBWB/BWBW/WBWO
check "--moves --format json" \
    expect_usage "--moves and --format json cannot be combined" \
    four --moves --format json BWBO/WBWB/BWBW/WBWO
check "--format xml" \
    expect_usage "--format takes native or json, got 'xml'" four --format xml
check "swap --metric step: a metric swap does not have" \
    expect_usage "^tblookup: swap has no metric 'step'" swap --metric step
check "klotski --metric walk: all three metrics named" \
    expect_usage "^tblookup: klotski has no metric 'walk' \(metrics: step, line, move\)\$" \
    klotski --metric walk
CENTURY_METRICS=$(sed -n 's/^metrics  *//p' puzzles/century.txt | sed 's/  */, /g')
check "century --metric walk: its description's metrics named, in order" \
    expect_usage "^tblookup: century has no metric 'walk' \(metrics: $CENTURY_METRICS\)\$" \
    century --metric walk
check "an unknown long option" \
    expect_usage "^tblookup: unknown option '--frobnicate'$" swap --frobnicate
check "an unknown short option" \
    expect_usage "^tblookup: unknown option '-Z'$" swap -Z
check "an option without its value" \
    expect_usage "^tblookup: option '--metric' needs a value$" swap --metric
check "no puzzle" expect_usage "^tblookup: which puzzle" --count
check "an unknown puzzle" expect_usage \
    "^tblookup: unknown puzzle 'nosuch' \(not built in, and no table of that name in .+\)$" \
    nosuch
check "-o without NAME=VALUE" expect_usage "-o takes NAME=VALUE" four -o first
check "-o with a name four does not take" \
    expect_usage "four takes no option -o frist" four -o frist=B
check "a query option given twice" \
    expect_usage "option (--|-o )first is given twice" four --first B -o first=W
check "--stats --count" \
    expect_usage "--stats and --count cannot be combined" swap --stats --count
check "--stats with a position" \
    expect_usage "--stats and a position cannot be combined" frog --stats W.B
check "--verify --batch" \
    expect_usage "--verify and --batch cannot be combined" --verify --batch
check "--bfs --tables DIR: --bfs reads no table" \
    expect_usage "--bfs uses no tables" frog --bfs --tables x --n 3
check "--batch with a position argument" \
    expect_usage "--batch reads -i FILE or standard input" frog --batch W.B
check "-i FILE and a position" \
    expect_usage "give a position or -i FILE, not both" frog -i x W.B
check "--verify nosuch" expect_usage "unknown puzzle 'nosuch'" --verify nosuch

# ---- options come from the registry ----
run --help
help=$out
missing=
for p in $("$LOOKUP" --list puzzles); do
    printf '%s\n' "$help" | grep -q "^  $p " || missing="$missing $p"
    while read -r opt value; do
        printf '%s\n' "$help" | grep -qF -- "$opt $value" ||
            missing="$missing $p:$opt"
    done < <("$LOOKUP" --list options "$p")
done
check "--help: every puzzle and each of its options with its value${missing:+ (missing:$missing)}" \
    test -z "$missing"
check "--help lists klotski's metrics" \
    sh -c 'printf "%s\n" "$1" | grep -q "metrics: step (default) line move"' \
    _ "$help"
run four --count --bfs BWBO/WBWB/BWBW/WBWO --first B; b=$out
run four --count BWBO/WBWB/BWBW/WBWO --first B
check "--first B answers as --bfs does" test "$rc" = 0 -a "$out" = "$b"
run four --count BWBO/WBWB/BWBW/WBWO -o first=B
check "-o first=B is --first B" test "$rc" = 0 -a "$out" = "$b"
run four --count BWBO/WBWB/BWBW/WBWO --first=b
check "--first=b, lower case, is --first B" test "$rc" = 0 -a "$out" = "$b"
run frog --count -n 5
check "-n 5, the one-letter short form of frog's option: 5*7 = 35" \
    test "$rc" = 0 -a "$out" = 35
run frog --count -o n=4
check "-o n=4: 4*6 = 24" test "$rc" = 0 -a "$out" = 24

# ---- files and positions never mix ----
check "a mistyped file name: not a position, and no such file" \
    expect_error 2 "^tblookup: nonexist.txt: not a position \(.*\), and no such file$" \
    swap --count nonexist.txt
mkdir -p "$TMP/cwd"
printf 'WWW.BBB\n' >"$TMP/cwd/WW.BB"
(cd "$TMP/cwd" && "$TOP/$LOOKUP" frog --count --tables "$TOP/$TABLES" WW.BB) \
    >"$TMP/o" 2>&1
check "beside a file named WW.BB, 'frog WW.BB' is the position: 8" \
    test "$(cat "$TMP/o")" = 8
printf '%s' "$SWAP" >"$TMP/sample"
check "a file given as an argument: not a position; says to use -i" \
    expect_error 2 "not a position .*; to read the file, use -i $TMP/sample$" \
    swap "$TMP/sample"
run swap --count -i "$TMP/sample"
check "-i FILE reads it: 4" test "$rc" = 0 -a "$out" = 4
IN=$SWAP run swap --count -i -
check "-i - reads standard input: 4" test "$rc" = 0 -a "$out" = 4
check "-i FILE that does not exist: status 2, names it" \
    expect_error 2 "^tblookup: $TMP/nope: No such file or directory$" \
    swap -i "$TMP/nope"
check "-i DIRECTORY: a read error, status 2" \
    expect_error 2 "^tblookup: $TMP: read error: Is a directory$" swap -i "$TMP"
check "--batch -i DIRECTORY: a read error, status 2" \
    expect_error 2 "^tblookup: $TMP: read error: Is a directory$" \
    swap --batch -i "$TMP"

# ---- the input rules: one position, every allowed spelling ----
# same_answers PUZZLE CANONICAL [--] FORMS...: each form (stdin text, or
# "arg:" + arguments split on '|') answers as the canonical text does, and
# that is --bfs's answer.
same_answers() {
    local puzzle=$1 canon=$2 want bfs form bad=; shift 2
    want=$(printf '%s' "$canon" | "$LOOKUP" "$puzzle" --count)
    bfs=$(printf '%s' "$canon" | "$LOOKUP" "$puzzle" --count --bfs)
    [ -n "$want" ] && [ "$want" = "$bfs" ] || { echo "# $want/$bfs" >&2; return 1; }
    for form in "$@"; do
        local got
        if [ "${form#arg:}" != "$form" ]; then
            IFS='|' read -r -a words <<<"${form#arg:}"
            got=$("$LOOKUP" "$puzzle" --count "${words[@]}" 2>&1)
        else
            got=$(printf '%s' "$form" | "$LOOKUP" "$puzzle" --count 2>&1)
        fi
        [ "$got" = "$want" ] || { bad=1; echo "# $(printf '%q' "$form"): $got" >&2; }
    done
    [ -z "$bad" ]
}
BOM=$'\xef\xbb\xbf'
check "swap: BOM, CRLF, tabs, blanks, blank lines, '/', spaces, arguments" \
    same_answers swap "$SWAP" \
    "$BOM$SWAP" "${SWAP//$'\n'/$'\r\n'}" $'\t'"${SWAP//$'\n'/$'  \n\t'}" \
    $'\n\n'"${SWAP//$'\n'/$'\n\n'}" \
    $'1111/0000/1110/0010\n1010/0101/1010/0101\n' \
    '1111 0000 1110 0010 1010 0101 1010 0101' \
    'arg:1111 0000 1110 0010|1010/0101/1010/0101' \
    'arg:1111|0000|1110|0010|1010|0101|1010|0101'
check "four: BOM, CRLF, tabs, blank lines, '/', spaces, lower case, arguments" \
    same_answers four "$FOUR" \
    "$BOM$FOUR" "${FOUR//$'\n'/$'\r\n'}" $'\n\t'"${FOUR//$'\n'/$' \t\n\n'}" \
    'BWBO/WBWB/BWBW/WBWO' 'BWBO WBWB BWBW WBWO' 'bwbo/wbwb/bwbw/wbwo' \
    'arg:BWBO|WBWB|BWBW|WBWO' 'arg:bWbO WbWb/BWBW|wbwo '
check "frog: BOM, CRLF, tabs, blanks, blank lines, lower case, circles" \
    same_answers frog $'WWW.BBB\n' \
    "${BOM}WWW.BBB" $'WWW.BBB\r\n' $'\n\n \tWWW.BBB \t\r\n\n' 'www.bbb' \
    'W W W . B B B' '○○○ ●●●' "$BOM"$'○ ○ ○ . ● ● ●\r\n' 'arg:wwW.bBB'
check "a BOM alone is empty input, status 2" \
    sh -c 'printf "\357\273\277\r\n" | "$1" four 2>&1 | grep -q "empty input"' \
    _ "$LOOKUP"
check "a bad character is named with its line and column (row 3 of '/')" \
    expect_error 2 "line 1, column 13: unexpected 'X'" four BWBO/WBWB/BWXW/WBWO
check "... in a second argument: its line" \
    expect_error 2 "line 2, column 3: unexpected 'X'" four 'BWBO WBWB' 'BWXW WBWO'
check "a non-ASCII character is shown as itself" \
    expect_error 2 "column 2: unexpected '∆'" frog 'W∆.B'
check "a stray byte is shown in hex" \
    expect_error 2 "column 2: unexpected byte 0xff" frog $'W\xff.B'

# ---- --batch goes on past bad records ----
{
    printf 'WWW.BBB\n'                   # 1: 15
    printf 'WX.B\n'                      # 2: bad character
    printf 'WB.WB\n'                     # 3: no solution
    printf '\n'
    printf 'WW.BB\n'                     # 4: 8
    head -c 5000 /dev/zero | tr '\0' W; printf '.B\n'  # 5: too long
    printf 'W\0.B\n'                     # 6: NUL byte
    printf 'w.b\r\n'                     # 7: 3
    printf 'WW..BB\n'                    # 8: two empty cells
    printf 'WWWW.BBBB\n'                 # 9: 24
} >"$TMP/batch"
"$LOOKUP" frog --batch --count -i "$TMP/batch" >"$TMP/bo" 2>"$TMP/be"; r=$?
check "--batch --count: one line per record, -1 unsolvable, -2 bad" \
    test "$(tr '\n' ' ' <"$TMP/bo")" = "15 -2 -1 8 -2 -2 3 -2 24 "
good=
for q in WWW.BBB WW.BB W.B WWWW.BBBB; do
    good="$good$("$LOOKUP" frog --bfs --count "$q") "
done
check "... the good records answer as --bfs does" \
    test "$(grep -v -- - "$TMP/bo" | tr '\n' ' ')" = "$good"
check "... every bad record named on stderr with its number and line" \
    sh -c 'grep -q "record 2: line 2, column 2: unexpected .X." "$1" &&
           grep -q "record 5: line 6: longer than 4096 bytes" "$1" &&
           grep -q "record 6: line 7: contains a NUL byte" "$1" &&
           grep -q "record 8 (from line 9): expected one empty cell" "$1" &&
           grep -q "record 3 (from line 3): no solution" "$1" &&
           test "$(wc -l <"$1")" = 5' _ "$TMP/be"
check "... and the status says some were bad: 2" test "$r" = 2
printf 'WWW.BBB\nWB.WB\n' | "$LOOKUP" frog --batch --count >/dev/null 2>&1
check "--batch with an unsolvable record and no bad one: status 1" test $? = 1
{ printf '1111 0000 1110 0010 1010 0101 1010 0101\n'
  printf '1111/0000/1110/0010\n1010/0101/1010/0101\n'
  printf "%s\n" 1111 0000 1110 0010 '' 1010 0101 1010 0101; } >"$TMP/swapb"
"$LOOKUP" swap --batch --count -i "$TMP/swapb" >"$TMP/so" 2>"$TMP/se"
check "swap --batch: records of 8 rows as 1, 2 or 4 lines: 4 4 4" \
    test "$(tr '\n' ' ' <"$TMP/so")" = "4 4 4 "
(ulimit -v 400000
 head -c 100000000 /dev/zero | tr '\0' W | "$LOOKUP" frog --batch --count) \
    >"$TMP/big" 2>"$TMP/bige"; r=$?
check "a 100 MB line under a 400 MB memory limit: one bad record, status 2" \
    test "$r" = 2 -a "$(cat "$TMP/big")" = -2 -a \
    "$(grep -c 'longer than 4096 bytes' "$TMP/bige")" = 1
head -c 2000000 /dev/zero | "$LOOKUP" frog --count >/dev/null 2>"$TMP/e"; r=$?
check "one query larger than 1 MiB: status 2, one line" \
    test "$r" = 2 -a "$(wc -l <"$TMP/e")" = 1
printf 'W\0.B\n' | "$LOOKUP" frog --count >/dev/null 2>"$TMP/e"; r=$?
check "a NUL byte in one query: status 2, said so" \
    test "$r" = 2 -a "$(grep -c 'NUL byte' "$TMP/e")" = 1

# ---- output errors ----
# full WHAT ARGS...: tblookup with stdout on /dev/full: status 4 and the
# one line "tblookup: write error: No space left on device"
full() {
    local prog=$1; shift
    "$prog" "$@" </dev/null >/dev/full 2>"$TMP/fe"; local r=$?
    [ "$r" = 4 ] &&
        [ "$(cat "$TMP/fe")" = "${prog##*/}: write error: No space left on device" ] ||
        { echo "# $r: $(cat "$TMP/fe")" >&2; return 1; }
}
check "an answer to /dev/full: write error, status 4" full "$LOOKUP" frog --n 3
check "--batch of 5,000 records to /dev/full: status 4" \
    sh -c 'yes WWW.BBB | head -5000 >"$1"' _ "$TMP/many"
check "... " full "$LOOKUP" frog --batch -i "$TMP/many"
check "--stats to /dev/full" full "$LOOKUP" swap --stats
check "--help to /dev/full" full "$LOOKUP" --help
check "--verify to /dev/full" full "$LOOKUP" --verify frog
check "tbgen's summary to /dev/full" \
    full bin/tbgen --puzzle four --out "$TMP/g"
check "tbgen --help to /dev/full" full bin/tbgen --help
"$LOOKUP" frog --batch --moves -i "$TMP/many" 2>"$TMP/pe" | head -c 10 \
    >/dev/null
check "a closed pipe stays quiet" test ! -s "$TMP/pe"

# ---- errors keep their cause ----
# as_user CMD...: runs CMD as a user who is not root (file permissions hold)
as_user() {
    if [ "$(id -u)" = 0 ]; then
        setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
    else
        "$@"
    fi
}
mkdir -p "$TMP/perm" && chmod 755 "$TMP" "$TMP/perm"
cp "$TABLES/frog.mdb" "$TMP/perm/" && chmod 000 "$TMP/perm/frog.mdb"
as_user "$LOOKUP" frog --n 3 --tables "$TMP/perm" >"$TMP/o" 2>"$TMP/e"; r=$?
check "an unreadable table: 'Permission denied', status 3, no rebuild advice" \
    test "$r" = 3 -a ! -s "$TMP/o" -a "$(wc -l <"$TMP/e")" = 1 -a \
    "$(grep -c 'frog.mdb: Permission denied$' "$TMP/e")" = 1
check "a missing table: status 3, and how to rebuild it" \
    expect_error 3 "frog.mdb: table not found; rebuild it with .*tbgen --puzzle frog --metric move" \
    frog --n 3 --tables "$TMP/cwd"
mkdir -p "$TMP/ro" && chmod 555 "$TMP/ro"
as_user bin/tbgen --quiet --puzzle four --out "$TMP/ro" 2>"$TMP/e"; r=$?
check "tbgen into a folder it may not write: 'Permission denied', status 1" \
    test "$r" = 1 -a "$(grep -c 'four.mdb.*Permission denied' "$TMP/e")" = 1
check "... and no table, partial or whole" test -z "$(ls -A "$TMP/ro")"
mkdir -p "$TMP/small"
unshare -rm sh -c 'mount -t tmpfs -o size=64k tmpfs "$1" &&
    "$2" --quiet --puzzle four --out "$1" 2>"$3"; echo $? >"$4";
    ls -A "$1" >"$5"' _ "$TMP/small" "$TOP/bin/tbgen" "$TMP/e" "$TMP/r" \
    "$TMP/left"
check "tbgen on a full disk (a 64 kB tmpfs): refused before building, the disk it needs named (the writer's ENOSPC: t_format.sh)" \
    test "$(cat "$TMP/r")" = 1 -a \
    "$(grep -c 'four.mdb: the table and its checkpoint may take .* and .* of disk; .* has .* free' "$TMP/e")" = 1
check "... and no table, partial or whole" test ! -s "$TMP/left"

# ---- tbgen ----
touch "$TMP/afile"
bin/tbgen --out "$TMP/afile" >"$TMP/o" 2>"$TMP/e"; r=$?
check "tbgen --out FILE: not a directory, a usage error" \
    test "$r" = 2 -a "$(head -1 "$TMP/e")" = \
    "tbgen: --out $TMP/afile: not a directory (--out names the folder the tables go in)" \
    -a "$(sed -n 2p "$TMP/e")" = "Try 'tbgen --help'."
bin/tbgen --puzzle swap --metric step 2>"$TMP/e"; r=$?
check "tbgen --metric a puzzle does not have: usage error" \
    test "$r" = 2 -a "$(grep -c "swap has no metric 'step'" "$TMP/e")" = 1
bin/tbgen --frob 2>"$TMP/e"; r=$?
check "tbgen: an unknown option: one line plus Try" \
    test "$r" = 2 -a "$(cat "$TMP/e")" = \
    "tbgen: unknown option '--frob'"$'\n'"Try 'tbgen --help'."
bin/tbgen --encoding lz4 2>"$TMP/e"; r=$?
check "tbgen --encoding lz4: a usage error naming the encodings" \
    test "$r" = 2 -a "$(head -1 "$TMP/e")" = \
    "tbgen: unknown encoding 'lz4' (packed1, packed3, packed4, sparse or zstd)"
mkdir -p "$TMP/enc"
bin/tbgen --quiet --puzzle frog --encoding packed4 --out "$TMP/enc" \
    2>"$TMP/e"; r=$?
check "tbgen --encoding packed4 for frog (distances to 168): status 1, said, no file" \
    test "$r" = 1 -a ! -e "$TMP/enc/frog.mdb" -a ! -e "$TMP/enc/frog.mdb.tmp" \
    -a "$(cat "$TMP/e")" = \
    "tbgen: $TMP/enc/frog.mdb: the packed4 encoding cannot hold its values (tables/FORMAT.md)"
bin/tbgen --quiet --puzzle four --encoding zstd --out "$TMP/enc"; r=$?
check "tbgen --encoding zstd for four: built in zstd, proven by --verify" \
    test "$r" = 0 -a -n "$(/usr/bin/python3 scripts/ptb_read.py \
        "$TMP/enc/four.mdb" | grep -x 'encoding zstd')" -a \
    -n "$("$LOOKUP" --verify four --tables "$TMP/enc" | grep ': ok: ')"
check "tbgen --help lists every puzzle's metrics" \
    sh -c 'h=$(bin/tbgen --help); for p in $(bin/tbgen --list puzzles); do
             m=$(bin/tbgen --puzzle $p --list metrics | tr "\n" " ")
             printf "%s\n" "$h" | grep -A1 "^  $p " |
                 grep -q "metrics: ${m% }$" || exit 1; done'
bin/tbgen --puzzle frog --metric move --out "$TMP/g" >"$TMP/o" 2>&1
check "tbgen --metric move: the summary names the file, sizes in kB/MB" \
    grep -qE "^$TMP/g/frog.mdb: 44463271 states, max distance 168, [0-9.]+ (kB|MB) " \
    "$TMP/o"
check "... and the table answers n(n+2) for n = 12: 168" \
    test "$("$LOOKUP" frog --count --n 12 --tables "$TMP/g")" = 168
script -qec "bin/tbgen --puzzle four --puzzle frog --out $TMP/g" /dev/null \
    | tr '\r' '\n' >"$TMP/tty" 2>&1
check "tbgen under a terminal: the search bar reaches 100% for each table" \
    test "$(grep -cE '^(four|frog).mdb +search \[#{24}\] 100%' "$TMP/tty")" = 2
check "... and so does the encode phase's" \
    test "$(grep -cE '^(four|frog).mdb +encode \[#{24}\] 100%' "$TMP/tty")" = 2
check "... and the summaries follow on the terminal" \
    test "$(grep -c "^$TMP/g/f[a-z]*.mdb: " "$TMP/tty")" = 2
bin/tbgen --puzzle four --out "$TMP/g" 2>"$TMP/e" >/dev/null
check "... and nothing on stderr when it is not a terminal" test ! -s "$TMP/e"
script -qec "bin/tbgen --puzzle klotski --metric move --out $TMP/k" /dev/null \
    | tr '\r' '\n' >"$TMP/tty" 2>&1
max=$(sed -n 's/^.*klotski-move.mdb: .* max distance \([0-9]*\),.*$/\1/p' "$TMP/tty")
check "tbgen under a terminal: the search bar ends at the last layer, the summary's max distance" \
    test -n "$max" -a -n "$(grep -E "^klotski-move.mdb +search \[#{24}\] 100%  layer $max +\$" "$TMP/tty")"
TBGEN_LOG_EVERY=0 bin/tbgen --puzzle klotski --metric move --out "$TMP/k" \
    2>"$TMP/e" >/dev/null
check "into a log (TBGEN_LOG_EVERY=0): a line a layer, layers rising, states found rising to at most 14,673,066" \
    /usr/bin/python3 -c 'import re, sys
lines = open(sys.argv[1]).read().splitlines()
pat = re.compile(r"tbgen: klotski-move.mdb: layer (\d+), ([\d,]+) of "
                 r"14,673,066 states found(, +\d+:\d\d left)?$")
got = [pat.match(l) for l in lines]
assert len(got) >= 100 and all(got), lines[:3]
layers = [int(m.group(1)) for m in got]
found = [int(m.group(2).replace(",", "")) for m in got]
assert layers == sorted(layers) and layers[-1] <= 138
assert found == sorted(found) and found[-1] <= 14673066' "$TMP/e"
# ---- puzzletb(3)'s example, as printed, handles a parse error ----
sed -n '/^#include <stdio.h>/,/^}/p' man/puzzletb.3 |
    sed -e 's/\\en/\\n/g' -e 's/\\-/-/g' \
        -e "s|/usr/local/share/puzzletb/tables|$TABLES|" >"$TMP/ex.c"
${CC:-cc} -std=c11 -Wall -Wextra -Wpedantic -Werror -Ilib -o "$TMP/ex" \
    "$TMP/ex.c" build/libpuzzletb.a -llmdb -lzstd -lpthread 2>"$TMP/cc"
check "puzzletb(3)'s example builds warning-free" test ! -s "$TMP/cc"
check "... and answers the P1225 sample: 4 moves" \
    test "$("$TMP/ex" 2>&1)" = "4 moves"
sed 's/0101\\n"/0121\\n"/' "$TMP/ex.c" >"$TMP/ex2.c"
${CC:-cc} -std=c11 -Ilib -o "$TMP/ex2" "$TMP/ex2.c" build/libpuzzletb.a \
    -llmdb -lzstd -lpthread
"$TMP/ex2" >"$TMP/o" 2>"$TMP/e"; r=$?
check "... a bad position: status 1 and the library's line and column" \
    test "$r" = 1 -a "$(cat "$TMP/e")" = \
    "swap: bad position: line 8, column 3: expected 0 or 1, got '2'"
# ---- doc/guide.md: the LMDB tools on tables one may not write ----
if command -v mdb_stat >/dev/null; then
    mkdir -p "$TMP/shared" "$TMP/mine" && chmod 755 "$TMP/shared"
    cp "$TABLES/four.mdb" "$TMP/shared/" && chmod 555 "$TMP/shared"
    chmod 777 "$TMP/mine"
    as_user mdb_stat -n -a "$TMP/shared/four.mdb" >"$TMP/o" 2>&1; r=$?
    check "mdb_stat -n in a folder one may not write: fails (the lock file)" \
        test "$r" != 0 -a "$(grep -c 'Permission denied' "$TMP/o")" = 1
    ln -s "$TMP/shared/four.mdb" "$TMP/mine/four.mdb"
    as_user mdb_stat -n -a "$TMP/mine/four.mdb" >"$TMP/o" 2>&1
    check "... through a symbolic link in one's own folder (doc/guide.md): works" \
        grep -q 'Status of Main DB' "$TMP/o"
    mkdir -p "$TMP/rofs"
    unshare -rm sh -c 'mount -t tmpfs -o size=2m tmpfs "$1" &&
        cp "$2" "$1/" && mount -o remount,ro "$1" &&
        mdb_stat -n -a "$1/four.mdb"' _ "$TMP/rofs" "$TABLES/four.mdb" \
        >"$TMP/o" 2>&1
    check "... and on read-only media as it is (doc/guide.md)" \
        grep -q 'Status of Main DB' "$TMP/o"
fi
echo "1..$n"
