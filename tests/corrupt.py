#!/usr/bin/python3
"""tests/corrupt.py TABLE SUBTABLE INDEX: damages, in place and leaving every
checksum as it was, the bytes that hold the value of (SUBTABLE, INDEX), so a
test can check that the reader refuses the table (and never answers with a
wrong value).  Follows tables/FORMAT.md (format 6):
  zstd     one byte in the middle of its block's frame, flipped;
  packed1  its bit, flipped (every byte is a valid packed1 byte: only the
           chunk check can tell);
  packed3  the byte that holds it, set to 255 (out of range);
  packed4  its nibble, set to 14 (over max_distance, unless that is 14:
           then the nibble's low bit is flipped);
  sparse   a state with an entry: its distance byte, set to 255 (over
           max_distance); one without (no path): a byte in the middle of its
           block's positions, flipped (its block's starts when the block has
           no entries).
The in-place encodings' chunk check (in "checks") then fails as well."""
import struct
import sys

import lmdb

SPARSE_BLOCK = 65536

path, sub, index = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
env = lmdb.open(path, subdir=False, readonly=True, lock=False, max_dbs=0)
with env.begin() as txn:
    header = dict(line.split(' ', 1) for line in
                  bytes(txn.get(b'header')).decode().splitlines())
    raw = txn.get(b'sizes')
    sizes = struct.unpack('>%dQ' % (len(raw) // 8), raw)
    values = bytes(txn.get(b'values'))
    assert sub < len(sizes) and index < sizes[sub], 'no such state'
    g = sum(sizes[:sub]) + index
    enc = header['encoding']
    set_to = None         # a new value for a one-byte range, else a flip
    if enc == 'packed1':
        start, end = g // 8, g // 8 + 1
        set_to = values[start] ^ 1 << (g % 8)
        what = 'packed1 byte %d (bit %d flipped)' % (start, g % 8)
    elif enc == 'packed3':
        start, what, set_to = g // 5, 'packed3 byte %d' % (g // 5), 255
        end = start + 1
    elif enc == 'packed4':
        start, shift = g // 2, 4 * (g % 2)
        end = start + 1
        nib = values[start] >> shift & 15
        new = 14 if int(header['max_distance']) < 14 else nib ^ 1
        set_to = (values[start] & ~(15 << shift) & 0xFF) | new << shift
        what = 'packed4 byte %d (nibble %d -> %d)' % (start, nib, new)
    elif enc == 'sparse':
        solvable = int(header['solvable'])
        blocks = -(-int(header['states']) // SPARSE_BLOCK)
        pos_at = 4 * (blocks + 1)
        b, i = divmod(g, SPARSE_BLOCK)
        lo, hi = struct.unpack_from('<2I', values, 4 * b)
        pos = struct.unpack_from('<%dH' % (hi - lo), values, pos_at + 2 * lo)
        if i in pos:
            start = pos_at + 2 * solvable + lo + pos.index(i)
            end, set_to = start + 1, 255
            what = 'sparse distance byte %d' % start
        elif hi > lo:
            start, end = pos_at + 2 * lo, pos_at + 2 * hi
            what = 'sparse positions of block %d' % b
        else:
            start, end = 4 * b, 4 * b + 8
            what = 'sparse starts of block %d' % b
    else:
        b = g // int(header['block_values'])
        ix = txn.get(b'index')
        start, end = struct.unpack('>2Q', ix[8 * b:8 * b + 16])
        what = 'block %d' % b
env.close()
data = bytearray(open(path, 'rb').read())
at = data.find(values)
assert at >= 0 and data.find(values, at + 1) < 0, 'values not found once'
pos = at + (start + end) // 2
data[pos] = set_to if set_to is not None else data[pos] ^ 0x20
open(path, 'wb').write(data)
print('changed byte %d in %s' % (pos, what))
