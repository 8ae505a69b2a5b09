#!/usr/bin/python3
"""scripts/ptb_read.py: reads a puzzletb table without puzzletb's code.

Written from tables/FORMAT.md alone, with Debian's python3-lmdb and
python3-zstandard (run it with /usr/bin/python3: other Pythons may lack them).
It is an independent second reader: tests/t_python.sh compares its answers
with tblookup's.

  ptb_read.py TABLE                     print the meta record (header text)
  ptb_read.py TABLE --value SUB INDEX   print the stored value of one state:
                                        the distance or "unsolvable" (exact
                                        tables), the distance mod 3 (mod3
                                        tables, 0 for unsolvable states)
  ptb_read.py TABLE --histogram         print "distance count" lines, 0 to
                                        max_distance: counted from the values
                                        (exact tables) or taken from the header
                                        and checked against the residues
                                        (mod3); checks the digest either way
  ptb_read.py TABLE --verify-digest     decode every value, recompute the
                                        digest and meta_sha256

Both encodings of format 2 are read: packed3 (five base-3 digits a byte)
and zstd (frames laid end to end in "values", located by "index").

Every use checks meta_sha256 (the header's own hash) first.  Exit status: 0
done, 1 the table is unreadable or fails a check (one line on stderr says
which), 2 bad usage.
"""
import argparse
import hashlib
import os
import struct
import sys

import lmdb
import zstandard

FORMAT = 2
RECORDS = {b'dictionary', b'header', b'index', b'sizes', b'values'}
MAGIC = 'puzzletb'


