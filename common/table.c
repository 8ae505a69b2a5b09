/* common/table.c: the on-disk table format (tables/FORMAT.md), the only file
 * that talks to LMDB and zstd.
 *
 * A table is one LMDB file with two named databases: "meta" (a text header,
 * the subtable sizes, a zstd dictionary trained on the table's own blocks)
 * and "blocks" (the values of all subtables laid end to
 * end in global index order, cut into blocks of block_values values, each a
 * zstd frame with its content checksum, keyed by the 8-byte big-endian block
 * number).  Values are one byte each (exact tables) or 2 bits each (mod-3
 * tables of reversible puzzles).
 *
 * Writing compresses every block in memory, then puts them in one
 * transaction in key order into DIR/<file>.tmp and renames it into place.
 * Reading maps the file read-only without a lock file, indexes the blocks
 * once at open, and decodes blocks into per-caller caches (ptb_reader), so a
 * handle is shared by threads without locks.
 */
#include <errno.h>
#include <inttypes.h>
#include <lmdb.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zdict.h>
#include <zstd.h>

#include "internal.h"

#define MAGIC "puzzletb"
#define BLOCK_VALUES 16384u      /* values per block; a multiple of 4 */
#define DICT_BYTES (128u << 10)  /* trained dictionary, at most */
#define SAMPLE_BYTES (16u << 20) /* blocks handed to the trainer, at most */
#define READER_SLOTS 64          /* decoded blocks a reader keeps, at most */

struct ptb_table {
    const ptb_space *s;
    char *path;
    MDB_env *env;
    MDB_txn *txn;              /* read-only, open for the handle's life */
    int exact;
    uint32_t block_values;
    uint64_t nblocks;
    const unsigned char **blk; /* into the map: frame of block b */
    size_t *blen;
    ZSTD_DDict *ddict;         /* NULL when the table has no dictionary */
    char digest[72];           /* the header's "digest" value */
    ptb_table_info info;
};

/* ==== values and blocks ==== */

static size_t packed_size(int exact, uint64_t nvalues)
{
    return exact ? (size_t)nvalues : (size_t)((nvalues + 3) / 4);
}

/* Packs n values starting at dist[0]: bytes as they are, or 2 bits each
 * (distance mod 3, 3 for unsolvable), value i at bits 2*(i%4) of byte i/4. */
static size_t pack_block(int exact, const uint8_t *dist, size_t n,
                         unsigned char *out)
{
    if (exact) {
        memcpy(out, dist, n);
        return n;
    }
    size_t bytes = (n + 3) / 4;
    memset(out, 0, bytes);
    for (size_t i = 0; i < n; i++) {
        unsigned v = dist[i] == PTB_UNSOLVABLE ? 3u : dist[i] % 3u;
        out[i / 4] |= (unsigned char)(v << (2 * (i % 4)));
    }
    return bytes;
}

static unsigned unpack_value(int exact, const unsigned char *block, size_t i)
{
    if (exact)
        return block[i];
    unsigned v = (block[i / 4] >> (2 * (i % 4))) & 3u;
    return v == 3 ? PTB_UNSOLVABLE : v;
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

static uint64_t get_be64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | p[i];
    return v;
}

/* ==== writing ==== */

typedef struct frame {
    void *data;
    size_t len;
} frame;

typedef struct compress_job {
    const uint8_t *dist;
    uint64_t total;
    int exact, level;
    const ZSTD_CDict *cdict;    /* or NULL */
    frame *frames;
    uint64_t nblocks;
    uint64_t next;              /* next block to take, under lock */
    pthread_mutex_t lock;
    int rc;
} compress_job;

static int compress_one(compress_job *j, ZSTD_CCtx *cc, unsigned char *tmp,
                        uint64_t b)
{
    uint64_t n = block_len(j->total, BLOCK_VALUES, b);
    size_t raw = pack_block(j->exact, j->dist + b * BLOCK_VALUES, n, tmp);
    size_t cap = ZSTD_compressBound(raw);
    void *out = malloc(cap);
    if (!out)
        return PTB_ENOMEM;
    size_t len = ZSTD_compress2(cc, out, cap, tmp, raw);
    if (ZSTD_isError(len)) {
        free(out);
        return PTB_ECORRUPT;
    }
    j->frames[b].data = out;
    j->frames[b].len = len;
    return PTB_OK;
}

