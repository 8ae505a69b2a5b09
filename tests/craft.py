#!/usr/bin/python3
"""tests/craft.py TABLE KEY VALUE [KEY VALUE]...: rewrites text lines of a
table and recomputes the checksums that cover them, so the table passes its
own checksums and only the reader's range checks can refuse it.  Follows
tables/FORMAT.md (format 6).

Each "KEY VALUE" replaces the first line with that key, or is added at the
end when there is none or when KEY starts with "+" (the "+" dropped):
  distance, farthest   lines of the "stats" record (added after its last
                       line); then stats_sha256 in the header is recomputed;
  index0               not a line: sets the first offset of the "index"
                       record (zstd) to VALUE;
  ranking-             not a line: removes the "ranking" record and the
                       header's ranking_check (VALUE ignored);
  ranking^             not a line: VALUE is "OFFSET MASK", xors the byte
                       at OFFSET of the "ranking" record with MASK; then
                       ranking_check is recomputed;
  graph^               not a line: in a programme's graph (FORMAT.md), VALUE
                       "C MASK" xors the first byte of every node of cell C
                       (its total's lowest) with MASK; "spare MASK" the
                       first byte of the first unit without an edge;
  graph>               not a line: VALUE "C": every edge of every node of
                       cell C leads instead to another node of the next cell
                       with the same total, where there is one (so the sums
                       still hold: only the states tell);
  fold^                not a line: in a graph's fold rows (FORMAT.md), VALUE
                       "WHAT MASK" xors with MASK the lowest byte of: every
                       row's count but the root's ("rows"), the root row's
                       ("root"), the first path's FIELD (off, before, end or
                       same) of every row but the root's ("path FIELD") or
                       of the root's ("rootpath FIELD"), the root row's
                       first guide ("guide"), or the fold row number
                       (frow) of every node that has one but the root
                       ("frow");
  leaf>                not a line: in a component's trie (FORMAT.md), moves
                       the first leaf from number VALUE on that has a clear
                       bit after it in its node to that bit, so the trie
                       keeps its shape and its number of layouts; then
                       ranking_check is recomputed;
  any other key        a header line (added before meta_sha256; a crafted
                       stats_sha256 is kept as given).
meta_sha256 is always recomputed last."""
import hashlib
import os
import struct
import sys

import lmdb

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'scripts'))
from ptb_read import chunk_check  # noqa: E402  (FORMAT.md's check)

STATS_KEYS = ('distance', 'farthest')


