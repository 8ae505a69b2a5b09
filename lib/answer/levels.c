/* lib/answer/levels.c: a family's levels table (tables/FORMAT.md,
 * "Levels tables"): the puzzles ptb_family_solve() kept, written into one
 * table file, NAME.levels.mdb, and read back, every byte used checked,
 * for listing, drawing and playing.
 *
 * The file is a table file like any (the same writer, LMDB layout, header
 * checks and pre-check of its pages: ptb_records_write(),
 * ptb_records_open()), with a header of its own kind and four records:
 * "levels", a line a level in Fogleman's form with the histogram
 * ("MOVES BOARD STATES HIST", as ptb_family_line() prints it), hardest
 * first (moves descending, then boards in byte order), in blocks of
 * block_levels levels; "blocks", each block's end and SHA-256; "stats",
 * how many levels have each number of moves; and "family", the family's
 * text as it was solved, so that a level can be played without the file
 * it came from.  Opening reads the header, "stats" and "family" (each
 * checked by its SHA-256, none growing with the levels) and the lengths
 * of the other two, so that the levels of any number of moves are known
 * without reading a level; a level is read from its block, whose SHA-256
 * and every line are checked when it is read (the last block read is
 * kept, decoded, for the next).  A level's board is read again by the
 * family's own puzzle when it is played, and its answer must have the
 * level's moves.
 *
 * A level is played on the family's space (covers mixes: every layout),
 * with the level's walls: ptb_search() from its board, a breadth-first
 * search that meets no layout outside the level's component.
 *
 * May touch: its arguments, the heap, and the files named.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "puzzles/slide.h"

#define LEVELS_KIND "levels"
#define LEVELS_FORMAT 2          /* the header's levels_format */
#define LEVELS_SUFFIX ".levels.mdb"
#define LEVEL_MOVES_MAX 254      /* a family's distances are bytes */
#define FAMILY_MAX (64 * 1024)   /* bytes of a family's text, at most */
#define STATS_MAX 8192           /* bytes of "stats", at most */
#define BLOCK_LEVELS 256         /* levels a block, as written */
#define BLOCK_LEVELS_MAX 65536   /* ... and as read, at most */
#define ENTRY 40                 /* a block's entry in "blocks": its end
                                    (8 bytes, little-endian), its SHA-256 */

_Static_assert(SL_MAX_CELLS == PTB_LEVEL_CELLS &&
               LEVEL_MOVES_MAX == PTB_LEVEL_MOVES, "ptb_level's room");

/* A block of levels read, checked and decoded. */
typedef struct blk {
    size_t b, first, n;          /* the block, its first level, its levels */
    uint64_t *states;
    char *boards;                /* cells + 1 bytes a level */
    size_t *at;                  /* where each level's histogram starts */
    uint64_t *hist;
} blk;

/* The last block read, for the next read (levels are read in runs). */
typedef struct last_block {
    pthread_mutex_t lock;
    blk *k;
} last_block;

struct ptb_levels {
    char name[32];
    ptb_table *t;                /* the file, open (its map) */
    sl_desc *d;                  /* the family's description */
    char *family;                /* its text, NUL-terminated */
    size_t n, cells, block, nblocks;
    const unsigned char *blocks; /* the "blocks" record, in the map */
    const char *levels;          /* the "levels" record, in the map */
    uint64_t lbytes;
    unsigned nm;                 /* how many numbers of moves levels have */
    unsigned mv[LEVEL_MOVES_MAX + 1];    /* them, hardest first */
    size_t from[LEVEL_MOVES_MAX + 2];    /* the first level of each; n */
    last_block *last;
};

/* ==== writing ========================================================= */

/* The SHA-256 of n bytes, in hex. */
static void sha256_hex(const void *data, size_t n, char hex[65])
{
    ptb_sha256 c;
    ptb_sha256_init(&c);
    ptb_sha256_update(&c, data, n);
    ptb_sha256_hex(&c, hex);
}

