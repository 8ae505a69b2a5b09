#!/usr/bin/python3
"""tests/corrupt.py TABLE SUBTABLE INDEX: flips one byte in the middle of the
zstd frame that holds the value of (SUBTABLE, INDEX), in place, so a test can
check that the reader refuses the table.  Follows tables/FORMAT.md."""
import struct
import sys

import lmdb

path, sub, index = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
env = lmdb.open(path, subdir=False, readonly=True, lock=False, max_dbs=2)
with env.begin() as txn:
    meta = env.open_db(b'meta', txn=txn)
    blocks = env.open_db(b'blocks', txn=txn)
    header = dict(line.split(' ', 1) for line in
                  txn.get(b'header', db=meta).decode().splitlines())
    raw = txn.get(b'sizes', db=meta)
    sizes = struct.unpack('>%dQ' % (len(raw) // 8), raw)
    block = (sum(sizes[:sub]) + index) // int(header['block_values'])
    frame = bytes(txn.get(struct.pack('>Q', block), db=blocks))
env.close()
data = bytearray(open(path, 'rb').read())
at = data.find(frame)
assert at >= 0 and data.find(frame, at + 1) < 0, 'frame not found once'
data[at + len(frame) // 2] ^= 0x20
open(path, 'wb').write(data)
print('flipped byte %d in block %d' % (at + len(frame) // 2, block))
