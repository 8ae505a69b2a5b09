#!/usr/bin/env bash
# tests/t_deb.sh: the Debian packages (debian/) as someone who installs them
# sees them.  Builds them with Debian's tools (dpkg-buildpackage -b -us -uc,
# DEB_BUILD_OPTIONS=nocheck: this suite is the check) from a copy of the
# tree in build/deb/puzzletb-VERSION, so the packages land in build/deb/
# rather than beside the checkout; checks lintian reports no error, that
# each package holds its files and no tables, then extracts them with
# `dpkg -x` into a scratch root and, with the extracted files only (the
# programs run from elsewhere, with no tables of the tree), has tbgen build
# the frog and four-in-a-row tables and tblookup, the Python module, a C
# program built against libpuzzletb-dev and tbserve answer queries whose
# answers are known from outside: n frogs a side take n(n + 2) moves (the
# puzzle's known count: 15 for n = 3, 168 for n = 12), and codevs 1004's
# published sample takes 5.  Skips, saying why, where dpkg-buildpackage or
# debhelper is missing (scripts/install-deps --tests installs them).
set -u
cd "$(dirname "$0")/.." && . tests/lib.sh
for tool in dpkg-buildpackage dh dpkg-deb; do
    if ! command -v "$tool" >/dev/null; then
        echo "ok 1 # skip the Debian packages: no $tool" \
             "(scripts/install-deps --tests)"
        echo "1..1"; exit 0
    fi
done
TOP=$PWD
VERSION=$(sed -n 's/^#define PTB_VERSION_STRING "\(.*\)"/\1/p' \
          lib/puzzletb.h)
MA=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
ARCH=$(dpkg-architecture -qDEB_HOST_ARCH)
DEB=$TOP/build/deb SRC=$TOP/build/deb/puzzletb-$VERSION
ROOT=$TMP/root
PACKAGES="puzzletb libpuzzletb1 libpuzzletb-dev python3-puzzletb puzzletb-mpi"
FOUR='BWBO/WBWB/BWBW/WBWO'         # codevs 1004's sample: 5 moves

# ---- build ----
# the tree as it is (tracked and new files, not what .gitignore leaves
# out: build/, bin/, generated tables); a copy of the directory where
# this is no git checkout
rm -rf "$DEB" && mkdir -p "$SRC"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files -co --exclude-standard -z |
        while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
        xargs -0 cp -P --parents -t "$SRC"
else
    tar -C "$TOP" --exclude=./build --exclude=./bin \
        --exclude='./tables/*.mdb' --exclude=./tables/.built -cf - . |
        tar -C "$SRC" -xf -
fi
start=$SECONDS
(cd "$SRC" &&
 env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES \
     DEB_BUILD_OPTIONS="nocheck noautodbgsym parallel=$(nproc)" \
     dpkg-buildpackage -b -us -uc) >"$DEB/build.log" 2>&1
r=$?
echo "# dpkg-buildpackage: $((SECONDS - start)) s, log in build/deb/build.log"
[ $r = 0 ] || tail -20 "$DEB/build.log" | sed 's/^/# /'
check "dpkg-buildpackage -b -us -uc builds the packages" test $r = 0
deb() { echo "$DEB/${1}_${VERSION}_$ARCH.deb"; }
missing=
for p in $PACKAGES; do [ -f "$(deb "$p")" ] || missing="$missing $p"; done
what="... $PACKAGES, version $VERSION, in build/deb/"
check "$what${missing:+ (missing:$missing)}" test -z "$missing"
[ -z "$missing" ] || { echo "1..$n"; exit 1; }
check "... and nothing beside the checkout or in build/ itself" \
    test -z "$(ls "$TOP"/../*_"$VERSION"_* "$TOP"/build/*.deb 2>/dev/null)"
# a new function in puzzletb.h is a note (add it to
# debian/libpuzzletb1.symbols with the version that brings it); one gone
# would break programs built against the library: a failure
grep '^dpkg-gensymbols: warning' "$DEB/build.log" | sed 's/^/# /'
check "dpkg-gensymbols: every symbol of debian/libpuzzletb1.symbols is there" \
    test -z "$(grep '^dpkg-gensymbols: warning: .*disappeared' \
               "$DEB/build.log")"

