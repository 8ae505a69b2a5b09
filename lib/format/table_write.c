/* lib/format/table_write.c: writes a table (tables/FORMAT.md; table.h): plan,
 * compress, commit. */
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

#include "table.h"

/* ==== values ==== */

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

static void put_be64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (56 - 8 * i));
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

/* A record of a table file: its key and its bytes.  A record whose data
 * is NULL is made where LMDB keeps it: the values of the plan given
 * (pack_bytes()). */
typedef struct record {
    const char *key;
    const void *data;
    size_t len;
} record;

/* The header's last line, "meta_sha256 " and 64 hex digits and "\n". */
#define META_LINE (12 + 64 + 1)

/* Into the main (unnamed) database, the only one a table has. */
static int put(MDB_txn *txn, MDB_dbi dbi, const record *r, const plan *pl)
{
    MDB_val key = { strlen(r->key), (void *)r->key },
            val = { r->len, (void *)r->data };
    if (r->data)
        return mdb_put(txn, dbi, &key, &val, MDB_APPEND);
    int rc = mdb_put(txn, dbi, &key, &val, MDB_APPEND | MDB_RESERVE);
    if (!rc)
        pack_bytes(pl, 0, r->len, val.mv_data);
    return rc;
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

/* Puts the n records, in key order (rec[] is), into a new LMDB file at
 * path, made in LMDB's map of it (reserve()), cut to the pages used and
 * synced to disk.  LMDB keeps a record of at most about half a page on
 * the leaf page itself, so small tables with a long header (a described
 * puzzle's) can need more than one leaf, which the layout of FORMAT.md
 * does not allow: then nothing is committed, *page gets the page size,
 * and SPLIT_LEAF comes back (commit_file() pads the header). */
static int write_env(const char *path, const record *rec, unsigned n,
                     const plan *pl, unsigned *page)
{
    /* the header counted as 80 bytes more than its text before its
     * meta_sha256 line */
    size_t payload = 80 - META_LINE;
    for (unsigned i = 0; i < n; i++)
        payload += rec[i].len;
    /* deterministic: depends only on the content */
    size_t mapsize = ((payload * 2 + (4u << 20)) >> 20) << 20;
    MDB_env *env = NULL;
    MDB_txn *txn = NULL;
    MDB_dbi dbi;
    int rc = mdb_env_create(&env);
    if (!rc) rc = mdb_env_set_mapsize(env, mapsize);
    /* the pages LMDB will use: the records, a page header each and the
     * meta, leaf and branch pages (its map is larger: room to spare) */
    if (!rc) rc = reserve(path, payload + 64 * (size_t)sysconf(_SC_PAGESIZE));
    if (!rc) rc = mdb_env_open(env, path, MDB_NOSUBDIR | MDB_NOLOCK |
                               MDB_NOSYNC | MDB_WRITEMAP, 0644);
    if (!rc) rc = mdb_txn_begin(env, NULL, 0, &txn);
    if (!rc) rc = mdb_dbi_open(txn, NULL, 0, &dbi);
    for (unsigned i = 0; !rc && i < n; i++)
        rc = put(txn, dbi, &rec[i], pl);
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
    return rc == SPLIT_LEAF ? rc : db_err(rc);
}

/* The header with its last line, "meta_sha256" and the SHA-256 of the
 * text before it; first a "padding" line of dots when pad is a page size:
 * longer than half a page, LMDB keeps it on overflow pages (FORMAT.md).
 * NULL: no memory. */
static char *sealed(const char *header, unsigned pad)
{
    size_t len = strlen(header), want = pad ? pad / 2 + 64 : 0;
    size_t cap = len + want + 16 + META_LINE;
    char *h = malloc(cap), sum[65];
    if (h) {
        memcpy(h, header, len);
        if (pad) {
            memcpy(h + len, "padding ", 8);
            memset(h + len + 8, '.', want);
            len += 8 + want;
            h[len++] = '\n';
        }
        text_digest(h, len, sum);
        snprintf(h + len, cap - len, "meta_sha256 %s\n", sum);
    }
    return h;
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
 * ENOSPC, so say that when the free space of dir cannot hold its need
 * bytes. */
static int full_disk(uint64_t need, const char *dir, int rc)
{
    struct statvfs fs;
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

/* Writes a table file of the n records (in key order, one of them
 * "header" with data NULL: header sealed there) to tmp, then renames it
 * to final in dir: an old file stays intact until the new one is complete
 * on disk.  need: the bytes the file may take, for a full disk's error.
 * *bytes gets the file's size. */
static int commit_file(const char *dir, const char *final, const char *tmp,
                       const char *header, record *rec, unsigned n,
                       const plan *pl, uint64_t need, uint64_t *bytes)
{
    unsigned page = 0, h = 0;
    struct stat st;
    int rc = PTB_OK;
    while (h < n && strcmp(rec[h].key, "header"))
        h++;
    if (unlink(tmp) != 0 && errno != ENOENT)
        rc = errno;
    for (int pass = 0; rc == PTB_OK && pass < 2; pass++) {
        char *text = sealed(header, page);
        if (!text)
            return PTB_ENOMEM;
        rec[h].data = text;
        rec[h].len = strlen(text);
        rc = write_env(tmp, rec, n, pl, &page);
        rec[h].data = NULL;
        free(text);
        if (rc != SPLIT_LEAF)
            break;
        rc = pass ? PTB_EDB : PTB_OK;
    }
    rc = full_disk(need, dir, rc);
    if (rc == PTB_OK && rename(tmp, final) != 0)
        rc = errno;
    if (rc == PTB_OK)
        rc = sync_dir(dir);
    if (rc != PTB_OK)
        unlink(tmp);
    if (rc == PTB_OK && stat(final, &st) == 0)
        *bytes = (uint64_t)st.st_size;
    if (rc == PTB_OK)
        drop_cached(final);
    return rc;
}

/* Writes the planned table to DIR/<file>.tmp, then renames it into place. */
static int commit(const plan *pl, const char *dir, ptb_table_info *info)
{
    const ptb_space *s = pl->s;
    char *final = table_path(s, dir, ""), *tmp = table_path(s, dir, ".tmp");
    char *stats = stats_text(info);
    char *header = stats ? header_text(pl, info, stats) : NULL;
    unsigned char *sizes = sizes_record(s);
    size_t ranking_len;
    const unsigned char *ranking = ptb_space_index(s, &ranking_len);
    record rec[8];
    unsigned n = 0;
    if (pl->checks)
        rec[n++] = (record){ "checks", pl->checks,
                             4 * chunk_count(pl->values_len) };
    if (pl->dict_len)
        rec[n++] = (record){ "dictionary", pl->dict, pl->dict_len };
    rec[n++] = (record){ "header", NULL,
                         header ? strlen(header) + META_LINE : 0 };
    if (pl->index)
        rec[n++] = (record){ "index", pl->index, 8 * (pl->nblocks + 1) };
    if (ranking)
        rec[n++] = (record){ "ranking", ranking, ranking_len };
    rec[n++] = (record){ "sizes", sizes, 8 * (size_t)s->subtables };
    rec[n++] = (record){ "stats", stats, stats ? strlen(stats) : 0 };
    rec[n++] = (record){ "values", pl->values, pl->values_len };
    uint64_t need = pl->values_len + pl->dict_len + 8 * (pl->nblocks + 1) +
                    8 * (uint64_t)s->subtables + HEADER_MAX + STATS_MAX +
                    4 * chunk_count(pl->values_len);
    int rc = final && tmp && header && sizes
             ? commit_file(dir, final, tmp, header, rec, n, pl, need,
                           &info->bytes)
             : PTB_ENOMEM;
    free(sizes);
    free(header);
    free(stats);
    free(final);
    free(tmp);
    return rc;
}

int ptb_records_write(const char *dir, const char *file, const char *header,
                      const ptb_record *in, unsigned n, uint64_t *bytes)
{
    char *final = ptb_join_path(dir, file, ""),
         *tmp = ptb_join_path(dir, file, ".tmp");
    size_t hlen = strlen(header), cap = hlen + 64;
    char *text = malloc(cap);
    record *rec = calloc(n + 1, sizeof *rec);
    uint64_t need = HEADER_MAX;
    int rc = final && tmp && text && rec ? PTB_OK : PTB_ENOMEM;
    unsigned k = 0;
    int placed = 0;
    if (rc == PTB_OK)
        snprintf(text, cap, "magic %s\nformat %d\n%s", MAGIC,
                 PTB_FORMAT_VERSION, header);
    /* the caller's records and the header, in key order */
    for (unsigned i = 0; rc == PTB_OK && i <= n; i++) {
        if (!placed && (i == n || strcmp(in[i].key, "header") > 0)) {
            rec[k++] = (record){ "header", NULL, strlen(text) + META_LINE };
            placed = 1;
        }
        if (i == n)
            break;
        if (!in[i].data || !strcmp(in[i].key, "header") ||
            (i && strcmp(in[i - 1].key, in[i].key) >= 0))
            rc = PTB_EINVAL;
        rec[k++] = (record){ in[i].key, in[i].data, in[i].len };
        need += in[i].len;
    }
    if (rc == PTB_OK)
        rc = commit_file(dir, final, tmp, text, rec, k, NULL, need, bytes);
    free(rec);
    free(text);
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
