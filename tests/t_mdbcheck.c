/* tests/t_mdbcheck.c: ptb_mdb_check() against LMDB files made by liblmdb
 * itself in the table layout (only the main database: "header", "sizes",
 * "stats", "values", optional "checks", "dictionary" and "index"; large
 * values on overflow pages), then against a catalogue of crafted
 * corruptions, each refused with its code, then against every single-byte
 * flip of the pages liblmdb reads: each is refused, or liblmdb, handed the
 * file, reads every key without a fault.
 *
 * The corruptions are placed with this file's own reading of LMDB 0.9's
 * on-disk layout (native byte order, W = sizeof(size_t)); where the root
 * page and the overflow runs are, the test finds by scanning the pages, and
 * the page size and last page it takes from liblmdb (mdb_env_stat,
 * mdb_env_info). */
#include <errno.h>
#include <fcntl.h>
#include <lmdb.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "format/format.h"   /* ptb_mdb_check is the library's, not public */

#define W ((size_t)sizeof(size_t))
#define PH (W + 8)                  /* page header */
#define META (PH)                   /* meta record, from the page start */
#define DB_FREE (META + 8 + 2 * W)
#define DBREC (8 + 5 * W)
#define DB_MAIN (DB_FREE + DBREC)
#define LASTPG (DB_MAIN + DBREC)
#define TXNID (LASTPG + W)

typedef struct rec {
    const char *key;
    size_t len;                     /* 0: not written */
} rec;

/* The file under test: its bytes, and where things are. */
typedef struct img {
    unsigned char *b;
    size_t size, psize, last, root, picked;
    size_t run[8], runs;            /* first page of each overflow run */
    size_t node[8], nodes;          /* byte offset of each node in the file */
} img;

static char dir[] = "/tmp/t_mdbcheck.XXXXXX";
static char path[64];

static unsigned char fill_byte(const char *key, size_t i)
{
    return (unsigned char)((key[0] * 31u + i * 2654435761u) >> 7);
}

/* Writes the records with liblmdb, as the table writer does. */
static int make_file(const rec *r, size_t n)
{
    MDB_env *env;
    MDB_txn *txn;
    MDB_dbi dbi;
    unlink(path);
    int rc = mdb_env_create(&env);
    if (!rc) rc = mdb_env_set_mapsize(env, 64u << 20);
    if (!rc) rc = mdb_env_open(env, path, MDB_NOSUBDIR | MDB_NOLOCK, 0644);
    if (!rc) rc = mdb_txn_begin(env, NULL, 0, &txn);
    if (!rc) rc = mdb_dbi_open(txn, NULL, 0, &dbi);
    for (size_t i = 0; i < n && !rc; i++) {
        if (!r[i].len)
            continue;
        unsigned char *v = malloc(r[i].len);
        for (size_t j = 0; j < r[i].len; j++)
            v[j] = fill_byte(r[i].key, j);
        MDB_val k = { strlen(r[i].key), (void *)r[i].key };
        MDB_val d = { r[i].len, v };
        rc = mdb_put(txn, dbi, &k, &d, 0);
        free(v);
    }
    if (!rc) rc = mdb_txn_commit(txn);
    mdb_env_close(env);
    return rc;
}

static uint64_t get(const unsigned char *p, size_t n)
{
    uint64_t v = 0;
    if (n == 2) { uint16_t x; memcpy(&x, p, 2); v = x; }
    if (n == 4) { uint32_t x; memcpy(&x, p, 4); v = x; }
    if (n == 8) { uint64_t x; memcpy(&x, p, 8); v = x; }
    return v;
}

static void put(unsigned char *p, size_t n, uint64_t v)
{
    if (n == 2) { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); }
    if (n == 4) { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); }
    if (n == 8) { uint64_t x = v; memcpy(p, &x, 8); }
}

static uint64_t get_w(const unsigned char *p) { return get(p, W); }
static void put_w(unsigned char *p, uint64_t v) { put(p, W, v); }

