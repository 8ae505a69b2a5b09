/* lib/search/checkpoint.c: the BFS's checkpoint file, so that a long build
 * killed (kill -9, a power cut) resumes where it stopped and writes the
 * same table, byte for byte.
 *
 * The file is a header, then one record a layer as each is found: the
 * states of subtable S at distance D, in index order.  Replaying the
 * records gives back every value found so far and, of a subtable whose BFS
 * was cut short, its last layer, the one to expand next; a subtable whose
 * last record is marked last (its layer empty) is done.  The file belongs
 * to one build: its header names the puzzle, the metric, the library's
 * version, how values are kept, the slice (in a cluster, each process
 * keeps a file of its own slice's states, and all write the same
 * sequence of records) and a SHA-256 of what fixes the states (the
 * description, the subtables' sizes, the stored index); a file of another
 * build, or damaged in its header, is started afresh.  A record that does not read whole (the last
 * one, cut short by the kill) ends the replay, and the file goes on from
 * the record before it.  It is the generator's own scratch file, not an
 * input to trust with a table: a replay that finds a state twice or out of
 * range stops too (what it read so far is kept), and --verify proves the
 * table either way.
 *
 * Layout (native byte order: the file is read back on the machine that
 * wrote it):
 *   header   "puzzletb checkpoint 2\n", then text lines "key value" up to
 *            an empty line (below);
 *   record   u32 RECORD_MAGIC, u32 S, u32 D (bit 31: the last record of
 *            S, whose layer is empty), u64 count, the states as gaps (the first state + 1, then each one's distance from the
 *            one before), LEB128 varints, then u64 hash (FNV-1a of the
 *            record from its magic to the last varint).
 * Records are written with write() as each layer ends (a kill -9 loses
 * none that returned) and synced to disk at most once a second.
 *
 * For the tests: with PTB_TEST_KILL_AFTER=N in the environment, the
 * process kills itself (SIGKILL) once it has written its Nth record.
 *
 * May touch: the checkpoint file, the heap. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "search.h"

#define RECORD_MAGIC 0x4c627470u         /* "ptbL" */
#define IO_BYTES (1u << 20)              /* the read and write buffers */
#define SYNC_SECONDS 1.0
#define HEADER_MAX 4096

typedef struct ckpt_sub {
    int last;                  /* the last layer recorded; -1: none */
    int over;                  /* its record is empty: the BFS is done */
    uint64_t at;               /* file offset of the last record */
} ckpt_sub;

#define LAST_BIT 0x80000000u

struct ptb_ckpt {
    int fd;
    int named;                 /* a file to resume from, synced; else an
                                  unnamed one (for the residues) */
    uint64_t start;            /* where the records start */
    const ptb_space *s;
    const uint64_t *len;       /* the slice's states of each subtable */
    uint64_t *own_len;         /* len when it is the whole subtables' */
    ckpt_sub *sub;
    pthread_mutex_t lock;      /* writes come from the build's threads */
    unsigned char *buf;        /* IO_BYTES */
    double synced;             /* when last synced */
    long kill_after;           /* PTB_TEST_KILL_AFTER, or 0 */
};

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t fnv(uint64_t h, const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3u;
    return h;
}
#define FNV_START 0xcbf29ce484222325u

/* The header of a build of s, keeping residues or exact values. */
static void header_of(const ptb_ckpt_of *of, char *buf, size_t cap)
{
    const ptb_space *s = of->s;
    const ptb_puzzle *p = s->p;
    ptb_sha256 c;
    char hex[65];
    size_t len = 0, ilen;
    const unsigned char *index = ptb_space_index(s, &ilen);
    ptb_sha256_init(&c);
    if (p->description)
        ptb_sha256_update(&c, p->description, strlen(p->description) + 1);
    for (uint32_t i = 0; i <= s->subtables; i++)
        ptb_sha256_update(&c, &s->offset[i], sizeof s->offset[i]);
    if (index)
        ptb_sha256_update(&c, index, ilen);
    ptb_sha256_hex(&c, hex);
    ptb_catf(buf, cap, &len,
             "puzzletb checkpoint 2\nlibrary %s\npuzzle %s\nmetric %s\n"
             "states %" PRIu64 "\nsubtables %" PRIu32 "\nvalues %s\n"
             "slice %u of %u\nsha256 %s\n\n",
             PTB_VERSION_STRING, p->name, ptb_space_metric(s),
             s->offset[s->subtables], s->subtables,
             of->residues ? "mod3" : "exact", of->rank, of->ranks, hex);
}