/* The SHA-256 of n bytes. */
static void sha256_raw(const void *data, size_t n, unsigned char out[32])
{
    ptb_sha256 c;
    ptb_sha256_init(&c);
    ptb_sha256_update(&c, data, n);
    ptb_sha256_final(&c, out);
}

/* A growing buffer of bytes. */
typedef struct buf {
    char *p;
    size_t len, cap;
} buf;

static int add(buf *b, const void *data, size_t n)
{
    void *p = b->p;
    if (ptb_room(&p, &b->cap, b->len + n, 1, 4096))
        return PTB_ENOMEM;
    b->p = p;
    memcpy(b->p + b->len, data, n);
    b->len += n;
    return PTB_OK;
}

static int add_line(buf *b, const ptb_family *f, size_t i)
{
    char probe[1];
    int need = ptb_family_line(f, i, probe, sizeof probe);
    void *p = b->p;
    if (need < 0 || ptb_room(&p, &b->cap, b->len + (size_t)need + 1, 1, 4096))
        return PTB_ENOMEM;
    b->p = p;
    ptb_family_line(f, i, b->p + b->len, (size_t)need + 1);
    b->len += (size_t)need;
    b->p[b->len++] = '\n';
    return PTB_OK;
}

/* A block's entry: its end in "levels" and its bytes' SHA-256. */
static int add_entry(buf *blocks, const buf *lv, size_t start)
{
    unsigned char e[ENTRY];
    ptb_put_le(e, lv->len, 8);
    sha256_raw(lv->p + start, lv->len - start, e + 8);
    return add(blocks, e, sizeof e);
}

/* The records "levels" (the family's puzzles hardest first, in blocks of
 * BLOCK_LEVELS), "blocks" and "stats".  The family orders them by moves
 * ascending, then by board: its runs of equal moves are taken from the
 * last, each in its own order. */
static int levels_text(const ptb_family *f, buf *lv, buf *blocks,
                       buf *stats, unsigned *most)
{
    size_t n = ptb_family_count(f), end = n, k = 0, start = 0;
    char line[32];
    int rc = PTB_OK;
    *most = 0;
    while (rc == PTB_OK && end > 0) {
        size_t first = end;
        ptb_family_line(f, end - 1, line, sizeof line);
        unsigned m = (unsigned)strtoul(line, NULL, 10);
        *most = *most > m ? *most : m;
        while (first > 0) {
            ptb_family_line(f, first - 1, line, sizeof line);
            if ((unsigned)strtoul(line, NULL, 10) != m)
                break;
            first--;
        }
        for (size_t i = first; rc == PTB_OK && i < end; i++) {
            rc = add_line(lv, f, i);
            if (rc == PTB_OK && (++k % BLOCK_LEVELS == 0 || k == n)) {
                rc = add_entry(blocks, lv, start);
                start = lv->len;
            }
        }
        int len = snprintf(line, sizeof line, "%02u %zu\n", m, end - first);
        if (rc == PTB_OK)
            rc = add(stats, line, (size_t)len);
        end = first;
    }
    return rc;
}

int ptb_family_write(const ptb_family *f, const char *dir, uint64_t *bytes)
{
    char header[1024], ssum[65], fsum[65], file[64];
    const char *text = ptb_family_text(f);
    size_t tlen = strlen(text), hl = 0;
    buf lv = { 0 }, blocks = { 0 }, stats = { 0 };
    unsigned most;
    uint64_t size = 0;
    sl_desc *d;
    int rc = ptb_family_desc(text, &d, NULL, 0);
    if (rc != PTB_OK)
        return rc;
    if ((rc = levels_text(f, &lv, &blocks, &stats, &most)) == PTB_OK) {
        sha256_hex(stats.p ? stats.p : "", stats.len, ssum);
        sha256_hex(text, tlen, fsum);
        ptb_catf(header, sizeof header, &hl,
                 "kind %s\nlevels_format %u\nfamily %s\nlevels %zu\n"
                 "max_moves %u\nwidth %u\nheight %u\nblock_levels %u\n"
                 "levels_bytes %zu\nstats_bytes %zu\nstats_sha256 %s\n"
                 "family_bytes %zu\nfamily_sha256 %s\n", LEVELS_KIND,
                 LEVELS_FORMAT, d->name, ptb_family_count(f), most, d->w,
                 d->h, BLOCK_LEVELS, lv.len, stats.len, ssum, tlen, fsum);
        snprintf(file, sizeof file, "%s%s", d->name, LEVELS_SUFFIX);
        ptb_record rec[4] = {
            { "blocks", blocks.p ? blocks.p : "", blocks.len },
            { "family", text, tlen },
            { "levels", lv.p ? lv.p : "", lv.len },
            { "stats", stats.p ? stats.p : "", stats.len } };
        rc = ptb_records_write(dir, file, header, rec, 4, &size);
    }
    if (bytes)
        *bytes = size;
    free(lv.p);
    free(blocks.p);
    free(stats.p);
    sl_free(d);
    return rc;
}

