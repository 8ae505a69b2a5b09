/* common/table.c: the on-disk table format, version 5 (tables/FORMAT.md),
 * the only file that talks to LMDB and zstd.
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
#define _GNU_SOURCE                /* fallocate */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <lmdb.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include <zdict.h>
#include <zstd.h>

#include "internal.h"

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

static int in_place(int encoding) { return encoding != ENC_ZSTD; }

/* ==== values ==== */

/* The value stored for a distance: itself in a byte (exact; PTB_BYTE_NONE
 * for PTB_UNSOLVABLE), or the residue mod 3 with 0 for an unsolvable
 * state (PTB_UNSOLVABLE, or a residue's 3). */
static unsigned stored_value(int exact, unsigned d)
{
    if (exact)
        return d == PTB_UNSOLVABLE ? PTB_BYTE_NONE : d;
    return d == PTB_UNSOLVABLE ? 0 : d % 3u;
}

static size_t packed_size(int exact, uint64_t nvalues)
{
    return exact ? (size_t)nvalues : (size_t)((nvalues + 3) / 4);
}

/* Packs the n values from state 'first' on into a zstd block's bytes:
 * stored values one byte each, or 2 bits each, value i at bits 2*(i%4) of
 * byte i/4. */
static size_t pack_block(int exact, const ptb_values *v, uint64_t first,
                         size_t n, unsigned char *out)
{
    if (exact) {
        for (size_t i = 0; i < n; i++)
            out[i] = (unsigned char)stored_value(1, v->dist[first + i]);
        return n;
    }
    size_t bytes = (n + 3) / 4;
    memset(out, 0, bytes);
    for (size_t i = 0; i < n; i++)
        out[i / 4] |= (unsigned char)(stored_value(0, ptb_value(v, first + i))
                                      << (2 * (i % 4)));
    return bytes;
}

/* Digit g % 5 of a packed3 byte; PTB_ECORRUPT for a byte over 242. */
static int packed3_digit(unsigned byte, unsigned digit, unsigned *v)
{
    if (byte >= 243)
        return PTB_ECORRUPT;
    *v = byte / pow3[digit] % 3u;
    return PTB_OK;
}

static uint64_t block_count(uint64_t total, uint32_t bv)
{
    return (total + bv - 1) / bv;
}

static uint64_t block_len(uint64_t total, uint32_t bv, uint64_t b)
{
    uint64_t first = b * bv;
    return total - first < bv ? total - first : bv;
}

static void put_be64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (56 - 8 * i));
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
static int graph_form(const void *ranking, size_t len)
{
    return len >= 4 && !ptb_get_le(ranking, 4);
}

/* The check of n bytes of in-place values (FORMAT.md): running sums a and
 * b of their 64-bit little-endian words (the last one padded with zero
 * bytes), folded to 32 bits.  It is there to catch damage, not forgery
 * (a crafted file recomputes it); a 512-byte chunk costs about 100 cycles
 * once in cache.  A walk's chunks are not: once the first word is read
 * (and its page faulted in), the chunk's other cache lines are asked for
 * together rather than one miss after another, which took a tenth of a
 * Klotski query. */
static uint32_t chunk_check(const unsigned char *p, size_t n)
{
    uint64_t a = 0, b = 0;
    size_t i = 0;
    if (n >= 8) {
        a = b = ptb_get_le64(p);
        i = 8;
    }
#if defined(__GNUC__)
    for (size_t line = 64; line < n; line += 64)
        __builtin_prefetch(p + line);
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

static uint64_t chunk_count(size_t bytes)
{
    return (bytes + CHUNK_BYTES - 1) / CHUNK_BYTES;
}

/* ==== writing: the plan ==== */

typedef struct frame {
    void *data;
    size_t len;
} frame;

/* Everything a table file will hold, made before anything is written. */
typedef struct plan {
    const ptb_space *s;
    const ptb_build_opts *o;
    const ptb_values *v;       /* the BFS's */
    uint64_t total;
    int exact, encoding;
    int parity;                /* packed1 holds the values (parity_holds) */
    int forced;                /* the build options chose the encoding */
    uint32_t bv;               /* zstd: values per block, a power of 4 */
    uint64_t nblocks;
    unsigned char *dict;       /* zstd: the trained dictionary, or NULL */
    size_t dict_len;
    ZSTD_CDict *cdict;         /* made from it */
    unsigned char *values;     /* the "values" record; NULL for packed1,
                                  packed3 and packed4, whose bytes are
                                  made from the values where LMDB keeps
                                  them (pack_bytes()) */
    size_t values_len;
    unsigned char *index;      /* zstd: the "index" record */
    unsigned char *checks;     /* in place: the "checks" record */
    unsigned max_distance;     /* of the values */
    uint64_t solvable;
    char digest[65];
    unsigned char res3[1024];  /* packed3 of residues: the byte of each
                                  five 2-bit codes (in_place_all()) */
} plan;

/* Trains a dictionary on evenly spaced blocks of the table itself and keeps
 * its content only, as a raw-content dictionary: a reader then references it
 * in the map as a prefix (ZSTD_DCtx_refPrefix), which costs nothing, where
 * loading a full dictionary's entropy tables and copying it cost a swap
 * query 40 % of its time.  Returns the content's size, 0 when the table is
 * too small or training fails (the table is then written without one).
 * Deterministic: same values, same dictionary. */
static size_t train_dictionary(const ptb_values *v, uint64_t total,
                               int exact, uint32_t bv, void *dict)
{
    uint64_t nblocks = block_count(total, bv);
    size_t raw = packed_size(exact, bv), got = 0;
    if (nblocks < 16)
        return 0;
    uint64_t step = (nblocks * raw + SAMPLE_BYTES - 1) / SAMPLE_BYTES;
    step = step ? step : 1;
    unsigned n = 0, cap = (unsigned)(nblocks / step + 1);
    unsigned char *samples = malloc((size_t)cap * raw);
    size_t *sizes = malloc(cap * sizeof *sizes);
    for (uint64_t b = 0; samples && sizes && b < nblocks && n < cap;
         b += step) {
        uint64_t len = block_len(total, bv, b);
        sizes[n] = pack_block(exact, v, b * bv, len, samples + got);
        got += sizes[n++];
    }
    size_t r = samples && sizes
                   ? ZDICT_trainFromBuffer(dict, DICT_BYTES, samples, sizes, n)
                   : 0;
    free(samples);
    free(sizes);
    size_t head = ZDICT_isError(r) ? r : ZDICT_getDictHeaderSize(dict, r);
    if (ZDICT_isError(r) || ZDICT_isError(head) || head >= r)
        return 0;
    memmove(dict, (unsigned char *)dict + head, r - head);
    /* content that starts like a full dictionary would be read as one by
     * ZSTD_createCDict: do without (never seen) */
    static const unsigned char magic[4] = { 0x37, 0xA4, 0x30, 0xEC };
    return memcmp(dict, magic, 4) ? r - head : 0;
}

/* ==== writing: compression ==== */

typedef struct compress_job {
    const plan *pl;
    const ZSTD_CDict *cdict;   /* or NULL */
    uint64_t step;             /* compress blocks 0, step, 2*step, ... */
    uint64_t count;            /* how many */
    frame *frames;             /* count entries */
    uint64_t next;             /* next to take (atomic) */
    uint64_t done;             /* finished (atomic), for progress */
    pthread_t caller;          /* the thread that reports progress */
    int rc;                    /* first failure (atomic) */
} compress_job;

static int compress_one(compress_job *j, ZSTD_CCtx *cc, unsigned char *tmp,
                        uint64_t i)
{
    const plan *pl = j->pl;
    uint64_t b = i * j->step, n = block_len(pl->total, pl->bv, b);
    size_t raw = pack_block(pl->exact, pl->v, b * pl->bv, n, tmp);
    size_t cap = ZSTD_compressBound(raw);
    void *out = malloc(cap);
    if (!out)
        return PTB_ENOMEM;
    size_t len = ZSTD_compress2(cc, out, cap, tmp, raw);
    if (ZSTD_isError(len)) {
        free(out);
        return PTB_ECOMPRESS;
    }
    j->frames[i].data = out;
    j->frames[i].len = len;
    return PTB_OK;
}

static ZSTD_CCtx *new_cctx(const compress_job *j)
{
    ZSTD_CCtx *cc = ZSTD_createCCtx();
    if (cc && (ZSTD_isError(ZSTD_CCtx_setParameter(
                   cc, ZSTD_c_compressionLevel, j->pl->o->zstd_level)) ||
               ZSTD_isError(ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag,
                                                   1)) ||
               ZSTD_isError(ZSTD_CCtx_setParameter(
                   cc, ZSTD_c_contentSizeFlag, 1)) ||
               (j->cdict &&
                ZSTD_isError(ZSTD_CCtx_refCDict(cc, j->cdict))))) {
        ZSTD_freeCCtx(cc);
        return NULL;
    }
    return cc;
}

static void fail(int *rc, int code)
{
    int ok = PTB_OK;
    __atomic_compare_exchange_n(rc, &ok, code, 0, __ATOMIC_RELAXED,
                                __ATOMIC_RELAXED);
}

static void *compress_worker(void *arg)
{
    compress_job *j = arg;
    const ptb_build_opts *o = j->pl->o;
    ZSTD_CCtx *cc = new_cctx(j);
    unsigned char *tmp = malloc(BLOCK_VALUES);
    int caller = pthread_equal(pthread_self(), j->caller);
    if (!cc || !tmp)
        fail(&j->rc, cc ? PTB_ENOMEM : PTB_ECOMPRESS);
    while (__atomic_load_n(&j->rc, __ATOMIC_RELAXED) == PTB_OK) {
        uint64_t i = __atomic_fetch_add(&j->next, 1, __ATOMIC_RELAXED);
        if (i >= j->count)
            break;
        int rc = compress_one(j, cc, tmp, i);
        if (rc != PTB_OK)
            fail(&j->rc, rc);
        uint64_t done = __atomic_add_fetch(&j->done, 1, __ATOMIC_RELAXED);
        if (caller && o->progress && j->step == 1 && done < j->count)
            o->progress(o->progress_ctx, "encode", done * j->pl->bv,
                        j->pl->total);
    }
    free(tmp);
    ZSTD_freeCCtx(cc);
    return NULL;
}

/* Compresses blocks 0, step, 2 * step, ... on the build's threads. */
static int compress_blocks(const plan *pl, uint64_t step, frame **out,
                           uint64_t *count)
{
    compress_job j = { .pl = pl, .cdict = pl->cdict, .step = step,
                       .caller = pthread_self(), .rc = PTB_OK };
    j.count = (pl->nblocks + step - 1) / step;
    j.frames = calloc(j.count + 1, sizeof *j.frames);
    *out = j.frames;
    *count = 0;
    if (!j.frames)
        return PTB_ENOMEM;
    ptb_run_threads(compress_worker, &j, pl->o->threads);
    *out = j.frames;
    *count = j.count;
    return j.rc;
}

static void free_frames(frame *f, uint64_t n)
{
    for (uint64_t i = 0; f && i < n; i++)
        free(f[i].data);
    free(f);
}

/* Lays the frames end to end ("values") and records where each starts
 * ("index": nblocks + 1 offsets, the last the total length). */