/* Loads the file and finds the picked meta page, the root, the nodes and
 * the overflow runs; page size and last page come from liblmdb. */
static int load(img *m)
{
    MDB_env *env;
    MDB_stat st;
    MDB_envinfo ei;
    memset(m, 0, sizeof *m);
    if (mdb_env_create(&env) ||
        mdb_env_open(env, path, MDB_RDONLY | MDB_NOSUBDIR | MDB_NOLOCK, 0) ||
        mdb_env_stat(env, &st) || mdb_env_info(env, &ei))
        return -1;
    m->psize = st.ms_psize;
    m->last = ei.me_last_pgno;
    size_t txnid = ei.me_last_txnid;
    mdb_env_close(env);
    FILE *f = fopen(path, "rb");
    struct stat s;
    if (!f || stat(path, &s))
        return -1;
    m->size = (size_t)s.st_size;
    m->b = malloc(m->size);
    if (fread(m->b, 1, m->size, f) != m->size)
        return -1;
    fclose(f);
    m->picked = get_w(m->b + m->psize + TXNID) == txnid ? 1 : 0;
    for (size_t pg = 2; pg <= m->last; pg++) {
        unsigned char *p = m->b + pg * m->psize;
        if (get_w(p) == pg && get(p + W + 2, 2) == 0x02)
            m->root = pg;
        if (get_w(p) == pg && get(p + W + 2, 2) == 0x04 && m->runs < 8)
            m->run[m->runs++] = pg;
    }
    unsigned char *root = m->b + m->root * m->psize;
    m->nodes = (get(root + W + 4, 2) - PH) / 2;
    for (size_t i = 0; i < m->nodes && i < 8; i++)
        m->node[i] = m->root * m->psize + get(root + PH + 2 * i, 2);
    return m->root ? 0 : -1;
}

/* Writes bytes b (size n) as the file and checks it. */
static int check_bytes(const unsigned char *b, size_t n, const char **what)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(b, 1, n, f) != n || fclose(f))
        return 999;
    return ptb_mdb_check(path, n, what);
}

/* ==== the catalogue ==== */

typedef void mutate_fn(img *m, unsigned char *b);

static unsigned char *meta_of(img *m, unsigned char *b, size_t i)
{
    return b + i * m->psize;
}
static unsigned char *picked(img *m, unsigned char *b)
{
    return meta_of(m, b, m->picked);
}
static unsigned char *rootp(img *m, unsigned char *b)
{
    return b + m->root * m->psize;
}
/* the first node with F_BIGDATA, and the first without */
static unsigned char *node_of(img *m, unsigned char *b, int big)
{
    for (size_t i = 0; i < m->nodes; i++)
        if ((get(b + m->node[i] + 4, 2) & 1) == (unsigned)big)
            return b + m->node[i];
    return b + m->node[0];
}
static unsigned char *bigptr(img *m, unsigned char *b)
{
    unsigned char *n = node_of(m, b, 1);
    return n + 8 + get(n + 6, 2);
}