/* ==== reading ========================================================= */

/* What the header says, before the records are read. */
typedef struct head {
    int kind;
    char family[32];
    uint64_t version, levels, max_moves, width, height, block, lbytes,
        sbytes, fbytes;
    char ssum[65], fsum[65];
    unsigned seen;               /* a bit a number read */
} head;

/* A decimal number, digits only, at most max: its end, or NULL. */
static const char *number(const char *s, const char *end, uint64_t max,
                          uint64_t *out)
{
    uint64_t a = 0;
    if (s == end || *s < '0' || *s > '9')
        return NULL;
    for (; s < end && *s >= '0' && *s <= '9'; s++) {
        unsigned dg = (unsigned)(*s - '0');
        if (a > (UINT64_MAX - dg) / 10)
            return NULL;
        a = a * 10 + dg;
    }
    if (a > max)
        return NULL;
    *out = a;
    return s;
}

static int hex64(const char *v, size_t n, char out[65])
{
    if (n != 64 || strspn(v, "0123456789abcdef") < 64)
        return PTB_EFORMAT;
    memcpy(out, v, 64);
    out[64] = '\0';
    return PTB_OK;
}

static int head_line(head *h, const char *k, size_t kn, const char *v,
                     size_t vn)
{
    static const char *const nums[] = { "levels_format", "levels",
                                        "max_moves", "width", "height",
                                        "block_levels", "levels_bytes",
                                        "stats_bytes", "family_bytes" };
    uint64_t *slot[] = { &h->version, &h->levels, &h->max_moves, &h->width,
                         &h->height, &h->block, &h->lbytes, &h->sbytes,
                         &h->fbytes };
    const uint64_t most[] = { UINT32_MAX, UINT32_MAX, LEVEL_MOVES_MAX,
                              SL_MAX_W, SL_MAX_H, BLOCK_LEVELS_MAX,
                              (uint64_t)1 << 40, STATS_MAX, FAMILY_MAX };
#define KEY(s) (kn == strlen(s) && !memcmp(k, s, kn))
    if (KEY("kind"))
        h->kind = vn == strlen(LEVELS_KIND) && !memcmp(v, LEVELS_KIND, vn);
    else if (KEY("family") && vn < sizeof h->family) {
        memcpy(h->family, v, vn);
        h->family[vn] = '\0';
    } else if (KEY("stats_sha256"))
        return hex64(v, vn, h->ssum);
    else if (KEY("family_sha256"))
        return hex64(v, vn, h->fsum);
    for (unsigned i = 0; i < sizeof nums / sizeof *nums; i++)
        if (KEY(nums[i])) {
            if (number(v, v + vn, most[i], slot[i]) != v + vn)
                return PTB_EFORMAT;
            h->seen |= 1u << i;
        }
#undef KEY
    return PTB_OK;
}

/* The header's lines into *h; PTB_EFORMAT when it is not a levels table
 * or misses a line (unknown keys are for later additions), PTB_EVERSION
 * when it is a levels table of another levels_format (the first had
 * none). */