static int lay_out_frames(plan *pl, const frame *fr)
{
    size_t len = 0;
    for (uint64_t b = 0; b < pl->nblocks; b++)
        len += fr[b].len;
    pl->values = malloc(len ? len : 1);
    pl->index = malloc(8 * (pl->nblocks + 1));
    if (!pl->values || !pl->index)
        return PTB_ENOMEM;
    pl->values_len = 0;
    for (uint64_t b = 0; b < pl->nblocks; b++) {
        put_be64(pl->index + 8 * b, pl->values_len);
        memcpy(pl->values + pl->values_len, fr[b].data, fr[b].len);
        pl->values_len += fr[b].len;
    }
    put_be64(pl->index + 8 * pl->nblocks, pl->values_len);
    return PTB_OK;
}

/* Bytes of the "values" record of an in-place encoding. */
static uint64_t in_place_bytes(const plan *pl, int encoding)
{
    uint64_t blocks = block_count(pl->total, SPARSE_BLOCK);
    return encoding == ENC_PACKED1   ? (pl->total + 7) / 8
           : encoding == ENC_PACKED3 ? (pl->total + 4) / 5
           : encoding == ENC_PACKED4 ? (pl->total + 1) / 2
                                     : 4 * (blocks + 1) + 3 * pl->solvable;
}

/* sparse: the entries' start per block (4 bytes each), then the solvable
 * states' positions in their block (2 bytes each), then their distances. */
static void sparse_all(plan *pl)
{
    uint64_t blocks = block_count(pl->total, SPARSE_BLOCK), n = 0;
    unsigned char *pos = pl->values + 4 * (blocks + 1);
    unsigned char *dst = pos + 2 * pl->solvable;
    for (uint64_t g = 0; g < pl->total; g++) {
        if (g % SPARSE_BLOCK == 0)
            ptb_put_le(pl->values + 4 * (g / SPARSE_BLOCK), n, 4);
        if (pl->v->dist[g] != PTB_UNSOLVABLE) {
            ptb_put_le(pos + 2 * n, g % SPARSE_BLOCK, 2);
            dst[n++] = (unsigned char)pl->v->dist[g];
        }
    }
    ptb_put_le(pl->values + 4 * blocks, n, 4);
}

/* Bytes [at, at + n) of packed3 from residues, as far as their states
 * are whole ones (pack_bytes() does the rest): ten bits of the
 * residues, five codes, a byte, through res3[]. */
static size_t pack3_res(const plan *pl, uint64_t at, size_t n,
                        unsigned char *out)
{
    uint64_t whole = pl->total / 5;
    size_t done = at >= whole ? 0 : whole - at < n ? (size_t)(whole - at) : n;
    uint64_t bit = 10 * at;
    const uint64_t *w = pl->v->res + bit / 64;
    uint64_t acc = *w++ >> bit % 64;
    unsigned have = 64 - (unsigned)(bit % 64);
    for (size_t i = 0; i < done; i++) {
        if (have >= 10) {
            out[i] = pl->res3[acc & 1023];
            acc >>= 10;
            have -= 10;
        } else {                        /* (the rest from the next word) */
            uint64_t next = *w++;
            out[i] = pl->res3[(acc | next << have) & 1023];
            acc = next >> (10 - have);
            have += 54;
        }
    }
    return done;
}

/* Bytes [at, at + n) of the "values" record of packed1, packed3 or
 * packed4 into out: each byte holds states of its own (8, 5 or 2). */
static void pack_bytes(const plan *pl, uint64_t at, size_t n,
                       unsigned char *out)
{
    const ptb_values *v = pl->v;
    unsigned per = pl->encoding == ENC_PACKED1   ? 8
                   : pl->encoding == ENC_PACKED3 ? 5
                                                 : 2;
    if (pl->encoding == ENC_PACKED3 && !v->dist) {
        size_t done = pack3_res(pl, at, n, out);
        at += done;
        out += done;
        n -= done;
    }
    memset(out, 0, n);
    for (uint64_t g = at * per; g < (at + n) * per && g < pl->total; g++) {
        unsigned char *b = out + (g / per - at);
        if (pl->encoding == ENC_PACKED1)
            *b |= (unsigned char)((v->dist[g] / 2u & 1u) << (g % 8));
        else if (pl->encoding == ENC_PACKED3)
            *b += (unsigned char)(stored_value(0, ptb_value(v, g)) *
                                  pow3[g % 5]);
        else
            *b |= (unsigned char)((v->dist[g] == PTB_UNSOLVABLE ? 15u
                                                                : v->dist[g])
                                  << (4 * (g % 2)));
    }
}

/* The "checks" of an in-place encoding, and its "values" record for
 * sparse; the others' bytes are made chunk by chunk for their checks and
 * the digest, and again where LMDB keeps the record (write_env()), so no
 * copy of them is held. */
static int in_place_all(plan *pl)
{
    unsigned char chunk[CHUNK_BYTES];
    ptb_sha256 c;
    for (unsigned i = 0; i < 1024; i++) {
        unsigned b = 0;
        for (unsigned j = 5; j-- > 0;)
            b = 3 * b + stored_value(0, i >> 2 * j & 3);
        pl->res3[i] = (unsigned char)b;
    }
    pl->values_len = (size_t)in_place_bytes(pl, pl->encoding);
    uint64_t chunks = chunk_count(pl->values_len);
    pl->checks = malloc(4 * chunks + 1);
    if (pl->encoding == ENC_SPARSE &&
        (pl->values = calloc(pl->values_len ? pl->values_len : 1, 1)))
        sparse_all(pl);
    if (!pl->checks || (pl->encoding == ENC_SPARSE && !pl->values))
        return PTB_ENOMEM;
    ptb_sha256_init(&c);
    for (uint64_t k = 0; k < chunks; k++) {
        size_t at = k * CHUNK_BYTES;
        size_t n = pl->values_len - at < CHUNK_BYTES ? pl->values_len - at
                                                     : CHUNK_BYTES;
        const unsigned char *b = pl->values ? pl->values + at : chunk;
        if (!pl->values)
            pack_bytes(pl, at, n, chunk);
        ptb_put_le(pl->checks + 4 * k, chunk_check(b, n), 4);
        ptb_sha256_update(&c, b, n);
    }
    ptb_sha256_hex(&c, pl->digest);
    return PTB_OK;
}

/* The digest of a zstd table: SHA-256 of the values as they are before
 * compression, every block's bytes in block order (in_place_all() makes an
 * in-place table's, of its record). */
static void digest_values(plan *pl)
{
    unsigned char tmp[BLOCK_VALUES];
    ptb_sha256 c;
    ptb_sha256_init(&c);
    for (uint64_t b = 0; b < pl->nblocks; b++) {
        uint64_t n = block_len(pl->total, pl->bv, b);
        size_t raw = pack_block(pl->exact, pl->v, b * pl->bv, n, tmp);
        ptb_sha256_update(&c, tmp, raw);
    }
    ptb_sha256_hex(&c, pl->digest);
}

/* ---- the plan: the encoding, and for zstd the dictionary ---- */

static int make_dictionary(plan *pl)
{
    pl->dict = malloc(DICT_BYTES);
    if (!pl->dict)
        return PTB_ENOMEM;
    pl->dict_len = train_dictionary(pl->v, pl->total, pl->exact, pl->bv,
                                    pl->dict);
    if (!pl->dict_len)
        return PTB_OK;
    pl->cdict = ZSTD_createCDict(pl->dict, pl->dict_len, pl->o->zstd_level);
    return pl->cdict ? PTB_OK : PTB_ECOMPRESS;
}

/* The in-place encoding that holds the values in the fewest bytes:
 * packed1 where the puzzle's parity holds, else packed3, for the values of
 * a reversible puzzle; for exact ones packed4 (distances up to 14) or
 * sparse (few solvable states). */
static int best_in_place(const plan *pl)
{
    if (!pl->exact)
        return pl->parity ? ENC_PACKED1 : ENC_PACKED3;
    return pl->max_distance <= PACKED4_MAX &&
                   in_place_bytes(pl, ENC_PACKED4) <=
                       in_place_bytes(pl, ENC_SPARSE)
               ? ENC_PACKED4
               : ENC_SPARSE;
}

/* parity_holds' work: runs of PARITY_RUN states, taken in turn by the
 * build's threads; 'wrong' is set on the first state whose parity is not
 * its distance mod 2. */
#define PARITY_RUN 65536
typedef struct parity_job {
    const plan *pl;
    uint64_t next;             /* next run (atomic) */
    int wrong;                 /* (atomic) */
} parity_job;

static void *parity_worker(void *arg)
{
    parity_job *j = arg;
    const ptb_space *s = j->pl->s;
    uint64_t total = j->pl->total;
    for (;;) {
        uint64_t g = __atomic_fetch_add(&j->next, 1, __ATOMIC_RELAXED) *
                     PARITY_RUN;
        if (g >= total || __atomic_load_n(&j->wrong, __ATOMIC_RELAXED))
            break;
        uint64_t end = total - g < PARITY_RUN ? total : g + PARITY_RUN;
        uint32_t sub = 0;
        for (; g < end; g++) {
            while (s->offset[sub + 1] <= g)
                sub++;
            if (s->p->parity(s->ctx, sub, g - s->offset[sub]) !=
                (j->pl->v->dist[g] & 1u)) {
                __atomic_store_n(&j->wrong, 1, __ATOMIC_RELAXED);
                break;
            }
        }
    }
    return NULL;
}

/* Whether packed1 can hold the values: the puzzle has a parity, every
 * state is solvable, and the parity is the distance mod 2 on every state
 * (a puzzle that claims one wrongly gets packed3). */
static int parity_holds(const plan *pl)
{
    parity_job j = { pl, 0, 0 };
    if (pl->exact || !pl->v->dist || !pl->s->p->parity ||
        pl->solvable != pl->total)
        return 0;
    ptb_run_threads(parity_worker, &j, pl->o->threads);
    return !j.wrong;
}

/* sparse counts its entries in 4 bytes. */
static int sparse_fits(const plan *pl) { return pl->solvable <= UINT32_MAX; }

/* True when an in-place encoding (values and checks) is at most
 * IN_PLACE_SLACK % of a zstd size. */
static int in_place_wins(const plan *pl, uint64_t zstd_bytes)
{
    int e = best_in_place(pl);
    uint64_t b = in_place_bytes(pl, e);
    return (e != ENC_SPARSE || sparse_fits(pl)) &&
           100 * (b + 4 * chunk_count(b)) <= IN_PLACE_SLACK * zstd_bytes;
}

/* Estimates the zstd size (frames, index and dictionary) from one block in
 * ESTIMATE_EVERY, or every other block of a small table (a step of 1 would
 * report progress). */
static int estimated_bytes(plan *pl, uint64_t *bytes)
{
    frame *fr;
    uint64_t n, sample = 0;
    int rc = compress_blocks(pl, pl->nblocks >= 2 * ESTIMATE_EVERY
                                     ? ESTIMATE_EVERY : 2, &fr, &n);
    for (uint64_t i = 0; rc == PTB_OK && i < n; i++)
        sample += fr[i].len;
    *bytes = pl->dict_len + 8 * (pl->nblocks + 1) +
             (n ? sample * pl->nblocks / n : 0);
    free_frames(fr, n);
    return rc;
}

static void drop_dictionary(plan *pl)
{
    ZSTD_freeCDict(pl->cdict);
    free(pl->dict);
    pl->cdict = NULL;
    pl->dict = NULL;
    pl->dict_len = 0;
}

/* Sets the block size; *bytes gets the estimated size without a
 * dictionary. */
static int set_blocks(plan *pl, uint32_t bv, uint64_t *bytes)
{
    drop_dictionary(pl);
    pl->bv = bv;
    pl->nblocks = block_count(pl->total, bv);
    return estimated_bytes(pl, bytes);
}

/* Trains a dictionary and keeps it when it makes the table smaller than
 * *bytes, the estimate without one (swap: 2.5 MB against 4.3 MB); *bytes
 * gets the estimated size. */