static void psize0(img *m, unsigned char *b)
{
    put(meta_of(m, b, 0) + DB_FREE, 4, 0);
    put(meta_of(m, b, 1) + DB_FREE, 4, 0);
}
static void psize3000(img *m, unsigned char *b)
{ put(meta_of(m, b, 0) + DB_FREE, 4, 3000); }
static void psize64k(img *m, unsigned char *b)
{ put(meta_of(m, b, 0) + DB_FREE, 4, 65536); }
static void psize_differ(img *m, unsigned char *b)
{ put(meta_of(m, b, 1) + DB_FREE, 4, m->psize * 2); }
static void psize_huge(img *m, unsigned char *b)
{ put(meta_of(m, b, 0) + DB_FREE, 4, 1u << 30); }
static void magic(img *m, unsigned char *b) { meta_of(m, b, 0)[META] ^= 1; }
static void magic1(img *m, unsigned char *b) { meta_of(m, b, 1)[META] ^= 1; }
static void version2(img *m, unsigned char *b)
{ put(meta_of(m, b, 0) + META + 4, 4, 2); }
static void metaflag(img *m, unsigned char *b)
{ put(meta_of(m, b, 1) + W + 2, 2, 0x02); }
static void root1(img *m, unsigned char *b)
{ put_w(picked(m, b) + DB_MAIN + 8 + 4 * W, 1); }
static void root0(img *m, unsigned char *b)
{ put_w(picked(m, b) + DB_MAIN + 8 + 4 * W, 0); }
static void root_past(img *m, unsigned char *b)
{ put_w(picked(m, b) + DB_MAIN + 8 + 4 * W, m->last + 1); }
static void root_huge(img *m, unsigned char *b)
{ put_w(picked(m, b) + DB_MAIN + 8 + 4 * W, (uint64_t)1 << 50); }
static void root_invalid(img *m, unsigned char *b)
{ put_w(picked(m, b) + DB_MAIN + 8 + 4 * W, (size_t)-1); }
static void root_is_run(img *m, unsigned char *b)
{ put_w(picked(m, b) + DB_MAIN + 8 + 4 * W, m->run[0]); }
static void last_past(img *m, unsigned char *b)
{ put_w(picked(m, b) + LASTPG, m->size / m->psize); }
static void last_huge(img *m, unsigned char *b)
{ put_w(picked(m, b) + LASTPG, (uint64_t)1 << 60); }
static void mapsize_huge(img *m, unsigned char *b)
{ put_w(picked(m, b) + META + 8 + W, (uint64_t)1 << 62); }
static void dupsort(img *m, unsigned char *b)
{ put(picked(m, b) + DB_MAIN + 4, 2, 0x04); }
static void intkey(img *m, unsigned char *b)
{ put(picked(m, b) + DB_MAIN + 4, 2, 0x08); }
static void depth2(img *m, unsigned char *b)
{ put(picked(m, b) + DB_MAIN + 6, 2, 2); }
static void depth0(img *m, unsigned char *b)
{ put(picked(m, b) + DB_MAIN + 6, 2, 0); }
static void entries(img *m, unsigned char *b)
{ put_w(picked(m, b) + DB_MAIN + 8 + 3 * W, m->nodes + 1); }
static void ovcount(img *m, unsigned char *b)
{ put_w(picked(m, b) + DB_MAIN + 8 + 2 * W, 1); }
static void old_meta(img *m, unsigned char *b)
{   /* the other (older, empty) meta page wins */
    put_w(meta_of(m, b, !m->picked) + TXNID,
         get_w(picked(m, b) + TXNID) + 1);
}
static void branch(img *m, unsigned char *b)
{ put(rootp(m, b) + W + 2, 2, 0x01); }
static void leaf2(img *m, unsigned char *b)
{ put(rootp(m, b) + W + 2, 2, 0x22); }
static void pgno(img *m, unsigned char *b)
{ put_w(rootp(m, b), m->root + 1); }
static void lower0(img *m, unsigned char *b)
{ put(rootp(m, b) + W + 4, 2, 0); }
static void lower_odd(img *m, unsigned char *b)
{ put(rootp(m, b) + W + 4, 2, get(rootp(m, b) + W + 4, 2) + 1); }
static void lower_max(img *m, unsigned char *b)
{ put(rootp(m, b) + W + 4, 2, 0xfffe); }
static void upper_past(img *m, unsigned char *b)
{ put(rootp(m, b) + W + 6, 2, m->psize + 2); }
static void flag_subdata(img *m, unsigned char *b)
{ put(node_of(m, b, 0) + 4, 2, 0x02); }
static void flag_dupdata(img *m, unsigned char *b)
{ put(node_of(m, b, 0) + 4, 2, 0x04); }
static void flag_ff(img *m, unsigned char *b)
{ put(node_of(m, b, 1) + 4, 2, 0xff); }
static void flag_big_dup(img *m, unsigned char *b)
{ put(node_of(m, b, 1) + 4, 2, 0x05); }
static void flag_big_on_small(img *m, unsigned char *b)
{ put(node_of(m, b, 0) + 4, 2, 0x01); }
static void dsize_huge(img *m, unsigned char *b)
{ put(node_of(m, b, 0), 4, 0xfffffff0u); }
static void dsize_run(img *m, unsigned char *b)
{ put(node_of(m, b, 1), 4, get(node_of(m, b, 1), 4) + m->psize); }
static void ksize0(img *m, unsigned char *b)
{ put(node_of(m, b, 0) + 6, 2, 0); }
static void ksize_big(img *m, unsigned char *b)
{ put(node_of(m, b, 0) + 6, 2, 600); }
static void ksize_page(img *m, unsigned char *b)
{ put(node_of(m, b, 1) + 6, 2, 500); }
static void ptr_end(img *m, unsigned char *b)
{ put(rootp(m, b) + PH, 2, m->psize - 2); }
static void ptr_odd(img *m, unsigned char *b)
{ put(rootp(m, b) + PH, 2, get(rootp(m, b) + PH, 2) + 1); }
static void ptr_hdr(img *m, unsigned char *b)
{ put(rootp(m, b) + PH, 2, 0); }
static void swap_keys(img *m, unsigned char *b)
{
    unsigned char t[2], *p = rootp(m, b) + PH;
    memcpy(t, p, 2);
    memcpy(p, p + 2, 2);
    memcpy(p + 2, t, 2);
}
static void same_key(img *m, unsigned char *b)
{ memcpy(rootp(m, b) + PH + 2, rootp(m, b) + PH, 2); }
static void ov_past(img *m, unsigned char *b)
{ put_w(bigptr(m, b), m->last + 1); }
static void ov_huge(img *m, unsigned char *b)
{ put_w(bigptr(m, b), (uint64_t)1 << 52); }
static void ov_meta(img *m, unsigned char *b) { put_w(bigptr(m, b), 1); }
static void ov_root(img *m, unsigned char *b)
{ put_w(bigptr(m, b), m->root); }
static void ov_shared(img *m, unsigned char *b)
{   /* two nodes name the same run: the second big node gets the first's */
    unsigned char *first = NULL;
    for (size_t i = 0; i < m->nodes; i++) {
        unsigned char *n = b + m->node[i];
        if (!(get(n + 4, 2) & 1))
            continue;
        unsigned char *ptr = n + 8 + get(n + 6, 2);
        if (first)
            memcpy(ptr, first, W);
        else
            first = ptr;
    }
}
static void ov_flags(img *m, unsigned char *b)
{ put(b + m->run[0] * m->psize + W + 2, 2, 0x02); }
static void ov_pages0(img *m, unsigned char *b)
{ put(b + m->run[0] * m->psize + W + 4, 4, 0); }
static void ov_pages_big(img *m, unsigned char *b)
{ put(b + m->run[0] * m->psize + W + 4, 4, 0x7fffffff); }
static void ov_pgno(img *m, unsigned char *b)
{ put_w(b + m->run[0] * m->psize, 0); }
static void ov_inner(img *m, unsigned char *b)
{ put_w(bigptr(m, b), get_w(bigptr(m, b)) + 1); }

