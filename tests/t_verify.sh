#!/usr/bin/env bash
# tests/t_verify.sh: tables are provable and reproducible.  --verify proves
# every generated table; it fails, naming the state, on a table with one
# value changed and its checksums recomputed; tbgen writes the same bytes
# with 1 and 2 threads; make check-tables catches a changed byte.
cd "$(dirname "$0")/.." && . tests/lib.sh
need "$LOOKUP" bin/tbgen "$TABLES/swap.mdb"

for f in "$TABLES"/*.mdb; do
    p=$(basename "$f" .mdb); p=${p%%-*}
    m=$(basename "$f" .mdb); m=${m#"$p"}; m=${m#-}
    run --verify "$p" ${m:+--metric "$m"}
    check "--verify proves $(basename "$f"): $out" \
        test "$rc" = 0 -a -n "$(echo "$out" | grep ': ok: ')"
done

mkdir -p "$TMP/tam"
cp "$TABLES/swap.mdb" "$TMP/tam/"
/usr/bin/python3 tests/tamper.py "$TMP/tam/swap.mdb" 4317 7000 >/dev/null
check "one value changed, checksums recomputed: --verify names the state" \
    expect_error 3 'inconsistent at subtable 4317 index 7000 .*: stored value is not the distance mod 3' \
    --verify swap --tables "$TMP/tam"

mkdir -p "$TMP/j1" "$TMP/j2"
bin/tbgen -q --puzzle swap --threads 1 --out "$TMP/j1"
bin/tbgen -q --puzzle swap --threads 2 --out "$TMP/j2"
check "tbgen with 1 and 2 threads writes identical files" \
    cmp -s "$TMP/j1/swap.mdb" "$TMP/j2/swap.mdb"
check "... identical to tables/swap.mdb" cmp -s "$TMP/j1/swap.mdb" "$TABLES/swap.mdb"
check "tbgen leaves no temporary file" test -z "$(ls "$TMP/j1" | grep -v '^swap.mdb$')"

if [ -f tables/SHA256SUMS ]; then
    check "make check-tables passes on the generated tables" \
        make -s check-tables TABLES="$TABLES" >/dev/null
    mkdir -p "$TMP/ct"
    cp "$TABLES"/*.mdb tables/SHA256SUMS "$TMP/ct/"
    printf 'X' | dd of="$TMP/ct/swap.mdb" bs=1 seek=20000 conv=notrunc status=none
    check "make check-tables fails on a changed byte" \
        sh -c "! make -s check-tables TABLES='$TMP/ct' >/dev/null 2>&1"
fi
echo "1..$n"
