#!/usr/bin/python3
"""tests/corrupt.py TABLE SUBTABLE INDEX: flips one byte of the encoded value
of (SUBTABLE, INDEX), in place, so a test can check that the reader refuses
the table: in the middle of its block's zstd frame, or (packed3) the byte
that holds it, set to 255 (out of range).  Follows tables/FORMAT.md."""
import struct
import sys

import lmdb

path, sub, index = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
env = lmdb.open(path, subdir=False, readonly=True, lock=False, max_dbs=0)
with env.begin() as txn:
    header = dict(line.split(' ', 1) for line in
                  txn.get(b'header').decode().splitlines())
    raw = txn.get(b'sizes')
    sizes = struct.unpack('>%dQ' % (len(raw) // 8), raw)
    values = bytes(txn.get(b'values'))
    g = sum(sizes[:sub]) + index
    if header['encoding'] == 'packed3':
        start, end, what = g // 5, g // 5 + 1, 'packed3 byte %d' % (g // 5)
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
data[pos] = 255 if end - start == 1 else data[pos] ^ 0x20
open(path, 'wb').write(data)
print('changed byte %d in %s' % (pos, what))
