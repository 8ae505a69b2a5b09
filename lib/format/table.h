/* table.h: what the table writer (table_write.c) and reader
 * (table_read.c) share, the on-disk format (tables/FORMAT.md): its
 * constants, the handle's layout and the values' encodings.  The two are
 * the only files that talk to LMDB and zstd.
 *
 * A table is one LMDB file whose main (unnamed) database holds these
 * records and nothing else: "header" (a few key-value lines, with its own
 * SHA-256), "stats" (the histogram and the farthest states, text), "sizes"
 * (the subtable sizes), "values", and as the encoding needs them "checks"
 * (a check per 512-byte chunk of values read in place), "index" (zstd:
 * where each block's frame starts) and "dictionary" (zstd, raw content).
 * The stored value of a state is its exact distance (PTB_UNSOLVABLE for no
 * path: puzzles with irreversible moves) or its distance mod 3 (reversible
 * puzzles), with every unsolvable state stored as 0, like all of its
 * neighbours; or, for a puzzle with a parity (puzzle.h) whose every state
 * is solvable, the distance mod 4, of which only the second bit is stored.
 * Encodings:
 *   packed1  mod 4: a bit a state, (d / 2) mod 2 of value g at bit g % 8 of
 *            byte g / 8; d mod 2 is the puzzle's parity of the state;
 *   packed3  mod 3: five base-3 digits a byte, value g at digit g % 5 of
 *            byte g / 5;
 *   packed4  exact, distances up to 14: two nibbles a byte, 15 = no path;
 *   sparse   exact, few solvable states: per block of 65,536 states the
 *            sorted positions of its solvable ones and their distances;
 *   zstd     blocks of block_values values (2 bits or a byte each), each a
 *            zstd frame with its content size and checksum.
 * The first four are read in place from the map, no decoding, no copy,
 * each chunk checked the first time a value is read from it; tbgen takes
 * the best of them unless zstd is at most 40 % of its size.
 *
 * Writing: plan (choose the encoding, train the dictionary when it may
 * matter), compress (the blocks, on ptb_run_threads), commit (one
 * transaction into DIR/<file>.tmp, fsync, rename, fsync the directory).
 * Reading: open maps the file read-only without a lock file and does O(1)
 * work: a few mdb_get calls and the header's checks.  A reader (one per
 * thread) decodes a zstd block the first time it is touched and keeps it;
 * its decoder is made on the first decode.
 */
#ifndef PTB_TABLE_H
#define PTB_TABLE_H

#include <errno.h>
#include <lmdb.h>
#include <string.h>
#include <sys/types.h>

#include "format.h"

#define MAGIC "puzzletb"
#define BLOCK_VALUES 16384u      /* values per zstd block, at most */
#define MIN_BLOCK_VALUES 1024u   /* ... and at least (exact tables) */
#define BLOCK_SLACK 110u         /* smaller blocks: at most 10 % larger */
#define MAX_BLOCK_VALUES (1u << 20)  /* a reader refuses more */
#define DICT_BYTES (128u << 10)  /* trained dictionary, at most */
#define SAMPLE_BYTES (16u << 20) /* blocks handed to the trainer, at most */
#define HEADER_MAX 16384u        /* bytes of the header record, at most */
#define ESTIMATE_EVERY 8u        /* zstd size estimated from 1 block in 8 */
/* Values read in place unless zstd is at least 2.5 times as small: in
 * place, a walk of 横刀立马 costs 0.3 M instructions against 4.6 M for
 * decoding its zstd blocks, and a process that decodes at all pays about
 * 45 us for it on our 2-core VM (the decoder's CPUID, its page faults, 64 K
 * instructions a 16,384-value block), twice a whole swap query read in
 * place.  So zstd must save much to be worth it (swap: 2.0x smaller than
 * packed1, 3.2x than packed3; Klotski: 1.3-1.4x, packed3; four: 1.6x,
 * packed4; frog: 1.2x, sparse). */
#define IN_PLACE_SLACK 250u
#define CHUNK_BYTES 512u         /* in-place values: one check per chunk */
#define SPARSE_BLOCK 65536u      /* sparse: states per block */
#define PACKED4_MAX 14u          /* packed4: largest distance; 15: none */
#define STATS_MAX 65536u         /* bytes of the stats record, at most */
#define BLOCK_GROUP 64u          /* reader: block pointers allocated together */

enum { ENC_PACKED3, ENC_ZSTD, ENC_PACKED4, ENC_SPARSE, ENC_PACKED1,
       ENC_COUNT };
static const char *const enc_name[ENC_COUNT] = { "packed3", "zstd",
                                                 "packed4", "sparse",
                                                 "packed1" };