static int add_dictionary(plan *pl, uint64_t *bytes)
{
    uint64_t plain = *bytes;
    int rc = make_dictionary(pl);
    if (rc == PTB_OK && pl->cdict &&
        (rc = estimated_bytes(pl, bytes)) == PTB_OK && *bytes >= plain) {
        drop_dictionary(pl);
        *bytes = plain;
    }
    return rc;
}

/* A block size, and the dictionary for it when it makes the table smaller;
 * *bytes gets the estimated size. */
static int set_block_values(plan *pl, uint32_t bv, uint64_t *bytes)
{
    int rc = set_blocks(pl, bv, bytes);
    return rc == PTB_OK ? add_dictionary(pl, bytes) : rc;
}

/* A low estimate of zstd with any dictionary: the blocks estimated_bytes()
 * samples compressed as one zstd stream at the given level, scaled to the
 * table, plus the index.  A dictionary (at most DICT_BYTES, stored raw in
 * the table) lets a block copy only from its content; in one stream each
 * block may copy from every sampled block before it (stored once,
 * compressed), and there is no frame header, checksum or entropy table
 * per block.  It is an argument, not a proof (zstd's match finders are
 * heuristics); at level 19 the stream came out below the trained
 * dictionary's estimate on every table: swap 1.84 MB against 2.56, four
 * 109 kB against 199, frog 160 kB against 233, and Klotski 2.03-2.15 MB
 * against 2.15-2.28 MB for the whole table with its dictionary
 * (tbgen --encoding zstd). */
static int stream_bytes(const plan *pl, int level, uint64_t *bytes)
{
    uint64_t n = block_count(pl->nblocks, ESTIMATE_EVERY);
    size_t len = 0, z = 0;
    unsigned char *in = malloc(n * packed_size(pl->exact, pl->bv) + 1);
    for (uint64_t i = 0; in && i < n; i++) {
        uint64_t b = i * ESTIMATE_EVERY;
        len += pack_block(pl->exact, pl->v, b * pl->bv,
                          block_len(pl->total, pl->bv, b), in + len);
    }
    size_t cap = ZSTD_compressBound(len);
    void *out = in ? malloc(cap) : NULL;
    if (out)
        z = ZSTD_compress(out, cap, in, len, level);
    free(in);
    free(out);
    if (!out)
        return PTB_ENOMEM;
    if (ZSTD_isError(z))
        return PTB_ECOMPRESS;
    *bytes = 8 * (pl->nblocks + 1) + z * pl->nblocks / n;
    return PTB_OK;
}

/* *sure gets whether the in-place encoding wins against plain, the
 * estimate without a dictionary, and against stream_bytes() at level 1 and
 * at the table's level, the least a dictionary could plausibly reach: then
 * no dictionary can change the choice, and none is trained (training costs
 * a Klotski table 0.3 s).  Level 1 comes first, as it costs little: when
 * zstd may win against it (swap), the dictionary is trained and measured
 * instead. */
static int in_place_sure(const plan *pl, uint64_t plain, int *sure)
{
    uint64_t low = plain;
    int rc = PTB_OK;
    if (in_place_wins(pl, low))
        rc = stream_bytes(pl, 1, &low);
    if (rc == PTB_OK && in_place_wins(pl, low) && pl->o->zstd_level > 1)
        rc = stream_bytes(pl, pl->o->zstd_level, &low);
    *sure = rc == PTB_OK && in_place_wins(pl, low);
    return rc;
}

/* Exact tables: the smallest block (16,384, 4,096 or 1,024 values) whose
 * estimated size is within BLOCK_SLACK % of the largest's.  A query decodes
 * whole blocks, so smaller ones save it work where they cost the file
 * little (four: 1,024, 10 % larger, a third of the decoding; frog keeps
 * 16,384, as its blocks compress 170-fold and smaller ones would double the
 * file). */
static int choose_block_values(plan *pl, uint64_t *bytes)
{
    uint64_t largest = *bytes, pick_bytes = *bytes;  /* BLOCK_VALUES's */
    uint32_t pick = BLOCK_VALUES;
    for (uint32_t bv = BLOCK_VALUES / 4; bv >= MIN_BLOCK_VALUES; bv /= 4) {
        int rc = set_block_values(pl, bv, bytes);
        if (rc != PTB_OK)
            return rc;
        if (100 * *bytes > BLOCK_SLACK * largest)
            break;
        pick = bv;
        pick_bytes = *bytes;
    }
    *bytes = pick_bytes;
    return pl->bv == pick ? PTB_OK : set_block_values(pl, pick, bytes);
}

static int encoding_of(const char *name)
{
    int e = 0;
    while (e < ENC_COUNT && strcmp(name, enc_name[e]))
        e++;
    return e;
}

int ptb_table_encoding_known(const char *name)
{
    return encoding_of(name) < ENC_COUNT;
}

/* The encoding the build options force: PTB_EINVAL for an unknown one or
 * one that cannot hold the values (packed3 only mod-3 values, packed1 only
 * where the puzzle's parity holds; packed4 and sparse only exact ones,
 * packed4 distances up to 14). */
static int forced_encoding(plan *pl, const char *force)
{
    int e = encoding_of(force);
    if (e == ENC_COUNT || (e == ENC_PACKED3 && pl->exact) ||
        (e == ENC_PACKED1 && !pl->parity) ||
        ((e == ENC_PACKED4 || e == ENC_SPARSE) && !pl->exact) ||
        (e == ENC_PACKED4 && pl->max_distance > PACKED4_MAX) ||
        (e == ENC_SPARSE && !sparse_fits(pl)))
        return PTB_EINVAL;
    pl->encoding = e;
    return PTB_OK;
}

/* In place (the best of best_in_place) unless zstd, estimated from a
 * sample, is at most 40 % of its size; the build options may force one.  The
 * largest zstd block compresses best, so when in place wins against it,
 * no smaller block is tried (four and frog), and when it wins even against
 * the low estimate of in_place_sure(), no dictionary is trained (four,
 * frog, Klotski). */
static int plan_table(plan *pl)
{
    uint64_t bytes;
    pl->parity = parity_holds(pl);
    pl->forced = pl->o->encoding != NULL;
    pl->encoding = ENC_ZSTD;
    if (pl->forced && forced_encoding(pl, pl->o->encoding) != PTB_OK)
        return PTB_EINVAL;
    if (pl->encoding != ENC_ZSTD)
        return PTB_OK;
    if (!pl->forced && !pl->exact && pl->total > PTB_IN_PLACE_STATES) {
        pl->encoding = best_in_place(pl);
        return PTB_OK;
    }
    int sure = 0, rc = set_blocks(pl, BLOCK_VALUES, &bytes);
    int estimated = !pl->forced && pl->nblocks >= 2 * ESTIMATE_EVERY;
    if (rc == PTB_OK && estimated)
        rc = in_place_sure(pl, bytes, &sure);
    if (rc == PTB_OK && !sure)
        rc = add_dictionary(pl, &bytes);
    if (rc == PTB_OK && estimated && (sure || in_place_wins(pl, bytes))) {
        pl->encoding = best_in_place(pl);
        return PTB_OK;
    }
    if (rc == PTB_OK && pl->exact)
        rc = choose_block_values(pl, &bytes);
    if (rc == PTB_OK && estimated && in_place_wins(pl, bytes))
        pl->encoding = best_in_place(pl);
    return rc;
}

/* ---- compression: the "values" and "index" records, and the digest ---- */

static int compress_table(plan *pl)
{
    frame *fr = NULL;
    uint64_t n = 0;
    int rc = PTB_OK;
    if (pl->encoding == ENC_ZSTD) {
        rc = compress_blocks(pl, 1, &fr, &n);
        if (rc == PTB_OK)
            rc = lay_out_frames(pl, fr);
        free_frames(fr, n);
        if (rc == PTB_OK && !pl->forced &&
            in_place_wins(pl, pl->values_len + 8 * (pl->nblocks + 1) +
                                  pl->dict_len)) {
            pl->encoding = best_in_place(pl);  /* the estimate was off */
            free(pl->values);
            free(pl->index);
            pl->values = pl->index = NULL;
        }
    }
    if (rc == PTB_OK && in_place(pl->encoding)) {
        pl->dict_len = 0;
        pl->nblocks = 0;
        rc = in_place_all(pl);
    } else if (rc == PTB_OK) {
        digest_values(pl);
    }
    return rc;
}

/* ==== writing: the commit ==== */

/* SHA-256 of len bytes of text, in hex. */
static void text_digest(const char *text, size_t len, char hex[65])
{
    ptb_sha256 c;
    ptb_sha256_init(&c);
    ptb_sha256_update(&c, text, len);
    ptb_sha256_hex(&c, hex);
}

/* The "stats" record: the histogram and the farthest states, which only
 * --stats and the analyses read (FORMAT.md). */
static char *stats_text(const ptb_table_info *in)
{
    size_t cap = STATS_MAX, len = 0;
    char *buf = malloc(cap);
    if (!buf)
        return NULL;
    buf[0] = '\0';
    for (unsigned d = 0; d <= PTB_MAX_DISTANCE; d++)
        if (in->histogram[d])
            ptb_catf(buf, cap, &len, "distance %u %" PRIu64 "\n", d,
                     in->histogram[d]);
    for (unsigned i = 0; i < in->n_farthest; i++)
        ptb_catf(buf, cap, &len, "farthest %" PRIu32 " %" PRIu64 "\n",
                 in->far_sub[i], in->far_idx[i]);
    return buf;
}

/* 0 for exact values; else the modulus of the stored residues. */
static unsigned plan_modulus(const plan *pl)
{
    return pl->exact ? 0 : pl->encoding == ENC_PACKED1 ? 4 : 3;
}

/* The "header" record without its last line, documented in FORMAT.md:
 * small and of a fixed set of lines, so opening a table reads and checks
 * a few hundred bytes. */
static char *header_text(const plan *pl, const ptb_table_info *in,
                         const char *stats)
{
    const ptb_space *s = pl->s;
    const char *desc = s->p->description;
    size_t cap = 2048 + (desc ? 2 * strlen(desc) : 0), len = 0;
    char *buf = malloc(cap), sum[65];
    if (!buf)
        return NULL;
    text_digest(stats, strlen(stats), sum);
    ptb_catf(buf, cap, &len,
             "magic %s\nformat %d\npuzzle %s\nmetric %s\nvalues %s\n"
             "encoding %s\nblock_values %" PRIu32 "\nsubtables %" PRIu32 "\n"
             "states %" PRIu64 "\nsolvable %" PRIu64 "\nmax_distance %u\n"
             "dictionary %zu\nvalues_bytes %zu\ndigest sha256:%s\n"
             "stats_sha256 %s\n",
             MAGIC, PTB_FORMAT_VERSION, s->p->name, s->p->metrics[s->metric],
             plan_modulus(pl) == 0   ? "exact"
             : plan_modulus(pl) == 4 ? "mod4"
                                     : "mod3",
             enc_name[pl->encoding],
             in->block_values, in->subtables, in->states, in->solvable,
             in->max_distance, pl->dict_len, pl->values_len, pl->digest,
             sum);
    size_t rlen;
    const unsigned char *ranking = ptb_space_index(s, &rlen);
    if (ranking && !graph_form(ranking, rlen))
        ptb_catf(buf, cap, &len, "ranking_check %08" PRIx32 "\n",
                 chunk_check(ranking, rlen));
    /* a described puzzle's description, a line each (every line of the
     * canonical text ends with a newline) */
    for (const char *nl; desc && (nl = strchr(desc, '\n')); desc = nl + 1)
        ptb_catf(buf, cap, &len, "description %.*s\n", (int)(nl - desc),
                 desc);
    return buf;
}