static int read_head(const char *text, size_t len, head *h)
{
    int rc = PTB_OK;
    memset(h, 0, sizeof *h);
    for (const char *s = text, *end = text + len; s < end;) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        const char *sp = nl ? memchr(s, ' ', (size_t)(nl - s)) : NULL;
        if (!sp)
            return PTB_EFORMAT;
        if (rc == PTB_OK)        /* (a version first, whatever comes after) */
            rc = head_line(h, s, (size_t)(sp - s), sp + 1,
                           (size_t)(nl - sp - 1));
        s = nl + 1;
    }
    if (!h->kind)
        return PTB_EFORMAT;
    if (!(h->seen & 1) || h->version != LEVELS_FORMAT)
        return PTB_EVERSION;
    return rc == PTB_OK && h->family[0] && h->seen == 0x1ff &&
           h->block >= 1 && h->ssum[0] && h->fsum[0] ? PTB_OK : PTB_EFORMAT;
}

/* A record whose length and SHA-256 the header gives. */
static int checked_record(const ptb_table *t, const char *key, uint64_t len,
                          const char *sum, const char **out)
{
    const void *data;
    size_t n;
    char got[65];
    int rc = ptb_table_record(t, key, &data, &n);
    if (rc != PTB_OK)
        return rc == PTB_EFORMAT ? PTB_ECORRUPT : rc;
    if (n != len)
        return PTB_ECORRUPT;
    sha256_hex(data, n, got);
    *out = data;
    return strcmp(got, sum) ? PTB_ECORRUPT : PTB_OK;
}

/* A record whose length the header gives (its blocks are checked as they
 * are read). */
static int sized_record(const ptb_table *t, const char *key, uint64_t len,
                        const void **out)
{
    size_t n;
    int rc = ptb_table_record(t, key, out, &n);
    if (rc != PTB_OK)
        return rc == PTB_EFORMAT ? PTB_ECORRUPT : rc;
    return n == len ? PTB_OK : PTB_ECORRUPT;
}

/* The "stats" record: "MOVES COUNT" lines, moves descending, the first
 * max_moves, each count at least 1, the counts summing to the levels. */
static int read_stats(ptb_levels *l, const char *s, size_t len,
                      const head *h)
{
    const char *end = s + len;
    uint64_t total = 0, m, c;
    l->nm = 0;
    while (s < end) {
        if (!(s = number(s, end, LEVEL_MOVES_MAX, &m)) || s == end ||
            *s++ != ' ' || !(s = number(s, end, h->levels, &c)) ||
            s == end || *s++ != '\n' || c == 0 || c > h->levels - total ||
            (l->nm && m >= l->mv[l->nm - 1]))
            return PTB_ECORRUPT;
        l->mv[l->nm] = (unsigned)m;
        l->from[l->nm++] = (size_t)total;
        total += c;
    }
    l->from[l->nm] = (size_t)total;
    return total == h->levels && (l->nm ? l->mv[0] : 0) == h->max_moves
           ? PTB_OK : PTB_ECORRUPT;
}

/* The family's text, read as a family whose board is the header's. */
static int read_family(ptb_levels *l, const char *text, const head *h)
{
    if (!(l->family = malloc(h->fbytes + 1)))
        return PTB_ENOMEM;
    memcpy(l->family, text, h->fbytes);
    l->family[h->fbytes] = '\0';
    if (strlen(l->family) != h->fbytes)
        return PTB_ECORRUPT;
    int rc = ptb_family_desc(l->family, &l->d, NULL, 0);
    if (rc != PTB_OK)
        return rc == PTB_ENOMEM ? rc : PTB_EFORMAT;
    return strcmp(l->d->name, h->family) || l->d->w != h->width ||
           l->d->h != h->height ? PTB_EFORMAT : PTB_OK;
}

