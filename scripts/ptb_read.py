#!/usr/bin/python3
"""scripts/ptb_read.py: reads a puzzletb table without puzzletb's code.

Written from tables/FORMAT.md alone, with Debian's python3-lmdb and
python3-zstandard (run it with /usr/bin/python3: other Pythons may lack them).
It is an independent second reader: tests/t_python.sh compares its answers
with tblookup's.

  ptb_read.py TABLE                     print the header text
  ptb_read.py TABLE --value SUB INDEX   print the stored value of one state:
                                        the distance or "unsolvable" (exact
                                        tables), the distance mod 3 (mod3
                                        tables, 0 for unsolvable states), the
                                        distance's second bit, (d div 2) mod
                                        2 (mod4 tables: d mod 2 is the
                                        puzzle's parity of the state)
  ptb_read.py TABLE --histogram         print "distance count" lines, 0 to
                                        max_distance: counted from the values
                                        (exact tables) and checked against the
                                        "stats" record, or taken from "stats"
                                        and checked against the residues
                                        (mod3) or bits (mod4); checks the
                                        digest either way
  ptb_read.py TABLE --verify-digest     decode every value, check every chunk
                                        check, recompute the digest,
                                        meta_sha256 and stats_sha256

A described puzzle's "ranking" record is checked: a component's trie,
against its ranking_check, whose layouts are the table's states; or the
counting programme's graph (no ranking_check), its frame and its root's
total (or its first fold row's count, where the mirror image is folded),
the table's states; what the states mean is the engine's.

All five encodings of format 6 are read: packed1 (eight bits a byte),
packed3 (five base-3 digits a byte), packed4 (two 4-bit values a byte),
sparse (per block of 65536 states, the positions and distances of the
solvable ones), all four in place with a 32-bit check per 512-byte chunk of
"values" in "checks"; and zstd (frames laid end to end in "values", located
by "index", with an optional raw-content dictionary).  Formats 1 to 5 are
refused: rebuild the table.

Every use checks meta_sha256 (the header's own hash) first; reading a value
checks the chunk(s) it lies in; --histogram and --verify-digest check every
chunk and the "stats" record against stats_sha256.  Exit status: 0 done,
1 the table is unreadable or fails a check (one line on stderr says which),
2 bad usage.
"""
import argparse
import bisect
import hashlib
import os
import struct
import sys

import lmdb
import zstandard

FORMAT = 6
RECORDS = {b'checks', b'dictionary', b'header', b'index', b'ranking',
           b'sizes', b'stats', b'values'}