/* Appends n bytes to the file. */
static int write_all(int fd, const unsigned char *p, size_t n)
{
    while (n) {
        ssize_t r = write(fd, p, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return errno;
        p += r;
        n -= (size_t)r;
    }
    return PTB_OK;
}

/* Reads exactly n bytes at *at (advanced); 0 at a short read. */
static int read_at(int fd, void *buf, size_t n, uint64_t *at)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = pread(fd, (char *)buf + got, n - got,
                          (off_t)(*at + got));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return 0;
        got += (size_t)r;
    }
    *at += n;
    return 1;
}

/* A buffered reader of one record's varints. */
typedef struct reader {
    int fd;
    uint64_t at;               /* file offset of buf[len] */
    unsigned char *buf;
    size_t pos, len;
    uint64_t hash;
} reader;

static int next_byte(reader *r, unsigned char *b)
{
    if (r->pos == r->len) {
        ssize_t n;
        do
            n = pread(r->fd, r->buf, IO_BYTES, (off_t)r->at);
        while (n < 0 && errno == EINTR);
        if (n <= 0)
            return 0;
        r->at += (uint64_t)n;
        r->pos = 0;
        r->len = (size_t)n;
    }
    *b = r->buf[r->pos++];
    r->hash = fnv(r->hash, b, 1);
    return 1;
}

static int varint(reader *r, uint64_t *v)
{
    unsigned char b;
    *v = 0;
    for (unsigned sh = 0; sh < 64; sh += 7) {
        if (!next_byte(r, &b))
            return 0;
        *v |= (uint64_t)(b & 0x7F) << sh;
        if (!(b & 0x80))
            return 1;
    }
    return 0;
}

/* Reads the record at *at, of the subtable's next layer when next is set:
 * its subtable, layer and whether it is the subtable's last, and the
 * states, each given to fn when fn is not NULL; *at moves past it.  0 when
 * it does not read whole or does not hold, or fn fails. */
static int read_record(ptb_ckpt *c, uint64_t *at, int next, uint32_t *subp,
                       unsigned *dp, int *lastp, ptb_ckpt_fn fn, void *arg)
{
    uint32_t head[3];
    uint64_t count, q = 0, stored;
    if (!read_at(c->fd, head, sizeof head, at) ||
        !read_at(c->fd, &count, sizeof count, at))
        return 0;
    uint32_t sub = head[1], d = head[2] & ~LAST_BIT;
    if (head[0] != RECORD_MAGIC || sub >= c->s->subtables ||
        d > PTB_MAX_DISTANCE ||
        (next && ((int)d != c->sub[sub].last + 1 || c->sub[sub].over)))
        return 0;
    uint64_t n = c->len[sub];
    if (count > n || (head[2] & LAST_BIT && count))
        return 0;
    reader r = { c->fd, *at, c->buf, 0, 0, FNV_START };
    r.hash = fnv(fnv(r.hash, (const unsigned char *)head, sizeof head),
                 (const unsigned char *)&count, sizeof count);
    for (uint64_t i = 0; i < count; i++) {
        uint64_t gap;
        if (!varint(&r, &gap) || gap == 0 || gap > n)
            return 0;
        q = i == 0 ? gap - 1 : q + gap;
        if (q >= n)
            return 0;
        if (fn && fn(arg, sub, d, q) != PTB_OK)
            return 0;
    }
    uint64_t hash = r.hash;
    *at = r.at - (r.len - r.pos);
    if (!read_at(c->fd, &stored, sizeof stored, at) || stored != hash)
        return 0;
    *subp = sub;
    *dp = d;
    *lastp = (int)(head[2] >> 31);
    return 1;
}

