/* lib/format/mdbcheck.c: checks an LMDB file before liblmdb ever maps it.
 *
 * liblmdb trusts its own page structure: a page size of 0 divides by zero in
 * mdb_env_open(), a root page of 1 trips an assertion, a node's flag byte
 * sends mdb_get() through a NULL pointer, a page number past the end of the
 * file is a SIGBUS.  A table is a file people download, so before
 * table_read.c hands one to mdb_env_open() this file reads, with a few pread()s,
 * every byte of LMDB's own structure that liblmdb touches when it opens the
 * file read-only (MDB_RDONLY | MDB_NOSUBDIR | MDB_NOLOCK), begins a read
 * transaction, calls mdb_env_info() or mdb_env_stat(), and mdb_get()s keys
 * from the main database, and refuses anything else.
 *
 * The layout checked is the table format's (tables/FORMAT.md): only the main,
 * unnamed database, whose root is one leaf page, holding a few plain nodes
 * whose large values sit on overflow pages.  So a reader follows
 *
 *     meta page (0 or 1) -> root leaf page -> node -> overflow run
 *
 * and that is all it follows.  The on-disk format is LMDB 0.9's
 * (liblmdb's mdb.c, MDB_DATA_VERSION 1), in the host's byte order and word
 * size W = sizeof(size_t) (page numbers, transaction ids and sizes are W
 * bytes):
 *
 *   page header (PAGEHDR = W + 8 bytes):  pgno (W), pad (2), flags (2),
 *       then lower, upper (2 each) or, for an overflow page, pages (4);
 *       a leaf page's node offsets (2 each) follow the header.
 *   meta page, after the header:  magic 0xBEEFC0DE (4), version (4),
 *       address (W), mapsize (W), two database records (free, main), last
 *       page (W), transaction id (W).  The page size is the free database's
 *       pad field.  liblmdb uses the meta page with the larger transaction
 *       id (page 0 on a tie).
 *   database record (8 + 5 W):  pad (4), flags (2), depth (2), branch,
 *       leaf and overflow page counts, entries, root page (W each).
 *   node:  data size (4, as lo and hi halves that read as one native
 *       32-bit word), flags (2), key size (2), key, then the data or, with
 *       F_BIGDATA, the number of the first page of its overflow run (W).
 *
 * What a table file can still do after this check passes: hold keys and
 * values that are not puzzletb's (table_read.c checks the records themselves and
 * their digests).  The free database is never walked: a read-only
 * transaction does not touch it.  The check reads the file once; a file
 * changed in place between the check and mdb_env_open() is not covered
 * (tables are replaced by rename, so a reader should check the file it then
 * maps: compare the device and inode of both).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format.h"

enum {
    W = sizeof(size_t),
    PAGEHDR = W + 8,
    P_BRANCH = 0x01, P_LEAF = 0x02, P_OVERFLOW = 0x04, P_META = 0x08,
    F_BIGDATA = 0x01, F_SUBDATA = 0x02,
    NODEHDR = 8,
    MAXKEY = 511,                  /* liblmdb's MDB_MAXKEYSIZE */
    MIN_PSIZE = 512, MAX_PSIZE = 32768,
    /* meta fields, from the start of the page */
    M_MAGIC = PAGEHDR, M_VERSION = PAGEHDR + 4, M_MAPSIZE = PAGEHDR + 8 + W,
    M_FREE = PAGEHDR + 8 + 2 * W,
    DBREC = 8 + 5 * W,
    M_MAIN = M_FREE + DBREC,
    M_LAST = M_MAIN + DBREC, M_TXNID = M_LAST + W,
    META_BYTES = M_TXNID + W,
    /* database record fields */
    D_PAD = 0, D_FLAGS = 4, D_DEPTH = 6, D_BRANCH = 8, D_LEAF = 8 + W,
    D_OVERFLOW = 8 + 2 * W, D_ENTRIES = 8 + 3 * W, D_ROOT = 8 + 4 * W
};

#define MDB_MAGIC 0xBEEFC0DEu
#define MDB_VERSION 1u
#define P_INVALID ((uint64_t)(size_t)-1)
/* free-database flags liblmdb writes: MDB_INTEGERKEY, plus the low half of
 * the creating environment's flags (MDB_FIXEDMAP, MDB_NOSUBDIR); none is
 * read back by a read-only open */