static unsigned char *sizes_record(const ptb_space *s)
{
    unsigned char *sizes = malloc(8 * (size_t)s->subtables + 1);
    for (uint32_t i = 0; sizes && i < s->subtables; i++)
        put_be64(sizes + 8 * i, s->offset[i + 1] - s->offset[i]);
    return sizes;
}

/* An LMDB code as a library code: errno values pass through. */
static int db_err(int rc)
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

/* Into the main (unnamed) database, the only one a table has. */
static int put(MDB_txn *txn, MDB_dbi dbi, const char *k, const void *v,
               size_t vlen)
{
    MDB_val key = { strlen(k), (void *)k }, val = { vlen, (void *)v };
    return mdb_put(txn, dbi, &key, &val, MDB_APPEND);
}

/* write_env()'s "the main database would not be one leaf page" */
#define SPLIT_LEAF (-1000)

/* The table's file, empty (a first try's pages would stay in the second's
 * unused bytes), its space allocated: LMDB writes it through its map
 * (MDB_WRITEMAP: no copy of the table in memory), where a full disk would
 * be a SIGBUS, not an error.  errno on failure. */
static int reserve(const char *path, size_t bytes)
{
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644), rc;
    if (fd < 0)
        return errno;
    rc = fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, (off_t)bytes) ? errno : 0;
    close(fd);
    return rc == EOPNOTSUPP ? 0 : rc;
}

/* Puts the records, in key order, into a new LMDB file at path, made in
 * LMDB's map of it (reserve()), cut to the pages used and synced to disk.
 * LMDB keeps a record of at most about half a page on the leaf page
 * itself, so small tables with a long header (a described puzzle's) can
 * need more than one leaf, which the layout of FORMAT.md does not allow:
 * then nothing is committed, *page gets the page size, and SPLIT_LEAF
 * comes back (commit() pads the header). */
static int write_env(const char *path, const plan *pl, const char *header,
                     const char *stats, unsigned *page)
{
    const ptb_space *s = pl->s;
    size_t hlen = strlen(header), sizes_len = 8 * (size_t)s->subtables;
    size_t index_len = pl->index ? 8 * (pl->nblocks + 1) : 0, ranking_len;
    const unsigned char *ranking = ptb_space_index(s, &ranking_len);
    size_t checks_len = pl->checks ? 4 * chunk_count(pl->values_len) : 0;
    size_t payload = hlen + 80 + sizes_len + pl->dict_len + index_len +
                     ranking_len + pl->values_len + checks_len +
                     strlen(stats);
    /* deterministic: depends only on the content */
    size_t mapsize = ((payload * 2 + (4u << 20)) >> 20) << 20;
    MDB_env *env = NULL;
    MDB_txn *txn = NULL;
    MDB_dbi dbi;
    unsigned char *sizes = sizes_record(s);
    char *text = malloc(hlen + 80), sum[65];
    int rc = sizes && text ? mdb_env_create(&env) : ENOMEM;
    if (!rc) rc = mdb_env_set_mapsize(env, mapsize);
    /* the pages LMDB will use: the records, a page header each and the
     * meta, leaf and branch pages (its map is larger: room to spare) */
    if (!rc) rc = reserve(path, payload + 64 * (size_t)sysconf(_SC_PAGESIZE));
    if (!rc) rc = mdb_env_open(env, path, MDB_NOSUBDIR | MDB_NOLOCK |
                               MDB_NOSYNC | MDB_WRITEMAP, 0644);
    if (!rc) rc = mdb_txn_begin(env, NULL, 0, &txn);
    if (!rc) rc = mdb_dbi_open(txn, NULL, 0, &dbi);
    if (!rc) {
        text_digest(header, hlen, sum);
        snprintf(text, hlen + 80, "%smeta_sha256 %s\n", header, sum);
    }
    if (!rc && pl->checks)
        rc = put(txn, dbi, "checks", pl->checks, checks_len);
    if (!rc && pl->dict_len)
        rc = put(txn, dbi, "dictionary", pl->dict, pl->dict_len);
    if (!rc) rc = put(txn, dbi, "header", text, strlen(text));
    if (!rc && pl->index)
        rc = put(txn, dbi, "index", pl->index, index_len);
    if (!rc && ranking)
        rc = put(txn, dbi, "ranking", ranking, ranking_len);
    if (!rc) rc = put(txn, dbi, "sizes", sizes, sizes_len);
    if (!rc) rc = put(txn, dbi, "stats", stats, strlen(stats));
    if (!rc && pl->values) {
        rc = put(txn, dbi, "values", pl->values, pl->values_len);
    } else if (!rc) {                   /* made where LMDB keeps it */
        MDB_val key = { 6, "values" }, val = { pl->values_len, NULL };
        rc = mdb_put(txn, dbi, &key, &val, MDB_APPEND | MDB_RESERVE);
        if (!rc)
            pack_bytes(pl, 0, pl->values_len, val.mv_data);
    }
    MDB_stat ms;
    if (!rc && !(rc = mdb_stat(txn, dbi, &ms)) && ms.ms_depth > 1) {
        *page = ms.ms_psize;
        rc = SPLIT_LEAF;
    }
    if (!rc) {
        rc = mdb_txn_commit(txn);
        txn = NULL;
    }
    if (!rc) rc = mdb_env_sync(env, 1);
    MDB_envinfo ei;
    off_t used = 0;
    if (!rc && !(rc = mdb_env_info(env, &ei)))
        used = (off_t)(ei.me_last_pgno + 1) * ms.ms_psize;
    if (txn)
        mdb_txn_abort(txn);
    if (env)
        mdb_env_close(env);
    if (!rc && truncate(path, used) != 0)     /* the pages LMDB used */
        rc = errno;
    free(sizes);
    free(text);
    return rc == SPLIT_LEAF ? rc : db_err(rc);
}

/* The header with a "padding" line that makes it longer than half a page,
 * so that LMDB keeps it on overflow pages (FORMAT.md); NULL: no memory. */
static char *padded(const char *header, unsigned page)
{
    size_t len = strlen(header), want = page / 2 + 64, cap = len + want + 16;
    char *h = malloc(cap);
    if (h) {
        memcpy(h, header, len);
        memcpy(h + len, "padding ", 8);
        memset(h + len + 8, '.', want);
        memcpy(h + len + 8 + want, "\n", 2);
    }
    return h;
}

static char *table_path(const ptb_space *s, const char *dir,
                        const char *suffix)
{
    char file[128];
    ptb_space_file(s, file, sizeof file);
    return ptb_join_path(dir, file, suffix);
}

/* Makes a rename in dir durable.  errno on failure. */
static int sync_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    if (fd < 0)
        return errno;
    int rc = fsync(fd) == 0 ? PTB_OK : errno;
    close(fd);
    return rc;
}

/* LMDB reports a short write as EIO; a disk too full for the table is
 * ENOSPC, so say that when the free space of dir cannot hold it. */
static int full_disk(const plan *pl, const char *dir, int rc)
{
    struct statvfs fs;
    uint64_t need = pl->values_len + pl->dict_len + 8 * (pl->nblocks + 1) +
                    8 * (uint64_t)pl->s->subtables + HEADER_MAX + STATS_MAX +
                    4 * chunk_count(pl->values_len);
    if (rc == EIO && statvfs(dir, &fs) == 0 &&
        (uint64_t)fs.f_bavail * fs.f_frsize < need)
        return ENOSPC;
    return rc;
}

/* The new table leaves the page cache (written and synced, it is on
 * disk): its first reader then reads it back in huge pages (read_in_huge),
 * where the pieces its writes left would cost every query more page faults
 * (a Klotski walk about 24).  A hint: a failure changes nothing else. */
static void drop_cached(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        (void)posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
        close(fd);
    }
}

/* Writes the planned table to DIR/<file>.tmp, then renames it into place:
 * the old table stays intact until the new one is complete on disk. */
static int commit(const plan *pl, const char *dir, ptb_table_info *info)
{
    const ptb_space *s = pl->s;
    char *final = table_path(s, dir, ""), *tmp = table_path(s, dir, ".tmp");
    char *stats = stats_text(info);
    char *header = stats ? header_text(pl, info, stats) : NULL;
    int rc = final && tmp && header ? PTB_OK : PTB_ENOMEM;
    struct stat st;
    if (rc == PTB_OK && unlink(tmp) != 0 && errno != ENOENT)
        rc = errno;
    unsigned page = 0;
    if (rc == PTB_OK &&
        (rc = write_env(tmp, pl, header, stats, &page)) == SPLIT_LEAF) {
        char *longer = padded(header, page);
        rc = longer ? write_env(tmp, pl, longer, stats, &page) : PTB_ENOMEM;
        rc = rc == SPLIT_LEAF ? PTB_EDB : rc;
        free(longer);
    }
    rc = full_disk(pl, dir, rc);
    if (rc == PTB_OK && rename(tmp, final) != 0)
        rc = errno;
    if (rc == PTB_OK)
        rc = sync_dir(dir);
    if (rc != PTB_OK && tmp)
        unlink(tmp);
    if (rc == PTB_OK && stat(final, &st) == 0)
        info->bytes = (uint64_t)st.st_size;
    if (rc == PTB_OK)
        drop_cached(final);
    free(header);
    free(stats);
    free(final);
    free(tmp);
    return rc;
}

int ptb_table_write(const ptb_space *s, const char *dir, const ptb_values *v,
                    const ptb_build_opts *o, ptb_table_info *info)
{
    plan pl = { .s = s, .o = o, .v = v, .solvable = v->info.solvable,
                .max_distance = v->info.max_distance };
    pl.total = s->offset[s->subtables];
    pl.exact = !s->p->reversible;
    /* an exact table's values are bytes */
    int rc = pl.exact && pl.max_distance > PTB_BYTE_MAX ? PTB_ERANGE
                                                        : plan_table(&pl);
    if (rc == PTB_OK)
        rc = compress_table(&pl);
    info->exact = pl.exact;
    info->modulus = plan_modulus(&pl);
    info->block_values = pl.encoding == ENC_ZSTD     ? pl.bv
                         : pl.encoding == ENC_SPARSE ? SPARSE_BLOCK
                                                     : 0;
    snprintf(info->encoding, sizeof info->encoding, "%s",
             enc_name[pl.encoding]);
    info->subtables = s->subtables;
    info->states = pl.total;
    if (rc == PTB_OK && o->progress)
        o->progress(o->progress_ctx, "encode", pl.total, pl.total);
    if (rc == PTB_OK)
        rc = commit(&pl, dir, info);
    ZSTD_freeCDict(pl.cdict);
    free(pl.dict);
    free(pl.values);
    free(pl.index);
    free(pl.checks);
    return rc;
}

/* ==== reading: open ==== */

/* A record of the main database; PTB_EFORMAT when absent. */
static int get_record(const ptb_table *t, const char *name, MDB_val *val)
{
    MDB_val key = { strlen(name), (void *)name };
    int rc = mdb_get(t->txn, t->dbi, &key, val);
    return rc == MDB_NOTFOUND ? PTB_EFORMAT : db_err(rc);
}

/* A decimal number, digits only, at most max.  (By hand: strtoull's
 * first call cost each query two page faults into the C library.) */
