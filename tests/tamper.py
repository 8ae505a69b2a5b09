#!/usr/bin/python3
"""tests/tamper.py TABLE SUBTABLE INDEX: changes the stored value of one state
and recomputes everything that would otherwise give it away, so that only a
check of the values themselves (tblookup --verify) can find it.  Follows
tables/FORMAT.md (format 6).  Prints the old and new value
("value of subtable S index I: OLD -> NEW", "unsolvable" for no path).

The new value: mod3 tables (old + 1) mod 3; mod4 tables (packed1) the
stored bit flipped; exact tables old + 1, or
old - 1 when old is max_distance (so the value stays within max_distance
and the reader's range check cannot refuse it), and 0 for a state with no
path (it claims to be a goal).

What is recomputed:
  packed1, packed3, packed4  the changed byte's chunk check in "checks";
  sparse            a state with an entry (a solvable one: pick one) has
                    only its distance byte changed, and that chunk's check
                    recomputed.  A state without an entry (no path) gets a
                    new entry, distance 0, inserted in its block: the
                    starts of the later blocks, the positions and distances
                    after it move, so "values" grows by 3 bytes and every
                    check is recomputed, and "solvable" grows by 1;
  zstd              the block's frame (with its checksum and the dictionary)
                    and the "index" offsets;
and then, always: "digest", "values_bytes"; for exact tables the "stats"
record's distance counts (and "solvable" and "max_distance" in the header
when they change; the farthest lines are kept); "stats_sha256"; and last
"meta_sha256".  (A mod3 table's stats cannot follow a changed residue; they
are left as they are, and so are a mod4 table's, which only ptb_read.py
--histogram notices.)"""
import hashlib
import os
import struct
import sys

import lmdb
import zstandard as zstd

CHUNK = 512
SPARSE_BLOCK = 65536
MASK64 = (1 << 64) - 1


