#!/usr/bin/python3
"""tests/tamper.py TABLE SUBTABLE INDEX: changes the stored value of one state
and recomputes everything that would otherwise give it away (the block's
zstd frame and checksum, the digest, meta_sha256), so that only a check of
the values themselves (tblookup --verify) can find it.  Follows
tables/FORMAT.md.  Prints the old and new value."""
import hashlib
import os
import struct
import sys

import lmdb
import zstandard as zstd

path, sub, index = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
env = lmdb.open(path, subdir=False, lock=False, max_dbs=2,
                map_size=2 * os.path.getsize(path) + (16 << 20))
with env.begin(write=True) as txn:
    meta = env.open_db(b'meta', txn=txn)
    blocks = env.open_db(b'blocks', txn=txn)
    text = txn.get(b'header', db=meta).decode()
    header = dict(line.split(' ', 1) for line in text.splitlines())
    sizes_raw = bytes(txn.get(b'sizes', db=meta))
    sizes = struct.unpack('>%dQ' % (len(sizes_raw) // 8), sizes_raw)
    dict_raw = txn.get(b'dictionary', db=meta)
    dict_raw = bytes(dict_raw) if dict_raw is not None else b''
    zdict = zstd.ZstdCompressionDict(dict_raw) if dict_raw else None
    dec = zstd.ZstdDecompressor(dict_data=zdict) if zdict else zstd.ZstdDecompressor()
    enc_args = dict(level=19, write_checksum=True, write_content_size=True)
    if zdict:
        enc_args['dict_data'] = zdict
    enc = zstd.ZstdCompressor(**enc_args)
    bv = int(header['block_values'])
    assert sub < len(sizes) and index < sizes[sub], 'no such state'
    g = sum(sizes[:sub]) + index
    key = struct.pack('>Q', g // bv)
    data = bytearray(dec.decompress(bytes(txn.get(key, db=blocks))))
    i = g % bv
    if header['encoding'] == 'mod3':
        old = data[i // 4] >> (2 * (i % 4)) & 3
        new = (old + 1) % 3 if old != 3 else 0
        data[i // 4] = (data[i // 4] & ~(3 << (2 * (i % 4))) & 0xFF) | new << (2 * (i % 4))
    else:
        old = data[i]
        new = old + 1 if old < 254 else 0
        data[i] = new
    txn.put(key, enc.compress(bytes(data)), db=blocks)
    digest = hashlib.sha256()
    for _, frame in txn.cursor(db=blocks):
        digest.update(dec.decompress(bytes(frame)))
    lines = [l for l in text.splitlines() if not l.startswith('meta_sha256 ')]
    lines = ['digest sha256:' + digest.hexdigest() if l.startswith('digest ')
             else l for l in lines]
    body = '\n'.join(lines) + '\n'
    meta_sum = hashlib.sha256(body.encode()).hexdigest()
    txn.put(b'header', (body + 'meta_sha256 ' + meta_sum + '\n').encode(), db=meta)
env.close()
print('value of subtable %d index %d: %d -> %d' % (sub, index, old, new))