static int parse_u64(const char *val, uint64_t max, uint64_t *out)
{
    uint64_t a = 0;
    if (*val < '0' || *val > '9')
        return PTB_EFORMAT;
    for (; *val >= '0' && *val <= '9'; val++) {
        unsigned d = (unsigned)(*val - '0');
        if (a > (UINT64_MAX - d) / 10)
            return PTB_EFORMAT;
        a = a * 10 + d;
    }
    if (*val || a > max)
        return PTB_EFORMAT;
    *out = a;
    return PTB_OK;
}

static int parse_pair(const char *val, uint64_t max1, uint64_t *a,
                      uint64_t *b)
{
    char first[24];
    const char *sp = strchr(val, ' ');
    if (!sp || (size_t)(sp - val) >= sizeof first)
        return PTB_EFORMAT;
    memcpy(first, val, (size_t)(sp - val));
    first[sp - val] = '\0';
    int rc = parse_u64(first, max1, a);
    return rc == PTB_OK ? parse_u64(sp + 1, UINT64_MAX, b) : rc;
}

/* Copies a text record (header or stats, at most HEADER_MAX or STATS_MAX
 * bytes) into buf and calls fn(arg, key, value) for each of its "key
 * value" lines, until one returns other than PTB_OK.  PTB_EFORMAT for a NUL
 * byte or a line without a space. */
static int each_line(const MDB_val *v, char *buf,
                     int (*fn)(void *arg, const char *key, const char *val),
                     void *arg)
{
    int rc = PTB_OK;
    memcpy(buf, v->mv_data, v->mv_size);
    buf[v->mv_size] = '\0';
    if (strlen(buf) != v->mv_size)
        return PTB_EFORMAT;
    for (char *line = buf, *next; rc == PTB_OK && *line; line = next) {
        next = strchr(line, '\n');
        next = next ? (*next = '\0', next + 1) : line + strlen(line);
        char *sp = strchr(line, ' ');
        if (!sp)
            return PTB_EFORMAT;
        *sp = '\0';
        rc = fn(arg, line, sp + 1);
    }
    return rc;
}

/* val into buf, cut to cap - 1 bytes as snprintf would. */
static void copy_text(char *buf, size_t cap, const char *val)
{
    size_t len = 0;
    ptb_catf(buf, cap, &len, "%s", val);
}

/* A "ranking_check" value: 8 lower-case hex digits. */
static int parse_check(const char *val, ptb_table *t)
{
    uint32_t a = 0;
    for (unsigned i = 0; i < 8; i++) {
        const char *h = strchr("0123456789abcdef", val[i]);
        if (!val[i] || !h)
            return PTB_EFORMAT;
        a = a << 4 | (uint32_t)(h - "0123456789abcdef");
    }
    t->ranked = 1;
    t->ranking_check = a;
    return val[8] ? PTB_EFORMAT : PTB_OK;
}

/* Checks one header line against the space and fills the table from it.
 * Every number is range-checked before it is used. */
static int header_line(void *arg, const char *key, const char *val)
{
    ptb_table *t = arg;
    const ptb_space *s = t->s;
    table_head *in = &t->head;
    uint64_t a = 0;
    int rc = PTB_OK;
    if (!strcmp(key, "magic"))
        return strcmp(val, MAGIC) ? PTB_EFORMAT : PTB_OK;
    if (!strcmp(key, "format"))
        return parse_u64(val, UINT32_MAX, &a) != PTB_OK ? PTB_EFORMAT
               : a != PTB_FORMAT_VERSION                ? PTB_EVERSION
                                                        : PTB_OK;
    if (!strcmp(key, "puzzle"))
        return strcmp(val, s->p->name) ? PTB_EFORMAT : PTB_OK;
    if (!strcmp(key, "description")) {   /* the puzzle's next line */
        const char *d = s->p->description;
        size_t n = strlen(val);
        if (!d || strncmp(d + t->desc_at, val, n) ||
            d[t->desc_at + n] != '\n')
            return PTB_EFORMAT;
        t->desc_at += n + 1;
        return PTB_OK;
    }
    if (!strcmp(key, "metric"))
        return strcmp(val, s->p->metrics[s->metric]) ? PTB_EFORMAT : PTB_OK;
    if (!strcmp(key, "values")) {
        in->exact = !strcmp(val, "exact");
        in->modulus = !strcmp(val, "mod3") ? 3 : !strcmp(val, "mod4") ? 4 : 0;
        if ((!in->exact && !in->modulus) ||
            (in->modulus == 4 && !s->p->parity))
            return PTB_EFORMAT;
        return in->exact == !s->p->reversible ? PTB_OK : PTB_EFORMAT;
    }
    if (!strcmp(key, "encoding")) {
        if ((t->encoding = encoding_of(val)) == ENC_COUNT)
            return PTB_EFORMAT;
        copy_text(in->encoding, sizeof in->encoding, val);
        return PTB_OK;
    }
    if (!strcmp(key, "digest")) {
        copy_text(t->digest, sizeof t->digest, val);
        return strlen(val) == 7 + 64 ? PTB_OK : PTB_EFORMAT;
    }
    if (!strcmp(key, "stats_sha256")) {
        copy_text(t->stats_sha, sizeof t->stats_sha, val);
        return strlen(val) == 64 ? PTB_OK : PTB_EFORMAT;
    }
    if (!strcmp(key, "ranking_check"))
        return parse_check(val, t);
    if (!strcmp(key, "block_values")) {
        rc = parse_u64(val, MAX_BLOCK_VALUES, &a);
        in->block_values = (uint32_t)a;
    } else if (!strcmp(key, "subtables")) {
        rc = parse_u64(val, UINT32_MAX, &a);
        in->subtables = (uint32_t)a;
    } else if (!strcmp(key, "states")) {
        rc = parse_u64(val, UINT64_MAX, &in->states);
    } else if (!strcmp(key, "solvable")) {
        rc = parse_u64(val, UINT64_MAX, &in->solvable);
    } else if (!strcmp(key, "max_distance")) {
        rc = parse_u64(val, PTB_MAX_DISTANCE, &a);
        in->max_distance = (unsigned)a;
    } else if (!strcmp(key, "dictionary")) {
        rc = parse_u64(val, DICT_BYTES, &a);
        t->dict_len = (size_t)a;
    } else if (!strcmp(key, "values_bytes")) {
        rc = parse_u64(val, SIZE_MAX / 2, &a);
        t->values_len = (size_t)a;
    }
    return rc;   /* unknown keys are for newer minor additions */
}

/* Recomputes meta_sha256, the header's last line. */
static int check_meta_digest(const MDB_val *h)
{
    char sum[65];
    const char *text = h->mv_data;
    size_t line = 12 + 64 + 1;                /* "meta_sha256 " hex "\n" */
    if (h->mv_size < line ||
        memcmp(text + h->mv_size - line, "meta_sha256 ", 12) != 0)
        return PTB_ECORRUPT;
    text_digest(text, h->mv_size - line, sum);
    return memcmp(sum, text + h->mv_size - line + 12, 64) ? PTB_ECORRUPT
                                                         : PTB_OK;
}

/* A file whose main database holds "meta" and no "header" is format 1. */
static int missing_header(const ptb_table *t)
{
    MDB_val v;
    return get_record(t, "meta", &v) == PTB_EFORMAT ? PTB_EFORMAT
                                                   : PTB_EVERSION;
}

/* The header record, its magic, version and checksum checked (into
 * t->header). */
static int header_record(ptb_table *t, MDB_val *v)
{
    int rc = get_record(t, "header", v);
    if (rc == PTB_EFORMAT)
        return missing_header(t);
    if (rc != PTB_OK)
        return rc;
    if (v->mv_size > HEADER_MAX || v->mv_size < 15 ||
        memcmp(v->mv_data, "magic " MAGIC "\n", 15) != 0)
        return PTB_EFORMAT;
    /* the version first: another version may checksum differently */
    const char *h = v->mv_data;
    char ver[12];
    size_t k = 0;
    uint64_t version;
    if (v->mv_size < 24 || memcmp(h + 15, "format ", 7))
        return PTB_EFORMAT;
    for (; 22 + k < v->mv_size && k < sizeof ver - 1 && h[22 + k] != '\n';
         k++)
        ver[k] = h[22 + k];
    ver[k] = '\0';
    if (parse_u64(ver, UINT32_MAX, &version) != PTB_OK)
        return PTB_EFORMAT;
    if (version != PTB_FORMAT_VERSION)
        return PTB_EVERSION;
    /* the same bytes as the header of the table the puzzle was read from
     * (kept open: stored_table), which passed there */
    const ptb_table *kept = t->s ? t->s->p->stored_table : NULL;
    if (!(kept && kept->header_len == v->mv_size &&
          !memcmp(kept->header, v->mv_data, v->mv_size)) &&
        check_meta_digest(v) != PTB_OK)
        return PTB_ECORRUPT;
    t->header = v->mv_data;
    t->header_len = v->mv_size;
    return PTB_OK;
}

static int read_header(ptb_table *t)
{
    MDB_val v;
    int rc = header_record(t, &v);
    if (rc != PTB_OK)
        return rc;
    t->head.exact = -1;                   /* "values" must be there */
    /* the copy on the heap: 16 kB of stack would cost every query page
     * faults for the few hundred bytes a header has */
    char *text = malloc(v.mv_size + 1);
    rc = text ? each_line(&v, text, header_line, t) : PTB_ENOMEM;
    free(text);
    const table_head *in = &t->head;
    const char *desc = t->s->p->description;
    if (rc == PTB_OK &&
        (in->subtables != t->s->subtables || !in->encoding[0] ||
         in->exact < 0 || !t->digest[0] || !t->stats_sha[0] ||
         in->solvable > in->states ||
         (in->exact > 0 && in->max_distance > PTB_BYTE_MAX) ||
         in->states != t->s->offset[t->s->subtables] ||
         t->desc_at != (desc ? strlen(desc) : 0)))
        rc = PTB_EFORMAT;
    return rc;
}

/* The table's "ranking" (FORMAT.md), into *v; PTB_OK with v->mv_data NULL
 * when it has none.  PTB_EFORMAT when it has one without the header's
 * "ranking_check" or the other way round (a graph has none: the puzzle
 * checks it node by node), PTB_ECORRUPT when the record fails that
 * check. */
static int ranking_record(const ptb_table *t, MDB_val *v)
{
    int rc = get_record(t, "ranking", v);
    if (rc == PTB_EFORMAT && !t->ranked) {
        v->mv_data = NULL;
        v->mv_size = 0;
        return PTB_OK;
    }
    if (rc == PTB_OK && graph_form(v->mv_data, v->mv_size))
        return t->ranked ? PTB_EFORMAT : PTB_OK;
    if (rc != PTB_OK || !t->ranked)
        return rc == PTB_OK ? PTB_EFORMAT : rc;
    return chunk_check(v->mv_data, v->mv_size) == t->ranking_check
               ? PTB_OK : PTB_ECORRUPT;
}

/* A described puzzle's table has a ranking, the very index its space
 * ranks by (one the space read from another of the puzzle's tables, or
 * from this one, which needs no comparing: tables are never written in
 * place, or built); a built-in puzzle's has none. */
static int check_ranking(const ptb_table *t)
{
    MDB_val v;
    size_t len;
    const unsigned char *own = ptb_space_index(t->s, &len);
    const ptb_puzzle *p = t->s->p;
    if (own && own == p->stored && p->stored_table &&
        p->stored_table->dev == t->dev && p->stored_table->ino == t->ino)
        return PTB_OK;                  /* (read and checked there) */
    int rc = ranking_record(t, &v);
    if (rc != PTB_OK || (!v.mv_data && !own))
        return rc;
    return own && v.mv_data && v.mv_size == len && !memcmp(v.mv_data, own, len)
               ? PTB_OK : PTB_EFORMAT;
}

