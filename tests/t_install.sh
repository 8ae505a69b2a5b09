#!/usr/bin/env bash
# tests/t_install.sh: `make install` as a user of the library sees it.
# Installs into a temporary prefix (with only the swap table), builds
# tests/outside/client.c against the installed header and pkg-config file
# alone, shared and static, and runs it; checks that the installed tblookup
# finds the installed tables from anywhere, that the man pages render, that
# DESTDIR staging leaves no trace of the staging path in the files, that
# uninstall removes every file, that ldconfig runs for a root install into
# the real root and not for a staged one (a stand-in ldconfig records its
# calls), and that the installed bash completion offers what the installed
# programs list.
set -u
cd "$(dirname "$0")/.." && . tests/lib.sh
need "$LOOKUP" "$TABLES/swap.mdb"
CC=${CC:-cc}
for tool in pkg-config "$CC" make; do
    command -v "$tool" >/dev/null ||
        { echo "not ok 1 - $tool is not installed (scripts/install-deps)"; exit 1; }
done
TOP=$PWD
VERSION=$(sed -n 's/^#define PTB_VERSION_STRING "\(.*\)"/\1/p' \
          lib/puzzletb.h)
SAMPLE=$'1111\n0000\n1110\n0010\n1010\n0101\n1010\n0101\n'
P=$TMP/prefix S=$TMP/stage E=$TMP/elsewhere
mkdir -p "$TMP/tables" "$E"
cp "$TABLES/swap.mdb" "$TMP/tables/"

# Stand-ins on PATH: ldconfig notes each call; id says root, so the rule
# "as root into the real root" is tested whoever runs the tests.
mkdir -p "$TMP/fakebin"
printf '#!/bin/sh\necho called >>"%s"\n' "$TMP/ldconfig.calls" \
    >"$TMP/fakebin/ldconfig"
printf '#!/bin/sh\necho 0\n' >"$TMP/fakebin/id"
chmod +x "$TMP/fakebin/ldconfig" "$TMP/fakebin/id"
ldconfig_calls() { cat "$TMP/ldconfig.calls" 2>/dev/null | wc -l; }

# inst TARGET VAR=VALUE...: make install or uninstall, one-table directory
inst() {
    PATH="$TMP/fakebin:$PATH" make -s --no-print-directory \
        TABLES="$TMP/tables" "$@" >"$TMP/make.log" 2>&1 && return 0
    sed 's/^/# /' "$TMP/make.log" >&2
    return 1
}
# dynamic FILE TAG NAME: readelf shows TAG (SONAME, NEEDED) [NAME]
dynamic() { readelf -d "$1" | grep -qF "($2)" && readelf -d "$1" |
            grep "($2)" | grep -qF "[$3]"; }
# help_says PROGRAM TEXT: PROGRAM --help contains TEXT
help_says() { "$1" --help | grep -qF -- "$2"; }
# no_files DIR: nothing but directories under DIR
no_files() { test -z "$(find "$1" ! -type d)"; }

# ---- install into a prefix ----
check "make install PREFIX=<temporary prefix> succeeds" \
    inst install PREFIX="$P"
missing=
for f in bin/tbgen bin/tblookup include/puzzletb.h lib/libpuzzletb.a \
         lib/libpuzzletb.so.$VERSION lib/pkgconfig/puzzletb.pc \
         share/man/man1/tbgen.1 share/man/man1/tblookup.1 \
         share/man/man3/puzzletb.3 share/puzzletb/tables/swap.mdb \
         share/bash-completion/completions/tblookup \
         share/bash-completion/completions/tbgen \
         $([ -x bin/tbgen-mpi ] &&
           echo bin/tbgen-mpi share/man/man1/tbgen-mpi.1); do
    [ -f "$P/$f" ] || missing="$missing $f"
done
check "every file is installed${missing:+ (missing:$missing)}" \
    test -z "$missing"
check "make install without DESTDIR, as root: ldconfig runs once" \
    test "$(ldconfig_calls)" = 1
