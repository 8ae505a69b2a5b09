#!/usr/bin/python3
"""scripts/ptb_read.py: reads a puzzletb table without puzzletb's code.

Written from tables/FORMAT.md alone, with Debian's python3-lmdb and
python3-zstandard (run it with /usr/bin/python3: other Pythons may lack them).
It is an independent second reader: tests/t_python.sh compares its answers
with tblookup's.

  ptb_read.py TABLE                     print the meta record (header text)
  ptb_read.py TABLE --value SUB INDEX   print the stored value of one state:
                                        the distance (exact tables), the
                                        distance mod 3 (mod3 tables), or
                                        "unsolvable"
  ptb_read.py TABLE --histogram         print "distance count" lines, 0 to
                                        max_distance: counted from the values
                                        (exact tables) or taken from the header
                                        and checked against the residues
                                        (mod3); checks the digest either way
  ptb_read.py TABLE --verify-digest     decode every block, recompute the
                                        digest and meta_sha256

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

FORMAT = 1
MAGIC = 'puzzletb'


class TableError(Exception):
    """The table is missing, damaged or not a puzzletb table."""


def be64(n):
    return struct.pack('>Q', n)


class Table:
    """One table file, opened read-only without a lock file."""

    def __init__(self, path):
        self.path = path
        try:
            size = os.path.getsize(path)
            self.env = lmdb.open(path, subdir=False, readonly=True,
                                 lock=False, max_dbs=2)
        except (OSError, lmdb.Error) as e:
            raise TableError('cannot open: %s' % e)
        # refuse a truncated file before reading any page past the meta pages
        info, stat = self.env.info(), self.env.stat()
        if size < (info['last_pgno'] + 1) * stat['psize']:
            raise TableError('truncated: %d bytes, LMDB needs %d'
                             % (size, (info['last_pgno'] + 1) * stat['psize']))
        try:
            self.txn = self.env.begin()
            self.meta = self.env.open_db(b'meta', txn=self.txn, create=False)
            self.blocks = self.env.open_db(b'blocks', txn=self.txn,
                                           create=False)
            self.raw_header = self.txn.get(b'header', db=self.meta)
            sizes = self.txn.get(b'sizes', db=self.meta)
            self.dictionary = self.txn.get(b'dictionary', db=self.meta)
        except lmdb.Error as e:
            raise TableError('not a puzzletb table: %s' % e)
        if self.raw_header is None or sizes is None:
            raise TableError('not a puzzletb table: no header or sizes record')
        self._parse_header()
        if len(sizes) != 8 * self.subtables:
            raise TableError('sizes record has %d bytes for %d subtables'
                             % (len(sizes), self.subtables))
        self.sizes = struct.unpack('>%dQ' % self.subtables, sizes)
        if sum(self.sizes) != self.states:
            raise TableError('subtable sizes add up to %d, header says %d '
                             'states' % (sum(self.sizes), self.states))
        if len(self.dictionary or b'') != self.number('dictionary'):
            raise TableError('dictionary record has %d bytes, header says %d'
                             % (len(self.dictionary or b''),
                                self.number('dictionary')))
        if self.dictionary:
            d = zstandard.ZstdCompressionDict(self.dictionary)
            self.dctx = zstandard.ZstdDecompressor(dict_data=d)
        else:
            self.dctx = zstandard.ZstdDecompressor()
        self.nblocks = -(-self.states // self.block_values)

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
        self.encoding = self.fields.get('encoding')
        if self.encoding not in ('exact', 'mod3'):
            raise TableError('unknown encoding %r' % self.encoding)
        self.exact = self.encoding == 'exact'
        self.block_values = self.number('block_values')
        if self.block_values <= 0 or (not self.exact and self.block_values % 4):
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

    def decode(self, b, frame):
        """The uncompressed bytes of block b; zstd checks the frame's
        content checksum."""
        want = self.packed_len(b)
        if frame is None:
            raise TableError('block %d is missing' % b)
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
        """Yields (block number, uncompressed bytes), in order; every key
        from 0 to nblocks - 1 must be there, and nothing else."""
        b = 0
        for key, frame in self.txn.cursor(db=self.blocks):
            if key != be64(b) or b >= self.nblocks:
                raise TableError('unexpected block key %s (expected block %d)'
                                 % (key.hex(), b))
            yield b, self.decode(b, frame)
            b += 1
        if b != self.nblocks:
            raise TableError('%d blocks, expected %d' % (b, self.nblocks))

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
        b, i = divmod(g, self.block_values)
        raw = self.decode(b, self.txn.get(be64(b), db=self.blocks))
        if self.exact:
            v = raw[i]
            return None if v == 255 else v
        v = raw[i // 4] >> (2 * (i % 4)) & 3
        return None if v == 3 else v

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
        unsolvable = counts[3]
        for r in range(3):
            if sum(hist[r::3]) != counts[r]:
                raise TableError('%d values are %d mod 3, the header\'s '
                                 'distances give %d'
                                 % (counts[r], r, sum(hist[r::3])))
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
            print('%s: meta_sha256 and digest %s match (%d blocks)'
                  % (args.table, digest, t.nblocks))
        else:
            sys.stdout.write(t.text)
    except TableError as e:
        print('%s: %s: %s' % (me, args.table, e), file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
