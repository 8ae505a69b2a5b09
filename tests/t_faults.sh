#!/usr/bin/env bash
# tests/t_faults.sh: the fault campaign's short run inside make test
# (scripts/faults with its defaults: 100 byte flips, 20 truncations, 8
# replaced files, 5 kill -9 during tbgen, 2 readers during a regeneration).
# Each campaign is one check: every damaged table refused with exit 3 or
# answering exactly as the intact one, no crash, no hang; the previous
# table intact after every kill; no reader error.  `scripts/faults --full
# --report` is the long run that writes RELIABILITY.md.
cd "$(dirname "$0")/.." && . tests/lib.sh
need "$LOOKUP" bin/tbgen "$TABLES/four.mdb" "$TABLES/frog.mdb"
seed=${FAULTS_SEED:-$$}
scripts/faults --seed "$seed" >"$TMP/out" 2>"$TMP/err"
rc=$?
for c in flips truncs replaced; do
    line=$(grep "^$c " "$TMP/out")
    check "$c: $(echo "$line" | sed 's/  */ /g')" \
        test -n "$line" -a -z "$(echo "$line" | grep -vE ' 0 changed answers, 0 crashes, 0 hangs$')"
done
line=$(grep '^kills ' "$TMP/out")
check "kill -9 during tbgen: $(echo "$line" | sed 's/  */ /g')" \
    test -n "$line" -a -z "$(echo "$line" | grep -v 'damaged 0 ')"
line=$(grep '^readers ' "$TMP/out")
check "readers during regeneration: $(echo "$line" | sed 's/  */ /g')" \
    test -n "$line" -a -z "$(echo "$line" | grep -v ' 0 errors, 0 failed')"
check "scripts/faults --seed $seed exits 0" test "$rc" = 0
[ "$rc" = 0 ] || sed 's/^/# /' "$TMP/err"