/* Marks of what was checked once (chunks, subtable sizes), one bit each.
 * Threads may check one twice; a bit only ever goes from 0 to 1. */
static uint64_t *new_marks(uint64_t n)
{
    return calloc(n / 64 + 1, sizeof(uint64_t));
}

static int marked(const uint64_t *m, uint64_t i)
{
    return __atomic_load_n(&m[i / 64], __ATOMIC_RELAXED) >> (i % 64) & 1;
}

static void mark(uint64_t *m, uint64_t i)
{
    __atomic_fetch_or(&m[i / 64], 1ull << (i % 64), __ATOMIC_RELAXED);
}

/* "sizes" is found at open and each subtable's size checked against the
 * puzzle's the first time a value of it is read (check_size), so that open
 * costs nothing per subtable (swap has 4,324: 52 K instructions a query);
 * ptb_table_decode_all checks them all. */
static int find_sizes(ptb_table *t)
{
    MDB_val v;
    int rc = get_record(t, "sizes", &v);
    if (rc != PTB_OK)
        return rc;
    if (v.mv_size != 8 * (size_t)t->s->subtables)
        return PTB_EFORMAT;
    t->sizes = v.mv_data;
    t->sized = new_marks(t->s->subtables);
    return t->sized ? PTB_OK : PTB_ENOMEM;
}

/* PTB_ECORRUPT when subtable sub's stored size is not the puzzle's: found
 * while reading, that is a table to rebuild like any damaged one. */
static int check_size(const ptb_table *t, uint32_t sub)
{
    const uint64_t *off = t->s->offset;
    if (marked(t->sized, sub))
        return PTB_OK;
    if (get_be64(t->sizes + 8 * (size_t)sub) != off[sub + 1] - off[sub])
        return PTB_ECORRUPT;
    mark(t->sized, sub);
    return PTB_OK;
}

/* In place: the sizes of the encoding, and the "checks" record. */
static int find_in_place(ptb_table *t)
{
    const table_head *in = &t->head;
    uint64_t states = in->states, chunks = chunk_count(t->values_len);
    uint64_t blocks = block_count(states, SPARSE_BLOCK), head = 0;
    MDB_val v;
    int rc;
    switch (t->encoding) {
    case ENC_PACKED1:
        rc = t->modulus != 4 || in->block_values ||
             in->solvable != states || t->values_len != (states + 7) / 8;
        break;
    case ENC_PACKED3:
        rc = t->modulus != 3 || in->block_values ||
             t->values_len != (states + 4) / 5;
        break;
    case ENC_PACKED4:
        rc = t->modulus || in->block_values ||
             in->max_distance > PACKED4_MAX ||
             t->values_len != (states + 1) / 2;
        break;
    default:                                /* sparse */
        head = 4 * (blocks + 1);
        t->nblocks = blocks;
        t->sparse_n = in->solvable;
        rc = t->modulus || in->block_values != SPARSE_BLOCK ||
             t->values_len != head + 3 * in->solvable;
    }
    if (rc || t->dict_len)
        return PTB_EFORMAT;
    if ((rc = get_record(t, "checks", &v)) != PTB_OK)
        return rc;
    if (v.mv_size != 4 * chunks)
        return PTB_ECORRUPT;
    t->checks = v.mv_data;
    t->checked = new_marks(chunks);
    return t->checked ? PTB_OK : PTB_ENOMEM;
}

/* "values", "index", "dictionary" and "checks": present as the header
 * says, every length checked, so that no later read leaves a record. */
static int find_values(ptb_table *t)
{
    MDB_val v;
    uint64_t states = t->head.states;
    int rc = get_record(t, "values", &v);
    if (rc != PTB_OK)
        return rc;
    if (v.mv_size != t->values_len)
        return PTB_ECORRUPT;
    t->values = v.mv_data;
    if (in_place(t->encoding))
        return find_in_place(t);
    uint32_t bv = t->head.block_values;
    if (bv == 0 || bv % 4 != 0 || t->modulus == 4)
        return PTB_EFORMAT;
    t->block_values = bv;
    t->nblocks = block_count(states, bv);
    if ((rc = get_record(t, "index", &v)) != PTB_OK)
        return rc;
    if (v.mv_size != 8 * (t->nblocks + 1))
        return PTB_ECORRUPT;
    t->index = v.mv_data;
    if (get_be64(t->index) != 0 ||
        get_be64(t->index + 8 * t->nblocks) != t->values_len)
        return PTB_ECORRUPT;
    if (!t->dict_len)
        return PTB_OK;
    if ((rc = get_record(t, "dictionary", &v)) != PTB_OK)
        return rc == PTB_EFORMAT ? PTB_ECORRUPT : rc;
    t->dict = v.mv_data;
    return v.mv_size == t->dict_len ? PTB_OK : PTB_ECORRUPT;
}

/* A file shorter than LMDB's last page would fault when read: refuse it. */
static int check_length(ptb_table *t, uint64_t size)
{
    MDB_envinfo ei;
    MDB_stat ms;
    if (mdb_env_info(t->env, &ei) || mdb_env_stat(t->env, &ms))
        return PTB_EDB;
    t->head.bytes = size;
    return size < ((uint64_t)ei.me_last_pgno + 1) * ms.ms_psize ? PTB_ETRUNC
                                                               : PTB_OK;
}

/* A table that is not in the page cache (never read, or dropped by the
 * kernel) is read in here, through a map of our own that asks for huge
 * pages: where the kernel caches files in large folios (this machine:
 * Linux 6.18, ext4) it then keeps the table in 2 MB folios, and every later
 * process maps each with one page fault instead of one a 64 kB window.  A
 * Klotski walk, about 250 reads of a 3 MB table, took 21-26 faults fewer
 * (BENCHMARKS.md measures after such a read).  LMDB's own map cannot ask:
 * liblmdb reads the file before any call of ours could, and once a page of
 * a 2 MB range is cached in small folios the range stays so.  Tables over
 * READ_IN_MAX are left to ordinary reads (reading all of one to answer a
 * query would cost more than the faults it saves).  Only a hint: any
 * failure leaves the table read as before. */
#define READ_IN_MAX (64u << 20)

/* Whether the file's first page is in the page cache: 1, 0, or -1 when
 * this kernel cannot say without a map.  cachestat(2) (Linux 6.5; 451 on
 * every architecture but alpha) asks in one system call, where a map,
 * mincore() and munmap() took 2-5 us of every query.  A read with
 * RWF_NOWAIT would not do: on Linux 6.18 it starts a readahead into small
 * folios when it finds nothing. */
static int first_page_cached(int fd)
{
#if defined(__linux__) && !defined(__alpha__)
    struct { uint64_t off, len; } range = { 0, 1 };
    uint64_t stat[5];          /* nr_cache, nr_dirty, ... */
    if (syscall(451, fd, &range, stat, 0) == 0)
        return stat[0] != 0;
#else
    (void)fd;
#endif
    return -1;
}

static void read_in_huge(int fd, uint64_t size)
{
#ifdef MADV_HUGEPAGE
    const uint64_t huge = 2u << 20;
    unsigned char first;
    int cached = first_page_cached(fd);
    if (size > READ_IN_MAX || cached == 1)
        return;
    void *m = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
    if (m == MAP_FAILED)
        return;
    if ((cached == 0 || (mincore(m, 1, &first) == 0 && !(first & 1))) &&
        madvise(m, size, MADV_HUGEPAGE) == 0)
        for (uint64_t at = 0; at < size; at += huge)
            (void)*(volatile const char *)((const char *)m + at);
    munmap(m, size);
#else
    (void)fd;
    (void)size;
#endif
}

