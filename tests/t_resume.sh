#!/usr/bin/env bash
# tests/t_resume.sh: long builds that survive a kill (doc/guide.md, "Long
# runs").  tbgen records each BFS layer in DIR/TABLE.ckpt; killed with
# SIGKILL after a random number of records (PTB_TEST_KILL_AFTER, the
# library's fault hook), then run again, it must resume and write the
# table an uninterrupted run writes, byte for byte, and remove the
# checkpoint.  Covered: small Klotski-like boards drawn here (3x4, 4x4, 3x5
# with a 2x2 block: one subtable, values mod 3), a table of many subtables
# (the frog puzzle: exact values, subtables run several at once), kills in
# a row, both thread counts, a damaged checkpoint and one of another
# build.
cd "$(dirname "$0")/.." && . tests/lib.sh
need bin/tbgen "$LOOKUP"

mkdir -p "$TMP/d" "$TMP/ref"
cat >"$TMP/d/r34.txt" <<'EOF'
name     r34
metrics  step move
distinct A
covers   mixes 2
start    AAB/AAB/C.D/EE.
goal     ???/???/AA?/AA?
EOF
cat >"$TMP/d/r44.txt" <<'EOF'
name     r44
metrics  line
distinct A
covers   mixes 2
start    AAB./AAB./CDEF/GG..
goal     ????/????/?AA?/?AA?
EOF
cat >"$TMP/d/r35.txt" <<'EOF'
name     r35
metrics  step
distinct A
covers   mixes 2
start    AAB/AAB/C.D/EE./FGH
goal     ???/???/???/AA?/AA?
EOF

# build NAME DIR [ARGS...]: tbgen, its stderr into $TMP/gen.err, its
# status into $rc (in a subshell, whose report of a kill goes nowhere)
build() {
    local name=$1 dir=$2; shift 2
    (bin/tbgen --out "$dir" "$@" --puzzle "$name" >/dev/null \
        2>"$TMP/gen.err"; exit $?) 2>/dev/null; rc=$?
}

