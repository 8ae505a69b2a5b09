/* lib/format/table_read.c: reads a table (tables/FORMAT.md; table.h): open
 * in O(1), readers, and every value decoded for ptb_verify. */
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
#include <zstd.h>

#include "table.h"

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
     * file (lib/format/mdbcheck.c) */
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

/* What ptb_table_identify() reads of a header. */
typedef struct identity {
    ptb_table *t;              /* gets the "ranking_check" */
    ptb_table_id *id;
    size_t len, cap;           /* of id->description */
} identity;

static int identity_line(void *arg, const char *key, const char *val)
{
    identity *in = arg;
    if (!strcmp(key, "puzzle"))
        copy_text(in->id->puzzle, sizeof in->id->puzzle, val);
    else if (!strcmp(key, "metric"))
        copy_text(in->id->metric, sizeof in->id->metric, val);
    else if (!strcmp(key, "description"))
        ptb_catf(in->id->description, in->cap, &in->len, "%s\n", val);
    else if (!strcmp(key, "ranking_check"))
        return parse_check(val, in->t);
    return PTB_OK;
}

/* The file at path, open (*out; NULL on failure), and its header record
 * (*head): PTB_OK or what open_db() and header_record() return. */
static int open_file(const char *path, ptb_table **out, MDB_val *head)
{
    ptb_table *t = calloc(1, sizeof *t);
    int rc = !t ? PTB_ENOMEM : PTB_OK;
    *out = NULL;
    if (rc == PTB_OK && !(t->path = strdup(path)))
        rc = PTB_ENOMEM;
    if (rc == PTB_OK)
        rc = open_db(t);
    if (rc == PTB_OK)
        rc = header_record(t, head);
    if (rc != PTB_OK)
        ptb_table_close(t);
    else
        *out = t;
    return rc;
}

int ptb_table_identify(const char *path, ptb_table_id *id, ptb_table **out)
{
    MDB_val v;
    ptb_table *t;
    memset(id, 0, sizeof *id);
    int rc = open_file(path, &t, &v);
    *out = NULL;
    if (rc != PTB_OK)
        return rc;
    /* the header's size, not HEADER_MAX: pages a query would touch for
     * nothing */
    identity in = { .t = t, .id = id, .cap = v.mv_size + 1 };
    char *text = malloc(in.cap);
    id->description = malloc(in.cap);
    rc = !text || !id->description ? PTB_ENOMEM : PTB_OK;
    if (rc == PTB_OK)
        rc = each_line(&v, text, identity_line, &in);
    if (rc == PTB_OK && in.len >= in.cap)
        rc = PTB_EFORMAT;
    if (rc == PTB_OK && !in.len) {          /* a built-in puzzle's table */
        free(id->description);
        id->description = NULL;
    }
    if (rc == PTB_OK && id->description &&
        (rc = ranking_record(t, &v)) == PTB_OK) {
        id->ranking = v.mv_data;
        id->ranking_len = v.mv_size;
    }
    free(text);
    if (rc != PTB_OK) {
        ptb_table_close(t);
        ptb_table_id_free(id);
        return rc;
    }
    *out = t;
    return PTB_OK;
}

int ptb_records_open(const char *path, ptb_table **out, const char **header,
                     size_t *len)
{
    MDB_val v;
    int rc = open_file(path, out, &v);
    if (rc == PTB_OK) {
        *header = v.mv_data;
        *len = v.mv_size;
    }
    return rc;
}

int ptb_table_record(const ptb_table *t, const char *key, const void **data,
                     size_t *len)
{
    MDB_val v;
    int rc = get_record(t, key, &v);
    *data = rc == PTB_OK ? v.mv_data : NULL;
    *len = rc == PTB_OK ? v.mv_size : 0;
    return rc;
}

void ptb_table_id_free(ptb_table_id *id)
{
    free(id->description);
    id->description = NULL;
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
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int touch_chunks(const ptb_table *t, size_t from, size_t to)
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

/* touch_chunks(), answered at once for a value in one chunk checked
 * before (most reads: the check out of line, so that they pay no more). */
static inline int touch(const ptb_table *t, size_t from, size_t to)
{
    uint64_t c = from / CHUNK_BYTES;
    return c == (to - 1) / CHUNK_BYTES && marked(t->checked, c)
               ? PTB_OK
               : touch_chunks(t, from, to);
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

void ptb_table_prefetch(const ptb_table *t, uint32_t sub, uint64_t idx)
{
    if (!in_place(t->encoding) || t->encoding == ENC_SPARSE ||
        !ptb_in_space(t->s, sub, idx))
        return;
    uint64_t g = ptb_global(t->s, sub, idx);
    size_t at = t->encoding == ENC_PACKED1   ? g / 8
                : t->encoding == ENC_PACKED3 ? g / 5
                                             : g / 2;
#if defined(__GNUC__)
    if (at < t->values_len)
        __builtin_prefetch(t->values + at);
#endif
}

uint64_t ptb_table_in_place_bytes(const ptb_table *t)
{
    return in_place(t->encoding) && t->encoding != ENC_SPARSE ? t->values_len
                                                              : 0;
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

/* Copies n residues, 2 bits each in the order ptb_table_decode_all()
 * keeps them, from a decoded block to 'to' (a byte boundary: blocks hold a
 * multiple of 4 values), the bits past the last value left 0.
 * PTB_ECORRUPT when a value is 3, which no residue is. */
static int copy_residues(uint8_t *to, const unsigned char *from, uint64_t n)
{
    uint64_t bytes = n / 4, threes = 0, w;
    size_t i = 0;
    for (; i + 8 <= bytes; i += 8) {
        memcpy(&w, from + i, 8);
        threes |= w & w >> 1 & 0x5555555555555555u;
    }
    for (; i < bytes; i++)
        threes |= (uint64_t)(from[i] & from[i] >> 1 & 0x55);
    memcpy(to, from, bytes);
    if (n % 4) {
        uint8_t last = from[bytes] & (uint8_t)((1u << 2 * (n % 4)) - 1);
        threes |= (uint64_t)(last & last >> 1 & 0x55);
        to[bytes] = last;
    }
    return threes ? PTB_ECORRUPT : PTB_OK;
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
        if (packed) {            /* residues, 2 bits each, kept as read */
            if ((rc = copy_residues(values + first / 4, buf, n)) != PTB_OK)
                *what = "a 2-bit value of 3";
            continue;
        }
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
