#!/usr/bin/env bash
# tests/t_mpi.sh: tbgen-mpi (README.md, "Past one machine") splits the BFS
# between processes started by mpirun and must write, for every process
# count and thread count, the same file byte for byte as one tbgen process
# (whose tables the other tests prove).  Slices are whole chunks of 1,024
# states: 3 processes split no puzzle evenly, and the small descriptions
# leave some processes an empty slice.  PTB_TEST_ROUND_CHUNKS=1 makes each
# thread deliver its claims after every chunk (many rounds a layer, as a
# big layer has).  A process killed with kill -9 ends the job with a
# message and leaves no table.  Skipped, with a message, where Open MPI is
# not installed.
set -u
cd "$(dirname "$0")/.." && . tests/lib.sh
MPI=bin/tbgen-mpi
if [ ! -x "$MPI" ] || ! command -v mpirun >/dev/null; then
    echo "ok 1 # SKIP tbgen-mpi: Open MPI is not installed (mpicc, mpirun)"
    exit 0
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# no network interfaces needed: the processes share this machine
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none

# mpi NP DIR ARGS...: tbgen-mpi on NP processes into DIR
mpi() {
    local np=$1 dir=$2; shift 2
    mkdir -p "$dir"
    timeout 600 mpirun --oversubscribe -np "$np" \
        ${PTB_TEST_ROUND_CHUNKS:+-x PTB_TEST_ROUND_CHUNKS} \
        "$MPI" --quiet --out "$dir" "$@" >"$TMP/mpi.out" 2>"$TMP/mpi.err"
}
# same DIR FILE...: each FILE of DIR is byte for byte one process's
same() {
    local dir=$1 f; shift
    for f in "$@"; do
        cmp -s "$ONE/$f" "$dir/$f" || { echo "# $dir/$f differs" >&2; return 1; }
    done
}

ONE=$TMP/one
BUILTIN="swap.mdb four.mdb frog.mdb klotski-step.mdb klotski-line.mdb
         klotski-move.mdb"
DESC="eight.mdb century-step.mdb century-line.mdb century-move.mdb
      rush-60-line.mdb rush-60-step.mdb quzzle-step.mdb quzzle-line.mdb
      quzzle-move.mdb"
DESC_ARGS="--puzzle eight --puzzle century --puzzle rush-60 --puzzle quzzle"
check "one process builds the tables to compare with" \
    eval 'bin/tbgen --quiet --out "$ONE" &&
          bin/tbgen --quiet --out "$ONE" $DESC_ARGS'

unset PTB_TEST_ROUND_CHUNKS
check "-np 1: four, frog, byte for byte one process's" \
    eval 'mpi 1 "$TMP/n1" --puzzle four --puzzle frog &&
          same "$TMP/n1" four.mdb frog.mdb'
check "-np 2, a thread each: the built-in puzzles" \
    eval 'mpi 2 "$TMP/n2" -j 1 && same "$TMP/n2" $BUILTIN'
check "-np 2: descriptions (rush-60's 2,332 states leave a slice empty)" \
    eval 'mpi 2 "$TMP/n2" $DESC_ARGS -j 1 &&
          same "$TMP/n2" $DESC'
check "-np 3, 2 threads each: slices of unequal sizes" \
    eval 'mpi 3 "$TMP/n3" -j 2 --puzzle frog --puzzle four \
              --puzzle klotski --metric move &&
          mpi 3 "$TMP/n3" -j 2 $DESC_ARGS &&
          same "$TMP/n3" frog.mdb four.mdb klotski-move.mdb $DESC'
check "-np 4: descriptions, 2 threads each" \
    eval 'mpi 4 "$TMP/n4" -j 2 $DESC_ARGS && same "$TMP/n4" $DESC'
export PTB_TEST_ROUND_CHUNKS=1
check "-np 3, a round a chunk: swap (subtables), four, century, eight" \
    eval 'mpi 3 "$TMP/r3" -j 2 --puzzle swap --puzzle four &&
          mpi 3 "$TMP/r3" -j 2 --puzzle century --puzzle eight &&
          same "$TMP/r3" swap.mdb four.mdb eight.mdb century-step.mdb \
              century-line.mdb century-move.mdb'
check "-np 2, a round a chunk, one thread: klotski's step metric" \
    eval 'mpi 2 "$TMP/r2" -j 1 --puzzle klotski --metric step &&
          same "$TMP/r2" klotski-step.mdb'
unset PTB_TEST_ROUND_CHUNKS

# the report: the bytes the processes sent each other, once
mpi 2 "$TMP/b2" --puzzle eight -j 1
check "process 0 reports the bytes sent, once; the others print nothing" \
    test "$(grep -c 'tbgen-mpi: eight.mdb: 2 processes sent each other [0-9]* bytes' \
            "$TMP/mpi.err")" = 1
mpi 2 "$TMP/b2" --puzzle eight -j 1 --plan
check "--plan: one line, from process 0" \
    test "$(grep -c 'eight.mdb: 362,880 states' "$TMP/mpi.out")" = 1
mpi 2 "$TMP/b2" --bogus; rc=$?
check "a usage error: status 2, the message once" \
    eval 'test $rc = 2 && test "$(grep -c "unknown option" "$TMP/mpi.err")" = 1'

# kill -9 one process mid-search: the job fails, says so, leaves no table
mkdir -p "$TMP/k"
timeout 600 mpirun --oversubscribe -np 2 "$MPI" -j 1 --quiet --out "$TMP/k" \
    --puzzle klotski --metric move >"$TMP/k.out" 2>"$TMP/k.err" &
job=$!
victim=
for _ in $(seq 100); do
    sleep 0.1
    victim=$(pgrep -f "^$MPI .*--out $TMP/k" | tail -1)
    [ -n "$victim" ] && break
done
sleep 1
[ -n "$victim" ] && kill -9 "$victim"
wait "$job"; rc=$?
check "a process killed: the job exits non-zero ($rc)" test "$rc" -ne 0
check "... mpirun says a process was killed" \
    grep -qiE "signal 9|killed" "$TMP/k.err"
check "... and no table or temporary file is left" \
    test -z "$(ls "$TMP/k")"