# complete PROGRAM WORD...: the installed completion's offers for the last
complete_words() {
    bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
             _"${1##*/}"; printf "%s\n" "${COMPREPLY[@]}"' _ \
        "$P/share/bash-completion/completions/${1##*/}" "$@" | sort
}
check "bash completion: tblookup's puzzles are those it lists" \
    test "$(complete_words "$P/bin/tblookup" '')" = \
    "$("$P/bin/tblookup" --list puzzles | sort)"
want=$("$P/bin/tblookup" --list metrics klotski | sort)
check "... klotski --metric offers klotski's metrics ($(echo $want))" \
    test "$(complete_words "$P/bin/tblookup" klotski --metric '')" = "$want"
check "... four --first offers B and W, from four's option help" \
    test "$(complete_words "$P/bin/tblookup" four --first '' | tr '\n' ' ')" \
    = "B W "
check "... tbgen --puzzle klotski --metric offers its metrics" \
    test "$(complete_words "$P/bin/tbgen" --puzzle klotski --metric '')" \
    = "$want"
# the encodings tbgen names when it refuses an unknown one
want=$("$P/bin/tbgen" --encoding lz4 2>&1 | sed -n 's/.*(\(.*\))$/\1/p' |
       sed 's/,* or /, /; s/, /\n/g' | sort)
check "... tbgen --encoding offers the encodings tbgen knows ($(echo $want))" \
    test -n "$want" -a "$(complete_words "$P/bin/tbgen" --encoding '')" = "$want"
check "libpuzzletb.so -> libpuzzletb.so.1 -> libpuzzletb.so.$VERSION" \
    test "$(readlink "$P/lib/libpuzzletb.so")" = libpuzzletb.so.1 -a \
    "$(readlink "$P/lib/libpuzzletb.so.1")" = "libpuzzletb.so.$VERSION"
if command -v readelf >/dev/null; then
    check "the shared library's soname is libpuzzletb.so.1" \
        dynamic "$P/lib/libpuzzletb.so" SONAME libpuzzletb.so.1
fi
if command -v nm >/dev/null; then
    nm -D --defined-only "$P/lib/libpuzzletb.so" |
        awk '$2 == "T" { print $3 }' | sort >"$TMP/exported"
    grep '^[a-z]' "$P/include/puzzletb.h" | grep -o 'ptb_[a-z0-9_]*(' |
        tr -d '(' | sort >"$TMP/declared"
    what="it exports exactly the $(wc -l <"$TMP/declared") functions"
    check "$what of puzzletb.h" cmp -s "$TMP/exported" "$TMP/declared"
fi

# ---- an outside program: the installed header and pkg-config only ----
export PKG_CONFIG_PATH=$P/lib/pkgconfig
cp tests/outside/client.c "$E/"
check "pkg-config knows puzzletb $VERSION" \
    test "$(pkg-config --modversion puzzletb 2>&1)" = "$VERSION"
tdir=$(pkg-config --variable=tablesdir puzzletb)
check "its tablesdir is the installed tables directory" \
    test "$tdir" = "$P/share/puzzletb/tables"

(cd "$E" && $CC -std=c11 -Wall -Wextra -Wpedantic -Werror -o client \
     client.c $(pkg-config --cflags --libs puzzletb)) >"$TMP/cc.log" 2>&1
r=$?; sed 's/^/# /' "$TMP/cc.log"
check "client.c builds, warning-free, with pkg-config --cflags --libs" \
    test $r = 0
LD_LIBRARY_PATH=$P/lib "$E/client" "$tdir" >"$TMP/c.out" 2>"$TMP/c.err"
r=$?; sed 's/^/# /' "$TMP/c.out" "$TMP/c.err"
check "... runs on the shared library and answers the P1225 sample: 4" \
    test $r = 0 -a "$(grep -c '^swap 4$' "$TMP/c.out")" = 1
others=$(( $(grep -c '' "$TMP/c.out") - 1 ))
check "... and skips the $others puzzles whose tables are not installed" \
    test "$(grep -c ' skipped: no table in ' "$TMP/c.out")" = "$others"
