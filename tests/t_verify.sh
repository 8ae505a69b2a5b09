#!/usr/bin/env bash
# tests/t_verify.sh: tables are provable and reproducible.  --verify proves
# every generated table; it fails, naming the state, on a table with one
# value changed and its checksums recomputed (mod-3 and exact values, an
# unsolvable Klotski layout no longer stored 0); tbgen writes the same
# bytes with 1 and 2 threads; make check-tables catches a changed byte.
cd "$(dirname "$0")/.." && . tests/lib.sh
need "$LOOKUP" bin/tbgen "$TABLES/swap.mdb"

for f in "$TABLES"/*.mdb; do
    case $f in *.levels.mdb) continue ;; esac   # (t_family.sh's)
    # the puzzle and metric from the table's header (a described puzzle's
    # name may hold a '-')
    read -r p m < <("$LOOKUP" --list tables --tables "$TABLES" |
                    awk -v f="$(basename "$f")" '$1 == f { print $2, $3 }')
    run --verify "$p" --metric "$m"
    check "--verify proves $(basename "$f"): $out" \
        test "$rc" = 0 -a -n "$(echo "$out" | grep ': ok: ')"
done

# one value changed in each kind of table (the packed3 and zstd cases are
# in t_format.sh); tamper.py recomputes frames, index, digest and meta_sha256
mkdir -p "$TMP/tam"
cp "$TABLES/swap.mdb" "$TABLES/four.mdb" "$TABLES/klotski-step.mdb" "$TMP/tam/"
enc() { /usr/bin/python3 scripts/ptb_read.py "$TMP/tam/$1.mdb" |
        sed -n 's/^encoding //p'; }
/usr/bin/python3 tests/tamper.py "$TMP/tam/swap.mdb" 4317 7000 >/dev/null
check "one value changed, checksums recomputed ($(enc swap) mod4): --verify names the state" \
    expect_error 3 'inconsistent at subtable 4317 index 7000 .*: stored value is not the distance mod 4' \
    --verify swap --tables "$TMP/tam"
/usr/bin/python3 tests/tamper.py "$TMP/tam/four.mdb" 0 5000 >/dev/null
check "one value changed, checksums recomputed ($(enc four) exact): --verify names the state" \
    expect_error 3 'inconsistent at subtable 0 index 5000 ' \
    --verify four --tables "$TMP/tam"
# the boxed-in Klotski layout (doc/guide.md: unsolvable) is stored 0; stored 1 it
# would no longer be found unsolvable
run klotski --format json 'AAB. AAB. CCDD EEFF GGHH'
kidx=$(printf '%s' "$out" | sed -n 's/.*"index":\([0-9]*\).*/\1/p')
/usr/bin/python3 tests/tamper.py "$TMP/tam/klotski-step.mdb" 0 "$kidx" >"$TMP/tv"
check "an unsolvable layout is stored 0 ($(cat "$TMP/tv"))" \
    test -n "$(grep -- ': 0 -> 1$' "$TMP/tv")"
check "... changed to 1 ($(enc klotski-step)): --verify names it" \
    expect_error 3 "inconsistent at subtable 0 index $kidx .*: stored value is not the distance mod 3" \
    --verify klotski --tables "$TMP/tam"

# tables/ was built with a thread a processor (make tables): 2 here, or
# built again with 2
mkdir -p "$TMP/j1" "$TMP/j2"
bin/tbgen -q --puzzle swap --threads 1 --out "$TMP/j1"
two=$TABLES/swap.mdb
if [ "$(nproc)" -lt 2 ]; then
    bin/tbgen -q --puzzle swap --threads 2 --out "$TMP/j2"
    two=$TMP/j2/swap.mdb
fi
check "tbgen with 1 and 2 threads writes identical files" \
    cmp -s "$TMP/j1/swap.mdb" "$two"
check "... identical to tables/swap.mdb" cmp -s "$TMP/j1/swap.mdb" "$TABLES/swap.mdb"
check "tbgen leaves no temporary file" test -z "$(ls "$TMP/j1" | grep -v '^swap.mdb$')"

if [ -f tables/SHA256SUMS ]; then
    check "make check-tables passes on the generated tables" \
        sh -c "make -s check-tables TABLES='$TABLES' >/dev/null"
    mkdir -p "$TMP/ct"
    cp "$TABLES"/*.mdb tables/SHA256SUMS "$TMP/ct/"
    printf 'X' | dd of="$TMP/ct/swap.mdb" bs=1 seek=20000 conv=notrunc status=none
    check "make check-tables fails on a changed byte" \
        sh -c "! make -s check-tables TABLES='$TMP/ct' >/dev/null 2>&1"
fi
echo "1..$n"