typedef struct corruption {
    const char *name;
    mutate_fn *fn;
    int want;
} corruption;

static const corruption catalogue[] = {
    { "page size 0 in both meta pages", psize0, PTB_ECORRUPT },
    { "page size 3000", psize3000, PTB_ECORRUPT },
    { "page size 65536", psize64k, PTB_ECORRUPT },
    { "page size 2^30", psize_huge, PTB_ECORRUPT },
    { "meta pages disagree on the page size", psize_differ, PTB_ECORRUPT },
    { "meta page 0's magic", magic, PTB_EFORMAT },
    { "meta page 1's magic", magic1, PTB_EFORMAT },
    { "LMDB version 2", version2, PTB_EFORMAT },
    { "meta page 1 flagged a leaf", metaflag, PTB_EFORMAT },
    { "root page 1 (a meta page)", root1, PTB_ECORRUPT },
    { "root page 0", root0, PTB_ECORRUPT },
    { "root page one past the last", root_past, PTB_ECORRUPT },
    { "root page 2^50", root_huge, PTB_ECORRUPT },
    { "root page P_INVALID (an empty database)", root_invalid, PTB_EFORMAT },
    { "root is an overflow page", root_is_run, PTB_ECORRUPT },
    { "last page one past the file", last_past, PTB_ETRUNC },
    { "last page 2^60", last_huge, PTB_ETRUNC },
    { "map size 2^62", mapsize_huge, PTB_ECORRUPT },
    { "main database MDB_DUPSORT", dupsort, PTB_EFORMAT },
    { "main database MDB_INTEGERKEY", intkey, PTB_EFORMAT },
    { "main database depth 2", depth2, PTB_EFORMAT },
    { "main database depth 0", depth0, PTB_EFORMAT },
    { "main database entries one too many", entries, PTB_ECORRUPT },
    { "main database overflow page count", ovcount, PTB_ECORRUPT },
    { "the older, empty meta page gets the larger txnid", old_meta,
      PTB_EFORMAT },
    { "root page flagged a branch", branch, PTB_ECORRUPT },
    { "root page flagged LEAF2", leaf2, PTB_ECORRUPT },
    { "root page's own number wrong", pgno, PTB_ECORRUPT },
    { "root lower bound 0", lower0, PTB_ECORRUPT },
    { "root lower bound odd", lower_odd, PTB_ECORRUPT },
    { "root lower bound 0xfffe", lower_max, PTB_ECORRUPT },
    { "root upper bound past the page", upper_past, PTB_ECORRUPT },
    { "node flag F_SUBDATA (format 1)", flag_subdata, PTB_EVERSION },
    { "node flag F_DUPDATA", flag_dupdata, PTB_ECORRUPT },
    { "node flags 0xff", flag_ff, PTB_ECORRUPT },
    { "node flags F_BIGDATA|F_DUPDATA", flag_big_dup, PTB_ECORRUPT },
    { "F_BIGDATA on an inline node", flag_big_on_small, PTB_ECORRUPT },
    { "inline node's data size 0xfffffff0", dsize_huge, PTB_ECORRUPT },
    { "big node's data size past its run", dsize_run, PTB_ECORRUPT },
    { "key size 0", ksize0, PTB_ECORRUPT },
    { "key size 600", ksize_big, PTB_ECORRUPT },
    { "key size past the page", ksize_page, PTB_ECORRUPT },
    { "node offset at the page's end", ptr_end, PTB_ECORRUPT },
    { "node offset odd", ptr_odd, PTB_ECORRUPT },
    { "node offset inside the header", ptr_hdr, PTB_ECORRUPT },
    { "two nodes swapped: keys out of order", swap_keys, PTB_ECORRUPT },
    { "one node twice: keys not strictly ascending", same_key,
      PTB_ECORRUPT },
    { "overflow run one past the last page", ov_past, PTB_ECORRUPT },
    { "overflow run at page 2^52", ov_huge, PTB_ECORRUPT },
    { "overflow run at meta page 1", ov_meta, PTB_ECORRUPT },
    { "overflow run at the root (a loop)", ov_root, PTB_ECORRUPT },
    { "two nodes share an overflow run", ov_shared, PTB_ECORRUPT },
    { "overflow page flagged a leaf", ov_flags, PTB_ECORRUPT },
    { "overflow page count 0", ov_pages0, PTB_ECORRUPT },
    { "overflow page count 2^31", ov_pages_big, PTB_ECORRUPT },
    { "overflow page's own number wrong", ov_pgno, PTB_ECORRUPT },
    { "overflow run starts inside another", ov_inner, PTB_ECORRUPT },
};