if command -v readelf >/dev/null; then
    check "... linked to libpuzzletb.so.1" \
        dynamic "$E/client" NEEDED libpuzzletb.so.1
fi
static_libs=$(pkg-config --static --libs puzzletb |
              sed 's/-lpuzzletb/-l:libpuzzletb.a/')
(cd "$E" && $CC -std=c11 -o client-static client.c \
     $(pkg-config --cflags puzzletb) $static_libs) >"$TMP/cc.log" 2>&1
r=$?; sed 's/^/# /' "$TMP/cc.log"
env -u LD_LIBRARY_PATH "$E/client-static" "$tdir" >"$TMP/c.out" 2>&1
r2=$?
check "linked statically (pkg-config --static): the same answer" \
    test $r = 0 -a $r2 = 0 -a "$(grep -c '^swap 4$' "$TMP/c.out")" = 1

# ---- the installed tblookup finds the installed tables ----
(cd "$E" && printf '%s' "$SAMPLE" |
     env -u PUZZLETB_TABLES "$P/bin/tblookup" swap --count) \
    >"$TMP/out" 2>&1
r=$?
check "installed tblookup, run elsewhere without --tables: 4" \
    test $r = 0 -a "$(cat "$TMP/out")" = 4
check "... its --help names $P/share/puzzletb/tables" \
    help_says "$P/bin/tblookup" "or $P/share/puzzletb/tables)"
check "bin/tblookup in the tree still defaults to ./tables" \
    help_says "$TOP/bin/tblookup" "\$PUZZLETB_TABLES or tables)"

# ---- man pages ----
bad=
for page in man1/tbgen.1 man1/tblookup.1 man3/puzzletb.3; do
    f=$P/share/man/$page
    if command -v man >/dev/null; then
        text=$(MANWIDTH=80 man --warnings -l "$f" 2>"$TMP/warn")
    elif command -v nroff >/dev/null; then
        text=$(nroff -man -ww "$f" 2>"$TMP/warn")
    else
        text=$(cat "$f"); : >"$TMP/warn"
    fi
    if [ -s "$TMP/warn" ] ||
       ! grep -q "^\.TH [A-Z]* [13] .*\"puzzletb $VERSION\"" "$f" ||
       ! printf '%s' "$text" | grep -q 'NAME'; then
        bad="$bad $page"; sed 's/^/# /' "$TMP/warn"
    fi
done
check "the man pages render without warnings, version $VERSION${bad:+ (bad:$bad)}" \
    test -z "$bad"
check "the installed tblookup.1 names the installed tables directory" \
    grep -qF "$P/share/puzzletb/tables" "$P/share/man/man1/tblookup.1"

check "make uninstall PREFIX=... succeeds" inst uninstall PREFIX="$P"
check "... and leaves no file behind" no_files "$P"

# ---- staging for a package: DESTDIR + PREFIX=/usr ----
rm -f "$TMP/ldconfig.calls"
check "make install DESTDIR=<stage> PREFIX=/usr succeeds" \
    inst install DESTDIR="$S" PREFIX=/usr
check "... and does not run ldconfig (the package's scripts do)" \
    test "$(ldconfig_calls)" = 0
check "... the files are under <stage>/usr" \
    test -x "$S/usr/bin/tblookup" -a -f "$S/usr/lib/pkgconfig/puzzletb.pc" \
    -a -f "$S/usr/share/puzzletb/tables/swap.mdb"
check "... puzzletb.pc says prefix=/usr" \
    grep -qx 'prefix=/usr' "$S/usr/lib/pkgconfig/puzzletb.pc"
check "... tblookup defaults to /usr/share/puzzletb/tables" \
    help_says "$S/usr/bin/tblookup" "or /usr/share/puzzletb/tables)"
check "... no installed file contains the staging path" \
    test -z "$(grep -rlF "$S" "$S")"
check "make uninstall DESTDIR=<stage> PREFIX=/usr succeeds" \
    inst uninstall DESTDIR="$S" PREFIX=/usr
check "... and leaves no file behind" no_files "$S"
echo "1..$n"
