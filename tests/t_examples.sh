#!/usr/bin/env bash
# tests/t_examples.sh: every command example of README.md and doc/*.md (a
# line '$ ' in a code block) gives the output shown, run by
# tests/examples.py; one marked long runs in `make test-long` alone
# (EXAMPLES_LONG=1), one marked not run (a cluster, a server on a given
# port) is shown, never run.  Then the checker itself, on a document made
# here: a wrong line shown, and a '...' that stands for lines left out.
cd "$(dirname "$0")/.." && . tests/lib.sh
need bin/tblookup "$TABLES/swap.mdb"

python3 tests/examples.py ${EXAMPLES_LONG:+--long} README.md doc/*.md \
    >"$TMP/ex"; rc=$?
while IFS= read -r line; do
    case $line in
    "ok "*) ok "example: ${line#ok * - }" ;;
    "not ok "*) fail "example: ${line#not ok * - }" ;;
    "#"*) echo "$line" ;;
    esac
done <"$TMP/ex"
[ "$rc" = 0 ] || grep -q '^not ok' "$TMP/ex" ||
    fail "tests/examples.py exited $rc"

printf 'Text.\n\n    $ printf "a\\nb\\nc\\n"\n    a\n    ...\n    c\n\n    $ echo x\n    y\n' \
    >"$TMP/doc.md"
python3 tests/examples.py "$TMP/doc.md" >"$TMP/out"; rc=$?
check "the checker: '...' stands for lines left out" \
    grep -q '^ok 1 - .*printf' "$TMP/out"
check "... and a wrong line shown fails (status $rc)" \
    sh -c '[ "$1" = 1 ] && grep -q "^not ok 2 - .*echo x" "$2"' _ "$rc" "$TMP/out"

echo "1..$n"