def move_leaf(record, first):
    """The trie record with leaf number first or a later one moved to
    the next anchor of its node (the bit after it, when clear)."""
    rec = bytearray(record)
    levels, at, radix = struct.unpack('<I', rec[:4])[0], 4, []
    for _ in range(levels):
        radix.append(rec[at + 1])
        at += 2 + rec[at + 1]
    nodes = 1
    for r in radix:
        bits, base = nodes * r, at
        nodes = sum(bin(b).count('1') for b in rec[at:at + 8 * (-(-bits // 64))])
        at += 8 * (-(-bits // 64))
    def bit(i):
        return rec[base + i // 8] >> (i % 8) & 1
    leaf = -1
    for i in range(bits):
        if bit(i):
            leaf += 1
            if leaf >= first and (i + 1) % radix[-1] and i + 1 < bits \
                    and not bit(i + 1):
                rec[base + i // 8] ^= 1 << (i % 8)
                rec[base + (i + 1) // 8] ^= 1 << ((i + 1) % 8)
                return bytes(rec)
    raise SystemExit('craft.py: no leaf to move')


def graph_bytes(record, what, mask):
    """The graph record (its first 4 bytes zero) with the first byte of
    every node of cell what, or of the first spare unit, xored with mask."""
    rec = bytearray(record)
    cells, = struct.unpack('<I', rec[4:8])
    lo = struct.unpack('<%dI' % cells, rec[8:8 + 4 * cells])
    units, = struct.unpack('<I', rec[8 + 4 * cells:12 + 4 * cells])
    at = (12 + 4 * cells + 15) // 16 * 16
    for c in range(cells):
        v, hi = lo[c], (lo[c - 1] if c else units)
        while v < hi:
            choice, = struct.unpack('<I', rec[at + 16 * v + 8:at + 16 * v + 12])
            spare = [i for i in range(choice.bit_length()) if not choice >> i & 1]
            if what == 'spare' and spare:
                rec[at + 16 * (v + 2 + spare[0])] ^= mask
                return bytes(rec)
            if what == str(c):
                rec[at + 16 * v] ^= mask
            v += 2 + choice.bit_length()   # its header, its state, its edges
    if what == 'spare':
        raise SystemExit('craft.py: no spare unit')
    return bytes(rec)


def fold_bytes(record, what, mask):
    """The graph record with bytes of its fold rows xored with mask."""
    rec = bytearray(record)
    cells, = struct.unpack('<I', rec[4:8])
    units, = struct.unpack('<I', rec[8 + 4 * cells:12 + 4 * cells])
    graph = (12 + 4 * cells + 15) // 16 * 16
    at = graph + 16 * units
    rows, paths = struct.unpack('<II', rec[at:at + 8])
    if not rows:
        raise SystemExit('craft.py: no fold rows')
    row = lambda r: at + 16 + 16 * r
    first = lambda r: struct.unpack('<I', rec[row(r) + 12:row(r) + 16])[0]
    path = at + 16 + 16 * (rows + 1)
    field = {'off': 0, 'before': 8, 'end': 16, 'same': 20}
    what = what.split()
    for r in range(rows):
        root = r == 0
        if what == ['rows' if not root else 'root']:
            rec[row(r)] ^= mask
        elif what[0] == ('path' if not root else 'rootpath') and \
                first(r + 1) > first(r):
            rec[path + 24 * first(r) + field[what[1]]] ^= mask
        elif what == ['guide'] and root:
            rec[path + 24 * paths] ^= mask
        elif what == ['frow'] and not root:
            node, = struct.unpack('<I', rec[row(r) + 8:row(r) + 12])
            rec[graph + 16 * node + 12] ^= mask
    return bytes(rec)


def graph_redirect(record, cell):
    """The graph record with every edge of cell's nodes led to another
    node of the next cell that has the same total, where there is one."""
    rec = bytearray(record)
    cells, = struct.unpack('<I', rec[4:8])
    lo = struct.unpack('<%dI' % cells, rec[8:8 + 4 * cells])
    units, = struct.unpack('<I', rec[8 + 4 * cells:12 + 4 * cells])
    at = (12 + 4 * cells + 15) // 16 * 16
    unit = lambda u: struct.unpack('<QII', rec[at + 16 * u:at + 16 * u + 16])
    def nodes(c):
        v, hi = lo[c], (lo[c - 1] if c else units)
        while v < hi:
            yield v
            v += 2 + unit(v)[1].bit_length()
    by_total = {}
    for t in nodes(cell + 1):
        by_total.setdefault(unit(t)[0], []).append(t)
    for v in nodes(cell):
        choice = unit(v)[1]
        for i in range(choice.bit_length()):
            if choice >> i & 1:
                e = v + 2 + i
                t = unit(e)[1]
                other = [u for u in by_total.get(unit(t)[0], []) if u != t]
                if other:
                    rec[at + 16 * e + 8:at + 16 * e + 12] = \
                        struct.pack('<I', other[0])
    return bytes(rec)


def edit(lines, key, value):
    add = key.startswith('+')
    key = key.lstrip('+')
    at = None if add else next((i for i, l in enumerate(lines)
                                if l.split(' ', 1)[0] == key), None)
    if at is None:
        lines.append(key + ' ' + value)
    else:
        lines[at] = key + ' ' + value


path, pairs = sys.argv[1], sys.argv[2:]
if not pairs or len(pairs) % 2:
    sys.exit('usage: craft.py TABLE KEY VALUE [KEY VALUE]...')
env = lmdb.open(path, subdir=False, lock=False, max_dbs=0,
                map_size=2 * os.path.getsize(path) + (16 << 20))
with env.begin(write=True) as txn:
    header = [l for l in bytes(txn.get(b'header')).decode().splitlines()
              if not l.startswith('meta_sha256 ')]
    stats = bytes(txn.get(b'stats') or b'').decode().splitlines()
    stats_edited = False
    for key, value in zip(pairs[::2], pairs[1::2]):
        if key == 'index0':
            ix = bytearray(txn.get(b'index'))
            ix[0:8] = struct.pack('>Q', int(value))
            txn.put(b'index', bytes(ix))
        elif key in ('ranking^', 'leaf>'):
            rk = bytearray(txn.get(b'ranking'))
            if key == 'leaf>':
                rk = move_leaf(rk, int(value))
            else:
                off, mask = (int(v) for v in value.split())
                rk[off] ^= mask
            txn.put(b'ranking', bytes(rk))
            edit(header, 'ranking_check', '%08x' % chunk_check(bytes(rk)))
        elif key == 'graph^':
            what, mask = value.split()
            txn.put(b'ranking', graph_bytes(bytes(txn.get(b'ranking')), what,
                                            int(mask)))
        elif key == 'fold^':
            what, mask = value.rsplit(' ', 1)
            txn.put(b'ranking', fold_bytes(bytes(txn.get(b'ranking')), what,
                                           int(mask)))
        elif key == 'graph>':
            txn.put(b'ranking', graph_redirect(bytes(txn.get(b'ranking')),
                                               int(value)))
        elif key == 'ranking-':
            txn.delete(b'ranking')
            header = [l for l in header if not l.startswith('ranking_check ')]
        elif key.lstrip('+') in STATS_KEYS:
            edit(stats, key, value)
            stats_edited = True
        else:
            edit(header, key, value)
    if stats_edited:
        raw = ''.join(l + '\n' for l in stats).encode()
        txn.put(b'stats', raw)
        edit(header, 'stats_sha256', hashlib.sha256(raw).hexdigest())
    body = '\n'.join(header) + '\n'
    txn.put(b'header', (body + 'meta_sha256 ' +
                        hashlib.sha256(body.encode()).hexdigest() +
                        '\n').encode())
env.close()