MAGIC = 'puzzletb'
HEADER_MAX = 16384         # bytes of the header record
STATS_MAX = 65536          # bytes of the stats record
BYTE_MAX = 254             # exact: largest distance; byte 255: no path
MAX_DISTANCE = 1022        # mod3 and mod4: largest distance
CHUNK = 512                # in place: bytes of values per check
SPARSE_BLOCK = 65536       # sparse: states per block
PACKED4_MAX = 14           # packed4: largest distance; nibble 15: no path
MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def trie_layouts(rec):
    """The number of layouts of a component's trie (FORMAT.md, "ranking"),
    or None when the record's frame does not hold: levels, alphabets, and
    each level's words for its nodes, the unused bits clear."""
    if len(rec) < 4:
        return None
    levels, at, radix = struct.unpack('<I', rec[:4])[0], 4, []
    for _ in range(levels):
        if at + 2 > len(rec) or not rec[at + 1]:
            return None
        radix.append(rec[at + 1])
        at += 2 + rec[at + 1]
    nodes = 1
    for r in radix:
        bits = nodes * r
        words = -(-bits // 64)
        if at + 8 * words > len(rec):
            return None
        level = int.from_bytes(rec[at:at + 8 * words], 'little')
        if level >> bits:
            return None
        nodes = bin(level).count('1')
        at += 8 * words
    return nodes if at == len(rec) and levels else None


class TableError(Exception):
    """The table is missing, damaged or not a puzzletb table."""


def chunk_check(data):
    """The check of one chunk (FORMAT.md, "In place: checks")."""
    if len(data) % 8:
        data = bytes(data) + bytes(8 - len(data) % 8)
    words = struct.unpack('<%dQ' % (len(data) // 8), data)
    a = b = 0
    for w in words:
        a = (a + w) & MASK64
        b = (b + a) & MASK64
    x = a ^ (b * GOLDEN & MASK64)
    return (x ^ (x >> 32)) & 0xFFFFFFFF


def parse_text(raw, what):
    """(lines) of a key-value text record; every line 'key value'.  ASCII,
    but a header's description lines may be UTF-8 (a summary, a source)."""
    try:
        text = raw.decode('utf-8' if what == 'header' else 'ascii')
    except UnicodeDecodeError:
        raise TableError('%s is not %s text' %
                         (what, 'UTF-8' if what == 'header' else 'ASCII'))
    if text and not text.endswith('\n'):
        raise TableError('%s does not end with a newline' % what)
    lines = text.split('\n')[:-1] if text else []
    for line in lines:
        if ' ' not in line:
            raise TableError('%s line without a value: %r' % (what, line))
    return text, lines


class Table:
    """One table file, opened read-only without a lock file."""

    def __init__(self, path):
        self.path = path
        try:
            size = os.path.getsize(path)
            self.env = lmdb.open(path, subdir=False, readonly=True,
                                 lock=False, max_dbs=0)
        except (OSError, lmdb.Error) as e:
            raise TableError('cannot open: %s' % e)
        # refuse a truncated file before reading any page past the meta pages
        info, stat = self.env.info(), self.env.stat()
        if size < 2 * stat['psize'] or \
                size < (info['last_pgno'] + 1) * stat['psize']:
            raise TableError('truncated: %d bytes, LMDB needs %d'
                             % (size, max(2, info['last_pgno'] + 1)
                                * stat['psize']))
        try:
            self.txn = self.env.begin(buffers=False)
            rec = dict(self.txn.cursor())   # the main database
        except lmdb.Error as e:
            raise TableError('not a puzzletb table: %s' % e)
        if b'header' not in rec and b'meta' in rec:
            raise TableError('format 1 (an older format): rebuild it')
        self.raw_header = rec.get(b'header')
        if self.raw_header is None:
            raise TableError('not a puzzletb table: no header record')
        self._parse_header()          # refuses other format versions first
        if set(rec) - RECORDS:
            raise TableError('unexpected keys %s'
                             % [k.decode('latin-1')
                                for k in sorted(set(rec) - RECORDS)])
        for key in (b'sizes', b'stats', b'values'):
            if key not in rec:
                raise TableError('no %s record' % key.decode())
        self.raw_stats = rec[b'stats']
        self.stats = None             # parsed and checked on first use
        sizes = rec[b'sizes']
        if len(sizes) != 8 * self.subtables:
            raise TableError('sizes record has %d bytes for %d subtables'
                             % (len(sizes), self.subtables))
        self.sizes = struct.unpack('>%dQ' % self.subtables, sizes)
        if sum(self.sizes) != self.states:
            raise TableError('subtable sizes add up to %d, header says %d '
                             'states' % (sum(self.sizes), self.states))
        self.starts = [0]
        for n in self.sizes:
            self.starts.append(self.starts[-1] + n)
        self.values = rec[b'values']
        if len(self.values) != self.number('values_bytes'):
            raise TableError('values record has %d bytes, header says %d'
                             % (len(self.values), self.number('values_bytes')))
        self.dictionary = rec.get(b'dictionary')
        if len(self.dictionary or b'') != self.number('dictionary'):
            raise TableError('dictionary record has %d bytes, header says %d'
                             % (len(self.dictionary or b''),
                                self.number('dictionary')))
        if self.number('dictionary') > 131072:
            raise TableError('dictionary of %d bytes (at most 131072)'
                             % self.number('dictionary'))
        self._check_ranking(rec.get(b'ranking'))
        if self.in_place:
            self._open_in_place(rec)
        else:
            self._open_zstd(rec)

    def _check_ranking(self, ranking):
        """A described puzzle's "ranking" (a built-in's and a pattern
        table's have none): the programme's graph, or a component's trie
        with its header's ranking_check.  What the states mean is the engine's: this reader
        checks only the record's frame."""
        check = self.fields.get('ranking_check')
        lines = self.text.splitlines()
        described = any(l.startswith('description ') for l in lines)
        pattern = any(l.startswith('description pattern ') for l in lines)
        if ranking is None and check is None and (not described or pattern):
            return                      # built in, or a pattern table
        if pattern:
            raise TableError('a pattern table with a ranking')
        if ranking is not None and ranking[:4] == b'\0\0\0\0':
            if check is not None:
                raise TableError('a graph ranking with a ranking_check')
            self._check_graph(ranking)
            return
        if ranking is None or check is None:
            raise TableError('a described puzzle without its ranking, or a '
                             'trie ranking without ranking_check, or the '
                             'other way round')
        if '%08x' % chunk_check(ranking) != check:
            raise TableError('ranking record fails its check')
        if 'description covers reachable' in self.text.splitlines() and \
                trie_layouts(ranking) == self.states:
            return                      # a component's trie
        raise TableError('ranking record of %d bytes holds neither the '
                         'graph nor a trie of its %d states'
                         % (len(ranking), self.states))

    def _check_graph(self, ranking):
        """The frame of the counting programme's graph (FORMAT.md): its
        units' length, lo[] falling from 2, the end unit, and a root whose
        total is the table's states; or, where fold rows follow the units
        (a description that is its own mirror image), their length and a
        first row at the root whose count is the states."""
        if len(ranking) < 8:
            raise TableError('graph ranking of %d bytes' % len(ranking))
        cells, = struct.unpack('<I', ranking[4:8])
        at = (12 + 4 * cells + 15) // 16 * 16
        if len(ranking) < at + 4 * cells:
            raise TableError('graph ranking shorter than its frame')
        lo = struct.unpack('<%dI' % cells, ranking[8:8 + 4 * cells])
        units, = struct.unpack('<I', ranking[8 + 4 * cells:12 + 4 * cells])
        fold = at + 16 * units
        if len(ranking) < fold or cells < 1 or lo[-1] != 2 or \
                any(lo[c] <= lo[c + 1] for c in range(cells - 1)) or \
                lo[0] >= units:
            raise TableError('graph ranking whose units do not fit its frame')
        unit = lambda u: struct.unpack('<QII', ranking[at + 16 * u:
                                                      at + 16 * u + 16])
        total = unit(lo[0])[0]
        if len(ranking) > fold:
            rows, paths, zero = struct.unpack('<IIQ', ranking[fold:fold + 16]
                                              .ljust(16, b'\xff'))
            if zero or len(ranking) != fold + 16 + 16 * (rows + 1) + \
                    32 * paths:
                raise TableError('graph ranking whose fold rows do not fit '
                                 'their frame')
            count, node, _ = struct.unpack('<QII', ranking[fold + 16:
                                                           fold + 32])
            if rows and node != lo[0]:
                raise TableError('graph ranking whose first fold row is not '
                                 'the root\'s')
            total = count if rows else total
        if unit(0) != (1, 0, 0) or total != self.states:
            raise TableError('graph ranking whose end or root is wrong')

    def _open_in_place(self, rec):
        for key in (b'index', b'dictionary'):
            if key in rec:
                raise TableError('%s record in a %s table'
                                 % (key.decode(), self.encoding))
        if self.encoding == 'packed1':
            want = -(-self.states // 8)
        elif self.encoding == 'packed3':
            want = -(-self.states // 5)
        elif self.encoding == 'packed4':
            want = -(-self.states // 2)
        else:
            self.nblocks = -(-self.states // SPARSE_BLOCK)
            want = 4 * (self.nblocks + 1) + 3 * self.solvable
        if len(self.values) != want:
            raise TableError('%s values: %d bytes, %d expected for %d states'
                             % (self.encoding, len(self.values), want,
                                self.states))
        self.chunks = -(-len(self.values) // CHUNK)
        checks = rec.get(b'checks')
        if checks is None or len(checks) != 4 * self.chunks:
            raise TableError('checks record has %s bytes for %d chunks'
                             % ('no' if checks is None else len(checks),
                                self.chunks))
        self.checks = struct.unpack('<%dI' % self.chunks, checks)
        self.checked = set()
        if self.encoding == 'sparse':
            self.pos_at = 4 * (self.nblocks + 1)     # entry positions
            self.dist_at = self.pos_at + 2 * self.solvable

    def _open_zstd(self, rec):
        if b'checks' in rec:
            raise TableError('checks record in a zstd table')
        self.nblocks = -(-self.states // self.block_values)
        index = rec.get(b'index') or b''
        if len(index) != 8 * (self.nblocks + 1):
            raise TableError('index record has %d bytes for %d blocks'
                             % (len(index), self.nblocks))
        self.index = struct.unpack('>%dQ' % (self.nblocks + 1), index)
        if self.index[0] != 0 or self.index[-1] != len(self.values):
            raise TableError('index runs from %d to %d, values has %d bytes'
                             % (self.index[0], self.index[-1],
                                len(self.values)))
        if self.dictionary:
            d = zstandard.ZstdCompressionDict(
                self.dictionary, dict_type=zstandard.DICT_TYPE_RAWCONTENT)
            self.dctx = zstandard.ZstdDecompressor(dict_data=d)
        else:
            self.dctx = zstandard.ZstdDecompressor()

    def _parse_header(self):
        if len(self.raw_header) > HEADER_MAX:
            raise TableError('header of %d bytes (at most %d)'
                             % (len(self.raw_header), HEADER_MAX))
        if not self.raw_header.startswith(b'magic ' + MAGIC.encode() + b'\n'):
            raise TableError('not a puzzletb table (no magic line)')
        self.text, lines = parse_text(self.raw_header, 'header')
        self.fields = {}
        for line in lines:
            key, _, value = line.partition(' ')
            self.fields.setdefault(key, value)
        fmt = self.fields.get('format')
        if fmt != str(FORMAT):
            if fmt in ('1', '2', '3', '4', '5'):
                raise TableError('format %s (an older format), this reader '
                                 'knows %d: rebuild it' % (fmt, FORMAT))
            raise TableError('format %s, this reader knows %d'
                             % (fmt, FORMAT))
        if not lines[-1].startswith('meta_sha256 '):
            raise TableError('header does not end with meta_sha256')
        recorded, computed = self.meta_sha256()
        if recorded != computed:
            raise TableError('meta_sha256 mismatch: header %s, text %s'
                             % (recorded, computed))
        kind = self.fields.get('values')
        fits = {'exact': ('packed4', 'sparse', 'zstd'),
                'mod3': ('packed3', 'zstd'), 'mod4': ('packed1',)}
        if kind not in fits:
            raise TableError('unknown values %r' % kind)
        self.exact = kind == 'exact'
        self.mod4 = kind == 'mod4'
        self.encoding = self.fields.get('encoding')
        fits = fits[kind]
        if self.encoding not in fits:
            raise TableError('encoding %r for %s values'
                             % (self.encoding, kind))
        self.in_place = self.encoding != 'zstd'
        self.block_values = self.number('block_values')
        if self.encoding == 'zstd':
            if not 0 < self.block_values <= 1 << 20 or self.block_values % 4:
                raise TableError('zstd with block_values %d'
                                 % self.block_values)
        elif self.block_values != (SPARSE_BLOCK if self.encoding == 'sparse'
                                   else 0):
            raise TableError('%s with block_values %d'
                             % (self.encoding, self.block_values))
        self.subtables = self.number('subtables')
        self.states = self.number('states')
        self.solvable = self.number('solvable')
        self.max_distance = self.number('max_distance')
        if self.solvable > self.states or \
                (self.mod4 and self.solvable != self.states):
            raise TableError('%d solvable of %d states%s'
                             % (self.solvable, self.states,
                                ' (mod4: all)' if self.mod4 else ''))
        top = PACKED4_MAX if self.encoding == 'packed4' \
            else BYTE_MAX if self.exact else MAX_DISTANCE
        if self.max_distance > top:
            raise TableError('max_distance %d (at most %d for %s)'
                             % (self.max_distance, top, self.encoding))
        if not self.fields.get('digest', '').startswith('sha256:'):
            raise TableError('header has no sha256 digest')
        if 'stats_sha256' not in self.fields:
            raise TableError('header has no stats_sha256')

    def number(self, key):
        v = self.fields.get(key, '')
        if not v.isdigit():
            raise TableError('header has no number %r' % key)
        return int(v)

    # ---- stats --------------------------------------------------------

    def read_stats(self):
        """The stats record, checked: ({distance: count}, [(sub, index)])."""
        if self.stats is not None:
            return self.stats
        raw = self.raw_stats
        if len(raw) > STATS_MAX:
            raise TableError('stats of %d bytes (at most %d)'
                             % (len(raw), STATS_MAX))
        computed = hashlib.sha256(raw).hexdigest()
        if computed != self.fields['stats_sha256']:
            raise TableError('stats_sha256 mismatch: header %s, stats %s'
                             % (self.fields['stats_sha256'], computed))
        _, lines = parse_text(raw, 'stats')
        hist, farthest = {}, []
        for line in lines:
            key, _, value = line.partition(' ')
            nums = value.split(' ')
            if key not in ('distance', 'farthest'):
                continue                       # readers ignore unknown keys
            if len(nums) != 2 or not all(x.isdigit() for x in nums):
                raise TableError('stats line %r' % line)
            a, b = (int(x) for x in nums)
            if key == 'distance':
                if farthest:
                    raise TableError('a distance line after farthest lines')
                if a > MAX_DISTANCE or b == 0 or (hist and a <= max(hist)):
                    raise TableError('stats line %r (D at most %d, N > 0, '
                                     'D ascending)' % (line, MAX_DISTANCE))
                hist[a] = b
            else:
                if len(farthest) == 8:
                    raise TableError('more than 8 farthest states')
                if a >= self.subtables or b >= self.sizes[a]:
                    raise TableError('farthest state %d %d does not exist'
                                     % (a, b))
                farthest.append((a, b))
        if sum(hist.values()) != self.solvable:
            raise TableError('stats count %d solvable states, header says %d'
                             % (sum(hist.values()), self.solvable))
        if max(hist, default=0) != self.max_distance:
            raise TableError('stats: largest distance %d, header says %d'
                             % (max(hist, default=0), self.max_distance))
        self.stats = hist, farthest
        return self.stats

    # ---- in place: chunks ---------------------------------------------

    def check_bytes(self, start, end):
        """Checks (once) the chunks holding bytes start..end-1 of values."""
        for c in range(start // CHUNK, (max(end, start + 1) - 1) // CHUNK + 1):
            if c in self.checked:
                continue
            if chunk_check(self.values[c * CHUNK:(c + 1) * CHUNK]) != \
                    self.checks[c]:
                raise TableError('chunk %d of values (bytes %d..%d) fails '
                                 'its check' % (c, c * CHUNK,
                                                min((c + 1) * CHUNK,
                                                    len(self.values)) - 1))
            self.checked.add(c)

    def check_all_chunks(self):
        self.check_bytes(0, len(self.values))

    def exact_value(self, v, where):
        """A stored exact distance, checked; None for no path."""
        if v > self.max_distance:
            raise TableError('%s: value %d over max_distance %d'
                             % (where, v, self.max_distance))
        return v

    def sparse_block(self, b):
        """(first entry, end entry) of sparse block b, checked."""
        self.check_bytes(4 * b, 4 * b + 8)
        lo, hi = struct.unpack_from('<2I', self.values, 4 * b)
        if not lo <= hi <= self.solvable or \
                hi - lo > min(SPARSE_BLOCK, self.states - b * SPARSE_BLOCK):
            raise TableError('sparse block %d: entries %d..%d out of order '
                             'or outside 0..%d' % (b, lo, hi, self.solvable))
        return lo, hi

    # ---- zstd blocks --------------------------------------------------

    def block_len(self, b):
        """Number of values in block b."""
        return min(self.block_values, self.states - b * self.block_values)

    def packed_len(self, b):
        n = self.block_len(b)
        return n if self.exact else (n + 3) // 4

    def frame(self, b):
        """The zstd frame of block b, where the index puts it."""
        start, end = self.index[b], self.index[b + 1]
        if not start <= end <= len(self.values):
            raise TableError('block %d: index %d..%d outside values'
                             % (b, start, end))
        return self.values[start:end]

    def decode(self, b, frame):
        """The uncompressed bytes of block b; zstd checks the frame's
        content checksum."""
        want = self.packed_len(b)
        if len(frame) < 6 or not frame[4] & 4:
            raise TableError('block %d: frame without a checksum' % b)
        try:
            params = zstandard.get_frame_parameters(frame)
            if params.content_size != want:
                raise TableError('block %d: content size %d, expected %d'
                                 % (b, params.content_size, want))
            # one frame spanning its offsets exactly: decompressobj stops
            # at the end of the first frame and keeps what follows
            dobj = self.dctx.decompressobj()
            raw = dobj.decompress(frame)
            if dobj.unused_data or not dobj.eof:
                raise TableError('block %d: the frame does not span its '
                                 'offsets exactly' % b)
        except zstandard.ZstdError as e:
            raise TableError('block %d: %s' % (b, e))
        if len(raw) != want:
            raise TableError('block %d: %d bytes, expected %d'
                             % (b, len(raw), want))
        return raw

    def each_block(self):
        """Yields (block number, uncompressed bytes), in order."""
        for b in range(self.nblocks):
            yield b, self.decode(b, self.frame(b))

    # ---- one value ----------------------------------------------------

    def value(self, sub, index):
        """The stored value of state index of subtable sub: a distance, a
        distance mod 3, the second bit of a distance (mod4), or None when
        no goal can be reached."""
        if not 0 <= sub < self.subtables:
            raise ValueError('subtable %d out of range 0..%d'
                             % (sub, self.subtables - 1))
        if not 0 <= index < self.sizes[sub]:
            raise ValueError('index %d out of range 0..%d'
                             % (index, self.sizes[sub] - 1))
        g = self.starts[sub] + index
        where = 'state %d (subtable %d index %d)' % (g, sub, index)
        if self.encoding == 'packed1':
            self.check_bytes(g // 8, g // 8 + 1)
            return self.values[g // 8] >> (g % 8) & 1
        if self.encoding == 'packed3':
            self.check_bytes(g // 5, g // 5 + 1)
            byte = self.values[g // 5]
            if byte > 242:
                raise TableError('packed3 byte %d is %d' % (g // 5, byte))
            return byte // 3 ** (g % 5) % 3
        if self.encoding == 'packed4':
            self.check_bytes(g // 2, g // 2 + 1)
            v = self.values[g // 2] >> (4 * (g % 2)) & 15
            return None if v == 15 else self.exact_value(v, where)
        if self.encoding == 'sparse':
            b, i = divmod(g, SPARSE_BLOCK)
            lo, hi = self.sparse_block(b)
            self.check_bytes(self.pos_at + 2 * lo, self.pos_at + 2 * hi)
            pos = struct.unpack_from('<%dH' % (hi - lo), self.values,
                                     self.pos_at + 2 * lo)
            k = bisect.bisect_left(pos, i)
            if k == len(pos) or pos[k] != i:
                return None
            self.check_bytes(self.dist_at + lo + k, self.dist_at + lo + k + 1)
            return self.exact_value(self.values[self.dist_at + lo + k], where)
        b, i = divmod(g, self.block_values)
        raw = self.decode(b, self.frame(b))
        if self.exact:
            v = raw[i]
            return None if v == 255 else self.exact_value(v, where)
        v = raw[i // 4] >> (2 * (i % 4)) & 3
        if v == 3:
            raise TableError('block %d: a 2-bit value of 3' % b)
        return v

    # ---- checks -------------------------------------------------------

    def meta_sha256(self):
        """(recorded, recomputed) meta_sha256: the hash of the header text
        before its last line."""
        head, _, last = self.text.rstrip('\n').rpartition('\n')
        recorded = last.split(' ', 1)[1]
        computed = hashlib.sha256((head + '\n').encode('utf-8')).hexdigest()
        return recorded, computed

    def scan(self):
        """Decodes every value, checking every chunk (in place) or frame
        (zstd): returns (digest, counts), the digest as the header writes
        it and the number of values of each stored value (0..255 for exact
        tables, 255 for no path; 0..3 for mod3; 0..1 for mod4)."""
        counts = [0] * (256 if self.exact else 4)
        if self.in_place:
            self.check_all_chunks()
            digest = 'sha256:' + hashlib.sha256(self.values).hexdigest()
            getattr(self, '_scan_' + self.encoding)(counts)
            return digest, counts
        h = hashlib.sha256()
        for b, raw in self.each_block():
            h.update(raw)
            n = self.block_len(b)
            if self.exact:
                for v in set(raw):
                    counts[v] += raw.count(v)
                continue
            whole = n // 4            # bytes whose four items are all values
            body = raw[:whole]
            for byte in set(body):
                k = body.count(byte)
                for j in range(4):
                    counts[byte >> (2 * j) & 3] += k
            for i in range(4 * whole, n):
                counts[raw[i // 4] >> (2 * (i % 4)) & 3] += 1
            if n % 4 and raw[-1] >> (2 * (n % 4)):
                raise TableError('block %d: bits past its last value' % b)
        if self.exact:
            bad = [v for v in range(self.max_distance + 1, 255) if counts[v]]
            if bad:
                raise TableError('%d values of %d, over max_distance %d'
                                 % (counts[bad[0]], bad[0], self.max_distance))
        return 'sha256:' + h.hexdigest(), counts

    def _scan_packed1(self, counts):
        ones = sum(bin(byte).count('1') * self.values.count(byte)
                   for byte in set(self.values))
        pad = 8 * len(self.values) - self.states
        if pad and self.values[-1] >> (8 - pad):
            raise TableError('packed1 bits past the last state are not 0')
        counts[1] = ones
        counts[0] = self.states - ones

    def _scan_packed3(self, counts):
        for byte in set(self.values):
            if byte > 242:
                raise TableError('a packed3 byte is %d' % byte)
            k = self.values.count(byte)
            for j in range(5):
                counts[byte // 3 ** j % 3] += k
        pad = 5 * len(self.values) - self.states
        if pad and self.values[-1] // 3 ** (5 - pad):
            raise TableError('packed3 digits past the last state are not 0')
        counts[0] -= pad

    def _scan_packed4(self, counts):
        for byte in set(self.values):
            k = self.values.count(byte)
            for v in (byte & 15, byte >> 4):
                if self.max_distance < v < 15:
                    raise TableError('a packed4 value of %d, over '
                                     'max_distance %d'
                                     % (v, self.max_distance))
                counts[255 if v == 15 else v] += k
        if self.states % 2:
            if self.values[-1] >> 4:
                raise TableError('packed4 nibble past the last state is not 0')
            counts[0] -= 1

    def _scan_sparse(self, counts):
        starts = struct.unpack_from('<%dI' % (self.nblocks + 1), self.values)
        if starts[0] != 0 or starts[-1] != self.solvable:
            raise TableError('sparse starts run from %d to %d, %d solvable'
                             % (starts[0], starts[-1], self.solvable))
        pos = struct.unpack_from('<%dH' % self.solvable, self.values,
                                 self.pos_at)
        for b in range(self.nblocks):
            lo, hi = starts[b], starts[b + 1]
            if not lo <= hi <= self.solvable:
                raise TableError('sparse block %d: entries %d..%d out of '
                                 'order' % (b, lo, hi))
            n = min(SPARSE_BLOCK, self.states - b * SPARSE_BLOCK)
            p = pos[lo:hi]
            if any(x >= y for x, y in zip(p, p[1:])) or (p and p[-1] >= n):
                raise TableError('sparse block %d: positions not rising or '
                                 'past the block' % b)
        dist = self.values[self.dist_at:]
        for v in set(dist):
            if v > self.max_distance:
                raise TableError('a sparse distance of %d, over '
                                 'max_distance %d' % (v, self.max_distance))
            counts[v] += dist.count(v)
        counts[255] = self.states - self.solvable


def check_digest(t, digest):
    if digest != t.fields.get('digest'):
        raise TableError('digest mismatch: header %s, values %s'
                         % (t.fields.get('digest'), digest))


def histogram(t):
    """The distance histogram (a list indexed by distance), checked against
    the values and the stats record; raises TableError on any
    disagreement."""
    digest, counts = t.scan()
    check_digest(t, digest)
    recorded, _ = t.read_stats()
    if t.exact:
        hist = counts[:255]
        unsolvable = counts[255]
        top = max((d for d in range(255) if hist[d]), default=0)
        want = [recorded.get(d, 0) for d in range(255)]
        if hist != want:
            d = next(d for d in range(255) if hist[d] != want[d])
            raise TableError('distance %d: %d values, stats say %d'
                             % (d, hist[d], want[d]))
        if top != t.max_distance:
            raise TableError('largest distance %d, header says %d'
                             % (top, t.max_distance))
    elif t.mod4:
        hist = [recorded.get(d, 0) for d in range(t.max_distance + 1)]
        unsolvable = 0                          # mod4: every state solvable
        for bit in range(2):
            want = sum(n for d, n in enumerate(hist) if d // 2 % 2 == bit)
            if want != counts[bit]:
                raise TableError('%d values have second bit %d, the stats\' '
                                 'distances give %d' % (counts[bit], bit,
                                                        want))
    else:
        hist = [recorded.get(d, 0) for d in range(t.max_distance + 1)]
        unsolvable = t.states - t.solvable      # stored 0, like distance 0
        if counts[3]:
            raise TableError('%d 2-bit values of 3' % counts[3])
        for r in range(3):
            want = sum(hist[r::3]) + (unsolvable if r == 0 else 0)
            if want != counts[r]:
                raise TableError('%d values are %d mod 3, the stats\' '
                                 'distances give %d' % (counts[r], r, want))
    if sum(hist) != t.solvable or unsolvable != t.states - t.solvable:
        raise TableError('%d solvable and %d unsolvable values, header says '
                         '%d of %d states solvable'
                         % (sum(hist), unsolvable, t.solvable, t.states))
    return hist[:t.max_distance + 1]


def main():
    ap = argparse.ArgumentParser(
        description='Read a puzzletb table (tables/FORMAT.md).')
    ap.add_argument('table', help='a table file, such as tables/swap.mdb')
    what = ap.add_mutually_exclusive_group()
    what.add_argument('--value', nargs=2, type=int,
                      metavar=('SUBTABLE', 'INDEX'),
                      help='print the stored value of one state')
    what.add_argument('--histogram', action='store_true',
                      help='print "distance count" lines')
    what.add_argument('--verify-digest', action='store_true',
                      help='check every chunk and frame, recompute the '
                      'digest, meta_sha256 and stats_sha256')
    args = ap.parse_args()
    me = os.path.basename(sys.argv[0])
    try:
        t = Table(args.table)
        if args.value:
            try:
                v = t.value(*args.value)
            except ValueError as e:
                print('%s: %s' % (me, e), file=sys.stderr)
                return 2
            print('unsolvable' if v is None else v)
        elif args.histogram:
            hist = histogram(t)
            print('# %s %s: %d states, %d solvable, %d unsolvable, '
                  'max distance %d' % (t.fields.get('puzzle'),
                                       t.fields.get('metric'), t.states,
                                       t.solvable, t.states - t.solvable,
                                       t.max_distance))
            for d, n in enumerate(hist):
                print(d, n)
        elif args.verify_digest:      # meta_sha256 was checked at open
            t.read_stats()
            digest, _ = t.scan()
            check_digest(t, digest)
            print('%s: meta_sha256, stats_sha256, %s and digest %s match (%s)'
                  % (args.table,
                     '%d chunk checks' % t.chunks if t.in_place
                     else '%d frame checksums' % t.nblocks,
                     digest, t.encoding))
        else:
            sys.stdout.write(t.text)
    except TableError as e:
        print('%s: %s: %s' % (me, args.table, e), file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