static int levels_load(ptb_levels *l, const char *path, const char *name)
{
    const char *htext, *family, *stats;
    const void *blocks, *levels;
    size_t hlen;
    head h;
    int rc = ptb_records_open(path, &l->t, &htext, &hlen);
    if (rc == PTB_OK)
        rc = read_head(htext, hlen, &h);
    if (rc == PTB_OK && strcmp(h.family, name))
        rc = PTB_EFORMAT;
    if (rc == PTB_OK)
        rc = checked_record(l->t, "family", h.fbytes, h.fsum, &family);
    if (rc == PTB_OK)
        rc = read_family(l, family, &h);
    if (rc == PTB_OK)
        rc = checked_record(l->t, "stats", h.sbytes, h.ssum, &stats);
    if (rc == PTB_OK)
        rc = read_stats(l, stats, (size_t)h.sbytes, &h);
    if (rc != PTB_OK)
        return rc;
    snprintf(l->name, sizeof l->name, "%s", h.family);
    l->n = (size_t)h.levels;
    l->cells = (size_t)(h.width * h.height);
    l->block = (size_t)h.block;
    l->nblocks = l->n ? (l->n - 1) / l->block + 1 : 0;
    l->lbytes = h.lbytes;
    /* a line has its board and at least 7 bytes more */
    if (l->n > h.lbytes / (l->cells + 7))
        return PTB_ECORRUPT;
    rc = sized_record(l->t, "blocks", (uint64_t)ENTRY * l->nblocks, &blocks);
    if (rc == PTB_OK)
        rc = sized_record(l->t, "levels", h.lbytes, &levels);
    l->blocks = blocks;
    l->levels = levels;
    return rc;
}

int ptb_levels_open(const char *dir, const char *family, ptb_levels **out)
{
    ptb_levels *l = calloc(1, sizeof *l);
    char *path = NULL;
    int rc = l ? PTB_OK : PTB_ENOMEM;
    *out = NULL;
    if (rc == PTB_OK && !(l->last = calloc(1, sizeof *l->last)))
        rc = PTB_ENOMEM;
    if (rc == PTB_OK)
        pthread_mutex_init(&l->last->lock, NULL);
    if (rc == PTB_OK && (!family[0] || strchr(family, '/') ||
                         strlen(family) >= sizeof l->name))
        rc = PTB_EINVAL;
    if (rc == PTB_OK && !(path = ptb_join_path(dir, family, LEVELS_SUFFIX)))
        rc = PTB_ENOMEM;
    if (rc == PTB_OK)
        rc = levels_load(l, path, family);
    free(path);
    if (rc != PTB_OK) {
        ptb_levels_close(l);
        return rc;
    }
    *out = l;
    return PTB_OK;
}

static void blk_free(blk *k)
{
    if (!k)
        return;
    free(k->states);
    free(k->boards);
    free(k->at);
    free(k->hist);
    free(k);
}

void ptb_levels_close(ptb_levels *l)
{
    if (!l)
        return;
    if (l->last) {
        blk_free(l->last->k);
        pthread_mutex_destroy(&l->last->lock);
        free(l->last);
    }
    ptb_table_close(l->t);
    sl_free(l->d);
    free(l->family);
    free(l);
}

const char *ptb_levels_name(const ptb_levels *l)
{
    return l->name;
}

size_t ptb_levels_count(const ptb_levels *l)
{
    return l ? l->n : 0;
}

/* Which of l->mv level i's moves are (i < l->n). */
static unsigned moves_at(const ptb_levels *l, size_t i)
{
    unsigned a = 0, b = l->nm;   /* the last k with from[k] <= i */
    while (b - a > 1) {
        unsigned m = a + (b - a) / 2;
        if (l->from[m] <= i)
            a = m;
        else
            b = m;
    }
    return a;
}

/* A level's line, from s (its block's end at end): "MOVES BOARD STATES
 * HIST", MOVES the want the stats give, the board of l->cells characters
 * ('.', 'x', a capital), STATES the sum of HIST's moves + 1 counts, none
 * 0.  Its end, or NULL. */
