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
  choice+              not a line: VALUE "WHY BOARD...": in a programme's
                       graph, a node that a walk of a BOARD (rows split by
                       '/') reaches gets an edge for a choice its state
                       cannot make (WHY "avail": a kind with no piece left;
                       "fits": one with a piece left that overlaps a
                       covered cell) in place of one of its edges to a node
                       of the same total; WHY "before" or "kind": the
                       first edge after the root's that a BOARD takes with
                       a before not 0 or a kind (>= 0) gets that field's
                       lowest bit flipped (forge_choice());
  edge+                not a line: VALUE "WHY BOARD...": at a node a walk
                       of a BOARD reaches (not the root), edges no BOARD
                       takes lead elsewhere: two to forged nodes with
                       their old nodes' states, the first of total 0 (WHY
                       "zero") or past MAX_LAYOUTS ("huge"), the second
                       with what keeps the sums; one to a forged node of
                       the cell after the next ("later") (forge_edge());
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
M64 = (1 << 64) - 1


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


def graph_units(rec):
    """(lo, units, at, unit) of a graph record: unit(u) is its 16 bytes
    as (u64, u32, u32)."""
    cells, = struct.unpack('<I', rec[4:8])
    lo = struct.unpack('<%dI' % cells, rec[8:8 + 4 * cells])
    units, = struct.unpack('<I', rec[8 + 4 * cells:12 + 4 * cells])
    at = (12 + 4 * cells + 15) // 16 * 16
    return lo, units, at, \
        lambda u: struct.unpack('<QIi', rec[at + 16 * u:at + 16 * u + 16])


class Graph:
    """A programme's graph (FORMAT.md) to forge: its cells' first units,
    its units, the kinds' shapes and pieces-left radices read off its own
    edges (shape: ((next WIN << 1) | 1) & ~WIN), and the cells where each
    kind was placed.  A state is WIN << 32 | PAR << 31 | LEFT (a puzzle of
    one parity)."""

    def __init__(self, record):
        self.rec = bytearray(record)
        self.lo, self.units, self.at, self.unit = graph_units(self.rec)
        self.cells = len(self.lo)
        self.shape, self.radix, self.fit = {}, {}, set()
        for c in range(self.cells - 1):
            for v in self.nodes(c):
                st = self.state(v)
                for i in self.edges(v):
                    _, nxt, kind = self.unit(v + 2 + i)
                    if kind >= 0:
                        self.fit.add((kind, c))
                        self.shape[kind] = \
                            (self.state(nxt) >> 32 << 1 | 1) & ~(st >> 32)
                        self.radix[kind] = (st & 0x7FFFFFFF) - \
                            (self.state(nxt) & 0x7FFFFFFF)

    def put(self, u, a, b, k):
        struct.pack_into('<QIi', self.rec, self.at + 16 * u, a, b, k)

    def nodes(self, c):
        v, hi = self.lo[c], (self.lo[c - 1] if c else self.units)
        while v < hi:
            yield v
            v += 2 + self.unit(v)[1].bit_length()

    def edges(self, v):
        ch = self.unit(v)[1]
        return [i for i in range(ch.bit_length()) if ch >> i & 1]

    def state(self, v):
        return self.unit(v + 1)[0]

    def cell_of(self, v):
        return next(c for c in range(self.cells)
                    if self.lo[c] <= v < (self.lo[c - 1] if c else self.units))

    def left(self, s, k):
        """The pieces of kind k left in pieces-left number s."""
        above = [q for q in sorted(set(self.radix.values()))
                 if q > self.radix[k]]
        return s // self.radix[k] % (above[0] // self.radix[k]) if above \
            else s // self.radix[k]

    def taken(self, boards):
        """The nodes the walks of boards (drawings, rows split by '/')
        reach: node -> the bits of the edges they take."""
        taken = {}
        for b in boards:
            cell, v = b.replace('/', ''), next(self.nodes(0))
            for c in range(self.cells):
                if self.state(v) >> 32 & 1 or self.unit(v + 2)[2] == -2 or \
                        cell[c] == '.':
                    bits = [0]
                else:
                    cs = [i for i, x in enumerate(cell) if x == cell[c]]
                    s = sum(1 << (i - cs[0]) for i in cs)
                    bits = [i for i in self.edges(v)
                            if i and self.shape.get(i - 1) == s]
                taken.setdefault(v, set()).update(bits)
                if len(bits) != 1 or c + 1 == self.cells:
                    break
                v = self.unit(v + 2 + bits[0])[1]
        return taken

    def rooms(self, c):
        """Places of two spare units in nodes of cell c, none sharing."""
        for v in self.nodes(c):
            ch, i = self.unit(v)[1], 0
            while i < ch.bit_length() - 2:
                if not ch >> i & 3:
                    yield v + 2 + i
                    i += 2
                else:
                    i += 1

    def forge_node(self, u, total, state):
        """A node in spare units u, u + 1: its total and its state (and one
        edge, never read: no walk reaches it)."""
        self.put(u, total, 1, 0)
        self.put(u + 1, state, 0, 0)


