#!/usr/bin/python3
"""tests/craft.py TABLE KEY VALUE: rewrites one header line ("KEY VALUE",
replacing the first line with that key, or adding it before meta_sha256)
and recomputes meta_sha256, so the header passes its own checksum and only
the reader's range checks can refuse it.  KEY "index0" instead sets the
first offset of the "index" record to VALUE.  Follows tables/FORMAT.md."""
import hashlib
import os
import struct
import sys

import lmdb

path, key, value = sys.argv[1], sys.argv[2], sys.argv[3]
env = lmdb.open(path, subdir=False, lock=False, max_dbs=0,
                map_size=2 * os.path.getsize(path) + (16 << 20))
with env.begin(write=True) as txn:
    if key == 'index0':
        ix = bytearray(txn.get(b'index'))
        ix[0:8] = struct.pack('>Q', int(value))
        txn.put(b'index', bytes(ix))
    else:
        lines = [l for l in txn.get(b'header').decode().splitlines()
                 if not l.startswith('meta_sha256 ')]
        at = next((i for i, l in enumerate(lines)
                   if l.split(' ', 1)[0] == key), None)
        if at is None:
            lines.append(key + ' ' + value)
        else:
            lines[at] = key + ' ' + value
        body = '\n'.join(lines) + '\n'
        txn.put(b'header', (body + 'meta_sha256 ' +
                            hashlib.sha256(body.encode()).hexdigest() +
                            '\n').encode())
env.close()