static const char *level_line(const ptb_levels *l, unsigned want,
                              const char *s, const char *end, char *board,
                              uint64_t *states, uint64_t *hist)
{
    uint64_t m, st, sum = 0, c;
    if (!(s = number(s, end, LEVEL_MOVES_MAX, &m)) || m != want ||
        s == end || *s++ != ' ' || (size_t)(end - s) < l->cells + 1)
        return NULL;
    for (size_t k = 0; k < l->cells; k++, s++) {
        if (*s != '.' && *s != 'x' && (*s < 'A' || *s > 'Z'))
            return NULL;
        board[k] = *s;
    }
    board[l->cells] = '\0';
    if (*s++ != ' ' || !(s = number(s, end, UINT64_MAX, &st)) ||
        s == end || *s++ != ' ')
        return NULL;
    for (uint64_t d = 0; d <= m; d++) {
        if ((d && (s == end || *s++ != ',')) ||
            !(s = number(s, end, UINT64_MAX, &c)) || c == 0 ||
            c > UINT64_MAX - sum)
            return NULL;
        sum += c;
        hist[d] = c;
    }
    *states = st;
    return s < end && *s == '\n' && sum == st ? s + 1 : NULL;
}

/* Block b read: its entry's bounds inside "levels", its SHA-256, then
 * every line, each of the moves the stats give its level, boards of
 * equal moves ascending. */
static int block_read(const ptb_levels *l, size_t b, blk **out)
{
    const unsigned char *e = l->blocks + (size_t)ENTRY * b;
    uint64_t start = b ? ptb_get_le64(e - ENTRY) : 0, stop = ptb_get_le64(e);
    unsigned char sum[32];
    *out = NULL;
    if (start > stop || stop > l->lbytes ||
        (b + 1 == l->nblocks && stop != l->lbytes))
        return PTB_ECORRUPT;
    const char *s = l->levels + start, *end = l->levels + stop;
    sha256_raw(s, (size_t)(stop - start), sum);
    if (memcmp(sum, e + 8, sizeof sum))
        return PTB_ECORRUPT;
    size_t first = b * l->block, nh = 0;
    size_t n = l->n - first < l->block ? l->n - first : l->block;
    size_t cut = first + n;
    unsigned at = moves_at(l, first);
    for (unsigned j = at; j < l->nm && l->from[j] < cut; j++)
        nh += ((l->from[j + 1] < cut ? l->from[j + 1] : cut) -
               (l->from[j] > first ? l->from[j] : first)) * (l->mv[j] + 1);
    if (nh > (stop - start) / 2) /* a count is a digit and a separator */
        return PTB_ECORRUPT;
    blk *k = calloc(1, sizeof *k);
    if (!k)
        return PTB_ENOMEM;
    k->b = b;
    k->first = first;
    k->n = n;
    k->states = malloc(k->n * sizeof *k->states);
    k->boards = malloc(k->n * (l->cells + 1));
    k->at = malloc((k->n + 1) * sizeof *k->at);
    k->hist = malloc(nh * sizeof *k->hist);
    if (!k->states || !k->boards || !k->at || !k->hist) {
        blk_free(k);
        return PTB_ENOMEM;
    }
    nh = 0;
    for (size_t i = 0; s && i < k->n; i++) {
        if (first + i == l->from[at + 1])
            at++;
        char *board = k->boards + i * (l->cells + 1);
        k->at[i] = nh;
        s = level_line(l, l->mv[at], s, end, board, &k->states[i],
                       k->hist + nh);
        nh += l->mv[at] + 1;
        if (s && i && first + i != l->from[at] &&
            strcmp(board - (l->cells + 1), board) >= 0)
            s = NULL;            /* not in order */
    }
    if (s != end) {
        blk_free(k);
        return PTB_ECORRUPT;
    }
    k->at[k->n] = nh;
    *out = k;
    return PTB_OK;
}

/* Level i of block k into *out. */
static void level_copy(const ptb_levels *l, const blk *k, size_t i,
                       ptb_level *out)
{
    size_t j = i - k->first;
    out->moves = l->mv[moves_at(l, i)];
    out->states = k->states[j];
    memcpy(out->board, k->boards + j * (l->cells + 1), l->cells + 1);
    memcpy(out->histogram, k->hist + k->at[j],
           (out->moves + 1) * sizeof *out->histogram);
}

