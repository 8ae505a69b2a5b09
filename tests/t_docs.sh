#!/usr/bin/env bash
# tests/t_docs.sh: the reference says what the programs do.  Every man page
# renders without a warning (groff -ww), and every long option a program's
# --help lists is in its man page; then, that the check would see one
# missing: a page without --tables is named.
cd "$(dirname "$0")/.." && . tests/lib.sh
need bin/tbgen bin/tblookup bin/tbserve

for page in man/*.[1-9]; do
    groff -ww -man -z "$page" >"$TMP/w" 2>&1; rc=$?
    check "$page renders without a warning" \
        sh -c '[ "$1" = 0 ] && [ ! -s "$2" ]' _ "$rc" "$TMP/w"
    cat "$TMP/w" >&2
done

# missing PROGRAM PAGE: the long options PROGRAM --help lists that PAGE does
# not (its \- read as -), one a line
missing() {
    local o
    "$1" --help 2>&1 | grep -oE -- '--[a-z][a-z-]*[a-z]' | sort -u |
        while read -r o; do
            sed 's/\\-/-/g' "$2" | grep -q -- "$o" || echo "$o"
        done
}
for p in tbgen tblookup tbserve; do
    m=$(missing "bin/$p" "man/$p.1")
    check "every option of $p --help is in man/$p.1${m:+ (not: $(echo $m))}" \
        test -z "$m"
done
sed 's/tables/t-a-b-l-e-s/g' man/tblookup.1 >"$TMP/page.1"
check "... a page without --tables: the check names it" \
    test "$(missing bin/tblookup "$TMP/page.1")" = "--tables"

echo "1..$n"
