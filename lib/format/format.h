/* format.h: the format layer (the table files: their writer and reader,
 * the values they store, the LMDB pre-check and the digest), for the
 * layers above it: tables/FORMAT.md is its specification. */
#ifndef PTB_FORMAT_H
#define PTB_FORMAT_H

#include "core/core.h"

/* ---- the values ---------------------------------------------------- */

/* The values a table stores, as the BFS finds them: the distance of every
 * state (global index order),
 * exact or mod 3, and the figures of a table's info (states, solvable,
 * max_distance, histogram, farthest).  ptb_values_free() frees it. */
typedef struct ptb_values {
    uint16_t *dist;            /* exact: 2 bytes a state, PTB_UNSOLVABLE
                                  where the goal cannot be reached; or NULL */
    uint64_t *res;             /* or mod 3: state g in bits 2 (g mod 32) of
                                  word g / 32, 3 where it cannot */
    size_t mapped;             /* the bytes of a file mapped, or 0: the
                                  heap's */
    ptb_table_info info;
} ptb_values;
/* State g's value in v: its exact distance (PTB_UNSOLVABLE: none) or its
 * distance mod 3 (3: none). */
static inline unsigned ptb_value(const ptb_values *v, uint64_t g)
{
    return v->dist ? v->dist[g]
                   : (unsigned)(v->res[g >> 5] >> (2 * (g & 31)) & 3);
}


/* ---- table_write.c, table_read.c ---------------------------------- */

/* Writes a complete table of the BFS's values (exact ones for an exact or
 * mod-4 table) to DIR/<file>, via a temporary file renamed into place.
 * A table of a reversible puzzle with more than PTB_IN_PLACE_STATES states
 * is stored in place (packed1 or packed3: a value read in O(1)) unless the
 * options force an encoding, and the writer then holds only its checks.
 * info holds what the BFS found (v->info) and gets the rest.  OS errors
 * come back as positive errno values, a zstd failure as PTB_ECOMPRESS; on
 * failure no file is left behind. */
#define PTB_IN_PLACE_STATES ((uint64_t)1 << 28)
int ptb_table_write(const ptb_space *s, const char *dir, const ptb_values *v,
                    const ptb_build_opts *o, ptb_table_info *info);

/* An exact table stores a distance in a byte (tables/FORMAT.md): at most
 * PTB_BYTE_MAX, or PTB_BYTE_NONE for no path. */
#define PTB_BYTE_MAX 254
#define PTB_BYTE_NONE 255

/* Decodes every value: values[g] gets the stored value of every state
 * (exact or PTB_BYTE_NONE; or mod 3, 0 for unsolvable; or mod 4, with the
 * puzzle's parity); checks every frame's checksum and the table's digest.
 * packed (mod-3 and mod-4 tables only, else PTB_EINVAL): 2 bits a value
 * instead, value g at bits 2 (g % 4) of values[g / 4], which the caller
 * has zeroed.  PTB_ECORRUPT names the failure in *what. */
int ptb_table_decode_all(const ptb_table *t, uint8_t *values, int packed,
                         const char **what);
/* The one way to read a stored value (as above), of state idx of subtable
 * sub: r may be NULL only when ptb_table_needs_reader(t) is 0 (in place).
 * PTB_EINVAL for a state out of range, PTB_ECORRUPT for a bad frame or
 * byte, or when the table's size of sub is not the puzzle's (checked on
 * sub's first read). */
int ptb_table_get(const ptb_table *t, ptb_reader *r, uint32_t sub,
                  uint64_t idx, unsigned *value);
int ptb_table_needs_reader(const ptb_table *t);
/* A hint that state idx of sub will be read soon: its value's cache line
 * asked for when it is stored in place; nothing else (no check, no read
 * that may fail). */
void ptb_table_prefetch(const ptb_table *t, uint32_t sub, uint64_t idx);
/* The bytes of values stored in place (which ptb_table_prefetch() can ask
 * for), or 0. */
uint64_t ptb_table_in_place_bytes(const ptb_table *t);
/* 1 when name is an encoding of FORMAT.md ("packed3", "zstd", ...). */
int ptb_table_encoding_known(const char *name);
const ptb_space *ptb_table_space(const ptb_table *t);
/* 0: exact distances; 3 or 4: the distance mod 3 or mod 4 (puzzletb.h) */
unsigned ptb_table_modulus(const ptb_table *t);