class TableError(Exception):
    """The table is missing, damaged or not a puzzletb table."""


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
        if size < (info['last_pgno'] + 1) * stat['psize']:
            raise TableError('truncated: %d bytes, LMDB needs %d'
                             % (size, (info['last_pgno'] + 1) * stat['psize']))
        try:
            self.txn = self.env.begin(buffers=False)
            rec = dict(self.txn.cursor())   # the main database: five keys
        except lmdb.Error as e:
            raise TableError('not a puzzletb table: %s' % e)
        if b'header' not in rec and b'meta' in rec:
            raise TableError('format 1 (an older format): rebuild it')
        if set(rec) - RECORDS:
            raise TableError('unexpected keys %s' % sorted(set(rec) - RECORDS))
        self.raw_header = rec.get(b'header')
        sizes = rec.get(b'sizes')
        if self.raw_header is None or sizes is None or b'values' not in rec:
            raise TableError('not a puzzletb table: no header, sizes or '
                             'values record')
        self._parse_header()
        if len(sizes) != 8 * self.subtables:
            raise TableError('sizes record has %d bytes for %d subtables'
                             % (len(sizes), self.subtables))
        self.sizes = struct.unpack('>%dQ' % self.subtables, sizes)
        if sum(self.sizes) != self.states:
            raise TableError('subtable sizes add up to %d, header says %d '
                             'states' % (sum(self.sizes), self.states))
        self.values = rec[b'values']
        if len(self.values) != self.number('values_bytes'):
            raise TableError('values record has %d bytes, header says %d'
                             % (len(self.values), self.number('values_bytes')))
        self.dictionary = rec.get(b'dictionary')
        if len(self.dictionary or b'') != self.number('dictionary'):
            raise TableError('dictionary record has %d bytes, header says %d'
                             % (len(self.dictionary or b''),
                                self.number('dictionary')))
        if self.packed3:
            if len(self.values) != -(-self.states // 5):
                raise TableError('packed3 values: %d bytes for %d states'
                                 % (len(self.values), self.states))
            return
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
        try:
            self.text = self.raw_header.decode('ascii')
        except UnicodeDecodeError:
            raise TableError('header is not ASCII text')
        self.fields, self.histogram, self.farthest = {}, {}, []
        lines = self.text.split('\n')
        if lines and lines[-1] == '':
            lines.pop()
        for line in lines:
            key, sep, value = line.partition(' ')
            if not sep:
                raise TableError('header line without a value: %r' % line)
            if key == 'distance':
                d, n = (int(x) for x in value.split())
                self.histogram[d] = n
            elif key == 'farthest':
                self.farthest.append(tuple(int(x) for x in value.split()))
            else:
                self.fields.setdefault(key, value)
        if not lines or lines[0] != 'magic ' + MAGIC:
            raise TableError('not a puzzletb table (no magic line)')
        if self.fields.get('format') != str(FORMAT):
            raise TableError('format %s, this reader knows %d'
                             % (self.fields.get('format'), FORMAT))
        if not lines[-1].startswith('meta_sha256 '):
            raise TableError('header does not end with meta_sha256')
        recorded, computed = self.meta_sha256()
        if recorded != computed:
            raise TableError('meta_sha256 mismatch: header %s, text %s'
                             % (recorded, computed))
        kind = self.fields.get('values')
        if kind not in ('exact', 'mod3'):
            raise TableError('unknown values %r' % kind)
        self.exact = kind == 'exact'
        self.encoding = self.fields.get('encoding')
        if self.encoding not in ('packed3', 'zstd') or \
                (self.exact and self.encoding == 'packed3'):
            raise TableError('unknown encoding %r for %s values'
                             % (self.encoding, kind))
        self.packed3 = self.encoding == 'packed3'
        self.block_values = self.number('block_values')
        if self.packed3 and self.block_values != 0:
            raise TableError('packed3 with block_values %d' % self.block_values)
        if not self.packed3 and (self.block_values <= 0 or
                                 self.block_values % 4):
            raise TableError('bad block_values %d' % self.block_values)
        self.subtables = self.number('subtables')
        self.states = self.number('states')
        self.solvable = self.number('solvable')
        self.max_distance = self.number('max_distance')

    def number(self, key):
        try:
            return int(self.fields[key])
        except (KeyError, ValueError):
            raise TableError('header has no number %r' % key)

    # ---- blocks -------------------------------------------------------

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
            size = zstandard.frame_content_size(frame)
            if size != want:
                raise TableError('block %d: content size %d, expected %d'
                                 % (b, size, want))
            raw = self.dctx.decompress(frame)
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

    def value(self, sub, index):
        """The stored value of state index of subtable sub: a distance, a
        distance mod 3, or None when no goal can be reached."""
        if not 0 <= sub < self.subtables:
            raise ValueError('subtable %d out of range 0..%d'
                             % (sub, self.subtables - 1))
        if not 0 <= index < self.sizes[sub]:
            raise ValueError('index %d out of range 0..%d'
                             % (index, self.sizes[sub] - 1))
        g = sum(self.sizes[:sub]) + index
        if self.packed3:
            byte = self.values[g // 5]
            if byte > 242:
                raise TableError('packed3 byte %d is %d' % (g // 5, byte))
            return byte // 3 ** (g % 5) % 3
        b, i = divmod(g, self.block_values)
        raw = self.decode(b, self.frame(b))
        if self.exact:
            v = raw[i]
            return None if v == 255 else v
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
        computed = hashlib.sha256((head + '\n').encode('ascii')).hexdigest()
        return recorded, computed

    def scan(self):
        """Decodes every block: returns (digest, counts), the SHA-256 of the
        uncompressed blocks and the number of values of each stored value
        (0..255 for exact tables, 0..3 for mod3)."""
        h = hashlib.sha256()
        counts = [0] * (256 if self.exact else 4)
        if self.packed3:
            h.update(self.values)
            for byte in set(self.values):
                if byte > 242:
                    raise TableError('a packed3 byte is %d' % byte)
                k = self.values.count(byte)
                for j in range(5):
                    counts[byte // 3 ** j % 3] += k
            counts[0] -= 5 * len(self.values) - self.states   # the padding
            return 'sha256:' + h.hexdigest(), counts
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
        return 'sha256:' + h.hexdigest(), counts


def check_digest(t, digest):
    if digest != t.fields.get('digest'):
        raise TableError('digest mismatch: header %s, values %s'
                         % (t.fields.get('digest'), digest))


def histogram(t):
    """The distance histogram (a list indexed by distance), checked against
    the values and the header; raises TableError on any disagreement."""
    digest, counts = t.scan()
    check_digest(t, digest)
    if t.exact:
        hist = counts[:255]
        unsolvable = counts[255]
        top = max((d for d in range(255) if hist[d]), default=0)
        recorded = [t.histogram.get(d, 0) for d in range(255)]
        if hist != recorded:
            d = next(d for d in range(255) if hist[d] != recorded[d])
            raise TableError('distance %d: %d values, header says %d'
                             % (d, hist[d], recorded[d]))
        if top != t.max_distance:
            raise TableError('largest distance %d, header says %d'
                             % (top, t.max_distance))
    else:
        hist = [t.histogram.get(d, 0) for d in range(t.max_distance + 1)]
        unsolvable = t.states - t.solvable      # stored 0, like distance 0
        if counts[3]:
            raise TableError('%d 2-bit values of 3' % counts[3])
        for r in range(3):
            want = sum(hist[r::3]) + (unsolvable if r == 0 else 0)
            if want != counts[r]:
                raise TableError('%d values are %d mod 3, the header\'s '
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
                      help='recompute the digest and meta_sha256')
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
            digest, _ = t.scan()
            check_digest(t, digest)
            print('%s: meta_sha256 and digest %s match (%s)'
                  % (args.table, digest, t.encoding))
        else:
            sys.stdout.write(t.text)
    except TableError as e:
        print('%s: %s: %s' % (me, args.table, e), file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
