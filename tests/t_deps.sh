#!/usr/bin/env bash
# tests/t_deps.sh: what scripts/install-deps installs for each of the
# README's two commands.  `make tables` (the main job) installs what the
# programs, the library and the Python module need to build and run, and
# none of the test suite's tools (a browser, a second compiler, the package
# checkers); `make test` installs those too.  The script runs against
# stand-ins for dpkg-query, apt-get and sudo on PATH, so what it would
# install on a machine with nothing installed is seen without installing
# anything, whatever this machine has.
set -u
cd "$(dirname "$0")/.." && . tests/lib.sh
DEPS=scripts/install-deps

# the packages the main job must never install, as patterns
TEST_ONLY='chromium|clang|selenium|lintian|debhelper|dpkg-dev|fonts-|mpi'
# what the main job needs: compile, link, tbserve, the Python module
BUILD='gcc libc6-dev make pkg-config liblmdb-dev libzstd-dev
       libmicrohttpd-dev python3-dev'
# what the tests add (t_web.py, the fuzzers, the second reader, t_deb.sh,
# t_mpi.sh)
TOOLS='chromium chromium-driver python3-selenium fonts-noto-cjk clang
       libclang-rt-dev lmdb-utils python3-lmdb python3-zstandard dpkg-dev
       debhelper dh-python fakeroot lintian openmpi-bin libopenmpi-dev
       groff-base'

# has LIST WORD...: every WORD is a line of LIST
has() {
    local list=$1 w; shift
    for w in "$@"; do
        printf '%s\n' "$list" | grep -qxF -- "$w" ||
            { echo "# missing: $w" >&2; return 1; }
    done
}
# none LIST PATTERN: no line of LIST matches PATTERN (grep -E)
none() {
    local bad
    bad=$(printf '%s\n' "$1" | grep -E -- "$2")
    [ -z "$bad" ] || { echo "# found:" $bad >&2; return 1; }
}

main=$("$DEPS" --list) tests=$("$DEPS" --tests --list)
check "--list: the main job's list has no chromium, clang, selenium, lintian" \
    none "$main" "$TEST_ONLY"
check "... and has the compiler, make, pkg-config, headers, python3-dev" \
    has "$main" $BUILD
check "--tests --list: the main job's packages and the tests' tools" \
    has "$tests" $main $TOOLS
check "each list names each package once" \
    test "$(printf '%s\n' "$tests" | sort | uniq -d)" = ""
if command -v apt-cache >/dev/null &&
   [ -n "$(apt-cache policy make 2>/dev/null | grep 'Candidate: [0-9]')" ]; then
    # one apt-cache call: "NAME:" then "  Candidate: VERSION" for each
    known=$(apt-cache policy $tests 2>/dev/null |
            awk '/^[^ ]/ { p = $1 } /Candidate: [0-9]/ { print p }' |
            tr -d :)
    unknown=
    for p in $tests; do
        has "$known" "$p" 2>/dev/null || unknown="$unknown $p"
    done
    check "every package named is one apt knows${unknown:+ (not:$unknown)}" \
        test -z "$unknown"
else
    ok "# skip apt knows every package named (no package lists here)"
fi

# ---- the script against stand-ins: a machine with nothing installed ----
mkdir -p "$TMP/bin"
# dpkg-query: installed only what $INSTALLED names (a regular expression)
cat >"$TMP/bin/dpkg-query" <<'EOF'
#!/bin/sh
pkg=$(eval echo "\${$#}")
if [ -n "${INSTALLED:-}" ] && echo "$pkg" | grep -qxE "$INSTALLED"; then
    printf 'install ok installed'
else
    echo "dpkg-query: no packages found matching $pkg" >&2; exit 1
fi
EOF
# apt-get and sudo note their arguments; id says root
printf '#!/bin/sh\necho "apt-get $*" >>"%s"\n' "$TMP/calls" >"$TMP/bin/apt-get"
printf '#!/bin/sh\necho "sudo $*" >>"%s"\n' "$TMP/calls" >"$TMP/bin/sudo"
printf '#!/bin/sh\necho 0\n' >"$TMP/bin/id"
chmod +x "$TMP/bin/"*
# deps ARGS...: the script with the stand-ins; sets $out, $rc, $calls
deps() {
    rm -f "$TMP/calls"
    out=$(PATH="$TMP/bin:$PATH" "$DEPS" "$@" 2>"$TMP/err"); rc=$?
    calls=$(cat "$TMP/calls" 2>/dev/null)
}
# installed: the packages of the apt-get install call, one a line
installed() {
    printf '%s\n' "$calls" | grep '^apt-get install ' | tr ' ' '\n' |
        grep -v -e '^-' -e '^apt-get$' -e '^install$' -e '^$'
}

deps --dry-run
check "--dry-run on a bare machine: prints the main job's list, status 0" \
    test "$rc" = 0 -a "$out" = "$main"
check "... and calls neither apt-get nor sudo" test -z "$calls"
deps --tests --dry-run
check "--tests --dry-run: prints the whole list and installs nothing" \
    test "$rc" = 0 -a "$out" = "$tests" -a -z "$calls"

deps
check "a real run as root on a bare machine: apt-get update, then install" \
    test "$rc" = 0 -a "$(printf '%s\n' "$calls" | head -1)" = \
    "apt-get update -qq"
check "... of exactly the main job's packages" \
    test "$(installed)" = "$main"
check "... none of chromium, clang, selenium or lintian" \
    none "$(installed)" "$TEST_ONLY"
check "... without sudo" none "$calls" '^sudo'
deps --tests
check "--tests: installs the main job's packages and the tests' tools" \
    test "$rc" = 0 -a "$(installed)" = "$tests"

# some installed already: only the rest
INSTALLED='gcc|make|python3.*' deps --dry-run
check "--dry-run with gcc, make and python3* installed: the others only" \
    test "$out" = "$(printf '%s\n' "$main" | grep -vxE 'gcc|make|python3.*')"
INSTALLED='.*' deps --tests
check "everything installed: nothing printed or called, status 0" \
    test "$rc" = 0 -a -z "$out" -a -z "$calls"
deps --nonsense
check "an unknown argument: status 2, the usage on stderr" \
    test "$rc" = 2 -a -z "$out" -a -n "$(grep usage: "$TMP/err")"

# ---- the Makefile: which command asks for which set ----
dry() { make -n --no-print-directory "$@" 2>/dev/null | head -2; }
check "make tables runs scripts/install-deps (the main job's set)" \
    test "$(dry tables | head -1)" = scripts/install-deps
# the recipe of make test, as the Makefile writes it
recipe() { sed -n "/^$1:/,/^\$/p" Makefile | sed -n 's/^\t//p'; }
check "make test runs scripts/install-deps --tests, builds, then make check" \
    test "$(dry test | head -1)" = "scripts/install-deps --tests" -a \
    "$(recipe test)" = "$(printf '%s\n' '$(MAKE) -j$(JOBS) check-build' \
                             '$(MAKE) check')"
echo "1..$n"
