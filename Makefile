# puzzletb: plain Makefile.  `make tables` installs missing dependencies,
# builds and generates every table; `make test` runs the test suite.

CC      ?= cc
CFLAGS  ?= -O2 -g
CFLAGS  += -std=c11 -Wall -Wextra -Wpedantic -fPIC -D_DEFAULT_SOURCE
CPPFLAGS += -Icommon
LDLIBS  = -llmdb -lzstd -lpthread
TABLES  ?= tables

LIB_SRC  = $(wildcard common/*.c)
LIB_OBJ  = $(LIB_SRC:%.c=build/%.o)
LIB_HDR  = $(wildcard common/*.h) common/puzzles.def
TEST_SRC = $(wildcard tests/t_*.c)
TEST_BIN = $(TEST_SRC:tests/%.c=build/tests/%)

.PHONY: all deps tables test clean bench check-tables
all: bin/tbgen bin/tblookup

deps:
	scripts/install-deps

build/%.o: %.c $(LIB_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

build/libpuzzletb.a: $(LIB_OBJ)
	rm -f $@
	ar rcs $@ $^

bin/tbgen: build/gen/main.o build/libpuzzletb.a
	@mkdir -p bin
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

bin/tblookup: build/lookup/main.o build/libpuzzletb.a
	@mkdir -p bin
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

build/tests/%: tests/%.c tests/check.h build/libpuzzletb.a
	@mkdir -p build/tests
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< build/libpuzzletb.a $(LDLIBS)

# Tables are rebuilt when tbgen changes; the stamp records the last full run.
$(TABLES)/.built: bin/tbgen
	bin/tbgen --out $(TABLES)
	touch $@

tables: deps
	$(MAKE) all
	$(MAKE) $(TABLES)/.built

test: all $(TEST_BIN) $(TABLES)/.built
	tests/run

# The tables are reproducible byte for byte: compare them with the sums
# recorded for this format version (tables/SHA256SUMS).
check-tables:
	cd $(TABLES) && sha256sum --check --strict $(CURDIR)/tables/SHA256SUMS

bench: all $(TABLES)/.built
	scripts/bench

clean:
	rm -rf build bin