/* What a table file says it is, read without a space: the puzzle it names,
 * the metric, and for a described puzzle its description and the ranking
 * it stores, so that the layer above can build the puzzle (registry.c,
 * ptb_table_puzzle: the table knows no puzzle but through a space). */
typedef struct ptb_table_id {
    char puzzle[64], metric[64];
    char *description;           /* its lines, malloc'd; NULL: built in */
    const unsigned char *ranking; /* in the open table's map, checked;  */
    size_t ranking_len;           /* NULL when the table has none */
} ptb_table_id;
/* Opens the table at path without a space, reads its identity into *id
 * and leaves it open in *t (for the ranking; ptb_table_close() it; it can
 * answer nothing).  PTB_OK; the errors of ptb_table_open(); on failure
 * nothing is left open or allocated.  ptb_table_id_free() frees the
 * description. */
int ptb_table_identify(const char *path, ptb_table_id *id, ptb_table **t);
void ptb_table_id_free(ptb_table_id *id);

/* A table file of another kind than distances (tables/FORMAT.md, "Other
 * tables"): its header and records are the caller's, in the same file as
 * a table's, written and read by the same code.  A record: its key and
 * its bytes. */
typedef struct ptb_record {
    const char *key;
    const void *data;
    size_t len;
} ptb_record;
/* Writes DIR/<file> (via <file>.tmp, synced and renamed into place, as a
 * table is) holding the n records (keys ascending, none "header") and the
 * header record: "magic puzzletb", "format N", the caller's header lines
 * (each "key value\n"), a "padding" line when LMDB needs one and the
 * "meta_sha256" line.  The same records give the same bytes.  *bytes gets
 * the file's size.  PTB_OK; PTB_EINVAL for records out of order; PTB_EDB;
 * PTB_ENOMEM; an errno value (ENOSPC, EACCES, ...); on failure no file is
 * left behind. */
int ptb_records_write(const char *dir, const char *file, const char *header,
                      const ptb_record *rec, unsigned n, uint64_t *bytes);
/* Opens the table file at path as ptb_table_identify() does (its LMDB
 * pages pre-checked, its header's magic, version and meta_sha256), for
 * its records: *header and *len get the header's text (in the map, not
 * NUL-terminated).  ptb_table_close() it.  The errors of
 * ptb_table_open(). */
int ptb_records_open(const char *path, ptb_table **out, const char **header,
                     size_t *len);
/* The record key of a table opened so, in the map: PTB_OK, PTB_EFORMAT
 * when it has none, PTB_EDB. */
int ptb_table_record(const ptb_table *t, const char *key, const void **data,
                     size_t *len);

/* ---- mdbcheck.c ----------------------------------------------------- */

/* Checks, with pread()s only, every part of the LMDB file at path (or open
 * as fd) that liblmdb reads when the file is opened read-only and keys are
 * fetched from its main database, before liblmdb maps it: both meta pages,
 * the main database's record, its single root leaf page and every node's
 * overflow run (the table layout, one leaf of plain or big-data nodes).
 * file_size bounds every page; ptb_mdb_check() refuses anything but a regular
 * file (PTB_EFORMAT), without blocking on a FIFO.  Returns PTB_OK; PTB_ETRUNC
 * (a page past the end), PTB_EFORMAT (not LMDB 0.9 in this byte order and
 * word size, or another layout), PTB_ECORRUPT (anything else out of place),
 * PTB_ENOMEM, PTB_ENOTABLE or a positive errno when the file cannot be opened
 * or read; *what (may be NULL) names the first failure. */
int ptb_mdb_check(const char *path, uint64_t file_size, const char **what);
int ptb_mdb_check_fd(int fd, uint64_t file_size, const char **what);

/* ---- sha256.c ------------------------------------------------------- */

typedef struct ptb_sha256 {
    uint32_t h[8];
    uint64_t len;
    unsigned char buf[64];
    size_t fill;
    int portable;   /* 1: never the SHA extensions (tests set it) */
} ptb_sha256;
/* 1 when the processor's SHA extensions compress (sha256.c). */
int ptb_sha256_accelerated(void);
void ptb_sha256_init(ptb_sha256 *c);
void ptb_sha256_update(ptb_sha256 *c, const void *data, size_t n);
/* The digest (ends c): its 32 bytes, or its 64 hex digits and a NUL. */
void ptb_sha256_final(ptb_sha256 *c, unsigned char out[32]);
void ptb_sha256_hex(ptb_sha256 *c, char out[65]);

#endif