def chunk_check(data):
    data = bytes(data)
    if len(data) % 8:
        data += bytes(8 - len(data) % 8)
    a = b = 0
    for w in struct.unpack('<%dQ' % (len(data) // 8), data):
        a = (a + w) & MASK64
        b = (b + a) & MASK64
    x = a ^ (b * 0x9E3779B97F4A7C15 & MASK64)
    return (x ^ (x >> 32)) & 0xFFFFFFFF


def all_checks(values):
    return b''.join(struct.pack('<I', chunk_check(values[at:at + CHUNK]))
                    for at in range(0, len(values), CHUNK))


def set_check(checks, values, byte):
    """Recomputes the check of the chunk holding byte `byte` of values."""
    c = byte // CHUNK
    checks[4 * c:4 * c + 4] = struct.pack(
        '<I', chunk_check(values[c * CHUNK:(c + 1) * CHUNK]))


def new_exact(old, max_distance):
    if old is None:
        return 0
    return old + 1 if old < max_distance else old - 1


path, sub, index = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
env = lmdb.open(path, subdir=False, lock=False, max_dbs=0,
                map_size=2 * os.path.getsize(path) + (16 << 20))
with env.begin(write=True) as txn:
    text = bytes(txn.get(b'header')).decode()
    header = dict(line.split(' ', 1) for line in text.splitlines())
    enc, exact = header['encoding'], header['values'] == 'exact'
    max_distance = int(header['max_distance'])
    solvable = int(header['solvable'])
    sizes_raw = bytes(txn.get(b'sizes'))
    sizes = struct.unpack('>%dQ' % (len(sizes_raw) // 8), sizes_raw)
    assert sub < len(sizes) and index < sizes[sub], 'no such state'
    g = sum(sizes[:sub]) + index
    values = bytearray(txn.get(b'values'))
    checks = bytearray(txn.get(b'checks') or b'')
    digest = hashlib.sha256()
    if enc == 'packed1':
        byte, bit = g // 8, 1 << (g % 8)
        old = 1 if values[byte] & bit else 0
        new = 1 - old
        values[byte] ^= bit
        set_check(checks, values, byte)
        digest.update(values)
    elif enc == 'packed3':
        byte, digit = g // 5, 3 ** (g % 5)
        old = values[byte] // digit % 3
        new = (old + 1) % 3
        values[byte] += (new - old) * digit
        set_check(checks, values, byte)
        digest.update(values)
    elif enc == 'packed4':
        byte, shift = g // 2, 4 * (g % 2)
        old = values[byte] >> shift & 15
        old = None if old == 15 else old
        new = new_exact(old, max_distance)
        values[byte] = (values[byte] & ~(15 << shift) & 0xFF) | new << shift
        set_check(checks, values, byte)
        digest.update(values)
    elif enc == 'sparse':
        blocks = -(-int(header['states']) // SPARSE_BLOCK)
        starts = list(struct.unpack_from('<%dI' % (blocks + 1), values))
        pos_at = 4 * (blocks + 1)
        dist_at = pos_at + 2 * solvable
        b, i = divmod(g, SPARSE_BLOCK)
        lo, hi = starts[b], starts[b + 1]
        pos = struct.unpack_from('<%dH' % (hi - lo), values, pos_at + 2 * lo)
        k = next((k for k, p in enumerate(pos) if p >= i), len(pos))
        if k < len(pos) and pos[k] == i:           # an entry: its distance
            at = dist_at + lo + k
            old = values[at]
            new = new_exact(old, max_distance)
            values[at] = new
            set_check(checks, values, at)
        else:                                      # no entry: insert one
            old, new = None, new_exact(None, max_distance)
            e = lo + k                             # the new entry's number
            allpos = list(struct.unpack_from('<%dH' % solvable, values,
                                             pos_at))
            dist = bytearray(values[dist_at:])
            allpos.insert(e, i)
            dist.insert(e, new)
            for c in range(b + 1, blocks + 1):
                starts[c] += 1
            values = bytearray(struct.pack('<%dI' % (blocks + 1), *starts) +
                               struct.pack('<%dH' % len(allpos), *allpos) +
                               bytes(dist))
            checks = bytearray(all_checks(values))
        digest.update(values)
    else:
        dict_raw = txn.get(b'dictionary')
        zdict = zstd.ZstdCompressionDict(
            bytes(dict_raw), dict_type=zstd.DICT_TYPE_RAWCONTENT) \
            if dict_raw else None
        dec = zstd.ZstdDecompressor(dict_data=zdict) if zdict \
            else zstd.ZstdDecompressor()
        enc_args = dict(level=19, write_checksum=True, write_content_size=True,
                        write_dict_id=False)
        if zdict:
            enc_args['dict_data'] = zdict
        cctx = zstd.ZstdCompressor(**enc_args)
        raw_index = bytes(txn.get(b'index'))
        offs = struct.unpack('>%dQ' % (len(raw_index) // 8), raw_index)
        frames = [bytes(values[offs[b]:offs[b + 1]])
                  for b in range(len(offs) - 1)]
        bv = int(header['block_values'])
        b, i = divmod(g, bv)
        data = bytearray(dec.decompress(frames[b]))
        if not exact:
            old = data[i // 4] >> (2 * (i % 4)) & 3
            new = (old + 1) % 3
            data[i // 4] = (data[i // 4] & ~(3 << (2 * (i % 4))) & 0xFF) \
                | new << (2 * (i % 4))
        else:
            old = None if data[i] == 255 else data[i]
            new = new_exact(old, max_distance)
            data[i] = new
        frames[b] = cctx.compress(bytes(data))
        values = b''.join(frames)
        at = [0]
        for f in frames:
            at.append(at[-1] + len(f))
        txn.put(b'index', struct.pack('>%dQ' % len(at), *at))
        for f in frames:
            digest.update(dec.decompress(f))
    txn.put(b'values', bytes(values))
    if checks:
        txn.put(b'checks', bytes(checks))

    # the stats: an exact table's counts follow the change
    stats = bytes(txn.get(b'stats')).decode()
    if exact:
        hist, farthest = {}, []
        for line in stats.splitlines():
            key, _, rest = line.partition(' ')
            if key == 'distance':
                d, n = (int(x) for x in rest.split())
                hist[d] = n
            elif key == 'farthest':
                farthest.append(line)
        if old is not None:
            hist[old] -= 1
        hist[new] = hist.get(new, 0) + 1
        hist = {d: n for d, n in hist.items() if n}
        solvable = sum(hist.values())
        max_distance = max(hist)
        stats = ''.join('distance %d %d\n' % (d, hist[d])
                        for d in sorted(hist)) + \
            ''.join(l + '\n' for l in farthest)
        txn.put(b'stats', stats.encode())
    fix = {'digest': 'sha256:' + digest.hexdigest(),
           'values_bytes': str(len(values)),
           'solvable': str(solvable), 'max_distance': str(max_distance),
           'stats_sha256': hashlib.sha256(stats.encode()).hexdigest()}
    lines = [l for l in text.splitlines() if not l.startswith('meta_sha256 ')]
    lines = [l.split(' ', 1)[0] + ' ' + fix[l.split(' ', 1)[0]]
             if l.split(' ', 1)[0] in fix else l for l in lines]
    body = '\n'.join(lines) + '\n'
    meta_sum = hashlib.sha256(body.encode()).hexdigest()
    txn.put(b'header', (body + 'meta_sha256 ' + meta_sum + '\n').encode())
env.close()
show = lambda v: 'unsolvable' if v is None else str(v)
print('value of subtable %d index %d: %s -> %s' % (sub, index, show(old),
                                                    show(new)))