static void *compress_worker(void *arg)
{
    compress_job *j = arg;
    ZSTD_CCtx *cc = ZSTD_createCCtx();
    unsigned char *tmp = malloc(BLOCK_VALUES);
    int rc = cc && tmp ? PTB_OK : PTB_ENOMEM;
    if (rc == PTB_OK) {
        ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, j->level);
        ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 1);
        ZSTD_CCtx_setParameter(cc, ZSTD_c_contentSizeFlag, 1);
        if (j->cdict)
            ZSTD_CCtx_refCDict(cc, j->cdict);
    }
    for (;;) {
        pthread_mutex_lock(&j->lock);
        uint64_t b = j->next++;
        if (rc != PTB_OK && j->rc == PTB_OK)
            j->rc = rc;
        int stop = j->rc != PTB_OK || b >= j->nblocks;
        pthread_mutex_unlock(&j->lock);
        if (stop)
            break;
        rc = compress_one(j, cc, tmp, b);
    }
    free(tmp);
    ZSTD_freeCCtx(cc);
    return NULL;
}

/* Compresses every block with o->threads workers. */
static int compress_all(compress_job *j, unsigned threads)
{
    pthread_t tid[256];
    unsigned started = 0;
    pthread_mutex_init(&j->lock, NULL);
    for (unsigned i = 1; i < threads; i++)
        if (pthread_create(&tid[started], NULL, compress_worker, j) == 0)
            started++;
    compress_worker(j);
    for (unsigned i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    pthread_mutex_destroy(&j->lock);
    return j->rc;
}

/* Trains a dictionary on evenly spaced blocks of the table itself.  Returns
 * its size, 0 when the table is too small or training fails (the table is
 * then written without one).  Deterministic: same values, same dictionary. */
static size_t train_dictionary(const uint8_t *dist, uint64_t total, int exact,
                               void *dict)
{
    uint64_t nblocks = block_count(total, BLOCK_VALUES);
    size_t raw = packed_size(exact, BLOCK_VALUES), got = 0;
    if (nblocks < 16)
        return 0;
    uint64_t step = (nblocks * raw + SAMPLE_BYTES - 1) / SAMPLE_BYTES;
    unsigned n = 0, cap = (unsigned)(nblocks / (step ? step : 1) + 1);
    unsigned char *samples = malloc((size_t)cap * raw);
    size_t *sizes = malloc(cap * sizeof *sizes);
    for (uint64_t b = 0; samples && sizes && b < nblocks && n < cap;
         b += step ? step : 1) {
        uint64_t len = block_len(total, BLOCK_VALUES, b);
        sizes[n] = pack_block(exact, dist + b * BLOCK_VALUES, len,
                              samples + got);
        got += sizes[n++];
    }
    size_t r = samples && sizes
                   ? ZDICT_trainFromBuffer(dict, DICT_BYTES, samples, sizes, n)
                   : 0;
    free(samples);
    free(sizes);
    return ZDICT_isError(r) ? 0 : r;
}

static void digest_values(const ptb_space *s, const uint8_t *dist, int exact,
                          char hex[65])
{
    uint64_t total = s->offset[s->subtables];
    unsigned char *tmp = exact ? NULL : malloc(BLOCK_VALUES);
    ptb_sha256 c;
    ptb_sha256_init(&c);
    if (exact)                /* blocks are the bytes themselves */
        ptb_sha256_update(&c, dist, total);
    for (uint64_t b = 0; tmp && b < block_count(total, BLOCK_VALUES); b++) {
        uint64_t n = block_len(total, BLOCK_VALUES, b);
        size_t raw = pack_block(exact, dist + b * BLOCK_VALUES, n, tmp);
        ptb_sha256_update(&c, tmp, raw);
    }
    free(tmp);
    ptb_sha256_hex(&c, hex);
}

/* The meta "header" record: key-value text lines, documented in FORMAT.md. */
static char *header_text(const ptb_space *s, const ptb_table_info *in,
                         const char *digest, size_t dict_bytes)
{
    size_t cap = 4096 + 48 * (PTB_MAX_DISTANCE + 1 + 8), len = 0;
    char *buf = malloc(cap);
    if (!buf)
        return NULL;
    ptb_catf(buf, cap, &len,
             "magic %s\nformat %d\npuzzle %s\nmetric %s\nencoding %s\n"
             "block_values %" PRIu32 "\nsubtables %" PRIu32 "\n"
             "states %" PRIu64 "\nsolvable %" PRIu64 "\nmax_distance %u\n"
             "dictionary %zu\ndigest sha256:%s\n",
             MAGIC, PTB_FORMAT_VERSION, s->p->name, s->p->metrics[s->metric],
             in->exact ? "exact" : "mod3", in->block_values, in->subtables,
             in->states, in->solvable, in->max_distance, dict_bytes, digest);
    for (unsigned d = 0; d <= PTB_MAX_DISTANCE; d++)
        if (in->histogram[d])
            ptb_catf(buf, cap, &len, "distance %u %" PRIu64 "\n", d,
                     in->histogram[d]);
    for (unsigned i = 0; i < in->n_farthest; i++)
        ptb_catf(buf, cap, &len, "farthest %" PRIu32 " %" PRIu64 "\n",
                 in->far_sub[i], in->far_idx[i]);
    return buf;
}

/* The header's checksum: SHA-256 of its text before the last line.  (The
 * sizes record is checked against the puzzle itself; a damaged dictionary
 * fails the checksums of the frames it decodes.) */
static void meta_digest(const char *text, size_t len, char hex[65])
{
    ptb_sha256 c;
    ptb_sha256_init(&c);
    ptb_sha256_update(&c, text, len);
    ptb_sha256_hex(&c, hex);
}

static unsigned char *sizes_record(const ptb_space *s)
{
    unsigned char *sizes = malloc(8 * (size_t)s->subtables + 1);
    for (uint32_t i = 0; sizes && i < s->subtables; i++)
        put_be64(sizes + 8 * i, s->offset[i + 1] - s->offset[i]);
    return sizes;
}

static int db_err(int rc)
{
    if (rc == MDB_SUCCESS)
        return PTB_OK;
    if (rc == ENOENT)
        return PTB_ENOTABLE;
    if (rc == MDB_INVALID || rc == MDB_VERSION_MISMATCH)
        return PTB_EFORMAT;
    if (rc == MDB_CORRUPTED || rc == MDB_PAGE_NOTFOUND)
        return PTB_ECORRUPT;
    if (rc == ENOMEM)
        return PTB_ENOMEM;
    return rc > 0 ? PTB_EIO : PTB_EDB;
}

static int put(MDB_txn *txn, MDB_dbi dbi, const void *k, size_t klen,
               const void *v, size_t vlen, unsigned flags)
{
    MDB_val key = { klen, (void *)k }, val = { vlen, (void *)v };
    return mdb_put(txn, dbi, &key, &val, flags);
}

/* Puts header, sizes and frames into a new LMDB file at path. */
static int write_env(const char *path, const ptb_space *s, const char *header,
                     const frame *dict, const frame *fr, uint64_t nblocks)
{
    size_t payload = strlen(header) + 80 + 8 * (size_t)s->subtables +
                     dict->len;
    for (uint64_t b = 0; b < nblocks; b++)
        payload += fr[b].len + 64;
    /* deterministic: depends only on the content */
    size_t mapsize = ((payload * 2 + (4u << 20)) >> 20) << 20;
    MDB_env *env = NULL;
    MDB_txn *txn = NULL;
    MDB_dbi meta, blocks;
    unsigned char key[8];
    int rc = mdb_env_create(&env);
    if (!rc) rc = mdb_env_set_maxdbs(env, 2);
    if (!rc) rc = mdb_env_set_mapsize(env, mapsize);
    if (!rc) rc = mdb_env_open(env, path,
                               MDB_NOSUBDIR | MDB_NOLOCK | MDB_NOSYNC, 0644);
    if (!rc) rc = mdb_txn_begin(env, NULL, 0, &txn);
    if (!rc) rc = mdb_dbi_open(txn, "meta", MDB_CREATE, &meta);
    if (!rc) rc = mdb_dbi_open(txn, "blocks", MDB_CREATE, &blocks);
    unsigned char *sizes = sizes_record(s);
    size_t sizes_len = 8 * (size_t)s->subtables, hlen = strlen(header);
    char *text = malloc(hlen + 80), sum[65];
    if (!rc && (!sizes || !text))
        rc = ENOMEM;
    if (!rc) {
        meta_digest(header, hlen, sum);
        snprintf(text, hlen + 80, "%smeta_sha256 %s\n", header, sum);
        rc = put(txn, meta, "header", 6, text, strlen(text), 0);
    }
    if (!rc && dict->len)
        rc = put(txn, meta, "dictionary", 10, dict->data, dict->len, 0);
    if (!rc)
        rc = put(txn, meta, "sizes", 5, sizes, sizes_len, 0);
    free(sizes);
    free(text);
    for (uint64_t b = 0; !rc && b < nblocks; b++) {
        put_be64(key, b);
        rc = put(txn, blocks, key, 8, fr[b].data, fr[b].len, MDB_APPEND);
    }
    if (!rc) {
        rc = mdb_txn_commit(txn);
        txn = NULL;
    }
    if (!rc) rc = mdb_env_sync(env, 1);
    if (txn)
        mdb_txn_abort(txn);
    if (env)
        mdb_env_close(env);
    return db_err(rc);
}

static char *join_path(const char *dir, const char *file, const char *suffix)
{
    size_t n = strlen(dir) + strlen(file) + strlen(suffix) + 2;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/%s%s", dir, file, suffix);
    return p;
}

static char *table_path(const ptb_space *s, const char *dir,
                        const char *suffix)
{
    char file[128];
    ptb_space_file(s, file, sizeof file);
    return join_path(dir, file, suffix);
}

int ptb_table_write(const ptb_space *s, const char *dir, const uint8_t *dist,
                    const ptb_build_opts *o, ptb_table_info *info)
{
    compress_job j = { 0 };
    frame dict = { NULL, 0 };
    ZSTD_CDict *cdict = NULL;
    char digest[65];
    char *final = table_path(s, dir, ""), *tmp = table_path(s, dir, ".tmp");
    char *header = NULL;
    int rc = final && tmp ? PTB_OK : PTB_ENOMEM;
    struct stat st;

    info->exact = !s->p->reversible;
    info->block_values = BLOCK_VALUES;
    info->subtables = s->subtables;
    info->states = s->offset[s->subtables];
    j.dist = dist;
    j.total = info->states;
    j.exact = info->exact;
    j.level = o->zstd_level;
    j.nblocks = block_count(j.total, BLOCK_VALUES);
    j.frames = calloc(j.nblocks + 1, sizeof *j.frames);
    dict.data = malloc(DICT_BYTES);
    if (!j.frames || !dict.data)
        rc = PTB_ENOMEM;
    if (rc == PTB_OK)
        dict.len = train_dictionary(dist, j.total, j.exact, dict.data);
    if (rc == PTB_OK && dict.len) {
        j.cdict = cdict = ZSTD_createCDict(dict.data, dict.len, j.level);
        if (!cdict)
            rc = PTB_ENOMEM;
    }
    if (rc == PTB_OK)
        rc = compress_all(&j, o->threads);
    if (rc == PTB_OK) {
        digest_values(s, dist, info->exact, digest);
        header = header_text(s, info, digest, dict.len);
        if (!header)
            rc = PTB_ENOMEM;
    }
    if (rc == PTB_OK) {
        unlink(tmp);
        rc = write_env(tmp, s, header, &dict, j.frames, j.nblocks);
    }
    if (rc == PTB_OK && rename(tmp, final) != 0)
        rc = PTB_EIO;
    if (rc != PTB_OK && tmp)
        unlink(tmp);
    if (rc == PTB_OK && stat(final, &st) == 0)
        info->bytes = (uint64_t)st.st_size;
    for (uint64_t b = 0; j.frames && b < j.nblocks; b++)
        free(j.frames[b].data);
    free(j.frames);
    ZSTD_freeCDict(cdict);
    free(dict.data);
    free(header);
    free(final);
    free(tmp);
    return rc;
}

/* ==== reading ==== */

static int get_record(const ptb_table *t, MDB_dbi dbi, const char *name,
                      MDB_val *val)
{
    MDB_val key = { strlen(name), (void *)name };
    int rc = mdb_get(t->txn, dbi, &key, val);
    return rc == MDB_NOTFOUND ? PTB_EFORMAT : db_err(rc);
}

/* Checks one header line against the space and fills t->info from it. */
static int header_line(ptb_table *t, const char *key, const char *val)
{
    const ptb_space *s = t->s;
    ptb_table_info *in = &t->info;
    unsigned long long a = 0, b = 0;
    if (!strcmp(key, "magic"))
        return strcmp(val, MAGIC) ? PTB_EFORMAT : PTB_OK;
    if (!strcmp(key, "format"))
        return atoi(val) != PTB_FORMAT_VERSION ? PTB_EVERSION : PTB_OK;
    if (!strcmp(key, "puzzle"))
        return strcmp(val, s->p->name) ? PTB_EFORMAT : PTB_OK;
    if (!strcmp(key, "metric"))
        return strcmp(val, s->p->metrics[s->metric]) ? PTB_EFORMAT : PTB_OK;
    if (!strcmp(key, "encoding")) {
        in->exact = !strcmp(val, "exact");
        return in->exact == !s->p->reversible ? PTB_OK : PTB_EFORMAT;
    }
    if (!strcmp(key, "distance") && sscanf(val, "%llu %llu", &a, &b) == 2) {
        if (a > PTB_MAX_DISTANCE)
            return PTB_EFORMAT;
        in->histogram[a] = b;
        return PTB_OK;
    }
    if (!strcmp(key, "farthest") && sscanf(val, "%llu %llu", &a, &b) == 2) {
        if (in->n_farthest < 8) {
            in->far_sub[in->n_farthest] = (uint32_t)a;
            in->far_idx[in->n_farthest++] = b;
        }
        return PTB_OK;
    }
    if (!strcmp(key, "digest")) {
        snprintf(t->digest, sizeof t->digest, "%s", val);
        return PTB_OK;
    }
    a = strtoull(val, NULL, 10);
    if (!strcmp(key, "block_values"))
        in->block_values = (uint32_t)a;
    else if (!strcmp(key, "subtables"))
        in->subtables = (uint32_t)a;
    else if (!strcmp(key, "states"))
        in->states = a;
    else if (!strcmp(key, "solvable"))
        in->solvable = a;
    else if (!strcmp(key, "max_distance"))
        in->max_distance = (unsigned)a;
    return PTB_OK;   /* unknown keys are for newer minor additions */
}

static int read_header(ptb_table *t, MDB_dbi meta)
{
    MDB_val v;
    int rc = get_record(t, meta, "header", &v);
    if (rc != PTB_OK)
        return rc;
    char *text = malloc(v.mv_size + 1);
    if (!text)
        return PTB_ENOMEM;
    memcpy(text, v.mv_data, v.mv_size);
    text[v.mv_size] = '\0';
    if (strncmp(text, "magic " MAGIC "\n", 15) != 0)
        rc = PTB_EFORMAT;
    for (char *line = text, *next; rc == PTB_OK && *line; line = next) {
        next = strchr(line, '\n');
        next = next ? (*next = '\0', next + 1) : line + strlen(line);
        char *sp = strchr(line, ' ');
        if (!sp) {
            rc = PTB_EFORMAT;
            break;
        }
        *sp = '\0';
        rc = header_line(t, line, sp + 1);
    }
    free(text);
    const ptb_table_info *in = &t->info;
    if (rc == PTB_OK &&
        (in->subtables != t->s->subtables ||
         in->states != t->s->offset[t->s->subtables] ||
         in->block_values == 0 || in->block_values % 4 != 0))
        rc = PTB_EFORMAT;
    return rc;
}

static int check_sizes(ptb_table *t, MDB_dbi meta)
{
    MDB_val v;
    int rc = get_record(t, meta, "sizes", &v);
    if (rc != PTB_OK)
        return rc;
    if (v.mv_size != 8 * (size_t)t->s->subtables)
        return PTB_EFORMAT;
    for (uint32_t i = 0; i < t->s->subtables; i++)
        if (get_be64((const unsigned char *)v.mv_data + 8 * i) !=
            t->s->offset[i + 1] - t->s->offset[i])
            return PTB_EFORMAT;
    return PTB_OK;
}

/* Recomputes meta_sha256, the header's last line. */
static int check_meta_digest(ptb_table *t, MDB_dbi meta)
{
    MDB_val h;
    char sum[65];
    int rc = get_record(t, meta, "header", &h);
    if (rc != PTB_OK)
        return rc;
    const char *text = h.mv_data;
    size_t line = 12 + 64 + 1;                /* "meta_sha256 " hex "\n" */
    if (h.mv_size < line ||
        memcmp(text + h.mv_size - line, "meta_sha256 ", 12) != 0)
        return PTB_ECORRUPT;
    meta_digest(text, h.mv_size - line, sum);
    return memcmp(sum, text + h.mv_size - line + 12, 64) ? PTB_ECORRUPT
                                                         : PTB_OK;
}

/* The optional "dictionary" record, digested once for all readers. */
static int load_dictionary(ptb_table *t, MDB_dbi meta)
{
    MDB_val v;
    int rc = get_record(t, meta, "dictionary", &v);
    if (rc == PTB_EFORMAT)
        return PTB_OK;           /* absent: blocks are plain frames */
    if (rc != PTB_OK)
        return rc;
    t->ddict = ZSTD_createDDict(v.mv_data, v.mv_size);
    return t->ddict ? PTB_OK : PTB_ECORRUPT;
}

/* Records where every block's frame lies in the map; all must be present. */
static int index_blocks(ptb_table *t, MDB_dbi blocks)
{
    MDB_cursor *cur;
    MDB_val k, v;
    uint64_t expect = 0;
    t->nblocks = block_count(t->info.states, t->info.block_values);
    t->blk = calloc(t->nblocks + 1, sizeof *t->blk);
    t->blen = calloc(t->nblocks + 1, sizeof *t->blen);
    if (!t->blk || !t->blen)
        return PTB_ENOMEM;
    int rc = mdb_cursor_open(t->txn, blocks, &cur);
    if (rc)
        return db_err(rc);
    for (rc = mdb_cursor_get(cur, &k, &v, MDB_FIRST); rc == 0;
         rc = mdb_cursor_get(cur, &k, &v, MDB_NEXT)) {
        if (k.mv_size != 8 || get_be64(k.mv_data) != expect ||
            expect >= t->nblocks)
            break;
        t->blk[expect] = v.mv_data;
        t->blen[expect++] = v.mv_size;
    }
    mdb_cursor_close(cur);
    if (rc != 0 && rc != MDB_NOTFOUND)
        return db_err(rc);
    return expect == t->nblocks && rc == MDB_NOTFOUND ? PTB_OK : PTB_ECORRUPT;
}

/* A file shorter than LMDB's last page would fault when read: refuse it. */
static int check_length(ptb_table *t)
{
    MDB_envinfo ei;
    MDB_stat ms;
    struct stat st;
    if (stat(t->path, &st) != 0)
        return PTB_EIO;
    if (mdb_env_info(t->env, &ei) || mdb_env_stat(t->env, &ms))
        return PTB_EDB;
    t->info.bytes = (uint64_t)st.st_size;
    return (uint64_t)st.st_size < ((uint64_t)ei.me_last_pgno + 1) * ms.ms_psize
               ? PTB_ETRUNC : PTB_OK;
}

static int open_env(ptb_table *t)
{
    struct stat st;
    if (stat(t->path, &st) != 0)
        return errno == ENOENT ? PTB_ENOTABLE : PTB_EIO;
    if (st.st_size < 2 * 4096)
        return PTB_ETRUNC;
    int rc = mdb_env_create(&t->env);
    if (!rc) rc = mdb_env_set_maxdbs(t->env, 2);
    if (!rc) rc = mdb_env_open(t->env, t->path,
                               MDB_RDONLY | MDB_NOSUBDIR | MDB_NOLOCK |
                               MDB_NOTLS | MDB_NORDAHEAD, 0444);
    return db_err(rc);
}

int ptb_table_open(const ptb_space *s, const char *dir, ptb_table **out)
{
    ptb_table *t = calloc(1, sizeof *t);
    MDB_dbi meta, blocks;
    *out = NULL;
    if (!t)
        return PTB_ENOMEM;
    t->s = s;
    t->path = table_path(s, dir, "");
    int rc = t->path ? open_env(t) : PTB_ENOMEM;
    if (rc == PTB_OK)
        rc = check_length(t);
    if (rc == PTB_OK)
        rc = db_err(mdb_txn_begin(t->env, NULL, MDB_RDONLY, &t->txn));
    if (rc == PTB_OK) {
        int r1 = mdb_dbi_open(t->txn, "meta", 0, &meta);
        int r2 = mdb_dbi_open(t->txn, "blocks", 0, &blocks);
        rc = r1 == MDB_NOTFOUND || r2 == MDB_NOTFOUND ? PTB_EFORMAT
                                                       : db_err(r1 ? r1 : r2);
    }
    if (rc == PTB_OK)
        rc = read_header(t, meta);
    if (rc == PTB_OK)
        rc = check_sizes(t, meta);
    if (rc == PTB_OK)
        rc = check_meta_digest(t, meta);
    if (rc == PTB_OK)
        rc = load_dictionary(t, meta);
    if (rc == PTB_OK)
        rc = index_blocks(t, blocks);
    if (rc != PTB_OK) {
        ptb_table_close(t);
        return rc;
    }
    t->exact = t->info.exact;
    t->block_values = t->info.block_values;
    *out = t;
    return PTB_OK;
}

void ptb_table_close(ptb_table *t)
{
    if (!t)
        return;
    if (t->txn)
        mdb_txn_abort(t->txn);
    if (t->env)
        mdb_env_close(t->env);
    ZSTD_freeDDict(t->ddict);
    free(t->blk);
    free(t->blen);
    free(t->path);
    free(t);
}

const char *ptb_table_path(const ptb_table *t) { return t->path; }
const ptb_space *ptb_table_space(const ptb_table *t) { return t->s; }
int ptb_table_exact(const ptb_table *t) { return t->exact; }

int ptb_table_get_info(const ptb_table *t, ptb_table_info *info)
{
    *info = t->info;
    return PTB_OK;
}

/* ---- readers: decoded-block caches, one per caller ---- */

struct ptb_reader {
    const ptb_table *t;
    ZSTD_DCtx *dctx;
    size_t cap;                       /* bytes of one decoded block */
    /* direct-mapped: block b lives in slot b % READER_SLOTS; buffers are
     * allocated on first use */
    uint64_t block[READER_SLOTS];     /* which block a slot holds, or ~0 */
    unsigned char *buf[READER_SLOTS];
};

int ptb_reader_new(const ptb_table *t, ptb_reader **out)
{
    ptb_reader *r = calloc(1, sizeof *r);
    *out = NULL;
    if (!r)
        return PTB_ENOMEM;
    r->t = t;
    r->cap = packed_size(t->exact, t->block_values);
    for (unsigned i = 0; i < READER_SLOTS; i++)
        r->block[i] = UINT64_MAX;
    if (!(r->dctx = ZSTD_createDCtx())) {
        free(r);
        return PTB_ENOMEM;
    }
    *out = r;
    return PTB_OK;
}

void ptb_reader_free(ptb_reader *r)
{
    if (!r)
        return;
    for (unsigned i = 0; i < READER_SLOTS; i++)
        free(r->buf[i]);
    ZSTD_freeDCtx(r->dctx);
    free(r);
}

/* Decodes block b into its slot; the frame must carry and pass its checksum
 * and decode to exactly the block's size. */
static int decode_block(ptb_reader *r, uint64_t b, unsigned char **out)
{
    const ptb_table *t = r->t;
    unsigned slot = (unsigned)(b % READER_SLOTS);
    size_t want = packed_size(t->exact,
                              block_len(t->info.states, t->block_values, b));
    r->block[slot] = UINT64_MAX;
    if (!r->buf[slot] && !(r->buf[slot] = malloc(r->cap)))
        return PTB_ENOMEM;
    /* RFC 8878: byte 4 is the frame header descriptor, bit 2 the
     * content checksum flag */
    if (t->blen[b] < 6 || !(t->blk[b][4] & 4) ||
        ZSTD_getFrameContentSize(t->blk[b], t->blen[b]) != want)
        return PTB_ECORRUPT;
    size_t n = t->ddict
        ? ZSTD_decompress_usingDDict(r->dctx, r->buf[slot], r->cap, t->blk[b],
                                     t->blen[b], t->ddict)
        : ZSTD_decompressDCtx(r->dctx, r->buf[slot], r->cap, t->blk[b],
                              t->blen[b]);
    if (ZSTD_isError(n) || n != want)
        return PTB_ECORRUPT;
    r->block[slot] = b;
    *out = r->buf[slot];
    return PTB_OK;
}

int ptb_reader_get(ptb_reader *r, uint64_t g, unsigned *value)
{
    const ptb_table *t = r->t;
    if (g >= t->info.states)
        return PTB_EINVAL;
    uint64_t b = g / t->block_values;
    unsigned slot = (unsigned)(b % READER_SLOTS);
    unsigned char *data = r->block[slot] == b ? r->buf[slot] : NULL;
    if (!data) {
        int rc = decode_block(r, b, &data);
        if (rc != PTB_OK)
            return rc;
    }
    *value = unpack_value(t->exact, data, g % t->block_values);
    return PTB_OK;
}

int ptb_table_value(const ptb_table *t, ptb_reader *reader, uint32_t sub,
                    uint64_t idx, unsigned *value)
{
    ptb_reader *r = reader;
    if (sub >= t->s->subtables ||
        idx >= t->s->offset[sub + 1] - t->s->offset[sub])
        return PTB_EINVAL;
    int rc = r ? PTB_OK : ptb_reader_new(t, &r);
    if (rc == PTB_OK)
        rc = ptb_reader_get(r, ptb_global(t->s, sub, idx), value);
    if (r != reader)
        ptb_reader_free(r);
    return rc;
}

int ptb_table_decode_all(const ptb_table *t, uint8_t *values,
                         const char **what)
{
    ptb_reader *r;
    ptb_sha256 c;
    char hex[65];
    int rc = ptb_reader_new(t, &r);
    *what = "out of memory";
    ptb_sha256_init(&c);
    for (uint64_t b = 0; rc == PTB_OK && b < t->nblocks; b++) {
        unsigned char *data;
        uint64_t first = b * t->block_values;
        uint64_t n = block_len(t->info.states, t->block_values, b);
        rc = decode_block(r, b, &data);
        if (rc != PTB_OK) {
            *what = "a block fails its checksum";
            break;
        }
        ptb_sha256_update(&c, data, packed_size(t->exact, n));
        for (uint64_t i = 0; i < n; i++)
            values[first + i] = (uint8_t)unpack_value(t->exact, data, i);
    }
    ptb_reader_free(r);
    if (rc != PTB_OK)
        return rc;
    ptb_sha256_hex(&c, hex);
    if (strncmp(t->digest, "sha256:", 7) || strcmp(t->digest + 7, hex)) {
        *what = "the digest of the values does not match the header";
        return PTB_ECORRUPT;
    }
    return PTB_OK;
}