/* What liblmdb itself does with a corrupted file, in a child: 0 when it
 * returns (an answer or an error), else the signal it died of. */
static int lmdb_fate(void)
{
    pid_t pid = fork();
    if (pid == 0) {
        MDB_env *env;
        MDB_txn *txn;
        MDB_val k = { 6, "values" }, d;
        MDB_dbi dbi;
        alarm(5);
        int rc = mdb_env_create(&env);
        if (!rc) rc = mdb_env_open(env, path, MDB_RDONLY | MDB_NOSUBDIR |
                                   MDB_NOLOCK, 0);
        if (!rc) rc = mdb_txn_begin(env, NULL, MDB_RDONLY, &txn);
        if (!rc) rc = mdb_dbi_open(txn, NULL, 0, &dbi);
        if (!rc) rc = mdb_get(txn, dbi, &k, &d);
        _exit(rc ? 10 : 0);
    }
    int st;
    waitpid(pid, &st, 0);
    /* a signal, or (under a sanitizer, which catches it) another status */
    if (WIFSIGNALED(st))
        return WTERMSIG(st);
    return WEXITSTATUS(st) == 0 || WEXITSTATUS(st) == 10 ? 0 : 128;
}

static void run_catalogue(img *m)
{
    unsigned char *b = malloc(m->size);
    unsigned killed = 0;
    for (size_t i = 0; i < sizeof catalogue / sizeof *catalogue; i++) {
        const corruption *c = &catalogue[i];
        memcpy(b, m->b, m->size);
        c->fn(m, b);
        const char *what = "";
        int rc = check_bytes(b, m->size, &what);
        check(rc == c->want, "%s: refused with %s (got %d: %s)", c->name,
              ptb_strerror(c->want), rc, what);
        int sig = lmdb_fate();
        if (sig) {
            killed++;
            printf("# without the check, liblmdb dies of signal %d\n", sig);
        }
    }
    check(killed >= 3, "at least the page size, root page and node flag "
          "corruptions kill liblmdb itself (%u of %zu do)", killed,
          sizeof catalogue / sizeof *catalogue);
    free(b);
}