# same DIR: every table of DIR is the reference's, byte for byte, and no
# checkpoint is left
same() {
    local f
    for f in "$1"/*.mdb; do cmp -s "$f" "$TMP/ref/${f##*/}" || return 1; done
    ! ls "$1"/*.ckpt >/dev/null 2>&1
}

for d in r34 r44 r35; do build "$TMP/d/$d.txt" "$TMP/ref"; done
build frog "$TMP/ref"
check "the reference tables are built, with no checkpoint left" \
    sh -c '[ "$(ls "$1" | grep -c "\.mdb$")" = 5 ] && ! ls "$1"/*.ckpt 2>/dev/null' _ "$TMP/ref"
"$LOOKUP" r44 --tables "$TMP/ref" --verify >/dev/null 2>&1
check "... and --verify proves one" test $? = 0

# kill_resume NAME THREADS [ARGS...]: builds killed after a random number
# of records (a table with fewer may end first), killed again after one
# more, then to the end
kill_resume() {
    local name=$1 threads=$2 dir="$TMP/k$RANDOM" k
    shift 2
    mkdir -p "$dir"
    k=$((RANDOM % ${KMAX:-40} + 1))
    PTB_TEST_KILL_AFTER=$k build "$name" "$dir" --threads "$threads" "$@"
    if [ "$rc" = 137 ]; then
        ls "$dir"/*.ckpt >/dev/null 2>&1 || { echo "# no checkpoint" >&2; return 1; }
        PTB_TEST_KILL_AFTER=1 build "$name" "$dir" --threads "$threads" "$@"
        [ "$rc" = 137 ] || [ "$rc" = 0 ] || return 1
        build "$name" "$dir" --threads "$threads" "$@"
    fi
    [ "$rc" = 0 ] && same "$dir" || { echo "# k=$k rc=$rc" >&2; return 1; }
}

for i in 1 2 3; do
    for t in 1 2; do
        check "r34 step, killed at a random layer ($i, $t threads), resumes to the same bytes" \
            kill_resume "$TMP/d/r34.txt" "$t" --metric step
        check "r44 line, killed at a random layer ($i, $t threads), resumes to the same bytes" \
            kill_resume "$TMP/d/r44.txt" "$t"
    done
done
check "r35 step, killed at a random layer, resumes to the same bytes" \
    kill_resume "$TMP/d/r35.txt" 2
check "r34 move, killed at a random layer, resumes to the same bytes" \
    kill_resume "$TMP/d/r34.txt" 2 --metric move
frog_resume() { KMAX=600 kill_resume frog 2; }
for i in 1 2 3; do
    check "frog (exact values, 12 subtables, the small ones at once), killed at a random record, resumes to the same bytes" \
        frog_resume
done

# a resumed build says so, and the checkpoint held layers
mkdir -p "$TMP/s"
PTB_TEST_KILL_AFTER=5 build "$TMP/d/r44.txt" "$TMP/s"
check "killed after its 5th record: status 137, a checkpoint left" \
    test "$rc" = 137 -a -s "$TMP/s/r44.mdb.ckpt"
build "$TMP/d/r44.txt" "$TMP/s"
check "... run again: it says it resumed, and writes the same table" \
    sh -c 'grep -q "^tbgen: r44.mdb: resumed from its checkpoint, [0-9,]* of [0-9,]* states found$" "$1"' _ "$TMP/gen.err"
check "... byte for byte, the checkpoint removed" same "$TMP/s"

# a checkpoint cut short in its last record: resumes from the one before
PTB_TEST_KILL_AFTER=6 build "$TMP/d/r44.txt" "$TMP/s"
size=$(stat -c %s "$TMP/s/r44.mdb.ckpt")
truncate -s $((size - 3)) "$TMP/s/r44.mdb.ckpt"
build "$TMP/d/r44.txt" "$TMP/s"
check "a checkpoint whose last record was cut short: resumes, the same bytes" \
    sh -c '[ "$1" = 0 ] && grep -q resumed "$2"' _ "$rc" "$TMP/gen.err"
check "... byte for byte" same "$TMP/s"

# a damaged record ends the replay there
PTB_TEST_KILL_AFTER=6 build "$TMP/d/r44.txt" "$TMP/s"
size=$(stat -c %s "$TMP/s/r44.mdb.ckpt")
printf '\377' | dd of="$TMP/s/r44.mdb.ckpt" bs=1 seek=$((size - 12)) conv=notrunc status=none
build "$TMP/d/r44.txt" "$TMP/s"
check "a checkpoint with a damaged record: resumes before it, the same bytes" \
    sh -c '[ "$1" = 0 ]' _ "$rc"
check "... byte for byte" same "$TMP/s"

# another build's checkpoint under this table's name: started afresh
PTB_TEST_KILL_AFTER=4 build "$TMP/d/r34.txt" "$TMP/s" --metric step
mv "$TMP/s/r34-step.mdb.ckpt" "$TMP/s/r44.mdb.ckpt"
build "$TMP/d/r44.txt" "$TMP/s"
check "another build's checkpoint: started afresh (no resume), the same bytes" \
    sh -c '[ "$1" = 0 ] && ! grep -q resumed "$2"' _ "$rc" "$TMP/gen.err"
check "... byte for byte" same "$TMP/s"
rm -f "$TMP/s"/r34*

# A resumed build's progress counts the states its checkpoint gave back:
# each log line "layer N, X of T states found" of a search (klotski
# step: 14,673,066 states, past the size whose layers report) has X the
# states at distances 0 to N, from the histogram of the table it writes.
# ($TMP/gen.err: the stderr of the run that resumed.)
progress_counts_layers() {
    "$LOOKUP" klotski --tables "$1" --metric step --stats 2>/dev/null |
        awk 'NR > 2 && $1 ~ /^[0-9]+$/ { sum += $2; print $1, sum }' \
        >"$TMP/cum"
    sed -n 's/^tbgen: klotski-step.mdb: layer \([0-9]*\), \([0-9,]*\) of .*/\1 \2/p' \
        "$2" | tr -d , >"$TMP/logged"
    [ -s "$TMP/logged" ] && [ -s "$TMP/cum" ] &&
        awk 'NR == FNR { cum[$1] = $2; next }
             !($1 in cum) || cum[$1] != $2 { bad++ }
             END { exit bad != 0 }' "$TMP/cum" "$TMP/logged"
}
mkdir -p "$TMP/kp"
TBGEN_LOG_EVERY=0 PTB_TEST_KILL_AFTER=$((RANDOM % 100 + 20)) \
    build klotski "$TMP/kp" --metric step --threads 2
killed=$rc
TBGEN_LOG_EVERY=0 build klotski "$TMP/kp" --metric step --threads 2
check "klotski step killed mid-search and resumed: each progress line counts the states of every layer so far" \
    sh -c '[ "$1" = 137 ] && [ "$2" = 0 ] && grep -q resumed "$3"' _ \
    "$killed" "$rc" "$TMP/gen.err"
check "... as the written table's histogram sums them" \
    progress_counts_layers "$TMP/kp" "$TMP/gen.err"

# the plan counts the checkpoint's disk
out=$(bin/tbgen --plan --puzzle "$TMP/d/r44.txt" --out "$TMP/s")
check "--plan gives the checkpoint's disk" \
    sh -c 'printf "%s" "$1" | grep -q "its checkpoint at most [0-9.]* [kM]*B"' _ "$out"
echo "1..$n"