static const unsigned pow3[5] = { 1, 3, 9, 27, 81 };

/* The header's fields of ptb_table_info: not its histogram and farthest
 * states (the stats record's, read by ptb_table_get_info()), which would
 * make every handle 8 kB, pages a query touches for nothing. */
typedef struct table_head {
    uint64_t states, solvable, bytes;
    unsigned max_distance;
    uint32_t subtables, block_values;
    int exact;
    unsigned modulus;
    char encoding[sizeof ((ptb_table_info *)0)->encoding];
} table_head;

struct ptb_table {
    const ptb_space *s;
    char *path;
    MDB_env *env;
    MDB_txn *txn;              /* read-only, open for the handle's life */
    MDB_dbi dbi;               /* the main database */
    unsigned modulus;          /* 0: exact, a byte a value; 3; 4 (packed1) */
    int encoding;              /* ENC_* */
    uint32_t block_values;     /* zstd */
    uint64_t nblocks;          /* zstd */
    const unsigned char *values;  /* into the map */
    size_t values_len;
    const unsigned char *index;   /* zstd: nblocks + 1 big-endian offsets */
    const unsigned char *dict;    /* NULL when none */
    size_t dict_len;
    const unsigned char *checks;  /* in place: a check per chunk of values */
    uint64_t *checked;         /* in place: chunks checked (set atomically) */
    const unsigned char *sizes;   /* the "sizes" record: 8 bytes a subtable */
    uint64_t *sized;           /* subtables whose size was checked (atomic) */
    uint64_t sparse_n;         /* sparse: entries */
    char digest[72];           /* the header's "digest" value */
    char stats_sha[72];        /* the header's "stats_sha256" value */
    size_t desc_at;            /* of the puzzle's description, the bytes
                                  the header's lines matched */
    int desc_bad;              /* a "description" line did not match */
    int ranked;                /* the header has a "ranking_check" */
    dev_t dev;                 /* the file LMDB mapped */
    ino_t ino;
    int borrowed;              /* env and txn are the puzzle's stored
                                  table's (ptb_table_open()) */
    const void *header;        /* the header record, checked, in the map */
    size_t header_len;
    uint32_t ranking_check;    /* its value */
    table_head head;           /* from the header */
};

/* ==== values ==== */

static inline int in_place(int encoding) { return encoding != ENC_ZSTD; }

/* The value stored for a distance: itself in a byte (exact; PTB_BYTE_NONE
 * for PTB_UNSOLVABLE), or the residue mod 3 with 0 for an unsolvable
 * state (PTB_UNSOLVABLE, or a residue's 3). */
static inline unsigned stored_value(int exact, unsigned d)
{
    if (exact)
        return d == PTB_UNSOLVABLE ? PTB_BYTE_NONE : d;
    return d == PTB_UNSOLVABLE ? 0 : d % 3u;
}

static inline size_t packed_size(int exact, uint64_t nvalues)
{
    return exact ? (size_t)nvalues : (size_t)((nvalues + 3) / 4);
}

/* Digit g % 5 of a packed3 byte; PTB_ECORRUPT for a byte over 242. */
static inline int packed3_digit(unsigned byte, unsigned digit, unsigned *v)
{
    if (byte >= 243)
        return PTB_ECORRUPT;
    *v = byte / pow3[digit] % 3u;
    return PTB_OK;
}

static inline uint64_t block_count(uint64_t total, uint32_t bv)
{
    return (total + bv - 1) / bv;
}

static inline uint64_t block_len(uint64_t total, uint32_t bv, uint64_t b)
{
    uint64_t first = b * bv;
    return total - first < bv ? total - first : bv;
}

/* Written so that compilers make it one load (and a byte swap). */
static inline uint64_t get_be64(const unsigned char *p)
{
    return (uint64_t)p[0] << 56 | (uint64_t)p[1] << 48 |
           (uint64_t)p[2] << 40 | (uint64_t)p[3] << 32 |
           (uint64_t)p[4] << 24 | (uint64_t)p[5] << 16 |
           (uint64_t)p[6] << 8 | (uint64_t)p[7];
}

/* Whether a described puzzle's ranking is its programme's graph
 * (FORMAT.md, "ranking": it starts with 4 zero bytes), which has no
 * check of its own. */
static inline int graph_form(const void *ranking, size_t len)
{
    return len >= 4 && !ptb_get_le(ranking, 4);
}