def forge_choice(record, why, boards):
    """The graph record with, at a node that a walk of one of boards
    reaches, an edge for a choice its state cannot make: why "avail", a
    kind with no piece left (that fits); "fits", a kind with a piece left
    that overlaps a covered cell.  The edge takes the place of another of
    the node's edges (one no board takes), so its befores are made again,
    and leads to a node forged in two spare units of the next cell, with
    the dropped edge's node's total and the state the choice would make:
    every total and sum holds, and only the node's test of the choice
    refuses it."""
    g = Graph(record)
    unit, put, edges, shape = g.unit, g.put, g.edges, g.shape
    taken = g.taken(boards)
    if why in ('before', 'kind'):   # an edge a board takes, changed
        for v in sorted(taken, reverse=True)[1:]:   # (the root's: at open)
            for b in sorted(taken[v]):
                before, nxt, kind = unit(v + 2 + b)
                if why == 'before' and before:
                    put(v + 2 + b, before ^ 1, nxt, kind)
                    return bytes(g.rec)
                if why == 'kind' and kind >= 0 and (kind ^ 1) in shape:
                    put(v + 2 + b, before, nxt, kind ^ 1)
                    return bytes(g.rec)
    for v in sorted(taken):
        c = g.cell_of(v)
        st, ch = g.state(v), unit(v)[1]
        win, par, s = st >> 32, st >> 31 & 1, st & 0x7FFFFFFF
        u = next(g.rooms(c + 1), None) if c + 1 < g.cells else None
        if u is None or win & 1 or unit(v + 2)[2] == -2:
            continue
        for k in sorted(shape):
            has, over = g.left(s, k) > 0, bool(shape[k] & win)
            if k + 1 >= ch.bit_length() or ch >> (k + 1) & 1 or \
                    why == 'avail' and (has or over or (k, c) not in g.fit) or \
                    why == 'fits' and not (has and over):
                continue
            drop = [j for j in edges(v) if j not in taken[v]]
            if not drop:
                continue
            g.forge_node(u, unit(unit(v + 2 + drop[0])[1])[0],
                         ((win | shape[k]) >> 1 << 32 | par << 31 |
                          (s - g.radix[k]) & M64) & M64)
            put(v + 2 + k + 1, 0, u, k)
            new = sorted(set(edges(v)) - {drop[0]} | {k + 1})
            before = 0
            for b in new:
                _, nxt, kind = unit(v + 2 + b)
                put(v + 2 + b, before, nxt, kind)
                before += unit(nxt)[0]
            t, _, frow = unit(v)
            put(v, t, sum(1 << b for b in new), frow)
            return bytes(g.rec)
    raise SystemExit('craft.py: no node to forge (%s)' % why)


def forge_edge(record, why, boards):
    """The graph record with, at a node that a walk of one of boards
    reaches (not the root), edges no board takes led elsewhere.  Why
    "zero" or "huge": two edges led to nodes forged in spare units of the
    next cell, each with its old node's state, the first with total 0 or
    2^40 + 1 (past MAX_LAYOUTS), the second with what keeps the node's sum
    (the two old totals less the first's, modulo 2^64); "later": an edge
    led to a node forged in the cell after the next, with its old node's
    total and state.  Every total, before and state holds, and only the
    test of the edge's total or of its next node's place refuses it."""
    g = Graph(record)
    unit, put = g.unit, g.put
    taken = g.taken(boards)
    for v in sorted(taken, reverse=True)[1:]:   # (the root's: at open)
        c = g.cell_of(v)
        free = [j for j in g.edges(v) if j not in taken[v]]
        if why == 'later':
            room = next(g.rooms(c + 2), None) if c + 2 < g.cells else None
            if free and room is not None:
                before, o, kind = unit(v + 2 + free[0])
                g.forge_node(room, unit(o)[0], g.state(o))
                put(v + 2 + free[0], before, room, kind)
                return bytes(g.rec)
            continue
        if c + 1 >= g.cells or len(free) < 2:
            continue
        room = list(g.rooms(c + 1))[:2]
        if len(room) < 2:
            continue
        old = [unit(v + 2 + j)[1] for j in free[:2]]
        t = [unit(o)[0] for o in old]
        first = 0 if why == 'zero' else (1 << 40) + 1
        for u, o, total in zip(room, old, (first, (t[0] + t[1] - first) & M64)):
            g.forge_node(u, total, g.state(o))
        for u, j in zip(room, free[:2]):
            before, _, kind = unit(v + 2 + j)
            put(v + 2 + j, before, u, kind)
        before = 0             # the befores again, in the order of edges
        for b in g.edges(v):
            _, nxt, kind = unit(v + 2 + b)
            put(v + 2 + b, before, nxt, kind)
            before = (before + unit(nxt)[0]) & M64
        return bytes(g.rec)
    raise SystemExit('craft.py: no node to forge (%s)' % why)


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
        elif key in ('choice+', 'edge+'):
            why, *boards = value.split()
            forge = forge_choice if key == 'choice+' else forge_edge
            txn.put(b'ranking', forge(bytes(txn.get(b'ranking')), why,
                                      boards))
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