static int open_env(ptb_table *t)
{
    struct stat st, mapped;
    mdb_filehandle_t mfd;
    const char *what;
    int fd = open(t->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return errno == ENOENT ? PTB_ENOTABLE : errno;
    int rc = fstat(fd, &st) != 0 ? errno
             : !S_ISREG(st.st_mode) ? PTB_EFORMAT
             : st.st_size < 2 * 4096 ? PTB_ETRUNC : PTB_OK;
    if (rc == PTB_OK)
        read_in_huge(fd, (uint64_t)st.st_size);
    /* issue 10: every page LMDB reads here is checked before it maps the
     * file (common/mdbcheck.c) */
    if (rc == PTB_OK)
        rc = ptb_mdb_check_fd(fd, (uint64_t)st.st_size, &what);
    close(fd);
    if (rc != PTB_OK)
        return rc;
    rc = mdb_env_create(&t->env);
    if (!rc) rc = mdb_env_open(t->env, t->path,
                               MDB_RDONLY | MDB_NOSUBDIR | MDB_NOLOCK |
                               MDB_NOTLS | MDB_NORDAHEAD, 0444);
    if (rc == ENOENT)
        return PTB_ENOTABLE;
    rc = db_err(rc);
    /* LMDB must have opened the file checked: one replaced by rename in
     * between is opened again (EAGAIN, see ptb_table_open) */
    if (rc == PTB_OK && (mdb_env_get_fd(t->env, &mfd) != 0 ||
                         fstat(mfd, &mapped) != 0 ||
                         mapped.st_ino != st.st_ino ||
                         mapped.st_dev != st.st_dev))
        rc = EAGAIN;
    t->dev = st.st_dev;
    t->ino = st.st_ino;
    return rc == PTB_OK ? check_length(t, (uint64_t)st.st_size) : rc;
}

/* The file at t->path opened, checked and in a read transaction. */
static int open_db(ptb_table *t)
{
    int rc = open_env(t);
    for (int again = 0; rc == EAGAIN && again < 8; again++) {
        mdb_env_close(t->env);
        t->env = NULL;
        rc = open_env(t);
    }
    if (rc == PTB_OK)
        rc = db_err(mdb_txn_begin(t->env, NULL, MDB_RDONLY, &t->txn));
    if (rc == PTB_OK)
        rc = db_err(mdb_dbi_open(t->txn, NULL, 0, &t->dbi));
    return rc;
}

int ptb_table_open(const ptb_space *s, const char *dir, ptb_table **out)
{
    ptb_table *t = calloc(1, sizeof *t);
    *out = NULL;
    if (!t)
        return PTB_ENOMEM;
    t->s = s;
    t->path = table_path(s, dir, "");
    /* the very file the puzzle was read from (kept open, checked there):
     * its environment and transaction borrowed, not opened again */
    const ptb_table *kept = s->p->stored_table;
    int rc = !t->path ? PTB_ENOMEM
             : kept && !strcmp(kept->path, t->path) ? PTB_OK
             : open_db(t);
    if (rc == PTB_OK && kept && !t->env) {
        t->env = kept->env;
        t->txn = kept->txn;
        t->dbi = kept->dbi;
        t->dev = kept->dev;
        t->ino = kept->ino;
        t->borrowed = 1;
    }
    if (rc == PTB_OK)
        rc = read_header(t);
    t->modulus = t->head.modulus;
    if (rc == PTB_OK)
        rc = check_ranking(t);
    if (rc == PTB_OK)
        rc = find_sizes(t);
    if (rc == PTB_OK)
        rc = find_values(t);
    if (rc != PTB_OK) {
        ptb_table_close(t);
        return rc;
    }
    *out = t;
    return PTB_OK;
}

void ptb_table_close(ptb_table *t)
{
    if (!t)
        return;
    if (t->txn && !t->borrowed)
        mdb_txn_abort(t->txn);
    if (t->env && !t->borrowed)
        mdb_env_close(t->env);
    free(t->checked);
    free(t->sized);
    free(t->path);
    free(t);
}

/* What ptb_table_puzzle reads of a header. */
typedef struct identity {
    ptb_table *t;              /* gets the "ranking_check" */
    char puzzle[64], metric[64];
    char *desc;                /* the description's lines, cap bytes */
    size_t len, cap;
} identity;

static int identity_line(void *arg, const char *key, const char *val)
{
    identity *id = arg;
    if (!strcmp(key, "puzzle"))
        copy_text(id->puzzle, sizeof id->puzzle, val);
    else if (!strcmp(key, "metric"))
        copy_text(id->metric, sizeof id->metric, val);
    else if (!strcmp(key, "description"))
        ptb_catf(id->desc, id->cap, &id->len, "%s\n", val);
    else if (!strcmp(key, "ranking_check"))
        return parse_check(val, id->t);
    return PTB_OK;
}

/* The puzzle that id names or describes; PTB_EFORMAT if none. */
static int identify(const identity *id, ptb_puzzle **out)
{
    unsigned m = 0;
    *out = NULL;
    if (id->len) {
        if (ptb_puzzle_load(id->desc, out, NULL, 0) != PTB_OK)
            return PTB_EFORMAT;
    } else {
        *out = (ptb_puzzle *)ptb_puzzle_find(id->puzzle);  /* built in */
    }
    if (!*out || strcmp((*out)->name, id->puzzle))
        goto refuse;
    while ((*out)->metrics[m] && strcmp((*out)->metrics[m], id->metric))
        m++;
    if ((*out)->metrics[m])
        return PTB_OK;
refuse:
    ptb_puzzle_free(*out);
    *out = NULL;
    return PTB_EFORMAT;
}

/* A described puzzle loaded from table t keeps t's ranking, when it has
 * one, so that opening a space on it reads the ranking instead of making
 * it: where it lies, t then open as long as the puzzle (its
 * stored_table). */
static int keep_ranking(ptb_table *t, ptb_puzzle *p)
{
    MDB_val v;
    int rc = ranking_record(t, &v);
    if (rc != PTB_OK || !v.mv_data)
        return rc;
    p->stored = v.mv_data;
    p->stored_len = v.mv_size;
    p->stored_table = t;
    return PTB_OK;
}

int ptb_table_puzzle(const char *path, ptb_puzzle **out, char *metric,
                     size_t cap)
{
    MDB_val v;
    ptb_table *t = calloc(1, sizeof *t);
    identity id = { .t = t };
    char *text = NULL;
    *out = NULL;
    int rc = !t ? PTB_ENOMEM : PTB_OK;
    if (rc == PTB_OK && !(t->path = strdup(path)))
        rc = PTB_ENOMEM;
    if (rc == PTB_OK)
        rc = open_db(t);
    if (rc == PTB_OK)
        rc = header_record(t, &v);
    if (rc == PTB_OK) {          /* the header's size, not HEADER_MAX: */
        id.cap = v.mv_size + 1;  /* pages a query would touch for nothing */
        text = malloc(id.cap);
        id.desc = malloc(id.cap);
        rc = !text || !id.desc ? PTB_ENOMEM : PTB_OK;
    }
    if (rc == PTB_OK)
        rc = each_line(&v, text, identity_line, &id);
    if (rc == PTB_OK && id.len >= id.cap)
        rc = PTB_EFORMAT;
    if (rc == PTB_OK && (rc = identify(&id, out)) == PTB_OK)
        copy_text(metric, cap, id.metric);
    if (rc == PTB_OK && (*out)->description &&   /* its ranking, kept */
        (rc = keep_ranking(t, *out)) == PTB_OK && (*out)->stored_table)
        t = NULL;                                /* (the puzzle's now) */
    if (rc != PTB_OK && *out) {
        ptb_puzzle_free(*out);
        *out = NULL;
    }
    if (t)
        ptb_table_close(t);
    free(text);
    free(id.desc);
    return rc;
}

const char *ptb_table_path(const ptb_table *t) { return t->path; }
const char *ptb_table_digest(const ptb_table *t) { return t->digest; }
const ptb_space *ptb_table_space(const ptb_table *t) { return t->s; }
unsigned ptb_table_modulus(const ptb_table *t) { return t->modulus; }

typedef struct stats_arg {
    const ptb_space *s;
    ptb_table_info *in;
} stats_arg;

/* One line of the stats record into *in; every number range-checked. */
static int stats_line(void *arg, const char *key, const char *val)
{
    const ptb_space *s = ((stats_arg *)arg)->s;
    ptb_table_info *in = ((stats_arg *)arg)->in;
    uint64_t a, b;
    int rc = PTB_EFORMAT;
    if (!strcmp(key, "distance") &&
        (rc = parse_pair(val, PTB_MAX_DISTANCE, &a, &b)) == PTB_OK)
        in->histogram[a] = b;
    if (!strcmp(key, "farthest") &&
        (rc = parse_pair(val, s->subtables ? s->subtables - 1 : 0, &a,
                         &b)) == PTB_OK) {
        if (in->n_farthest >= 8 || !ptb_in_space(s, (uint32_t)a, b))
            return PTB_EFORMAT;
        in->far_sub[in->n_farthest] = (uint32_t)a;
        in->far_idx[in->n_farthest++] = b;
    }
    return rc;
}

static void head_info(const table_head *h, ptb_table_info *info)
{
    memset(info, 0, sizeof *info);
    info->states = h->states;
    info->solvable = h->solvable;
    info->max_distance = h->max_distance;
    info->bytes = h->bytes;
    info->subtables = h->subtables;
    info->block_values = h->block_values;
    info->exact = h->exact;
    info->modulus = h->modulus;
    memcpy(info->encoding, h->encoding, sizeof info->encoding);
}

/* The header's fields, and the histogram and the farthest states from the
 * stats record, read and checked (its SHA-256 is in the header) on every
 * call: opening a table does not pay for them. */
int ptb_table_get_info(const ptb_table *t, ptb_table_info *info)
{
    MDB_val v;
    char *text, sum[65];
    uint64_t total = 0;
    unsigned top = 0;
    head_info(&t->head, info);
    int rc = get_record(t, "stats", &v);
    if (rc != PTB_OK)
        return rc == PTB_EFORMAT ? PTB_ECORRUPT : rc;
    if (v.mv_size > STATS_MAX)
        return PTB_ECORRUPT;
    text_digest(v.mv_data, v.mv_size, sum);
    if (strcmp(sum, t->stats_sha))
        return PTB_ECORRUPT;
    if (!(text = malloc(v.mv_size + 1)))
        return PTB_ENOMEM;
    stats_arg arg = { t->s, info };
    rc = each_line(&v, text, stats_line, &arg);
    free(text);
    for (unsigned d = 0; d <= PTB_MAX_DISTANCE; d++)
        if (info->histogram[d]) {
            total += info->histogram[d];
            top = d;
        }
    if (rc == PTB_OK && (total != info->solvable ||
                         (total && top != info->max_distance)))
        rc = PTB_EFORMAT;
    if (rc != PTB_OK)
        head_info(&t->head, info);
    return rc;
}

/* ==== reading: readers ==== */

/* A reader keeps every zstd block it decodes and makes its decoder on the
 * first decode; tables read in place need nothing of it.  Block b is
 * blk[b / BLOCK_GROUP][b % BLOCK_GROUP], each group of pointers allocated
 * on first use: a query that decodes one block of swap's 2,416 neither
 * clears nor walks a pointer for each of them. */
struct ptb_reader {
    const ptb_table *t;
    uint64_t ngroups;          /* entries of blk */
    ZSTD_DCtx *dctx;
    unsigned char ***blk;
};

int ptb_reader_new(const ptb_table *t, ptb_reader **out)
{
    ptb_reader *r = calloc(1, sizeof *r);
    *out = r;
    if (!r)
        return PTB_ENOMEM;
    r->t = t;
    r->ngroups = (t->nblocks + BLOCK_GROUP - 1) / BLOCK_GROUP;
    return PTB_OK;
}

void ptb_reader_free(ptb_reader *r)
{
    if (!r)
        return;
    for (uint64_t g = 0; r->blk && g < r->ngroups; g++) {
        for (unsigned i = 0; r->blk[g] && i < BLOCK_GROUP; i++)
            free(r->blk[g][i]);
        free(r->blk[g]);
    }
    free(r->blk);
    if (r->dctx)             /* else no call into libzstd at all */
        ZSTD_freeDCtx(r->dctx);
    free(r);
}

static int reader_decoder(ptb_reader *r)
{
    if (!r->dctx && !(r->dctx = ZSTD_createDCtx()))
        return PTB_ENOMEM;
    return PTB_OK;
}

/* The slot of block b, its group allocated when needed, and the decoder. */
static int reader_slot(ptb_reader *r, uint64_t b, unsigned char ***slot)
{
    unsigned char ***g;
    if (!r->blk && !(r->blk = calloc(r->ngroups, sizeof *r->blk)))
        return PTB_ENOMEM;
    g = &r->blk[b / BLOCK_GROUP];
    if (!*g && !(*g = calloc(BLOCK_GROUP, sizeof **g)))
        return PTB_ENOMEM;
    *slot = &(*g)[b % BLOCK_GROUP];
    return reader_decoder(r);
}

/* Decodes block b into buf (its exact size): the frame must lie within
 * "values", carry a checksum, and decode to exactly the block's bytes. */
static int decode_into(ptb_reader *r, uint64_t b, unsigned char *buf,
                       size_t want)
{
    const ptb_table *t = r->t;
    uint64_t from = get_be64(t->index + 8 * b);
    uint64_t to = get_be64(t->index + 8 * (b + 1));
    if (from > to || to > t->values_len || to - from < 6)
        return PTB_ECORRUPT;
    const unsigned char *f = t->values + from;
    size_t flen = (size_t)(to - from);
    /* RFC 8878: byte 4 is the frame header descriptor, bit 2 the content
     * checksum flag */
    if (!(f[4] & 4) || ZSTD_getFrameContentSize(f, flen) != want ||
        ZSTD_findFrameCompressedSize(f, flen) != flen)
        return PTB_ECORRUPT;
    /* The dictionary is raw content, referenced in the map for this frame.
     * ZSTD_decompress_usingDict references it as it is, without the 27 kB
     * DDict that ZSTD_DCtx_refPrefix builds for each frame, but it takes
     * fewer than 8 bytes for no dictionary and bytes that start with the
     * dictionary magic for a full one: those only as a prefix. */
    size_t n;
    if (t->dict_len >= 8 && ptb_get_le(t->dict, 4) != ZSTD_MAGIC_DICTIONARY) {
        n = ZSTD_decompress_usingDict(r->dctx, buf, want, f, flen, t->dict,
                                      t->dict_len);
    } else {
        n = t->dict ? ZSTD_DCtx_refPrefix(r->dctx, t->dict, t->dict_len) : 0;
        if (!ZSTD_isError(n))
            n = ZSTD_decompressDCtx(r->dctx, buf, want, f, flen);
    }
    return ZSTD_isError(n) || n != want ? PTB_ECORRUPT : PTB_OK;
}

static size_t block_bytes(const ptb_table *t, uint64_t b)
{
    return packed_size(!t->modulus, block_len(t->head.states, t->block_values,
                                           b));
}

/* Block b, decoded once per reader. */
static int block_of(ptb_reader *r, uint64_t b, const unsigned char **out)
{
    unsigned char **slot;
    int rc = reader_slot(r, b, &slot);
    if (rc != PTB_OK)
        return rc;
    if (!*slot) {
        size_t want = block_bytes(r->t, b);
        unsigned char *buf = malloc(want);
        if (!buf)
            return PTB_ENOMEM;
        if ((rc = decode_into(r, b, buf, want)) != PTB_OK) {
            free(buf);
            return rc;
        }
        *slot = buf;
    }
    *out = *slot;
    return PTB_OK;
}

/* ---- in place: read from the map, each chunk checked on first use ---- */

/* Checks, once per table (marked()), the chunks holding bytes from..to-1
 * of values: PTB_ECORRUPT when one fails its check. */
static int touch(const ptb_table *t, size_t from, size_t to)
{
    for (uint64_t c = from / CHUNK_BYTES; c <= (to - 1) / CHUNK_BYTES; c++) {
        if (marked(t->checked, c))
            continue;
        size_t at = c * CHUNK_BYTES;
        size_t n = t->values_len - at < CHUNK_BYTES ? t->values_len - at
                                                   : CHUNK_BYTES;
        if (chunk_check(t->values + at, n) != ptb_get_le(t->checks + 4 * c, 4))
            return PTB_ECORRUPT;
        mark(t->checked, c);
    }
    return PTB_OK;
}

/* A stored exact distance (a byte, PTB_BYTE_NONE for none: the distance
 * or PTB_UNSOLVABLE); PTB_ECORRUPT past the header's max_distance. */
static int exact_value(const ptb_table *t, unsigned d, unsigned *value)
{
    *value = d == PTB_BYTE_NONE ? PTB_UNSOLVABLE : d;
    return d > t->head.max_distance && d != PTB_BYTE_NONE ? PTB_ECORRUPT
                                                         : PTB_OK;
}

/* Value i of a decoded zstd block: a byte (exact: exact_value()), or 2
 * bits, value i at bits 2 * (i % 4) of byte i / 4; PTB_ECORRUPT for a
 * residue of 3 or a distance past max_distance. */
static int unpack_value(const ptb_table *t, const unsigned char *block,
                        size_t i, unsigned *v)
{
    if (!t->modulus)
        return exact_value(t, block[i], v);
    *v = (block[i / 4] >> (2 * (i % 4))) & 3u;
    return *v == 3 ? PTB_ECORRUPT : PTB_OK;
}

/* sparse: a binary search of state g's block for its position. */
static int sparse_get(const ptb_table *t, uint64_t g, unsigned *value)
{
    uint64_t b = g / SPARSE_BLOCK, want = g % SPARSE_BLOCK;
    size_t pos = 4 * (t->nblocks + 1), dst = pos + 2 * t->sparse_n;
    int rc = touch(t, 4 * b, 4 * b + 8);
    if (rc != PTB_OK)
        return rc;
    uint64_t lo = ptb_get_le(t->values + 4 * b, 4);
    uint64_t hi = ptb_get_le(t->values + 4 * b + 4, 4);
    if (lo > hi || hi > t->sparse_n)
        return PTB_ECORRUPT;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if ((rc = touch(t, pos + 2 * mid, pos + 2 * mid + 2)) != PTB_OK)
            return rc;
        uint64_t at = ptb_get_le(t->values + pos + 2 * mid, 2);
        if (at == want) {
            rc = touch(t, dst + mid, dst + mid + 1);
            return rc == PTB_OK && t->values[dst + mid] != PTB_BYTE_NONE
                       ? exact_value(t, t->values[dst + mid], value)
                       : PTB_ECORRUPT;
        }
        if (at < want)
            lo = mid + 1;
        else
            hi = mid;
    }
    *value = PTB_UNSOLVABLE;
    return PTB_OK;
}

