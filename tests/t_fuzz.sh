#!/usr/bin/env bash
# tests/t_fuzz.sh: the fuzz campaign's short run inside make test.  Every
# input kept under tests/fuzz/regress/NAME/ (each a crash found once, now
# fixed) is replayed through its harness and must pass; then each libFuzzer
# harness (every puzzle's parser, the table reader on four, frog and the
# toy puzzles' tables, the LMDB page check, the batch reader, the
# description reader, a described table's ranking, a search from pattern
# tables, the levels table reader) runs for $FUZZ_SMOKE
# seconds (default 2; `make test-long`: 60) from its corpus and must find
# nothing.  `make fuzz FUZZ_SECONDS=N` is the long run, `make fuzz-tables`
# the table reader's.
cd "$(dirname "$0")/.." && . tests/lib.sh
SMOKE=${FUZZ_SMOKE:-2}
harnesses=()
for b in build/fuzz/*; do
    [ -f "$b" ] && [ -x "$b" ] && harnesses+=("$(basename "$b")")
done
need build/fuzz/mdbcheck build/fuzz/parse_four build/fuzz/table_four \
     build/fuzz/table_toy build/fuzz/tables/toy.mdb \
     build/fuzz/table_grid build/fuzz/tables/grid.mdb \
     "$TABLES/four.mdb" "$TABLES/frog.mdb"
for h in "${harnesses[@]}"; do
    line=$(tests/fuzz/run -r "$h" 2>&1); r=$?
    check "$h: every regression input replays without a finding ($(echo "$line" | head -1 | awk '{print $2}') inputs)" test "$r" = 0
    [ "$r" = 0 ] || echo "$line" | sed 's/^/# /'
done
for h in "${harnesses[@]}"; do
    line=$(tests/fuzz/run -t "$SMOKE" "$h" 2>&1); r=$?
    check "$h: $SMOKE s of fuzzing find nothing: $(echo "$line" | head -1 | sed 's/  */ /g')" test "$r" = 0
    [ "$r" = 0 ] || echo "$line" | sed 's/^/# /'
done