if command -v lintian >/dev/null; then
    lintian -I --pedantic "$DEB"/puzzletb_"$VERSION"_"$ARCH".changes \
        >"$DEB/lintian.log" 2>&1
    r=$?
    grep -E '^[EWIPX]:' "$DEB/lintian.log" | sed 's/^/# lintian: /'
    check "lintian --pedantic reports no error ($(grep -c '^W:' \
        "$DEB/lintian.log") warnings; build/deb/lintian.log)" \
        test $r = 0 -a -z "$(grep '^E:' "$DEB/lintian.log")"
else
    ok "# skip lintian: not installed (scripts/install-deps --tests)"
fi

# ---- what each package holds ----
# holds PACKAGE PATH...: each PATH (a regular expression) matches a file
holds() {
    local p=$1 f bad=; shift
    dpkg-deb -c "$(deb "$p")" | awk '{ print $6 }' | sed 's|^\./||' \
        >"$TMP/list"
    for f in "$@"; do grep -qxE -- "$f" "$TMP/list" || bad="$bad $f"; done
    [ -z "$bad" ] || echo "# $p lacks:$bad" >&2
    [ -z "$bad" ]
}
L=usr/lib/$MA
check "puzzletb: tbgen, tblookup, tbserve, their man pages, completion" \
    holds puzzletb usr/bin/tbgen usr/bin/tblookup usr/bin/tbserve \
    'usr/share/man/man1/(tbgen|tblookup|tbserve).1.gz' \
    usr/share/bash-completion/completions/tblookup \
    usr/share/bash-completion/completions/tbgen \
    usr/share/puzzletb/web/index.html var/lib/puzzletb/tables/
check "libpuzzletb1: the shared library under its soname" \
    holds libpuzzletb1 "$L/libpuzzletb.so.1" "$L/libpuzzletb.so.$VERSION"
check "libpuzzletb-dev: header, static library, .so link, pkg-config, man 3" \
    holds libpuzzletb-dev usr/include/puzzletb.h "$L/libpuzzletb.a" \
    "$L/libpuzzletb.so" "$L/pkgconfig/puzzletb.pc" \
    usr/share/man/man3/puzzletb.3.gz
check "python3-puzzletb: the module in Debian's python3 path" \
    holds python3-puzzletb usr/lib/python3/dist-packages/puzzletb/__init__.py \
    'usr/lib/python3/dist-packages/puzzletb/_puzzletb\.cpython-.*\.so'
check "puzzletb-mpi: tbgen-mpi, its man page (tbgen's)" \
    holds puzzletb-mpi usr/bin/tbgen-mpi 'usr/share/man/man1/tbgen-mpi.1.gz'
tables=
for p in $PACKAGES; do
    dpkg-deb -c "$(deb "$p")" | grep -q '\.mdb$' && tables="$tables $p"
done
check "no package ships a table (tbgen makes them)${tables:+ (in:$tables)}" \
    test -z "$tables"
field() { dpkg-deb -f "$(deb "$1")" "$2"; }
check "every package says version $VERSION" \
    test "$(for p in $PACKAGES; do field "$p" Version; done | sort -u)" = \
    "$VERSION"
check "libpuzzletb-dev depends on libpuzzletb1 (= $VERSION)" \
    grep -qF "libpuzzletb1 (= $VERSION)" <<<"$(field libpuzzletb-dev Depends)"
dpkg-deb -e "$(deb libpuzzletb1)" "$TMP/control"
check "libpuzzletb1's shlibs and symbols name libpuzzletb.so.1" \
    grep -q '^libpuzzletb 1 libpuzzletb1' "$TMP/control/shlibs"
check "python3-puzzletb depends on python3 (its version range)" \
    grep -qE 'python3 \(>= 3' <<<"$(field python3-puzzletb Depends)"
check "puzzletb-mpi depends on puzzletb (= $VERSION) and openmpi-bin" \
    grep -qE "openmpi-bin.*puzzletb \(= $VERSION\)" \
    <<<"$(field puzzletb-mpi Depends)"

# ---- installed into a scratch root: the files of the packages only ----
for p in $PACKAGES; do dpkg -x "$(deb "$p")" "$ROOT"; done
E=$TMP/elsewhere T=$TMP/tables
mkdir -p "$E"
# inroot CMD...: from a directory outside the tree, without the tree's
# tables or variables
inroot() { (cd "$E" && env -u PUZZLETB_TABLES -u PYTHONPATH \
                            -u LD_LIBRARY_PATH "$@"); }