#define FREE_FLAGS 0x4009u
/* the largest map a meta page may ask for (liblmdb maps that much address
 * space when the reader sets no map size of its own) */
#define MAX_MAPSIZE ((uint64_t)1 << 40)

typedef struct meta {
    uint64_t psize, mapsize, last, txnid;
    unsigned char db[2][DBREC];
} meta;

typedef struct run {
    uint64_t first, pages;
} run;

typedef struct checker {
    int fd;
    uint64_t size;      /* bytes in the file, as the caller knows it */
    uint64_t psize;
    uint64_t last;      /* last page in use, from the picked meta page */
    const char *what;
} checker;

static uint64_t rd16(const unsigned char *p)
{
    uint16_t v;
    memcpy(&v, p, 2);
    return v;
}

static uint64_t rd32(const unsigned char *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static uint64_t rdw(const unsigned char *p)
{
    size_t v;
    memcpy(&v, p, W);
    return v;
}

static int fail(checker *c, int rc, const char *what)
{
    c->what = what;
    return rc;
}

/* Reads n bytes at off; PTB_ETRUNC when the file ends first. */
static int read_at(checker *c, void *buf, size_t n, uint64_t off)
{
    if (off > c->size || n > c->size - off)
        return fail(c, PTB_ETRUNC, "a page lies past the end of the file");
    size_t done = 0;
    while (done < n) {
        ssize_t got = pread(c->fd, (char *)buf + done, n - done,
                            (off_t)(off + done));
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return fail(c, errno ? errno : PTB_EIO, "cannot read the file");
        if (got == 0)
            return fail(c, PTB_ETRUNC, "the file ends inside a page");
        done += (size_t)got;
    }
    return PTB_OK;
}

/* ==== meta pages ==== */

static int is_psize(uint64_t v)
{
    return v >= MIN_PSIZE && v <= MAX_PSIZE && (v & (v - 1)) == 0;
}

/* Reads and checks meta page i, at byte off. */
static int read_meta(checker *c, unsigned i, uint64_t off, meta *m)
{
    static const char *const bad[2][3] = {
        { "meta page 0: not an LMDB meta page",
          "meta page 0: LMDB version is not 1",
          "meta page 0: page size is not a power of two in 512..32768" },
        { "meta page 1: not an LMDB meta page",
          "meta page 1: LMDB version is not 1",
          "meta page 1: page size differs from meta page 0's" } };
    unsigned char b[META_BYTES];
    int rc = read_at(c, b, sizeof b, off);
    if (rc != PTB_OK)
        return rc;
    if (rdw(b) != i || rd16(b + W + 2) != P_META ||
        rd32(b + M_MAGIC) != MDB_MAGIC)
        return fail(c, PTB_EFORMAT, bad[i][0]);
    if (rd32(b + M_VERSION) != MDB_VERSION)
        return fail(c, PTB_EFORMAT, bad[i][1]);
    m->psize = rd32(b + M_FREE + D_PAD);
    if (!is_psize(m->psize) || (i == 1 && m->psize != c->psize))
        return fail(c, PTB_ECORRUPT, bad[i][2]);
    m->mapsize = rdw(b + M_MAPSIZE);
    m->last = rdw(b + M_LAST);
    m->txnid = rdw(b + M_TXNID);
    memcpy(m->db[0], b + M_FREE, DBREC);
    memcpy(m->db[1], b + M_MAIN, DBREC);
    return PTB_OK;
}

/* The free database is never read; its record only has to be plausible. */
static int check_free_db(checker *c, const unsigned char *db)
{
    uint64_t root = rdw(db + D_ROOT);
    if ((rd16(db + D_FLAGS) & ~FREE_FLAGS) != 0)
        return fail(c, PTB_EFORMAT, "free database: unknown flags");
    if (root != P_INVALID && (root < 2 || root > c->last))
        return fail(c, PTB_ECORRUPT, "free database: root page out of range");
    return PTB_OK;
}

/* The main database: no flags (no DUPSORT, INTEGERKEY, REVERSEKEY...), one
 * leaf page as its root. */
static int check_main_db(checker *c, const unsigned char *db)
{
    uint64_t root = rdw(db + D_ROOT);
    if (rd16(db + D_FLAGS) != 0)
        return fail(c, PTB_EFORMAT, "main database: flags are not 0");
    if (root == P_INVALID)
        return fail(c, PTB_EFORMAT, "main database: empty");
    if (rd16(db + D_DEPTH) != 1 || rdw(db + D_BRANCH) != 0 ||
        rdw(db + D_LEAF) != 1)
        return fail(c, PTB_EFORMAT, "main database: not a single leaf page");
    if (root < 2 || root > c->last)
        return fail(c, PTB_ECORRUPT, "main database: root page out of range");
    return PTB_OK;
}

/* Both meta pages, then the one liblmdb picks: *out. */
static int check_metas(checker *c, meta *out)
{
    meta m[2];
    c->psize = 0;
    int rc = read_meta(c, 0, 0, &m[0]);
    if (rc == PTB_OK) {
        c->psize = m[0].psize;
        rc = read_meta(c, 1, m[0].psize, &m[1]);
    }
    if (rc != PTB_OK)
        return rc;
    /* mdb_env_pick_meta(): page 1 only when its txnid is larger */
    *out = m[m[1].txnid > m[0].txnid];
    c->last = out->last;
    if (out->txnid == 0)
        return fail(c, PTB_EFORMAT, "meta page: nothing committed");
    if (out->last >= c->size / c->psize)
        return fail(c, PTB_ETRUNC, "the file is shorter than its last page "
                                   "says");
    if (out->mapsize > MAX_MAPSIZE)
        return fail(c, PTB_ECORRUPT, "meta page: map size above 1 TiB");
    rc = check_free_db(c, out->db[0]);
    return rc != PTB_OK ? rc : check_main_db(c, out->db[1]);
}

/* ==== the root leaf and its nodes ==== */

/* mdb_cmp_memn(): bytes, then length. */
static int key_cmp(const unsigned char *a, size_t alen,
                   const unsigned char *b, size_t blen)
{
    int d = memcmp(a, b, alen < blen ? alen : blen);
    return d ? d : (alen > blen) - (alen < blen);
}

/* One node at offset off of the root page p: bounds, flags, and for
 * F_BIGDATA the run it names (*r, pages 0 otherwise). */
static int check_node(checker *c, const unsigned char *p, uint64_t off,
                      uint64_t upper, run *r)
{
    r->first = r->pages = 0;
    if (off & 1 || off < upper || off + NODEHDR > c->psize)
        return fail(c, PTB_ECORRUPT, "root page: node offset out of range");
    const unsigned char *n = p + off;
    uint64_t dsize = rd32(n), flags = rd16(n + 4), ksize = rd16(n + 6);
    uint64_t end = off + NODEHDR + ksize;
    if (ksize == 0 || ksize > MAXKEY)
        return fail(c, PTB_ECORRUPT, "root page: bad key size");
    if (flags == F_SUBDATA)     /* named databases: format 1's layout */
        return fail(c, PTB_EVERSION, "named databases (a format 1 table)");
    if (flags != 0 && flags != F_BIGDATA)
        return fail(c, PTB_ECORRUPT, "root page: node flags neither plain "
                                     "nor big data");
    end += flags ? W : dsize;
    if (end > c->psize)
        return fail(c, PTB_ECORRUPT, "root page: node runs past the page");
    if (!flags)
        return PTB_OK;
    /* OVPAGES(): the header and the data, in whole pages */
    r->first = rdw(n + NODEHDR + ksize);
    r->pages = (PAGEHDR - 1 + dsize) / c->psize + 1;
    unsigned char h[PAGEHDR];
    if (r->first < 2 || r->first > c->last ||
        r->pages > c->last + 1 - r->first)
        return fail(c, PTB_ECORRUPT, "overflow run out of range");
    int rc = read_at(c, h, sizeof h, r->first * c->psize);
    if (rc != PTB_OK)
        return rc;
    if (rdw(h) != r->first || rd16(h + W + 2) != P_OVERFLOW)
        return fail(c, PTB_ECORRUPT, "overflow run: not an overflow page");
    if (rd32(h + W + 4) != r->pages)
        return fail(c, PTB_ECORRUPT, "overflow run: page count does not "
                                     "match the data size");
    return PTB_OK;
}

static int run_cmp(const void *a, const void *b)
{
    const run *x = a, *y = b;
    return (x->first > y->first) - (x->first < y->first);
}

/* Runs (and the root, a run of one page) must not overlap; their pages add
 * up to the main database's overflow page count. */
static int check_runs(checker *c, run *r, size_t n, uint64_t root,
                      uint64_t overflow)
{
    uint64_t total = 0;
    r[n].first = root;
    r[n].pages = 1;
    qsort(r, n + 1, sizeof *r, run_cmp);
    for (size_t i = 0; i <= n; i++) {
        if (r[i].pages == 0)
            continue;
        if (r[i].first != root)
            total += r[i].pages;
        for (size_t j = i + 1; j <= n && r[j].first < r[i].first + r[i].pages;
             j++)
            if (r[j].pages)
                return fail(c, PTB_ECORRUPT, "overflow runs overlap");
    }
    return total == overflow ? PTB_OK
                             : fail(c, PTB_ECORRUPT, "main database: overflow "
                                    "page count does not match its runs");
}

/* The root leaf: header, node offsets, sorted keys, each node. */
static int check_leaf(checker *c, const unsigned char *p, uint64_t root,
                      const unsigned char *db)
{
    uint64_t lower = rd16(p + W + 4), upper = rd16(p + W + 6);
    if (rdw(p) != root || rd16(p + W + 2) != P_LEAF)
        return fail(c, PTB_ECORRUPT, "root page: not a leaf page");
    if (lower < PAGEHDR + 2 || (lower - PAGEHDR) & 1 || upper < lower ||
        upper > c->psize)
        return fail(c, PTB_ECORRUPT, "root page: bad lower or upper bound");
    size_t n = (size_t)(lower - PAGEHDR) / 2;
    if (n != rdw(db + D_ENTRIES))
        return fail(c, PTB_ECORRUPT, "main database: entry count does not "
                                     "match its root page");
    run *r = malloc((n + 1) * sizeof *r);
    if (!r)
        return fail(c, PTB_ENOMEM, "out of memory");
    int rc = PTB_OK;
    const unsigned char *prev = NULL;
    uint64_t prevlen = 0;
    for (size_t i = 0; i < n && rc == PTB_OK; i++) {
        uint64_t off = rd16(p + PAGEHDR + 2 * i);
        rc = check_node(c, p, off, upper, &r[i]);
        if (rc != PTB_OK)
            break;
        const unsigned char *key = p + off + NODEHDR;
        uint64_t klen = rd16(p + off + 6);
        if (prev && key_cmp(prev, prevlen, key, klen) >= 0)
            rc = fail(c, PTB_ECORRUPT, "root page: keys out of order");
        prev = key;
        prevlen = klen;
    }
    if (rc == PTB_OK)
        rc = check_runs(c, r, n, root, rdw(db + D_OVERFLOW));
    free(r);
    return rc;
}

/* ==== entry points ==== */

int ptb_mdb_check_fd(int fd, uint64_t file_size, const char **what)
{
    checker c = { fd, file_size, 0, 0, "" };
    meta m;
    int rc = check_metas(&c, &m);
    unsigned char *page = NULL;
    if (rc == PTB_OK && !(page = malloc((size_t)c.psize)))
        rc = fail(&c, PTB_ENOMEM, "out of memory");
    uint64_t root = rc == PTB_OK ? rdw(m.db[1] + D_ROOT) : 0;
    if (rc == PTB_OK)
        rc = read_at(&c, page, (size_t)c.psize, root * c.psize);
    if (rc == PTB_OK)
        rc = check_leaf(&c, page, root, m.db[1]);
    free(page);
    if (what)
        *what = rc == PTB_OK ? "" : c.what;
    return rc;
}

int ptb_mdb_check(const char *path, uint64_t file_size, const char **what)
{
    struct stat st;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        int e = errno;
        if (what)
            *what = "cannot open the file";
        return e == ENOENT ? PTB_ENOTABLE : e ? e : PTB_EIO;
    }
    int rc = fstat(fd, &st) != 0 ? errno ? errno : PTB_EIO
             : !S_ISREG(st.st_mode) ? PTB_EFORMAT : PTB_OK;
    if (rc != PTB_OK && what)
        *what = "not a regular file";
    if (rc == PTB_OK)
        rc = ptb_mdb_check_fd(fd, file_size, what);
    close(fd);
    return rc;
}