int ptb_levels_get(const ptb_levels *l, size_t i, ptb_level *out)
{
    last_block *c = l->last;
    blk *k, *old;
    if (i >= l->n)
        return PTB_EINVAL;
    size_t b = i / l->block;
    pthread_mutex_lock(&c->lock);
    if (c->k && c->k->b == b) {
        level_copy(l, c->k, i, out);
        pthread_mutex_unlock(&c->lock);
        return PTB_OK;
    }
    pthread_mutex_unlock(&c->lock);
    int rc = block_read(l, b, &k);
    if (rc != PTB_OK)
        return rc;
    level_copy(l, k, i, out);
    pthread_mutex_lock(&c->lock);
    old = c->k;
    c->k = k;
    pthread_mutex_unlock(&c->lock);
    blk_free(old);
    return PTB_OK;
}

/* ==== choosing ======================================================== */

void ptb_levels_range(const ptb_levels *l, unsigned lo, unsigned hi,
                      size_t *first, size_t *n)
{
    unsigned k = 0;              /* the stats, hardest first */
    while (k < l->nm && l->mv[k] > hi)
        k++;
    *first = l->from[k];
    while (k < l->nm && l->mv[k] >= lo)
        k++;
    *n = lo <= hi ? l->from[k] - *first : 0;
}

/* SplitMix64 (Steele, Lea and Flood, 2014): the draws' generator. */
static uint64_t next_random(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15u);
    z = (z ^ z >> 30) * 0xBF58476D1CE4E5B9u;
    z = (z ^ z >> 27) * 0x94D049BB133111EBu;
    return z ^ z >> 31;
}

/* A number below n, uniform (the few values past the last whole multiple
 * of n drawn again). */
static uint64_t below(uint64_t *s, uint64_t n)
{
    uint64_t cut = UINT64_MAX - UINT64_MAX % n, r;
    do
        r = next_random(s);
    while (r >= cut);
    return r % n;
}

size_t ptb_levels_draw(const ptb_levels *l, size_t first, size_t n,
                       uint64_t seed, size_t k, size_t *out)
{
    size_t got = 0;
    uint64_t s = seed;
    if (first > l->n || n > l->n - first)
        return 0;
    k = k < n ? k : n;
    /* selection sampling (Knuth, TAOCP 3.4.2, Algorithm S): each level
     * kept with the chance that leaves k in all, in order ... */
    for (size_t i = 0; got < k && i < n; i++)
        if (below(&s, n - i) < k - got)
            out[got++] = first + i;
    /* ... then shuffled (Fisher-Yates) */
    for (size_t i = got; i > 1; i--) {
        size_t j = (size_t)below(&s, i), t = out[i - 1];
        out[i - 1] = out[j];
        out[j] = t;
    }
    return got;
}


/* ==== text ============================================================ */

int ptb_format_level(const ptb_levels *l, size_t i, char *buf, size_t cap)
{
    ptb_level v;
    size_t len = 0;
    int rc = ptb_levels_get(l, i, &v);
    if (rc != PTB_OK)
        return rc;
    ptb_catf(buf, cap, &len, v.moves < 10 ? "0%u %s %" PRIu64  /* %02u */
                                          : "%u %s %" PRIu64,
             v.moves, v.board, v.states);
    return (int)len;
}

int ptb_format_level_json(const ptb_levels *l, size_t i, char *buf,
                          size_t cap)
{
    ptb_level v;
    size_t len = 0;
    int rc = ptb_levels_get(l, i, &v);
    if (rc != PTB_OK)
        return rc;
    ptb_catf(buf, cap, &len, "{\"family\":\"%s\",\"index\":%zu,\"moves\":%u,"
             "\"board\":\"%s\",\"states\":%" PRIu64 ",\"histogram\":[",
             l->name, i, v.moves, v.board, v.states);
    for (unsigned d = 0; d <= v.moves; d++)
        ptb_catf(buf, cap, &len, d ? ",%" PRIu64 : "%" PRIu64,
                 v.histogram[d]);
    ptb_catf(buf, cap, &len, "]}");
    return (int)len;
}

