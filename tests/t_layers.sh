#!/usr/bin/env bash
# tests/t_layers.sh: the library's shape (doc/design.md, "Layers"), read by
# tests/layers.py: every include and every call goes to the file's own
# layer or one below it (core, format, search, puzzles, answer), no files
# call each other in a circle, no source file is over 1,500 lines and no
# function over 80.  Then the checker itself, on trees made here with each
# fault in turn: it must name every one.
. tests/lib.sh
need build/libpuzzletb.a tests/layers.py

python3 tests/layers.py --objects build . >"$TMP/calls"; rc=$?
cat "$TMP/calls" >&2
check "the library's includes and calls go down the layers, in no circle" \
    [ "$rc" -eq 0 ]

python3 tests/layers.py --limits . >"$TMP/limits"; rc=$?
cat "$TMP/limits" >&2
check "no library file over 1,500 lines, no function over 80" [ "$rc" -eq 0 ]

# mk FILE TEXT: a file of the made tree
mk() { mkdir -p "$(dirname "$TMP/t/$1")"; printf '%s\n' "$2" >"$TMP/t/$1"; }
# cc_tree: the made tree's objects, under $TMP/t/build
cc_tree() {
    local f
    for f in "$TMP"/t/lib/*/*.c; do
        local o=$TMP/t/build/${f#"$TMP"/t/}
        mkdir -p "$(dirname "$o")"
        ${CC:-cc} -c -I"$TMP/t/lib" -o "${o%.c}.o" "$f" || return 1
    done
}
# faults EXPECT OPTIONS...: the checker fails on the made tree, with EXPECT
# (grep -E) among its lines
faults() {
    local expect=$1; shift
    python3 tests/layers.py "$@" "$TMP/t" >"$TMP/faults"; local rc=$?
    cat "$TMP/faults" >&2
    [ "$rc" -eq 1 ] && grep -qE -- "$expect" "$TMP/faults"
}

mk lib/puzzletb.h 'int pub(void);'
mk lib/core/core.h 'int low(void);'
mk lib/core/low.c '#include "core.h"
int low(void) { return 1; }'
mk lib/format/mid.c '#include "core/core.h"
#include "puzzletb.h"
int mid(void) { return low(); }'
cc_tree
check "a made tree whose calls go down passes" \
    python3 tests/layers.py --objects "$TMP/t/build" --limits "$TMP/t"

mk lib/core/up.c '#include "search/search.h"'
mk lib/search/search.h 'int high(void);'
check "an include of a layer above is named" \
    faults 'lib/core/up.c:1: includes search/search.h, of the layer above' \
   
rm "$TMP/t/lib/core/up.c"

mk lib/misc/odd.c 'int odd(void) { return 0; }'
check "a file outside the layers' folders is named" \
    faults 'lib/misc/odd.c: not in a layer'
rm -r "$TMP/t/lib/misc"

mk lib/core/calls_up.c 'int high(void);
int calls_up(void) { return high(); }'
mk lib/search/high.c 'int high(void) { return 2; }'
cc_tree
check "a call to a layer above is named" \
    faults 'lib/core/calls_up.c: calls high .*of the layer above' \
    --objects "$TMP/t/build"
rm "$TMP/t/lib/core/calls_up.c" "$TMP/t/build/lib/core/calls_up.o"

mk lib/format/a.c 'int b(void);
int a(int n) { return n ? b() : 0; }'
mk lib/format/b.c 'int c(void);
int b(void) { return c(); }'
mk lib/format/c.c 'int a(int);
int c(void) { return a(0); }'
cc_tree
check "three files of one layer that call each other in a circle are named" \
    faults 'calls in a circle: .*lib/format/a.c -> .*lib/format/b.c -> .*lib/format/c.c -> .*lib/format/a.c' \
    --objects "$TMP/t/build"
rm "$TMP/t"/lib/format/[abc].c

{ echo 'int big(void)'; echo '{'; for i in $(seq 77); do echo '    ;'; done
  echo '    return 0;'; echo '}'; } >"$TMP/t/lib/core/big.c"
check "a function of 81 lines is named" \
    faults 'lib/core/big.c:1: a function of 81 lines, more than 80' \
    --limits
{ echo 'int ok(void)'; echo '{'; for i in $(seq 76); do echo '    ;'; done
  echo '    return 0;'; echo '}'; } >"$TMP/t/lib/core/big.c"
check "a function of 80 lines passes" \
    python3 tests/layers.py --limits "$TMP/t"
for i in $(seq 1501); do echo "/* $i */"; done >"$TMP/t/lib/core/long.h"
check "a file of 1,501 lines is named" \
    faults 'lib/core/long.h: 1501 lines, more than 1500' --limits

echo "1..$n"