versions=$(for p in tbgen tblookup tbserve tbgen-mpi; do
               inroot "$ROOT/usr/bin/$p" --version; done)
check "the installed tbgen, tblookup, tbserve, tbgen-mpi --version: $VERSION" \
    test "$versions" = "$(printf '%s %s\n' tbgen "$VERSION" \
        tblookup "$VERSION" tbserve "$VERSION" tbgen-mpi "$VERSION")"
check "... tblookup's default tables directory is /var/lib/puzzletb/tables" \
    grep -qF 'or /var/lib/puzzletb/tables)' <<<"$(inroot \
        "$ROOT/usr/bin/tblookup" --help)"
inroot "$ROOT/usr/bin/tbgen" --quiet --puzzle frog --puzzle four --out "$T" \
    >"$TMP/gen.log" 2>&1
r=$?; sed 's/^/# /' "$TMP/gen.log"
check "the installed tbgen builds the frog and four tables" \
    test $r = 0 -a -f "$T/frog.mdb" -a -f "$T/four.mdb"
# tbgen-mpi on 2 processes: the same bytes
inroot env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    OMPI_MCA_btl=self,vader mpirun -np 2 --oversubscribe \
    "$ROOT/usr/bin/tbgen-mpi" --quiet -j 1 --puzzle frog --puzzle four \
    --out "$TMP/mpi" >"$TMP/mpi.log" 2>&1
r=$?; sed 's/^/# /' "$TMP/mpi.log"
check "the installed tbgen-mpi, 2 processes: frog's and four's tables, the same bytes" \
    test $r = 0 && cmp "$T/frog.mdb" "$TMP/mpi/frog.mdb" &&
    cmp "$T/four.mdb" "$TMP/mpi/four.mdb"
check "... it finds the shipped descriptions where the package puzzletb puts them" \
    grep -qF '(/usr/share/puzzletb/puzzles/NAME.txt)' \
    <<<"$(inroot "$ROOT/usr/bin/tbgen-mpi" --help)"
q() { inroot "$ROOT/usr/bin/tblookup" --tables "$T" "$@" 2>&1; }
check "the installed tblookup: 3 frogs a side, n(n+2) = 15 moves" \
    test "$(q frog --count WWW.BBB)" = 15
check "... 12 frogs a side: 168 moves" test "$(q frog --count --n 12)" = 168
check "... codevs 1004's sample: 5 moves, the published answer" \
    test "$(q four --count "$FOUR")" = 5
# four_in_line: the last board of --moves' output has four in a line
four_in_line() {
    /usr/bin/python3 -c 'import sys
b = sys.stdin.read().split()[-4:]
lines = b + ["".join(r[j] for r in b) for j in range(4)] + \
    ["".join(b[i][i] for i in range(4)), "".join(b[i][3 - i] for i in range(4))]
sys.exit(not any(l in ("BBBB", "WWWW") for l in lines))'
}
q four --moves "$FOUR" >"$TMP/four.out"
check "... its 5 moves end on a board with four in a line (checked here)" \
    test "$(grep -c '^[0-9] [BW] ' "$TMP/four.out")" = 5 -a \
    "$(head -1 "$TMP/four.out")" = 5 && four_in_line <"$TMP/four.out"

# the Python module, from the scratch root's dist-packages
py() { inroot env PYTHONPATH="$ROOT/usr/lib/python3/dist-packages" \
           /usr/bin/python3 -c "$1" 2>&1; }
check "the installed Python module: __version__ $VERSION, from the root" \
    test "$(py 'import puzzletb as p; print(p.__version__,
            p.__file__.startswith("'"$ROOT"'"))')" = "$VERSION True"
check "... its default tables directory is /var/lib/puzzletb/tables" \
    test "$(py 'import puzzletb; print(puzzletb.TABLES_DIR)')" = \
    /var/lib/puzzletb/tables
check "... answers n = 3 frogs: 15, and codevs 1004's sample: 5" \
    test "$(py 'import puzzletb
with puzzletb.open("'"$T"'") as tb:
    print(tb.distance("frog", n=3), tb.distance("four", "'"$FOUR"'"))')" \
    = "15 5"