static void run_truncations(img *m)
{
    size_t cut[] = { 0, 1, PH + 100, m->psize, 2 * m->psize - 1,
                     2 * m->psize, (m->root + 1) * m->psize - 1,
                     m->run[0] * m->psize + 8,
                     (m->last + 1) * m->psize - 1 };
    for (size_t i = 0; i < sizeof cut / sizeof *cut; i++) {
        const char *what;
        int rc = check_bytes(m->b, cut[i], &what);
        check(rc == PTB_ETRUNC, "truncated to %zu of %zu bytes: PTB_ETRUNC "
              "(got %d: %s)", cut[i], m->size, rc, what);
    }
    unsigned char *z = calloc(1, 4 * m->psize);
    check(check_bytes(z, 4 * m->psize, NULL) == PTB_EFORMAT,
          "a file of zeros: PTB_EFORMAT");
    for (size_t i = 0; i < 4 * m->psize; i++)
        z[i] = fill_byte("x", i);
    check(check_bytes(z, 4 * m->psize, NULL) == PTB_EFORMAT,
          "a file of noise: PTB_EFORMAT");
    free(z);
    check(ptb_mdb_check("/nonexistent/t_mdbcheck", 0, NULL) == PTB_ENOTABLE,
          "a missing file: PTB_ENOTABLE");
}

/* liblmdb on the file as it is now: every key read in full, no fault. */
static int lmdb_reads_all(const rec *r, size_t n, size_t file_size)
{
    MDB_env *env;
    MDB_txn *txn = NULL;
    MDB_dbi dbi;
    volatile unsigned sum = 0;
    int rc = mdb_env_create(&env);
    if (!rc) rc = mdb_env_open(env, path, MDB_RDONLY | MDB_NOSUBDIR |
                               MDB_NOLOCK, 0);
    if (!rc) rc = mdb_txn_begin(env, NULL, MDB_RDONLY, &txn);
    if (!rc) rc = mdb_dbi_open(txn, NULL, 0, &dbi);
    for (size_t i = 0; i < n && !rc; i++) {
        MDB_val k = { strlen(r[i].key), (void *)r[i].key }, d;
        int g = mdb_get(txn, dbi, &k, &d);
        if (g == 0 && d.mv_size > file_size)
            rc = -1;
        for (size_t j = 0; g == 0 && j < d.mv_size; j++)
            sum += ((const unsigned char *)d.mv_data)[j];
    }
    if (txn)
        mdb_txn_abort(txn);
    mdb_env_close(env);
    return rc;
}

