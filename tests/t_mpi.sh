#!/usr/bin/env bash
# tests/t_mpi.sh: tbgen-mpi (doc/guide.md, "Past one machine") splits the BFS
# between processes started by mpirun and must write, for every process
# count and thread count, the same file byte for byte as one tbgen process
# (whose tables the other tests prove).  Slices are whole chunks of 1,024
# states: 3 processes split no puzzle evenly, and the small descriptions
# leave some processes an empty slice.  PTB_TEST_ROUND_CHUNKS=1 makes each
# thread deliver its claims after every chunk (many rounds a layer, as a
# big layer has).  A process killed with kill -9 ends the job with a
# message and leaves no table, only each process's checkpoint, from which
# the rerun resumes to the same bytes.  Skipped, with a message, where
# Open MPI is not installed.
# tests/run: alone
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
# ... on a busy machine (tests/run runs this test alone, after the others;
# a run by hand may have company): a process that waits for a message
# yields its core instead of spinning on it (3 processes on 2 busy cores:
# 27 s instead of over 600 for one run)
export OMPI_MCA_mpi_yield_when_idle=1

# mpi NP DIR ARGS...: tbgen-mpi on NP processes into DIR, --quiet unless
# QUIET is set empty
mpi() {
    local np=$1 dir=$2; shift 2
    mkdir -p "$dir"
    timeout 600 mpirun --oversubscribe -np "$np" \
        ${PTB_TEST_ROUND_CHUNKS:+-x PTB_TEST_ROUND_CHUNKS} \
        "$MPI" ${QUIET---quiet} --out "$dir" "$@" >"$TMP/mpi.out" \
        2>"$TMP/mpi.err"
}
# same DIR FILE...: each FILE of DIR is byte for byte one process's
same() {
    local dir=$1 f; shift
    for f in "$@"; do
        cmp -s "$ONE/$f" "$dir/$f" || { echo "# $dir/$f differs" >&2; return 1; }
    done
}

# one process's tables, to compare with: make tables built them with this
# tbgen (the Makefile remakes them when it changes)
ONE=$TABLES
BUILTIN="swap.mdb four.mdb frog.mdb"
DESC="eight.mdb century-step.mdb century-line.mdb century-move.mdb
      rush-60-line.mdb rush-60-step.mdb quzzle-step.mdb quzzle-line.mdb
      quzzle-move.mdb"
DESC_ARGS="--puzzle eight --puzzle century --puzzle rush-60 --puzzle quzzle"
check "one process's tables to compare with are there (make tables)" \
    eval 'for f in $BUILTIN $DESC; do test -f "$ONE/$f" || exit 1; done'

unset PTB_TEST_ROUND_CHUNKS
check "-np 1: four, frog, byte for byte one process's" \
    eval 'mpi 1 "$TMP/n1" --puzzle four --puzzle frog &&
          same "$TMP/n1" four.mdb frog.mdb'
check "-np 2, a thread each: the puzzles with code of their own" \
    eval 'mpi 2 "$TMP/n2" -j 1 --puzzle swap --puzzle four --puzzle frog &&
          same "$TMP/n2" $BUILTIN'
check "-np 2: descriptions (rush-60's 2,332 states leave a slice empty)" \
    eval 'mpi 2 "$TMP/n2" $DESC_ARGS -j 1 &&
          same "$TMP/n2" $DESC'
check "-np 3, 2 threads each: slices of unequal sizes" \
    eval 'mpi 3 "$TMP/n3" -j 2 --puzzle frog --puzzle four &&
          mpi 3 "$TMP/n3" -j 2 $DESC_ARGS &&
          same "$TMP/n3" frog.mdb four.mdb $DESC'
check "-np 4: descriptions, 2 threads each" \
    eval 'mpi 4 "$TMP/n4" -j 2 $DESC_ARGS && same "$TMP/n4" $DESC'
# swap (4,324 subtables): a round every 16 chunks, not every one: each
# layer's pass over its 38,645 chunks is still about 400 rounds on 3
# processes of 2 threads, and a round a chunk took 40 of this file's 107 s
export PTB_TEST_ROUND_CHUNKS=16
mpi 3 "$TMP/r3" -j 2 --puzzle swap; swap_rc=$?
export PTB_TEST_ROUND_CHUNKS=1
check "-np 3, many rounds a layer: swap (subtables), four, century, eight" \
    eval 'test $swap_rc = 0 && mpi 3 "$TMP/r3" -j 2 --puzzle four &&
          mpi 3 "$TMP/r3" -j 2 --puzzle century --puzzle eight &&
          same "$TMP/r3" swap.mdb four.mdb eight.mdb century-step.mdb \
              century-line.mdb century-move.mdb'