/* ==== playing ========================================================= */

/* Level i's board as the family's description draws it, rows joined by
 * '/': its distinct pieces (lettered first, from 'A', in the order of
 * their kinds) with their own letters, every other piece with a letter
 * of its own that is none of those nor an empty cell's or a wall's, a
 * wall '#'; into *walls the cells of its walls. */
static void level_text(const ptb_levels *l, const char *board, char *text,
                       uint64_t *walls)
{
    const sl_desc *d = l->d;
    char labels[SL_MAX_KINDS], map[26], pool[64];
    unsigned nl = 0, np = 0, len = 0;
    for (unsigned k = 0; k < d->nkinds; k++)
        if (d->kind[k].label)
            labels[nl++] = d->kind[k].label;
    for (const char *c = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
         *c; c++)
        if (!memchr(labels, *c, nl) && !sl_is_empty(d, *c) &&
            !sl_is_wall(d, *c))
            pool[np++] = *c;
    for (unsigned i = 0; i < 26; i++)
        map[i] = i < nl ? labels[i] : pool[(i - nl) % np];
    *walls = 0;
    for (size_t c = 0; c < l->cells; c++) {
        if (c && c % d->w == 0)
            text[len++] = '/';
        char ch = board[c];
        text[len++] = ch == '.' ? '.' : ch == 'x' ? '#' : map[ch - 'A'];
        if (ch == 'x')
            *walls |= (uint64_t)1 << c;
    }
    text[len] = '\0';
}

/* The family's puzzle with these walls: its description's, or with the
 * family's walls added. */
static int level_puzzle(const ptb_levels *l, uint64_t walls, ptb_puzzle **p)
{
    char err[256];
    sl_desc *d, *w;
    int rc = ptb_family_desc(l->family, &d, err, sizeof err);
    if (rc != PTB_OK)
        return rc == PTB_ENOMEM ? rc : PTB_EFORMAT;
    uint64_t extra = walls & ~d->walls;
    if (extra) {
        rc = sl_walled(d, extra, &w);
        sl_free(d);
        if (rc != PTB_OK)
            return rc;
        d = w;
    }
    rc = sl_puzzle(d, p);
    if (rc != PTB_OK)
        sl_free(d);
    return rc;
}

int ptb_level_solve(const ptb_levels *l, size_t i, ptb_puzzle **p,
                    ptb_space **s, ptb_solution *sol)
{
    char text[SL_MAX_CELLS + SL_MAX_H + 1], err[256];
    uint64_t walls;
    ptb_position pos[2];
    ptb_level v;
    unsigned n;
    *p = NULL;
    *s = NULL;
    int rc = ptb_levels_get(l, i, &v);
    if (rc != PTB_OK)
        return rc;
    level_text(l, v.board, text, &walls);
    rc = ptb_family_level_puzzle(l->family, v.board, p);
    if (rc == PTB_EINVAL)        /* no family of blocks */
        rc = level_puzzle(l, walls, p);
    if (rc == PTB_OK)
        rc = ptb_space_new(*p, NULL, s);
    if (rc == PTB_OK &&
        ptb_parse(*s, text, NULL, pos, &n, err, sizeof err) != PTB_OK)
        rc = PTB_ECORRUPT;       /* checked, yet not a layout of it */
    if (rc == PTB_OK)
        rc = ptb_search(*s, pos, n, sol);
    if (rc == PTB_NOTFOUND ||
        (rc == PTB_OK && sol->distance != v.moves))
        rc = PTB_ECORRUPT;       /* not the level the table says */
    if (rc != PTB_OK) {
        ptb_space_close(*s);
        ptb_puzzle_free(*p);
        *s = NULL;
        *p = NULL;
    }
    return rc;
}
