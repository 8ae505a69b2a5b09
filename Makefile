# puzzletb: plain Makefile.  `make tables` installs missing dependencies,
# builds and generates every table; `make test` runs the test suite.

CC      ?= cc
CFLAGS  ?= -O2 -g
CFLAGS  += -std=c11 -Wall -Wextra -Wpedantic -fPIC -fno-semantic-interposition \
           -D_DEFAULT_SOURCE
CPPFLAGS += -Ilib -Ibuild/gen
LDLIBS  = -llmdb -lzstd -lpthread
TABLES  ?= tables

# The library, a folder a layer, each calling only the ones before it
# (doc/design.md; tests/t_layers.sh checks it): core, format, search,
# puzzles, answer.  lib/puzzletb.h is its one public header.
LAYERS   = core format search puzzles answer
LIB_SRC  = $(foreach l,$(LAYERS),$(wildcard lib/$(l)/*.c))
LIB_OBJ  = $(LIB_SRC:%.c=build/%.o)
LIB_HDR  = lib/puzzletb.h $(foreach l,$(LAYERS),$(wildcard lib/$(l)/*.h)) \
           lib/puzzles/puzzles.def
# Constant tables made at build time.  A puzzle file that wants them has a
# section under `#ifdef PTB_MKTABLES` with a main() that prints them as C;
# the same file compiled with -DPTB_MKTABLES is the generator, and what it
# prints, build/gen/NAME_tables.h, is included by the library build.  So the
# tables live in the binary (shared by every process, built by none) and the
# knowledge behind them stays in the puzzle's one file.
MKTABLES = $(patsubst lib/puzzles/puzzle_%.c,%,\
             $(shell grep -l '^.ifdef PTB_MKTABLES' lib/puzzles/puzzle_*.c))
GEN_HDR  = $(MKTABLES:%=build/gen/%_tables.h)
TEST_SRC = $(wildcard tests/t_*.c)
TEST_BIN = $(TEST_SRC:tests/%.c=build/tests/%)
# The C tests run twice: as built, and under AddressSanitizer and UBSan.
SAN_FLAGS = -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all \
            -fno-omit-frame-pointer
SAN_OBJ  = $(LIB_SRC:%.c=build/san/%.o)
SAN_BIN  = $(TEST_SRC:tests/%.c=build/tests/%.san)

.PHONY: all deps tables test test-long clean bench check-tables check \
        check-build test-deps
JOBS ?= $(shell nproc 2>/dev/null || echo 1)
all: bin/tbgen bin/tblookup

# tbgen-mpi, tbgen split between processes by MPI (doc/guide.md, "Past one
# machine"), is built and installed where Open MPI's mpicc is installed,
# else skipped.
MPICC ?= $(shell command -v mpicc 2>/dev/null)
ifneq ($(MPICC),)
all: bin/tbgen-mpi
install-build: build/install/tbgen-mpi
install: install-mpi
uninstall: uninstall-mpi
endif

# `make tables` installs the main job's packages only; `make test` installs
# what the tests add too, then builds what the suite runs (`make
# check-build`, a job a processor) and runs it (`make check`), each in a
# make that sees them: this file asks python3 and the compilers when it is
# read.
deps:
	scripts/install-deps

test-deps:
	scripts/install-deps --tests

test: test-deps
	$(MAKE) -j$(JOBS) check-build
	$(MAKE) check

# `make test-long`: the same suite with what only a long run shows: each
# fuzz harness for a minute instead of 2 seconds, and the documents'
# examples marked long (CI runs make test).
test-long: test-deps
	$(MAKE) -j$(JOBS) check-build
	FUZZ_SMOKE=60 EXAMPLES_LONG=1 $(MAKE) check

build/%.o: %.c $(LIB_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

build/gen/mktables_%: lib/puzzles/puzzle_%.c lib/core/util.c \
                      lib/puzzles/text.c $(LIB_HDR)
	@mkdir -p build/gen
	$(CC) $(CPPFLAGS) $(CFLAGS) -DPTB_MKTABLES -o $@ $< lib/core/util.c \
	    lib/puzzles/text.c

build/gen/%_tables.h: build/gen/mktables_%
	$< >$@.tmp && mv $@.tmp $@

$(LIB_OBJ) $(SAN_OBJ): $(GEN_HDR)

build/libpuzzletb.a: $(LIB_OBJ)
	rm -f $@
	ar rcs $@ $^

bin/tbgen: build/gen/main.o build/libpuzzletb.a
	@mkdir -p bin
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

build/mpi/%.o: gen/%.c gen/cluster.h $(LIB_HDR)
	@mkdir -p build/mpi
	$(MPICC) $(CPPFLAGS) $(CFLAGS) -DPTB_MPI -c -o $@ $<

bin/tbgen-mpi: build/mpi/main.o build/mpi/mpi.o build/libpuzzletb.a
	@mkdir -p bin
	$(MPICC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

build/lookup/main.o build/lookup/levels.o: lookup/lookup.h

bin/tblookup: build/lookup/main.o build/lookup/levels.o build/libpuzzletb.a
	@mkdir -p bin
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

build/tests/%: tests/%.c tests/check.h tests/tables.h build/libpuzzletb.a
	@mkdir -p build/tests
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< build/libpuzzletb.a $(LDLIBS)

build/san/%.o: %.c $(LIB_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(SAN_FLAGS) -c -o $@ $<

build/san/libpuzzletb.a: $(SAN_OBJ)
	rm -f $@
	ar rcs $@ $^

build/tests/%.san: tests/%.c tests/check.h tests/tables.h build/san/libpuzzletb.a
	@mkdir -p build/tests
	$(CC) $(CPPFLAGS) $(CFLAGS) $(SAN_FLAGS) -o $@ $< build/san/libpuzzletb.a \
	    $(LDLIBS)

# Tables are rebuilt when tbgen changes; the stamp records the last full run.
# Besides the built-in puzzles, the shipped descriptions that build in
# seconds (puzzles/; the larger ones are built on request: doc/guide.md),
# the pattern tables of the puzzles past a full table that build in
# seconds, and the levels of the small families (a second or so;
# rush-5x5-walls, a few more, is built by tests/t_family.sh in its own
# directory).
DESCRIPTIONS = eight p1379 century supercentury quzzle dads ma rush-60 rush-51
SEARCHED = fifteen fourteen nineteen
FAMILIES = rush-4x4 rush-5x5

$(TABLES)/.built: bin/tbgen $(DESCRIPTIONS:%=puzzles/%.txt) \
                  $(SEARCHED:%=puzzles/%.txt) \
                  $(FAMILIES:%=puzzles/families/%.txt)
	bin/tbgen --out $(TABLES)
	bin/tbgen --out $(TABLES) $(DESCRIPTIONS:%=--puzzle puzzles/%.txt)
	bin/tbgen --out $(TABLES) --patterns $(SEARCHED:%=--puzzle puzzles/%.txt)
	for f in $(FAMILIES); do \
	    bin/tbgen --out $(TABLES) --family puzzles/families/$$f.txt || exit 1; \
	done
	touch $@

tables: deps
	$(MAKE) -j$(JOBS) all
	$(MAKE) $(TABLES)/.built

# An LD_PRELOAD shim for the tests: writes to *.tmp files fail with ENOSPC.
build/tests/shim_enospc.so: tests/shim_enospc.c
	@mkdir -p build/tests
	$(CC) $(CFLAGS) -shared -o $@ $< -ldl

check-build: all $(TEST_BIN) $(SAN_BIN) build/tests/shim_enospc.so \
             $(TABLES)/.built

check: check-build
	tests/run

# The tables are reproducible byte for byte: compare them with the sums
# recorded for this format version (tables/SHA256SUMS).
check-tables:
	cd $(TABLES) && sha256sum --check --strict $(CURDIR)/tables/SHA256SUMS

# The benchmark (never part of make test): scripts/bench writes BENCHMARKS.md.
build/bench/%: tests/bench/%.c build/libpuzzletb.a
	@mkdir -p build/bench
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< build/libpuzzletb.a $(LDLIBS)

bench: all build/bench/libbench build/bench/symmetry python \
       build/tests/httpload $(TABLES)/.built
	scripts/bench

clean:
	rm -rf build bin

# The distance histograms doc/guide.md shows, drawn from the real tables by
# `tblookup --stats --format svg`: doc/histograms/NAME.svg for puzzles with
# one metric, NAME-METRIC.svg for the others (the table files' names).
.PHONY: svg
svg: bin/tblookup $(TABLES)/.built
	@mkdir -p doc/histograms
	@for p in $$(bin/tblookup --list puzzles); do \
	  ms=$$(bin/tblookup --list metrics $$p); \
	  for m in $$ms; do \
	    f=doc/histograms/$$p.svg; \
	    [ "$$(echo $$ms | wc -w)" -gt 1 ] && f=doc/histograms/$$p-$$m.svg; \
	    bin/tblookup $$p --metric $$m --stats --format svg \
	        --tables $(TABLES) >$$f.tmp && mv $$f.tmp $$f || exit 1; \
	    echo "$$f"; \
	  done; \
	done

# The toy puzzles (tests/t_toy.sh): the library built again with three more
# puzzles, tests/toy/puzzle_toy.c, puzzle_grid.c and puzzle_line.c, listed
# in tests/toy/puzzles.def and added by -DPTB_TEST_PUZZLES, then linked with
# the unchanged programs: a puzzle with its own options takes one file and
# one registry line, nothing else; the grid has a parity, so its table is
# packed1; the line's distances go past a byte (to 599).
# Only the registry (lib/puzzles/registry.c) reads -DPTB_TEST_PUZZLES; in
# every other file it adds extern declarations and nothing else, so the
# toy build compiles the registry and the toy puzzles and takes the rest
# of the library, and the programs' objects, from the main build.
TOY_FLAGS = -DPTB_TEST_PUZZLES='"$(CURDIR)/tests/toy/puzzles.def"'
TOY_SRC = tests/toy/puzzle_toy.c tests/toy/puzzle_grid.c \
          tests/toy/puzzle_line.c
TOY_OWN = lib/puzzles/registry.c $(TOY_SRC)
TOY_OBJ = $(filter-out build/lib/puzzles/registry.o,$(LIB_OBJ)) \
          $(TOY_OWN:%.c=build/toy/%.o)
TOY_BIN = build/toy/tblookup build/toy/tbgen
check-build: $(TOY_BIN)

build/toy/%.o: %.c $(LIB_HDR) tests/toy/puzzles.def $(GEN_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(TOY_FLAGS) -c -o $@ $<

build/toy/tblookup: build/lookup/main.o build/lookup/levels.o $(TOY_OBJ)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

build/toy/tbgen: build/gen/main.o $(TOY_OBJ)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

# ==== tbserve: the tables over HTTP (serve/, web/) ====
# libmicrohttpd from scripts/install-deps; `make serve` runs it in the
# foreground on the generated tables (PORT=, default 8080).
SERVE_SRC = $(wildcard serve/*.c)
SERVE_OBJ = $(SERVE_SRC:%.c=build/%.o)
PORT ?= 8080
WEBDIR ?= $(PREFIX)/share/puzzletb/web
.PHONY: serve install-serve uninstall-serve
all: bin/tbserve
# the tests also run a tbserve built with ASan and UBSan (httpload is the
# benchmark's: `make bench` builds it)
check-build: bin/tbserve build/san/tbserve
install-build: build/install/tbserve build/install/man/tbserve.1
install: install-serve
uninstall: uninstall-serve

build/serve/%.o: serve/%.c serve/serve.h $(LIB_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

bin/tbserve: $(SERVE_OBJ) build/libpuzzletb.a
	@mkdir -p bin
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ -lmicrohttpd $(LDLIBS)

build/san/tbserve: $(SERVE_SRC) serve/serve.h build/san/libpuzzletb.a
	$(CC) $(CPPFLAGS) $(CFLAGS) $(SAN_FLAGS) -o $@ $(SERVE_SRC) \
	    build/san/libpuzzletb.a -lmicrohttpd $(LDLIBS)

# installed, it serves the installed tables and page by default
build/install/tbserve: $(SERVE_SRC) serve/serve.h build/libpuzzletb.a \
                       build/install/dirs
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -DPTB_TABLES_DIR='"$(TABLESDIR)"' \
	    -DPTB_WEB_DIR='"$(WEBDIR)"' -o $@ $(SERVE_SRC) build/libpuzzletb.a \
	    -lmicrohttpd $(LDLIBS)

install-serve: build/install/tbserve build/install/man/tbserve.1
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(WEBDIR) \
	    $(DESTDIR)$(MANDIR)/man1
	$(INSTALL) -m 755 build/install/tbserve $(DESTDIR)$(BINDIR)/
	$(INSTALL) -m 644 $(wildcard web/*.html web/*.js web/*.css) \
	    $(DESTDIR)$(WEBDIR)/
	$(INSTALL) -m 644 build/install/man/tbserve.1 $(DESTDIR)$(MANDIR)/man1/

uninstall-serve:
	rm -f $(DESTDIR)$(BINDIR)/tbserve $(DESTDIR)$(MANDIR)/man1/tbserve.1 \
	    $(DESTDIR)$(WEBDIR)/*.html $(DESTDIR)$(WEBDIR)/*.js \
	    $(DESTDIR)$(WEBDIR)/*.css
	rmdir $(DESTDIR)$(WEBDIR) 2>/dev/null || true

build/tests/httpload: tests/bench/httpload.c
	@mkdir -p build/tests
	$(CC) $(CFLAGS) -o $@ $< -lpthread

serve: bin/tbserve $(TABLES)/.built
	bin/tbserve --tables $(TABLES) --port $(PORT)

# ==== shared library and installation ====
# build/libpuzzletb.so exports only the functions declared in puzzletb.h (a
# version script generated from it).  `make install` puts the programs, both
# libraries, the header, a pkg-config file, the man pages and the built
# tables (any $(TABLES)/*.mdb) and bash completion under $(DESTDIR)$(PREFIX),
# then runs ldconfig when installing into the real root as root.  The installed
# tblookup is a separate build (build/install/) whose default tables
# directory is $(TABLESDIR); bin/tblookup keeps using ./tables.

PREFIX       ?= /usr/local
BINDIR       ?= $(PREFIX)/bin
LIBDIR       ?= $(PREFIX)/lib
INCLUDEDIR   ?= $(PREFIX)/include
MANDIR       ?= $(PREFIX)/share/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
TABLESDIR    ?= $(PREFIX)/share/puzzletb/tables
# the shipped descriptions (puzzles/*.txt), where the installed tbgen finds
# them by name
PUZZLESDIR   ?= $(PREFIX)/share/puzzletb/puzzles
# where Debian's bash-completion looks (it searches $XDG_DATA_DIRS, by
# default /usr/local/share and /usr/share, for bash-completion/completions)
BASHCOMPDIR  ?= $(PREFIX)/share/bash-completion/completions
INSTALL      ?= install
VERSION := $(shell sed -n 's/^.define PTB_VERSION_STRING "\(.*\)"/\1/p' \
                 lib/puzzletb.h)
# the soname's number: bump it when a change to puzzletb.h breaks the ABI
SOVERSION = 1
SONAME    = libpuzzletb.so.$(SOVERSION)
SHLIB     = libpuzzletb.so.$(VERSION)
MANPAGES  = man/tbgen.1 man/tblookup.1 man/puzzletb.3 \
            man/puzzletb-description.5
INSTALL_TABLES = $(wildcard $(TABLES)/*.mdb)
# the man pages name the default tables directory as installed by default
MAN_TABLESDIR = /usr/local/share/puzzletb/tables

.PHONY: lib install uninstall FORCE
all: lib
lib: build/libpuzzletb.a build/libpuzzletb.so

build/puzzletb.map: lib/puzzletb.h
	@mkdir -p build
	{ echo '{ global:'; \
	  sed -n 's/^[a-z][^(]*[ *]\(ptb_[a-z0-9_]*\)(.*/    \1;/p' $<; \
	  echo '  local: *; };'; } >$@

build/libpuzzletb.so: $(LIB_OBJ) build/puzzletb.map
	$(CC) $(CFLAGS) $(LDFLAGS) -shared -Wl,-soname,$(SONAME) \
	    -Wl,--no-undefined -Wl,--version-script,build/puzzletb.map \
	    -o $@ $(LIB_OBJ) $(LDLIBS)
	ln -sf libpuzzletb.so build/$(SONAME)

# The directories compiled into installed files; rewritten only on change.
build/install/dirs: FORCE
	@mkdir -p build/install
	@printf '%s\n' '$(PREFIX)' '$(LIBDIR)' '$(INCLUDEDIR)' '$(TABLESDIR)' \
	    '$(PUZZLESDIR)' '$(VERSION)' | cmp -s - $@ || \
	 printf '%s\n' '$(PREFIX)' '$(LIBDIR)' '$(INCLUDEDIR)' '$(TABLESDIR)' \
	    '$(PUZZLESDIR)' '$(VERSION)' >$@

build/install/lookup/main.o: lookup/main.c $(LIB_HDR) build/install/dirs
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -DPTB_TABLES_DIR='"$(TABLESDIR)"' -c -o $@ $<

build/install/tblookup: build/install/lookup/main.o build/lookup/levels.o \
                        build/libpuzzletb.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

build/install/gen/main.o: gen/main.c $(LIB_HDR) build/install/dirs
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -DPTB_PUZZLES_DIR='"$(PUZZLESDIR)"' -c -o $@ $<

build/install/tbgen: build/install/gen/main.o build/libpuzzletb.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

build/install/mpi/main.o: gen/main.c gen/cluster.h $(LIB_HDR) \
                          build/install/dirs
	@mkdir -p $(dir $@)
	$(MPICC) $(CPPFLAGS) $(CFLAGS) -DPTB_MPI \
	    -DPTB_PUZZLES_DIR='"$(PUZZLESDIR)"' -c -o $@ $<

build/install/tbgen-mpi: build/install/mpi/main.o build/mpi/mpi.o \
                         build/libpuzzletb.a
	$(MPICC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# its manual is tbgen's (man/tbgen.1 has a section MPI)
.PHONY: install-mpi uninstall-mpi
install-mpi: build/install/tbgen-mpi
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	$(INSTALL) -m 755 build/install/tbgen-mpi $(DESTDIR)$(BINDIR)/
	ln -sf tbgen.1 $(DESTDIR)$(MANDIR)/man1/tbgen-mpi.1

uninstall-mpi:
	rm -f $(DESTDIR)$(BINDIR)/tbgen-mpi $(DESTDIR)$(MANDIR)/man1/tbgen-mpi.1

build/install/puzzletb.pc: lib/puzzletb.pc.in build/install/dirs
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' \
	    -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' \
	    -e 's|@TABLESDIR@|$(TABLESDIR)|g' -e 's|@VERSION@|$(VERSION)|g' \
	    $< >$@

build/install/man/%: man/% build/install/dirs
	@mkdir -p $(dir $@)
	sed -e 's|$(MAN_TABLESDIR)|$(TABLESDIR)|g' $< >$@

# install-build: what install installs, built (debian/rules builds this
# and no more: bin/ is the source tree's, never installed); each section
# below adds its own.
.PHONY: install-build
install-build: lib build/install/tblookup build/install/tbgen \
               build/install/puzzletb.pc $(MANPAGES:%=build/install/%)
install: install-build
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) \
	    $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(PKGCONFIGDIR) \
	    $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3 \
	    $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(PUZZLESDIR)/families
	$(INSTALL) -m 755 build/install/tbgen build/install/tblookup \
	    $(DESTDIR)$(BINDIR)/
	$(INSTALL) -m 644 puzzles/*.txt $(DESTDIR)$(PUZZLESDIR)/
	$(INSTALL) -m 644 puzzles/families/*.txt $(DESTDIR)$(PUZZLESDIR)/families/
	$(INSTALL) -m 644 build/libpuzzletb.a $(DESTDIR)$(LIBDIR)/
	$(INSTALL) -m 755 build/libpuzzletb.so $(DESTDIR)$(LIBDIR)/$(SHLIB)
	ln -sf $(SHLIB) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libpuzzletb.so
	$(INSTALL) -m 644 lib/puzzletb.h $(DESTDIR)$(INCLUDEDIR)/
	$(INSTALL) -m 644 build/install/puzzletb.pc $(DESTDIR)$(PKGCONFIGDIR)/
	$(INSTALL) -m 644 build/install/man/tbgen.1 \
	    build/install/man/tblookup.1 $(DESTDIR)$(MANDIR)/man1/
	$(INSTALL) -m 644 build/install/man/puzzletb.3 $(DESTDIR)$(MANDIR)/man3/
	$(INSTALL) -m 644 build/install/man/puzzletb-description.5 \
	    $(DESTDIR)$(MANDIR)/man5/
	$(INSTALL) -d $(DESTDIR)$(BASHCOMPDIR)
	$(INSTALL) -m 644 completion/puzzletb.bash $(DESTDIR)$(BASHCOMPDIR)/tblookup
	$(INSTALL) -m 644 completion/puzzletb.bash $(DESTDIR)$(BASHCOMPDIR)/tbgen
	@# the dynamic linker's cache, when installing into the real root as root
	@# (a staged DESTDIR install leaves that to the package's own scripts)
	@if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ] && \
	    command -v ldconfig >/dev/null; then echo ldconfig; ldconfig; fi
ifneq ($(INSTALL_TABLES),)
	$(INSTALL) -d $(DESTDIR)$(TABLESDIR)
	$(INSTALL) -m 644 $(INSTALL_TABLES) $(DESTDIR)$(TABLESDIR)/
endif

# Removes what install put there; the tables directory goes with its *.mdb.
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/tbgen $(DESTDIR)$(BINDIR)/tblookup \
	    $(DESTDIR)$(LIBDIR)/libpuzzletb.a $(DESTDIR)$(LIBDIR)/$(SHLIB) \
	    $(DESTDIR)$(LIBDIR)/$(SONAME) $(DESTDIR)$(LIBDIR)/libpuzzletb.so \
	    $(DESTDIR)$(INCLUDEDIR)/puzzletb.h \
	    $(DESTDIR)$(PKGCONFIGDIR)/puzzletb.pc \
	    $(DESTDIR)$(MANDIR)/man1/tbgen.1 \
	    $(DESTDIR)$(MANDIR)/man1/tblookup.1 \
	    $(DESTDIR)$(MANDIR)/man3/puzzletb.3 $(DESTDIR)$(TABLESDIR)/*.mdb \
	    $(DESTDIR)$(MANDIR)/man5/puzzletb-description.5 \
	    $(DESTDIR)$(PUZZLESDIR)/*.txt $(DESTDIR)$(PUZZLESDIR)/families/*.txt \
	    $(DESTDIR)$(BASHCOMPDIR)/tblookup $(DESTDIR)$(BASHCOMPDIR)/tbgen
	rmdir $(DESTDIR)$(TABLESDIR) $(DESTDIR)$(PUZZLESDIR)/families \
	    $(DESTDIR)$(PUZZLESDIR) \
	    $(dir $(DESTDIR)$(TABLESDIR)) 2>/dev/null || true

# ==== fuzzing and ThreadSanitizer (tests/fuzz/README) ====
# libFuzzer harnesses, built with clang: each puzzle's parser, the table
# reader fed whole files (the small tables, and the toy puzzle's tiny one:
# build/fuzz/table_toy links the library compiled with tests/toy), and the
# LMDB page check alone.  `make fuzz FUZZ_SECONDS=N` runs each for N
# seconds; `make fuzz-tables FUZZ_SECONDS=N` is the table reader's
# campaign: each table harness in FUZZ_JOBS processes until they have run
# FUZZ_EXECS inputs together or for N seconds, whichever comes first;
# `make test` replays tests/fuzz/regress/ and runs each briefly
# (tests/t_fuzz.sh).  The thread test and the cluster test (whose
# processes are threads) also run built with -fsanitize=thread
# (build/tests/t_threads.tsan, t_cluster.tsan).
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_FLAGS   = -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined \
               -fno-sanitize-recover=undefined
FUZZ_PUZZLES := $(shell sed -n 's/^PTB_PUZZLE(\(.*\))/\1/p' lib/puzzles/puzzles.def)
FUZZ_JOBS    ?= 2
FUZZ_EXECS   ?= 10000000
FUZZ_TABLES  = four frog toy grid line
FUZZ_BIN = $(FUZZ_PUZZLES:%=build/fuzz/parse_%) \
           $(FUZZ_TABLES:%=build/fuzz/table_%) build/fuzz/mdbcheck \
           build/fuzz/batch build/fuzz/describe build/fuzz/ranking \
           build/fuzz/patterns build/fuzz/levels
FUZZ_OBJ = $(LIB_SRC:%.c=build/fuzz/%.o)
FUZZ_TOY_OBJ = $(filter-out build/fuzz/lib/puzzles/registry.o,$(FUZZ_OBJ)) \
               $(TOY_OWN:%.c=build/fuzz-toy/%.o)
# the toy puzzles' tables, generated (tests/fuzz/run seeds table_toy,
# table_grid and table_line from them)
FUZZ_TOY_TABLE = build/fuzz/tables/toy.mdb build/fuzz/tables/grid.mdb \
                 build/fuzz/tables/line.mdb \
                 build/fuzz/tables/fz-tiles-pattern-1.mdb
TSAN_OBJ = $(LIB_SRC:%.c=build/tsan/%.o)
TSAN_BIN = build/tests/t_threads.tsan build/tests/t_cluster.tsan

.PHONY: fuzz fuzz-build fuzz-tables
fuzz-build: $(FUZZ_BIN) $(FUZZ_TOY_TABLE)
fuzz: $(FUZZ_BIN) $(FUZZ_TOY_TABLE) $(TABLES)/.built
	tests/fuzz/run -t $(FUZZ_SECONDS)
fuzz-tables: $(FUZZ_TABLES:%=build/fuzz/table_%) $(FUZZ_TOY_TABLE) \
             $(TABLES)/.built
	tests/fuzz/run -t $(FUZZ_SECONDS) -j $(FUZZ_JOBS) -n $(FUZZ_EXECS) \
	    $(FUZZ_TABLES:%=table_%)
check-build: $(FUZZ_BIN) $(FUZZ_TOY_TABLE) $(TSAN_BIN)

$(FUZZ_OBJ) $(FUZZ_TOY_OBJ) $(TSAN_OBJ): $(GEN_HDR)
build/fuzz/%.o: %.c $(LIB_HDR)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CPPFLAGS) $(CFLAGS) $(FUZZ_FLAGS) \
	    -fsanitize=fuzzer-no-link -c -o $@ $<

build/fuzz/libpuzzletb.a: $(FUZZ_OBJ)
	rm -f $@
	ar rcs $@ $^

build/fuzz-toy/%.o: %.c $(LIB_HDR) tests/toy/puzzles.def
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CPPFLAGS) $(CFLAGS) $(TOY_FLAGS) $(FUZZ_FLAGS) \
	    -fsanitize=fuzzer-no-link -c -o $@ $<

build/fuzz-toy/libpuzzletb.a: $(FUZZ_TOY_OBJ)
	rm -f $@
	ar rcs $@ $^

# (and the same in the sparse encoding, build/fuzz/tables/sparse/toy.mdb)
build/fuzz/tables/toy.mdb: build/toy/tbgen
	@mkdir -p $(dir $@)sparse
	build/toy/tbgen --quiet --puzzle toy --encoding sparse \
	    --out $(dir $@)sparse
	build/toy/tbgen --quiet --puzzle toy --out $(dir $@)

build/fuzz/tables/grid.mdb: build/toy/tbgen
	@mkdir -p $(dir $@)
	build/toy/tbgen --quiet --puzzle grid --encoding packed1 --out $(dir $@)

# distances to 599: a stats record of 600 lines
build/fuzz/tables/line.mdb: build/toy/tbgen
	@mkdir -p $(dir $@)
	build/toy/tbgen --quiet --puzzle line --encoding packed3 --out $(dir $@)

# the pattern tables of tests/fuzz/tiles.txt (build/fuzz/patterns)
build/fuzz/tables/fz-tiles-pattern-1.mdb: bin/tbgen tests/fuzz/tiles.txt
	@mkdir -p $(dir $@)
	bin/tbgen --quiet --patterns --puzzle tests/fuzz/tiles.txt \
	    --out $(dir $@)

build/fuzz/patterns: tests/fuzz/fuzz_patterns.c tests/fuzz/rewrite.h \
                     build/fuzz/libpuzzletb.a
	$(FUZZ_CC) $(CPPFLAGS) $(CFLAGS) $(FUZZ_FLAGS) -fsanitize=fuzzer \
	    -o $@ $< build/fuzz/libpuzzletb.a $(LDLIBS)

build/fuzz/levels: tests/fuzz/fuzz_levels.c tests/fuzz/rewrite.h \
                   build/fuzz/libpuzzletb.a
	$(FUZZ_CC) $(CPPFLAGS) $(CFLAGS) $(FUZZ_FLAGS) -fsanitize=fuzzer \
	    -o $@ $< build/fuzz/libpuzzletb.a $(LDLIBS)

# tblookup's batch reader: lookup/main.c compiled into the harness
build/fuzz/batch: tests/fuzz/fuzz_batch.c lookup/main.c lookup/levels.c \
                  lookup/lookup.h build/fuzz/libpuzzletb.a
	$(FUZZ_CC) $(CPPFLAGS) $(CFLAGS) $(FUZZ_FLAGS) -fsanitize=fuzzer \
	    -o $@ $< lookup/levels.c build/fuzz/libpuzzletb.a $(LDLIBS)

build/fuzz/parse_%: tests/fuzz/fuzz_parse.c build/fuzz/libpuzzletb.a
	$(FUZZ_CC) $(CPPFLAGS) $(CFLAGS) $(FUZZ_FLAGS) -fsanitize=fuzzer \
	    -DFUZZ_PUZZLE='"$*"' -o $@ $< build/fuzz/libpuzzletb.a $(LDLIBS)

build/fuzz/table_%: tests/fuzz/fuzz_table.c tests/fuzz/rewrite.h \
                    build/fuzz/libpuzzletb.a
	$(FUZZ_CC) $(CPPFLAGS) $(CFLAGS) $(FUZZ_FLAGS) -fsanitize=fuzzer \
	    -DFUZZ_PUZZLE='"$*"' -o $@ $< build/fuzz/libpuzzletb.a $(LDLIBS)

build/fuzz/table_toy build/fuzz/table_grid build/fuzz/table_line: \
        build/fuzz/table_%: \
        tests/fuzz/fuzz_table.c tests/fuzz/rewrite.h build/fuzz-toy/libpuzzletb.a
	$(FUZZ_CC) $(CPPFLAGS) $(CFLAGS) $(TOY_FLAGS) $(FUZZ_FLAGS) \
	    -fsanitize=fuzzer -DFUZZ_PUZZLE='"$*"' -o $@ $< \
	    build/fuzz-toy/libpuzzletb.a $(LDLIBS)

build/fuzz/describe: tests/fuzz/fuzz_describe.c build/fuzz/libpuzzletb.a
	$(FUZZ_CC) $(CPPFLAGS) $(CFLAGS) $(FUZZ_FLAGS) -fsanitize=fuzzer \
	    -o $@ $< build/fuzz/libpuzzletb.a $(LDLIBS)

build/fuzz/ranking: tests/fuzz/fuzz_ranking.c build/fuzz/libpuzzletb.a
	$(FUZZ_CC) $(CPPFLAGS) $(CFLAGS) $(FUZZ_FLAGS) -fsanitize=fuzzer \
	    -o $@ $< build/fuzz/libpuzzletb.a $(LDLIBS)

build/fuzz/mdbcheck: tests/fuzz/fuzz_mdbcheck.c build/fuzz/libpuzzletb.a
	$(FUZZ_CC) $(CPPFLAGS) $(CFLAGS) $(FUZZ_FLAGS) -fsanitize=fuzzer \
	    -o $@ $< build/fuzz/libpuzzletb.a $(LDLIBS)

build/tsan/%.o: %.c $(LIB_HDR)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CPPFLAGS) $(CFLAGS) -O1 -g -fsanitize=thread -c -o $@ $<

build/tsan/libpuzzletb.a: $(TSAN_OBJ)
	rm -f $@
	ar rcs $@ $^

build/tests/%.tsan: tests/%.c tests/check.h tests/tables.h \
                   build/tsan/libpuzzletb.a
	@mkdir -p build/tests
	$(FUZZ_CC) $(CPPFLAGS) $(CFLAGS) -O1 -g -fsanitize=thread -o $@ $< \
	    build/tsan/libpuzzletb.a $(LDLIBS)

# ==== the Python module (python/, issue 12) ====
# build/python/puzzletb is the package as built for the source tree
# (PYTHONPATH=build/python; default tables $PUZZLETB_TABLES or ./tables);
# build/install/python/puzzletb is the installed one, whose default is
# $(TABLESDIR).  Both link build/libpuzzletb.a, so no libpuzzletb.so needs
# to be on the loader's path.  PYTHONDIR is where Debian's /usr/bin/python3
# looks under PREFIX (python/sitedir.py asks it).
PYTHON    ?= /usr/bin/python3
PY_CFLAGS  = $(shell $(PYTHON) -c 'import sysconfig as s; \
               print("-I" + s.get_paths()["include"])')
PY_EXT    := $(shell $(PYTHON) -c 'import sysconfig as s; \
               print(s.get_config_var("EXT_SUFFIX"))' 2>/dev/null)
PYTHONDIR ?= $(shell $(PYTHON) python/sitedir.py $(PREFIX))
PY_PKG     = $(wildcard python/puzzletb/*.py)
PY_MOD     = puzzletb/_puzzletb$(PY_EXT)

.PHONY: python python-san install-python uninstall-python bench-python
python: build/python/$(PY_MOD) $(PY_PKG:python/%=build/python/%)

build/python/$(PY_MOD): python/_puzzletb.c lib/puzzletb.h \
                        build/libpuzzletb.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(PY_CFLAGS) $(CFLAGS) $(LDFLAGS) -shared -o $@ $< \
	    build/libpuzzletb.a $(LDLIBS)

build/install/python/$(PY_MOD): python/_puzzletb.c lib/puzzletb.h \
                                build/libpuzzletb.a build/install/dirs
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(PY_CFLAGS) $(CFLAGS) $(LDFLAGS) \
	    -DPTB_TABLES_DIR='"$(TABLESDIR)"' -shared -o $@ $< \
	    build/libpuzzletb.a $(LDLIBS)

build/python/puzzletb/%.py: python/puzzletb/%.py
	@mkdir -p $(dir $@)
	cp $< $@

# The same under AddressSanitizer and UBSan, which the tests run too.
python-san: build/san/python/$(PY_MOD) $(PY_PKG:python/%=build/san/python/%)

build/san/python/$(PY_MOD): python/_puzzletb.c lib/puzzletb.h \
                            build/san/libpuzzletb.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(PY_CFLAGS) $(CFLAGS) $(SAN_FLAGS) -shared -o $@ $< \
	    build/san/libpuzzletb.a $(LDLIBS)

build/san/python/puzzletb/%.py: python/puzzletb/%.py
	@mkdir -p $(dir $@)
	cp $< $@

check-build: python python-san

bench-python: python $(TABLES)/.built
	PUZZLETB_TABLES=$(TABLES) $(PYTHON) python/bench.py
install-build: build/install/python/$(PY_MOD)
install: install-python
uninstall: uninstall-python

install-python: build/install/python/$(PY_MOD)
	$(INSTALL) -d $(DESTDIR)$(PYTHONDIR)/puzzletb
	$(INSTALL) -m 644 $(PY_PKG) $(DESTDIR)$(PYTHONDIR)/puzzletb/
	$(INSTALL) -m 644 build/install/python/$(PY_MOD) \
	    $(DESTDIR)$(PYTHONDIR)/puzzletb/

# (the site directory itself stays: Debian's python3 owns it)
uninstall-python:
	rm -rf $(DESTDIR)$(PYTHONDIR)/puzzletb