check "-np 2, a round a chunk, one thread: quzzle, rush-60" \
    eval 'mpi 2 "$TMP/r2" -j 1 --puzzle quzzle --puzzle rush-60 &&
          same "$TMP/r2" quzzle-step.mdb quzzle-line.mdb quzzle-move.mdb \
              rush-60-line.mdb rush-60-step.mdb'
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
check "... and no table or temporary file is left, only the checkpoints" \
    test "$(ls "$TMP/k")" = "$(printf 'klotski-move.mdb.ckpt.%s\n' 0 1)"

# checkpoints: each process records its slice's layers in FILE.ckpt.RANK;
# one process killed (itself, after its Kth record: PTB_TEST_KILL_AFTER),
# the others by mpirun, maybe a record short; the rerun resumes from the
# record every process has and writes the same bytes
# resume NAME NP KILLER K ARGS...: process KILLER of NP kills itself after
# its Kth record; then the rerun
resume() {
    local name=$1 np=$2 killer=$3 k=$4 dir=$TMP/res-$1-$4; shift 4
    local a=(--out "$dir" "$@") before=() after=()
    mkdir -p "$dir"
    [ "$killer" -gt 0 ] && before=(-np "$killer" "$MPI" "${a[@]}" :)
    [ "$killer" -lt $((np - 1)) ] &&
        after=(: -np $((np - 1 - killer)) "$MPI" "${a[@]}")
    timeout 600 mpirun --oversubscribe "${before[@]}" \
        -np 1 -x PTB_TEST_KILL_AFTER="$k" "$MPI" "${a[@]}" "${after[@]}" \
        >/dev/null 2>&1 && { echo "# not killed" >&2; return 1; }
    ls "$dir"/*.ckpt.* >/dev/null 2>&1 || { echo "# no checkpoint" >&2; return 1; }
    timeout 600 mpirun --oversubscribe -np "$np" "$MPI" "${a[@]}" \
        >/dev/null 2>"$TMP/res.err" || return 1
    grep -q "resumed from its checkpoint" "$TMP/res.err" &&
        same "$dir" "$name" && test -z "$(ls "$dir" | grep ckpt)"
}
# century move has klotski move's 138 layers (a record each) in 54,630
# states: 18 chunks a process of 3, none empty
k=$((RANDOM % 130 + 1))
check "century move, 3 processes, process 0 killed after record $k: resumes to the same bytes" \
    resume century-move.mdb 3 0 $k -j 1 --puzzle century --metric move
k=$((RANDOM % 130 + 1))
check "klotski move, 2 processes, process 1 killed after record $k: resumes to the same bytes" \
    resume klotski-move.mdb 2 1 $k -j 2 --puzzle klotski --metric move
k=$((RANDOM % 60 + 1))
check "frog (exact values, 12 subtables), 3 processes, process 1 killed after record $k" \
    resume frog.mdb 3 1 $k -j 1 --puzzle frog
mkdir -p "$TMP/other"
timeout 600 mpirun --oversubscribe -np 2 -x PTB_TEST_KILL_AFTER=20 "$MPI" \
    --quiet --out "$TMP/other" --puzzle century --metric step >/dev/null 2>&1
QUIET= mpi 3 "$TMP/other" --puzzle century --metric step
check "another process count's checkpoints are not used: started afresh, the same bytes" \
    eval 'grep -q "century-step.mdb: 54630 states" "$TMP/mpi.out" &&
          ! grep -q resumed "$TMP/mpi.err" && same "$TMP/other" century-step.mdb'
# a process killed between the layer's end and its record: its file a
# record short of the others' (made from a run killed a record earlier);
# the rerun replays only what every process has
# (century move: 138 layers, as above)
k=$((RANDOM % 120 + 2))
for kk in $k $((k - 1)); do
    mkdir -p "$TMP/short$kk"
    timeout 600 mpirun --oversubscribe -np 3 -x PTB_TEST_KILL_AFTER=$kk "$MPI" \
        --quiet -j 1 --out "$TMP/short$kk" --puzzle century --metric move \
        >/dev/null 2>&1
done
cp "$TMP/short$((k - 1))/century-move.mdb.ckpt.1" "$TMP/short$k/"
QUIET= mpi 3 "$TMP/short$k" -j 1 --puzzle century --metric move
check "process 1's checkpoint a record short of the others' ($k): resumes to the same bytes" \
    eval 'grep -q "resumed from its checkpoint" "$TMP/mpi.err" &&
          same "$TMP/short$k" century-move.mdb &&
          ! ls "$TMP/short$k" | grep -q ckpt'

# ---- a family: tasks handed out by process 0, which writes the table ----
# one process's levels table of rush-5x5-walls (936 tasks), to compare with
mkdir -p "$TMP/fam1"
bin/tbgen --family rush-5x5-walls --out "$TMP/fam1" -q
FAM=rush-5x5-walls.levels.mdb
famsame() { cmp -s "$TMP/fam1/$FAM" "$1/$FAM" && ! ls "$1" | grep -q ckpt; }
check "--family rush-5x5-walls, -np 2 (one process searching): tbgen's bytes, no checkpoint left" \
    eval 'mpi 2 "$TMP/f2" -j 2 --family rush-5x5-walls && famsame "$TMP/f2"'
check "--family rush-5x5-walls, -np 3, a thread each: tbgen's bytes" \
    eval 'QUIET= mpi 3 "$TMP/f3" -j 1 --family rush-5x5-walls && famsame "$TMP/f3" &&
          grep -q "rush-5x5-walls.levels.mdb: 6041 levels, .* on 3 processes" "$TMP/mpi.out"'
# a searching process kills itself after its Kth record (PTB_TEST_KILL_AFTER):
# the job fails; process 0's checkpoint holds the records it was sent, each
# whole; tbgen-mpi on another count of processes, or tbgen, resumes it
k=$((RANDOM % 150 + 20))
mkdir -p "$TMP/fk" "$TMP/fk2"
timeout 600 mpirun --oversubscribe -np 3 -x PTB_TEST_KILL_AFTER=$k "$MPI" -j 1 \
    --quiet --out "$TMP/fk" --family rush-5x5-walls >/dev/null 2>&1; rc=$?
cp "$TMP/fk/rush-5x5-walls.levels.ckpt" "$TMP/fk2/" 2>/dev/null
held=$(grep -c '^end ' "$TMP/fk/rush-5x5-walls.levels.ckpt" 2>/dev/null)
check "--family, a process killed after record $k: the job fails, no table, the checkpoint holds $held records (at least $k)" \
    eval 'test $rc -ne 0 && test ! -e "$TMP/fk/$FAM" && test "${held:-0}" -ge $k'
check "... rerun on 2 processes: resumed from that checkpoint, tbgen's bytes" \
    eval 'QUIET= mpi 2 "$TMP/fk" -j 2 --family rush-5x5-walls &&
          grep -q "resumed from its checkpoint, $held of 936 tasks done" "$TMP/mpi.err" &&
          famsame "$TMP/fk"'
check "... or by tbgen: resumed from the same checkpoint, the same bytes" \
    eval 'bin/tbgen --family rush-5x5-walls --out "$TMP/fk2" 2>"$TMP/e" >/dev/null &&
          grep -q "resumed from its checkpoint, $held of 936 tasks done" "$TMP/e" &&
          famsame "$TMP/fk2"'
sed 's/^family   walls 1$/family   walls 0/' puzzles/families/rush-5x5-walls.txt \
    >"$TMP/other.txt"
mkdir -p "$TMP/fo"
cp "$TMP/fam1/$FAM" "$TMP/fo/"
printf 'puzzletb family checkpoint 1\nfamily %064d\ntasks 936\n' 0 \
    >"$TMP/fo/rush-5x5-walls.levels.ckpt"
check "--family with another family's checkpoint: status 1, one line naming it, the old table kept" \
    eval 'mpi 3 "$TMP/fo" -j 1 --family "$TMP/other.txt"; r=$?
          test $r = 1 && test "$(grep -c "^tbgen-mpi:" "$TMP/mpi.err")" = 1 &&
          grep -q "rush-5x5-walls.levels.ckpt: the checkpoint of another family" "$TMP/mpi.err" &&
          cmp -s "$TMP/fo/$FAM" "$TMP/fam1/$FAM"'
sed 's/^family   walls 1$/family   walls 3/' puzzles/families/rush-5x5-walls.txt \
    >"$TMP/bad.txt"
check "--family with a bad family line: status 2, its line named once" \
    eval 'mpi 3 "$TMP/fb" -j 1 --family "$TMP/bad.txt"; r=$?
          test $r = 2 && test "$(grep -c "family: expected" "$TMP/mpi.err")" = 1'

# a family of blocks (the 3x4 board, 2,216 tasks, most with nothing to
# search): its tasks shared out too, each given to process 0 as done
cp tests/data/blocks-3x4.txt "$TMP/b34.txt"
B34=blocks-3x4.levels.mdb
mkdir -p "$TMP/bk1"
bin/tbgen --family "$TMP/b34.txt" --out "$TMP/bk1" -q -j 1
check "--family of blocks, -np 3, a thread each: tbgen's bytes, no checkpoint left" \
    eval 'mpi 3 "$TMP/bk3" -j 1 --family "$TMP/b34.txt" &&
          cmp -s "$TMP/bk1/$B34" "$TMP/bk3/$B34" && ! ls "$TMP/bk3" | grep -q ckpt'
k=$((RANDOM % 1500 + 20))
mkdir -p "$TMP/bkk"
timeout 600 mpirun --oversubscribe -np 3 -x PTB_TEST_KILL_AFTER=$k "$MPI" -j 1 \
    --quiet --out "$TMP/bkk" --family "$TMP/b34.txt" >/dev/null 2>&1; rc=$?
held=$(grep -c '^end ' "$TMP/bkk/blocks-3x4.levels.ckpt" 2>/dev/null)
heldc=$(echo "$held" | sed ':a; s/\B[0-9]\{3\}\>/,&/; ta')   # 1852: 1,852
check "... a searching process killed after record $k: the job fails, the checkpoint holds $held records (at least $k)" \
    eval 'test $rc -ne 0 && test ! -e "$TMP/bkk/$B34" && test "${held:-0}" -ge $k'
check "... rerun on 2 processes: resumed from that checkpoint, tbgen's bytes" \
    eval 'QUIET= mpi 2 "$TMP/bkk" -j 2 --family "$TMP/b34.txt" &&
          grep -q "resumed from its checkpoint, $heldc of 2,216 tasks done" "$TMP/mpi.err" &&
          cmp -s "$TMP/bk1/$B34" "$TMP/bkk/$B34"'

# --plan --processes N (tbgen, no MPI needed): the slices are whole chunks
# of 1,024 states, process r's from chunk floor(C r / N): eight's 362,880
# states are 355 chunks, 88, 89, 89 and 89 of them on 4 processes
bin/tbgen --plan --processes 4 --puzzle eight --out "$TMP/plan" >"$TMP/o" 2>&1
check "--plan --processes 4: eight's slices at most 89 chunks, 91,136 states" \
    grep -q "362,880 states on 4 processes: each at most 91,136 states" "$TMP/o"
bin/tbgen --processes 4 --puzzle eight --out "$TMP/plan" >"$TMP/o" 2>&1; rc=$?
check "--processes without --plan: a usage error (status 2)" \
    eval 'test $rc = 2 && grep -q "goes with --plan" "$TMP/o"'
# the plan's bytes sent, from a sample of 20,000 states, against the run's:
# the plan counts the moves of every state, the search makes those of the
# solvable ones only (ma: 111,476 of 176,250), so the plan is scaled by
# that share
bin/tbgen --plan --processes 2 --puzzle ma --metric move -j 1 \
    --out "$TMP/plan" >"$TMP/o" 2>&1
QUIET= mpi 2 "$TMP/sent" --puzzle ma --metric move -j 1
planned=$(sed -n 's/.*send each other about \([0-9.]*\) kB.*/\1/p' "$TMP/o")
sent=$(sed -n 's/.*sent each other \([0-9]*\) bytes.*/\1/p' "$TMP/mpi.err")
check "--plan's bytes sent between 2 processes ($planned kB, for every state) within 30 % of the run's ($sent bytes) for the solvable share" \
    awk -v p="$planned" -v s="$sent" 'BEGIN { r = p * 1e3 * 111476 / 176250 / s
                                             exit !(s > 0 && r > 0.7 && r < 1.3) }'