# a C program built against libpuzzletb-dev's header and pkg-config file,
# run on libpuzzletb1's shared library
export PKG_CONFIG_SYSROOT_DIR=$ROOT PKG_CONFIG_LIBDIR=$ROOT/$L/pkgconfig
check "pkg-config (the -dev package's puzzletb.pc): version $VERSION" \
    test "$(pkg-config --modversion puzzletb 2>&1)" = "$VERSION"
cp tests/outside/client.c "$E/"
(cd "$E" && ${CC:-cc} -std=c11 -Wall -Wextra -Wpedantic -Werror -o client \
     client.c $(pkg-config --cflags --libs puzzletb)) >"$TMP/cc.log" 2>&1
r=$?; sed 's/^/# /' "$TMP/cc.log"
check "tests/outside/client.c builds against the -dev package alone" test $r = 0
unset PKG_CONFIG_SYSROOT_DIR PKG_CONFIG_LIBDIR
inroot env LD_LIBRARY_PATH="$ROOT/$L" ./client "$T" >"$TMP/c.out" 2>&1
r=$?; sed 's/^/# /' "$TMP/c.out"
check "... runs on libpuzzletb.so.1 from libpuzzletb1: frog 15, four's table" \
    test $r = 0 -a "$(grep -c '^frog 15$' "$TMP/c.out")" = 1 -a \
    "$(grep -c '^four farthest ' "$TMP/c.out")" = 1
if command -v readelf >/dev/null; then
    check "... linked to libpuzzletb.so.1" \
        grep -qF '[libpuzzletb.so.1]' <<<"$(readelf -d "$E/client")"
fi

# tbserve with the packaged page, on a free port of 127.0.0.1
# (inroot's environment; exec, so that $! is tbserve itself and the kill
# below ends it: a function in the background is a shell of its own)
(cd "$E" && exec env -u PUZZLETB_TABLES -u PYTHONPATH -u LD_LIBRARY_PATH \
    "$ROOT/usr/bin/tbserve" --port 0 --tables "$T" \
    --web "$ROOT/usr/share/puzzletb/web") >/dev/null 2>"$TMP/serve.log" &
pid=$!
port=
for _ in $(seq 100); do
    port=$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' \
           "$TMP/serve.log")
    [ -n "$port" ] && break
    sleep 0.05
done
get() { /usr/bin/python3 -c 'import sys, urllib.request as u
print(u.urlopen("http://127.0.0.1:" + sys.argv[1] + sys.argv[2]).read()
      .decode())' "$port" "$1" 2>&1; }
check "the installed tbserve serves the packaged page" \
    test -n "$port" -a -n "$(get / | grep -i '<html')"
check "... and answers codevs 1004's sample: distance 5" \
    grep -q '"distance":5,' <<<"$(get "/api/v1/four?position=$FOUR")"
kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null

# man pages and completion as installed
bad=
for f in "$ROOT"/usr/share/man/man1/*.1.gz "$ROOT"/usr/share/man/man3/*.3.gz; do
    if command -v man >/dev/null; then
        MANWIDTH=80 man --warnings -l "$f" >/dev/null 2>"$TMP/warn"
    elif command -v nroff >/dev/null; then
        zcat "$f" | nroff -man -ww >/dev/null 2>"$TMP/warn"
    else
        : >"$TMP/warn"
    fi
    [ -s "$TMP/warn" ] && { bad="$bad ${f##*/}"; sed 's/^/# /' "$TMP/warn"; }
    zcat "$f" | grep -q "^\.TH .*\"puzzletb $VERSION\"" || bad="$bad ${f##*/}"
done
what="the man pages render without warnings, version $VERSION"
check "$what${bad:+ (bad:$bad)}" test -z "$bad"
check "tblookup(1) names /var/lib/puzzletb/tables" \
    grep -qF /var/lib/puzzletb/tables <<<"$(zcat \
        "$ROOT/usr/share/man/man1/tblookup.1.gz")"
complete_words() {
    bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
             _"${1##*/}"; printf "%s\n" "${COMPREPLY[@]}"' _ \
        "$ROOT/usr/share/bash-completion/completions/${1##*/}" "$@" | sort
}
check "the installed completion offers the installed tblookup's puzzles" \
    test "$(complete_words "$ROOT/usr/bin/tblookup" '')" = \
    "$(inroot "$ROOT/usr/bin/tblookup" --list puzzles | sort)"
echo "1..$n"
