#!/usr/bin/env bash
# tests/t_version.sh: one version everywhere.  PTB_VERSION_STRING in
# lib/puzzletb.h is the one place it is written; each program's
# --version (tbgen-mpi's too), the Python module's __version__, the man pages, NEWS and
# debian/changelog must say the same, and debian/rules refuses to build a
# package whose changelog says another.
set -u
cd "$(dirname "$0")/.." && . tests/lib.sh
need bin/tbgen bin/tblookup bin/tbserve
VERSION=$(sed -n 's/^#define PTB_VERSION_STRING "\(.*\)"/\1/p' \
          lib/puzzletb.h)
check "lib/puzzletb.h defines PTB_VERSION_STRING as N.N.N ($VERSION)" \
    grep -qxE '[0-9]+\.[0-9]+\.[0-9]+' <<<"$VERSION"

# tbgen-mpi where it is built (Open MPI's mpicc)
for p in tbgen tblookup tbserve $([ -x bin/tbgen-mpi ] && echo tbgen-mpi); do
    check "$p --version: '$p $VERSION', status 0" \
        test "$(bin/$p --version 2>&1; echo "status $?")" = \
        "$(printf '%s %s\nstatus 0' "$p" "$VERSION")"
done
if [ -e build/python/puzzletb/__init__.py ]; then
    check "the Python module: puzzletb.__version__ and version() are $VERSION" \
        test "$(PYTHONPATH=build/python /usr/bin/python3 -c 'import puzzletb
print(puzzletb.__version__, puzzletb._puzzletb.version())' 2>&1)" = \
        "$VERSION $VERSION"
else
    fail "the Python module: build/python is missing (make python)"
fi
bad=
for f in man/*.[1-9]; do
    grep -q "^\.TH [^ ]* [1-9] .*\"puzzletb $VERSION\"" "$f" ||
        bad="$bad $f"
done
check "every man page's .TH says puzzletb $VERSION${bad:+ (not:$bad)}" \
    test -z "$bad"
check "NEWS: the newest entry is $VERSION" \
    test "$(grep -m1 -oE '^[0-9]+\.[0-9]+\.[0-9]+' NEWS)" = "$VERSION"
check "debian/changelog: the newest entry is puzzletb ($VERSION)" \
    test "$(sed -n '1s/^puzzletb (\([^)]*\)).*/\1/p' debian/changelog)" = \
    "$VERSION"
if command -v dpkg-parsechangelog >/dev/null; then
    check "... as dpkg-parsechangelog reads it" \
        test "$(dpkg-parsechangelog -S Version 2>&1)" = "$VERSION"
fi
if python3 -c 'import setuptools' 2>/dev/null; then
    check "setup.py (pip install .) reads $VERSION from the header" \
        test "$(python3 setup.py --version 2>/dev/null | tail -1)" = \
        "$VERSION"
fi

# debian/rules' guard, run on a copy with a changelog one version on
if [ -f /usr/share/dpkg/pkg-info.mk ]; then
    mkdir -p "$TMP/src/debian" "$TMP/src/lib"
    cp debian/rules "$TMP/src/debian/"
    cp lib/puzzletb.h "$TMP/src/lib/"
    guard() {
        (cd "$TMP/src" && env -u MAKEFLAGS -u MAKELEVEL \
             make -s -f debian/rules override_dh_auto_configure) \
            >"$TMP/guard.log" 2>&1
    }
    cp debian/changelog "$TMP/src/debian/"
    check "debian/rules: the changelog's version agrees: it goes on" guard
    sed -i "1s/($VERSION)/(9.9.9)/" "$TMP/src/debian/changelog"
    guard
    check "... a changelog saying 9.9.9: it stops, naming both" \
        test $? != 0 -a -n "$(grep -F "debian/changelog says 9.9.9,\
 lib/puzzletb.h says $VERSION" "$TMP/guard.log")"
fi
echo "1..$n"