/* Every byte of both meta pages, the root page and the overflow headers,
 * flipped (xor 0xff, then xor 0x01): refused, or read without a fault. */
static void run_flips(img *m, const rec *r, size_t n)
{
    unsigned long tried = 0, refused = 0, bad = 0;
    size_t ranges[12][2] = { { 0, 2 * m->psize },
                             { m->root * m->psize, (m->root + 1) * m->psize } };
    size_t nr = 2;
    for (size_t i = 0; i < m->runs && nr < 12; i++, nr++) {
        ranges[nr][0] = m->run[i] * m->psize;
        ranges[nr][1] = ranges[nr][0] + PH;
    }
    int fd = open(path, O_RDWR);
    for (size_t k = 0; k < nr; k++)
        for (size_t off = ranges[k][0]; off < ranges[k][1]; off++)
            for (unsigned mask = 0xff; mask; mask = mask == 0xff ? 1 : 0) {
                unsigned char c = m->b[off] ^ (unsigned char)mask;
                if (pwrite(fd, &c, 1, (off_t)off) != 1)
                    bad++;
                tried++;
                if (ptb_mdb_check(path, m->size, NULL) != PTB_OK)
                    refused++;
                else if (lmdb_reads_all(r, n, m->size) == -1)
                    bad++;
                if (pwrite(fd, m->b + off, 1, (off_t)off) != 1)
                    bad++;
            }
    close(fd);
    check(bad == 0 && tried > 0, "%lu single-byte flips of the pages liblmdb "
          "reads: %lu refused, the other %lu read by liblmdb without a "
          "fault", tried, refused, tried - refused);
}

static void one_layout(const char *name, const rec *r, size_t n, int full)
{
    img m;
    const char *what = "";
    int rc = make_file(r, n);
    check(rc == 0, "%s: liblmdb writes the file", name);
    if (rc || load(&m)) {
        check(0, "%s: the test finds the root page", name);
        return;
    }
    rc = ptb_mdb_check(path, m.size, &what);
    check(rc == PTB_OK, "%s: accepted (%d %s), %zu nodes, %zu overflow runs, "
          "page size %zu", name, rc, what, m.nodes, m.runs, m.psize);
    check(lmdb_reads_all(r, n, m.size) == 0, "%s: liblmdb reads every key",
          name);
    rc = ptb_mdb_check(path, m.size - 1, &what);
    check(rc == PTB_ETRUNC, "%s: a file size one short of the pages: "
          "PTB_ETRUNC", name);
    if (full && m.runs >= 2) {
        run_catalogue(&m);
        run_truncations(&m);
        check(check_bytes(m.b, m.size, NULL) == PTB_OK,
              "%s: the restored file is accepted again", name);
        run_flips(&m, r, n);
    }
    free(m.b);
}

int main(void)
{
    if (!mkdtemp(dir))
        return 2;
    snprintf(path, sizeof path, "%s/t.mdb", dir);
    const rec full[] = { { "dictionary", 20000 }, { "header", 300 },
                         { "index", 5000 }, { "sizes", 64 },
                         { "values", 100000 } };
    const rec small[] = { { "header", 300 }, { "sizes", 8 },
                          { "values", 900 } };
    const rec nodict[] = { { "header", 3000 }, { "sizes", 8000 },
                           { "values", 1u << 20 } };
    const rec onebyte[] = { { "header", 1 }, { "values", 5000 } };
    one_layout("all five records, three on overflow pages", full, 5, 1);
    one_layout("three small records, all inline", small, 3, 0);
    one_layout("no dictionary or index, a 1 MiB value", nodict, 3, 0);
    one_layout("a one-byte header", onebyte, 2, 0);
    unlink(path);
    rmdir(dir);
    return check_done();
}