/* The stored value of state g: packed1 gives its bit, which with_parity()
 * completes. */
static int in_place_get(const ptb_table *t, uint64_t g, unsigned *value)
{
    size_t at = t->encoding == ENC_PACKED1   ? g / 8
                : t->encoding == ENC_PACKED3 ? g / 5
                                             : g / 2;
    if (t->encoding == ENC_SPARSE)
        return sparse_get(t, g, value);
    int rc = touch(t, at, at + 1);
    if (rc != PTB_OK)
        return rc;
    if (t->encoding == ENC_PACKED1) {
        *value = t->values[at] >> (g % 8) & 1u;
        return PTB_OK;
    }
    if (t->encoding == ENC_PACKED3)
        return packed3_digit(t->values[at], (unsigned)(g % 5), value);
    unsigned d = t->values[at] >> (4 * (g % 2)) & 15u;
    return exact_value(t, d == 15 ? PTB_BYTE_NONE : d, value);
}

/* packed1: the distance mod 4 of state idx of sub, from its stored bit. */
static unsigned with_parity(const ptb_table *t, uint32_t sub, uint64_t idx,
                            unsigned bit)
{
    return 2 * bit + t->s->p->parity(t->s->ctx, sub, idx);
}

int ptb_table_get(const ptb_table *t, ptb_reader *r, uint32_t sub,
                  uint64_t idx, unsigned *value)
{
    if (!ptb_in_space(t->s, sub, idx))
        return PTB_EINVAL;
    int rc = check_size(t, sub);
    if (rc != PTB_OK)
        return rc;
    uint64_t g = ptb_global(t->s, sub, idx);
    if (t->encoding == ENC_PACKED1) {
        if ((rc = in_place_get(t, g, value)) == PTB_OK)
            *value = with_parity(t, sub, idx, *value);
        return rc;
    }
    if (in_place(t->encoding))
        return in_place_get(t, g, value);
    const unsigned char *data;
    uint64_t b = g / t->block_values;
    rc = block_of(r, b, &data);
    return rc == PTB_OK ? unpack_value(t, data, g % t->block_values, value)
                        : rc;
}

int ptb_table_needs_reader(const ptb_table *t)
{
    return !in_place(t->encoding);
}

int ptb_table_value(const ptb_table *t, ptb_reader *reader, uint32_t sub,
                    uint64_t idx, unsigned *value)
{
    ptb_reader *r = reader;
    int rc = r || !ptb_table_needs_reader(t) ? PTB_OK : ptb_reader_new(t, &r);
    if (rc == PTB_OK)
        rc = ptb_table_get(t, r, sub, idx, value);
    if (r != reader)
        ptb_reader_free(r);
    return rc;
}

/* ==== reading everything: for ptb_verify ==== */

/* Puts value v of state g where ptb_table_decode_all() keeps it: a
 * residue, or a byte. */
static void put_value(const ptb_table *t, uint8_t *values, int packed,
                      uint64_t g, unsigned v)
{
    uint8_t b = (uint8_t)(t->modulus ? v : stored_value(1, v));
    if (packed)
        values[g / 4] |= (uint8_t)(b << 2 * (g % 4));
    else
        values[g] = b;
}

/* sparse: every block's entries within the record, their positions rising
 * within the block, their distances within the header's. */
static int decode_sparse(const ptb_table *t, uint8_t *values,
                         const char **what)
{
    size_t pos = 4 * (t->nblocks + 1), dst = pos + 2 * t->sparse_n;
    memset(values, PTB_BYTE_NONE, t->head.states);
    *what = "a sparse block's entries are out of place";
    if (ptb_get_le(t->values, 4) != 0 ||
        ptb_get_le(t->values + 4 * t->nblocks, 4) != t->sparse_n)
        return PTB_ECORRUPT;
    for (uint64_t b = 0; b < t->nblocks; b++) {
        uint64_t lo = ptb_get_le(t->values + 4 * b, 4);
        uint64_t hi = ptb_get_le(t->values + 4 * b + 4, 4);
        uint64_t len = block_len(t->head.states, SPARSE_BLOCK, b);
        if (lo > hi || hi > t->sparse_n)
            return PTB_ECORRUPT;
        for (uint64_t k = lo; k < hi; k++) {
            uint64_t at = ptb_get_le(t->values + pos + 2 * k, 2);
            unsigned d;
            if (at >= len || (k > lo && at <= ptb_get_le(t->values + pos +
                                                     2 * (k - 1), 2)))
                return PTB_ECORRUPT;
            if (t->values[dst + k] == PTB_BYTE_NONE ||
                exact_value(t, t->values[dst + k], &d) != PTB_OK) {
                *what = "a sparse distance is over max_distance";
                return PTB_ECORRUPT;
            }
            values[b * SPARSE_BLOCK + at] = (uint8_t)d;
        }
    }
    return PTB_OK;
}

static int decode_in_place(const ptb_table *t, uint8_t *values, int packed,
                           ptb_sha256 *c, const char **what)
{
    if (t->values_len && touch(t, 0, t->values_len) != PTB_OK) {
        *what = "a chunk of values fails its check";
        return PTB_ECORRUPT;
    }
    ptb_sha256_update(c, t->values, t->values_len);
    if (t->encoding == ENC_SPARSE)
        return decode_sparse(t, values, what);
    const uint64_t *off = t->s->offset;
    uint32_t sub = 0;
    for (uint64_t g = 0; g < t->head.states; g++) {
        unsigned v;
        if (in_place_get(t, g, &v) != PTB_OK) {
            *what = t->encoding == ENC_PACKED3
                        ? "a packed3 byte is over 242"
                        : "a packed4 value is over max_distance";
            return PTB_ECORRUPT;
        }
        while (t->encoding == ENC_PACKED1 && off[sub + 1] <= g)
            sub++;
        if (t->encoding == ENC_PACKED1)
            v = with_parity(t, sub, g - off[sub], v);
        put_value(t, values, packed, g, v);
    }
    return PTB_OK;
}

static int decode_blocks(const ptb_table *t, uint8_t *values, int packed,
                         ptb_sha256 *c, const char **what)
{
    ptb_reader *r;
    unsigned char *buf = malloc(packed_size(!t->modulus, t->block_values));
    int rc = ptb_reader_new(t, &r);
    if (rc == PTB_OK && !buf)
        rc = PTB_ENOMEM;
    if (rc == PTB_OK)
        rc = reader_decoder(r);
    for (uint64_t b = 0; rc == PTB_OK && b < t->nblocks; b++) {
        uint64_t first = b * t->block_values;
        uint64_t n = block_len(t->head.states, t->block_values, b);
        size_t want = packed_size(!t->modulus, n);
        if ((rc = decode_into(r, b, buf, want)) != PTB_OK) {
            *what = "a block fails its checksum";
            break;
        }
        ptb_sha256_update(c, buf, want);
        for (uint64_t i = 0; rc == PTB_OK && i < n; i++) {
            unsigned v;
            if ((rc = unpack_value(t, buf, i, &v)) != PTB_OK)
                *what = t->modulus ? "a 2-bit value of 3"
                                   : "a distance is over max_distance";
            put_value(t, values, packed, first + i, v);
        }
    }
    free(buf);
    ptb_reader_free(r);
    return rc;
}

int ptb_table_decode_all(const ptb_table *t, uint8_t *values, int packed,
                         const char **what)
{
    ptb_sha256 c;
    char hex[65];
    if (packed && !t->modulus)
        return PTB_EINVAL;
    for (uint32_t sub = 0; sub < t->s->subtables; sub++)
        if (check_size(t, sub) != PTB_OK) {
            *what = "a subtable size is not the puzzle's";
            return PTB_ECORRUPT;
        }
    *what = "out of memory";
    ptb_sha256_init(&c);
    int rc = in_place(t->encoding)
                 ? decode_in_place(t, values, packed, &c, what)
                 : decode_blocks(t, values, packed, &c, what);
    if (rc != PTB_OK)
        return rc;
    ptb_sha256_hex(&c, hex);
    if (strncmp(t->digest, "sha256:", 7) || strcmp(t->digest + 7, hex)) {
        *what = "the digest of the values does not match the header";
        return PTB_ECORRUPT;
    }
    return PTB_OK;
}