void ptb_ckpt_close(ptb_ckpt *c)
{
    if (!c)
        return;
    if (c->fd >= 0)
        close(c->fd);
    pthread_mutex_destroy(&c->lock);
    free(c->sub);
    free(c->buf);
    free(c->own_len);
    free(c);
}

/* A checkpoint of 'of' with nothing read, its file not open; NULL when
 * out of memory. */
static ptb_ckpt *ckpt_new(const ptb_ckpt_of *of)
{
    const ptb_space *s = of->s;
    ptb_ckpt *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->fd = -1;
    c->s = s;
    c->len = of->len;
    pthread_mutex_init(&c->lock, NULL);
    if (!(c->sub = malloc(s->subtables * sizeof *c->sub)) ||
        !(c->buf = malloc(IO_BYTES)) ||
        (!of->len && !(c->len = c->own_len = malloc(s->subtables *
                                                    sizeof *c->len)))) {
        ptb_ckpt_close(c);
        return NULL;
    }
    for (uint32_t i = 0; i < s->subtables; i++) {
        c->sub[i] = (ckpt_sub){ -1, 0, 0 };
        if (c->own_len)
            c->own_len[i] = s->offset[i + 1] - s->offset[i];
    }
    return c;
}

/* Reads the file's header and at most 'limit' whole records after it,
 * each replayed through fn (when not NULL) once read whole.  *good gets
 * the offset where they end (0: no header of this build), *records their
 * number.  PTB_OK, or PTB_ECORRUPT when fn gave the replay up. */
static int read_file(ptb_ckpt *c, const ptb_ckpt_of *of, uint64_t limit,
                     ptb_ckpt_fn fn, void *arg, uint64_t *good,
                     uint64_t *records)
{
    char want[HEADER_MAX], have[HEADER_MAX];
    uint64_t at = 0, again;
    uint32_t sub;
    unsigned d;
    int last;
    header_of(of, want, sizeof want);
    size_t hlen = strlen(want);
    *good = *records = 0;
    if (!read_at(c->fd, have, hlen, &at) || memcmp(have, want, hlen))
        return PTB_OK;
    *good = at;
    while (*records < limit &&
           read_record(c, &at, 1, &sub, &d, &last, NULL, NULL)) {
        again = *good;
        if (fn && !read_record(c, &again, 1, &sub, &d, &last, fn, arg))
            return PTB_ECORRUPT;       /* fn refused a state */
        c->sub[sub].over = last;
        c->sub[sub].last = (int)d;
        c->sub[sub].at = *good;
        *good = at;
        ++*records;
    }
    return PTB_OK;
}

int ptb_ckpt_records(const ptb_ckpt_of *of, uint64_t *records)
{
    ptb_ckpt *c = ckpt_new(of);
    uint64_t good;
    *records = 0;
    if (!c)
        return PTB_ENOMEM;
    c->fd = open(of->path, O_RDONLY | O_CLOEXEC);
    int rc = c->fd < 0 ? (errno == ENOENT ? PTB_OK : errno)
                       : read_file(c, of, UINT64_MAX, NULL, NULL, &good,
                                   records);
    ptb_ckpt_close(c);
    return rc;
}

