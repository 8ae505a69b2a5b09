#!/usr/bin/python3
"""tests/tamper.py TABLE SUBTABLE INDEX: changes the stored value of one state
and recomputes everything that would otherwise give it away (for zstd: the
block's frame and checksum, and the index; for packed3: nothing but the
digest; then meta_sha256), so that only a check of the values themselves
(tblookup --verify) can find it.  Follows tables/FORMAT.md (format 2).
Prints the old and new value."""
import hashlib
import os
import struct
import sys

import lmdb
import zstandard as zstd

path, sub, index = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
env = lmdb.open(path, subdir=False, lock=False, max_dbs=0,
                map_size=2 * os.path.getsize(path) + (16 << 20))
with env.begin(write=True) as txn:
    text = txn.get(b'header').decode()
    header = dict(line.split(' ', 1) for line in text.splitlines())
    sizes_raw = bytes(txn.get(b'sizes'))
    sizes = struct.unpack('>%dQ' % (len(sizes_raw) // 8), sizes_raw)
    assert sub < len(sizes) and index < sizes[sub], 'no such state'
    g = sum(sizes[:sub]) + index
    values = bytearray(txn.get(b'values'))
    digest = hashlib.sha256()
    if header['encoding'] == 'packed3':
        byte, digit = g // 5, 3 ** (g % 5)
        old = values[byte] // digit % 3
        new = (old + 1) % 3
        values[byte] += (new - old) * digit
        digest.update(values)
    else:
        dict_raw = txn.get(b'dictionary')
        zdict = zstd.ZstdCompressionDict(
            bytes(dict_raw), dict_type=zstd.DICT_TYPE_RAWCONTENT) \
            if dict_raw else None
        dec = zstd.ZstdDecompressor(dict_data=zdict) if zdict \
            else zstd.ZstdDecompressor()
        enc_args = dict(level=19, write_checksum=True, write_content_size=True)
        if zdict:
            enc_args['dict_data'] = zdict
        enc = zstd.ZstdCompressor(**enc_args)
        raw_index = bytes(txn.get(b'index'))
        offs = struct.unpack('>%dQ' % (len(raw_index) // 8), raw_index)
        frames = [bytes(values[offs[b]:offs[b + 1]])
                  for b in range(len(offs) - 1)]
        bv = int(header['block_values'])
        b, i = divmod(g, bv)
        data = bytearray(dec.decompress(frames[b]))
        if header['values'] == 'mod3':
            old = data[i // 4] >> (2 * (i % 4)) & 3
            new = (old + 1) % 3
            data[i // 4] = (data[i // 4] & ~(3 << (2 * (i % 4))) & 0xFF) \
                | new << (2 * (i % 4))
        else:
            old = data[i]
            new = old + 1 if old < 254 else 0
            data[i] = new
        frames[b] = enc.compress(bytes(data))
        values = b''.join(frames)
        at = [0]
        for f in frames:
            at.append(at[-1] + len(f))
        txn.put(b'index', struct.pack('>%dQ' % len(at), *at))
        for f in frames:
            digest.update(dec.decompress(f))
    txn.put(b'values', bytes(values))
    lines = [l for l in text.splitlines() if not l.startswith('meta_sha256 ')]
    lines = ['digest sha256:' + digest.hexdigest() if l.startswith('digest ')
             else 'values_bytes %d' % len(values)
             if l.startswith('values_bytes ') else l for l in lines]
    body = '\n'.join(lines) + '\n'
    meta_sum = hashlib.sha256(body.encode()).hexdigest()
    txn.put(b'header', (body + 'meta_sha256 ' + meta_sum + '\n').encode())
env.close()
print('value of subtable %d index %d: %d -> %d' % (sub, index, old, new))
