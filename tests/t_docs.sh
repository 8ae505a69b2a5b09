#!/usr/bin/env bash
# tests/t_docs.sh: the reference says what the programs do.  Every man page
# renders without a warning (groff -ww), and every long option a program's
# --help lists is in its man page, and every function puzzletb.h declares
# in puzzletb(3); then, that the checks would see one missing: a page
# without --tables, and one without ptb_verify, are named.  No document names a period of
# work ("session 12"); then, that the check names such a line in a file
# made here.
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

# unmanned HEADER PAGE: the functions HEADER declares that PAGE does not
# name, one a line
unmanned() {
    local f
    grep -oE '\bptb_[a-z0-9_]+\(' "$1" | tr -d '(' | sort -u |
        while read -r f; do
            sed 's/\\-/-/g' "$2" | grep -qw -- "$f" || echo "$f"
        done
}
m=$(unmanned lib/puzzletb.h man/puzzletb.3)
check "every function lib/puzzletb.h declares is in man/puzzletb.3${m:+ (not: $(echo $m))}" \
    test -z "$m"
sed 's/ptb_verify/ptb_prove/g' man/puzzletb.3 >"$TMP/page.3"
check "... a page without ptb_verify: the check names it" \
    test "$(unmanned lib/puzzletb.h "$TMP/page.3")" = "ptb_verify"

# A document says what holds now; none dates or names anything by an
# internal period of work ("done in session 12", "in this session", "last
# sprint"): NEWS and debian/changelog date by version and day, and a figure
# names its day and commit.  The word "session" is refused in any sense, as
# none of these documents needs it (tbserve keeps no sessions); one that
# does (an HTTP session, say) is to be allowed here by its words, with the
# reason.  It is matched at the start of a word, so "possession" passes, and
# "sprint" only as a whole word, so sprintf() passes.
docs=(README.md NEWS BENCHMARKS.md RELIABILITY.md doc/*.md tables/FORMAT.md
      man/* debian/changelog)
# periods FILE...: each line of the FILEs that names a period of work, as
# FILE:LINE:TEXT; fails when there is one, or when a FILE does not read
periods() {
    grep -HniE '\bsession|\bsprints?\b' -- "$@"
    [ $? = 1 ]
}
periods "${docs[@]}" >"$TMP/periods"; rc=$?
cat "$TMP/periods" >&2
at=$(cut -d: -f1,2 "$TMP/periods" | head -5)
check "no document names a period of work${at:+ (at: $(echo $at))}" \
    test "$rc" = 0
# made TEXT: the check run on a file of TEXT: its status in $rc, the lines
# it names in $got, their numbers in $lines
made() {
    printf '%s' "$1" >"$TMP/made.md"
    got=$(periods "$TMP/made.md"); rc=$?
    lines=$(printf '%s\n' "$got" | cut -d: -f2 | paste -sd' ')
}
made $'Figures.\nMeasured in session 12 on two cores.\n'
check "... a made file with \"session 12\": the check fails, naming its line" \
    test "$rc $got" = "1 $TMP/made.md:2:Measured in session 12 on two cores."
made $'As in the Last Session.\nDone this sprint.\nSprints: 2.\nSessions.\n'
check "... in any case, plural, and \"sprint\": every such line named" \
    test "$rc $lines" = "1 1 2 3 4"
made $'Its possession, an obsession.\nsprintf() and snprintf().\n'
check "... \"possession\" and sprintf() pass" test "$rc $lines" = "0 "
periods "$TMP/none.md" >/dev/null 2>&1; rc=$?
check "... a document that does not read fails" test "$rc" != 0

echo "1..$n"