int ptb_ckpt_open(const ptb_ckpt_of *of, int fresh, uint64_t limit,
                  ptb_ckpt_fn fn, void *arg, ptb_ckpt **out)
{
    char want[HEADER_MAX];
    ptb_ckpt *c = ckpt_new(of);
    uint64_t good = 0, records;
    *out = NULL;
    if (!c)
        return PTB_ENOMEM;
    c->named = of->path != NULL;
    c->fd = c->named ? open(of->path, O_RDWR | O_CREAT | O_CLOEXEC, 0644)
                     : ptb_unnamed_file(of->dir);
    if (c->fd < 0) {
        int e = errno;
        ptb_ckpt_close(c);
        return e;
    }
    int rc = fresh || !c->named
                 ? PTB_OK
                 : read_file(c, of, limit, fn, arg, &good, &records);
    if (rc != PTB_OK) {
        ptb_ckpt_close(c);
        return rc;
    }
    /* on from the last whole record; a fresh file: the header */
    header_of(of, want, sizeof want);
    if (ftruncate(c->fd, (off_t)good) ||
        lseek(c->fd, (off_t)good, SEEK_SET) < 0)
        rc = errno;
    else if (!good)
        rc = write_all(c->fd, (const unsigned char *)want, strlen(want));
    c->start = strlen(want);
    c->synced = seconds();
    const char *k = getenv("PTB_TEST_KILL_AFTER");
    c->kill_after = k ? strtol(k, NULL, 10) : 0;
    if (rc != PTB_OK) {
        ptb_ckpt_close(c);
        return rc;
    }
    *out = c;
    return PTB_OK;
}

int ptb_ckpt_state(const ptb_ckpt *c, uint32_t sub, int *over)
{
    *over = c->sub[sub].over;
    return c->sub[sub].last;
}

int ptb_ckpt_front(ptb_ckpt *c, uint32_t sub, ptb_ckpt_fn fn, void *arg)
{
    uint64_t at = c->sub[sub].at;
    uint32_t s;
    unsigned d;
    int ok, last;
    pthread_mutex_lock(&c->lock);
    ok = read_record(c, &at, 0, &s, &d, &last, fn, arg);
    pthread_mutex_unlock(&c->lock);
    return ok && s == sub ? PTB_OK : PTB_EIO;
}

int ptb_ckpt_replay(ptb_ckpt *c, ptb_ckpt_fn fn, void *arg)
{
    off_t end = lseek(c->fd, 0, SEEK_CUR);
    uint64_t at = c->start;
    uint32_t sub;
    unsigned d;
    int last;
    if (end < 0)
        return errno;
    while (at < (uint64_t)end)
        if (!read_record(c, &at, 0, &sub, &d, &last, fn, arg))
            return PTB_EIO;
    return PTB_OK;
}

int ptb_ckpt_layer(ptb_ckpt *c, uint32_t sub, unsigned d, int last,
                   uint64_t count, uint64_t (*next)(void *), void *arg)
{
    uint64_t prev = 0, hash = FNV_START, q, written = 0;
    uint32_t head[3] = { RECORD_MAGIC, sub, d | (last ? LAST_BIT : 0) };
    pthread_mutex_lock(&c->lock);
    unsigned char *b = c->buf;
    size_t len = 0;
    memcpy(b, head, sizeof head);
    memcpy(b + sizeof head, &count, sizeof count);
    len = sizeof head + sizeof count;
    int rc = PTB_OK;
    while (rc == PTB_OK && (q = next(arg)) != UINT64_MAX) {
        uint64_t gap = written++ ? q - prev : q + 1;
        prev = q;
        if (len + 10 > IO_BYTES) {
            hash = fnv(hash, b, len);
            rc = write_all(c->fd, b, len);
            len = 0;
        }
        do {
            b[len++] = (unsigned char)(gap & 0x7F) | (gap > 0x7F ? 0x80 : 0);
            gap >>= 7;
        } while (gap);
    }
    if (rc == PTB_OK && written != count)
        rc = PTB_EIO;                  /* the layer's count is wrong */
    if (rc == PTB_OK) {
        hash = fnv(hash, b, len);
        memcpy(b + len, &hash, sizeof hash);
        rc = write_all(c->fd, b, len + sizeof hash);
    }
    double t = seconds();
    if (rc == PTB_OK && c->named && t - c->synced >= SYNC_SECONDS) {
        rc = fdatasync(c->fd) ? errno : PTB_OK;
        c->synced = t;
    }
    if (c->named && c->kill_after > 0 && --c->kill_after == 0)
        raise(SIGKILL);
    pthread_mutex_unlock(&c->lock);
    return rc;
}