#if defined(__GNUC__) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* chunk_check()'s a and b of the first len bytes (a multiple of 64) in
 * eight lanes, two words to a vector: word i = 8m + j goes to lane j's
 * sum s_j, and t_j sums s_j after each 64 bytes, so that with N words
 * a = sum s_j and b = sum (N - i) w_i = 8 sum t_j - sum j s_j (mod 2^64):
 * three instructions for two words, not for one.  Vector k holds lanes
 * 2k and 2k + 1, so sum j s_j is the sum of the lanes of sum 2k s_k, and
 * lane 1's of sum s_k once more. */
typedef uint64_t chunk_v2 __attribute__((vector_size(16)));
static inline chunk_v2 chunk_word2(const unsigned char *p)
{
    chunk_v2 w;
    memcpy(&w, p, sizeof w);
    return w;
}
static inline void chunk_sums(const unsigned char *p, size_t len,
                              uint64_t *a, uint64_t *b)
{
    chunk_v2 s0 = { 0, 0 }, s1 = s0, s2 = s0, s3 = s0, t0 = s0, t1 = s0,
             t2 = s0, t3 = s0;
    for (size_t i = 0; i < len; i += 64) {   /* (registers, not arrays) */
        s0 += chunk_word2(p + i);
        s1 += chunk_word2(p + i + 16);
        s2 += chunk_word2(p + i + 32);
        s3 += chunk_word2(p + i + 48);
        t0 += s0;
        t1 += s1;
        t2 += s2;
        t3 += s3;
    }
    chunk_v2 s = s0 + s1 + s2 + s3, t = t0 + t1 + t2 + t3,
             j = s1 * 2 + s2 * 4 + s3 * 6;
    *a = s[0] + s[1];
    *b = 8 * (t[0] + t[1]) - (j[0] + j[1] + s[1]);
}
#define CHUNK_LANES 1
#endif

/* The check of n bytes of in-place values (FORMAT.md): running sums a and
 * b of their 64-bit little-endian words (the last one padded with zero
 * bytes), folded to 32 bits.  It is there to catch damage, not forgery
 * (a crafted file recomputes it); a 512-byte chunk costs about 100 cycles
 * once in cache.  A walk's chunks are not: once the first word is read
 * (and its page faulted in), the chunk's other cache lines are asked for
 * together rather than one miss after another, which took a tenth of a
 * Klotski query. */
static inline uint32_t chunk_check(const unsigned char *p, size_t n)
{
    uint64_t a = 0, b = 0;
    size_t i = 0;
#if defined(__GNUC__)
    for (size_t line = 64; line < n; line += 64)
        __builtin_prefetch(p + line);
#endif
#ifdef CHUNK_LANES
    i = n / 64 * 64;
    chunk_sums(p, i, &a, &b);
#endif
    for (; i + 8 <= n; i += 8) {
        a += ptb_get_le64(p + i);
        b += a;
    }
    if (i < n) {
        a += ptb_get_le(p + i, (unsigned)(n - i));
        b += a;
    }
    uint64_t x = a ^ b * 0x9E3779B97F4A7C15u;
    return (uint32_t)(x ^ x >> 32);
}

static inline uint64_t chunk_count(size_t bytes)
{
    return (bytes + CHUNK_BYTES - 1) / CHUNK_BYTES;
}

static inline void fail(int *rc, int code)
{
    int ok = PTB_OK;
    __atomic_compare_exchange_n(rc, &ok, code, 0, __ATOMIC_RELAXED,
                                __ATOMIC_RELAXED);
}

static inline int encoding_of(const char *name)
{
    int e = 0;
    while (e < ENC_COUNT && strcmp(name, enc_name[e]))
        e++;
    return e;
}

/* An LMDB code as a library code: errno values pass through. */
static inline int db_err(int rc)
{
    if (rc == MDB_SUCCESS)
        return PTB_OK;
    if (rc == MDB_INVALID || rc == MDB_VERSION_MISMATCH)
        return PTB_EFORMAT;
    if (rc == MDB_CORRUPTED || rc == MDB_PAGE_NOTFOUND)
        return PTB_ECORRUPT;
    if (rc == ENOMEM)
        return PTB_ENOMEM;
    return rc > 0 ? rc : PTB_EDB;
}

static inline char *table_path(const ptb_space *s, const char *dir,
                        const char *suffix)
{
    char file[128];
    ptb_space_file(s, file, sizeof file);
    return ptb_join_path(dir, file, suffix);
}

/* The SHA-256 of text, in hex: the header's and the stats' digests. */
static inline void text_digest(const char *text, size_t len, char hex[65])
{
    ptb_sha256 c;
    ptb_sha256_init(&c);
    ptb_sha256_update(&c, text, len);
    ptb_sha256_hex(&c, hex);
}

#endif
