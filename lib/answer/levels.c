/* lib/answer/levels.c: a family's levels table (tables/FORMAT.md,
 * "Levels tables"): the puzzles ptb_family_solve() kept, written into one
 * table file, NAME.levels.mdb, and read back, every byte checked, for
 * listing, drawing and playing.
 *
 * The file is a table file like any (the same writer, LMDB layout, header
 * checks and pre-check of its pages: ptb_records_write(),
 * ptb_records_open()), with a header of its own kind and two records:
 * "levels", a line a level in Fogleman's form with the histogram
 * ("MOVES BOARD STATES HIST", as ptb_family_line() prints it), hardest
 * first (moves descending, then boards in byte order), and "family", the
 * family's text as it was solved, so that a level can be played without
 * the file it came from.  Opening checks both records' SHA-256 against
 * the header and reads every line by the rules below, so that nothing
 * past open can meet a bad byte; a level's board is read again by the
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "puzzles/slide.h"

#define LEVELS_KIND "levels"
#define LEVELS_SUFFIX ".levels.mdb"
#define LEVEL_MOVES_MAX 254      /* a family's distances are bytes */
#define FAMILY_MAX (64 * 1024)   /* bytes of a family's text, at most */

struct ptb_levels {
    char name[32];
    ptb_table *t;                /* the file, open (its map) */
    sl_desc *d;                  /* the family's description */
    char *family;                /* its text, NUL-terminated */
    size_t n, cells;
    unsigned *moves;             /* of each level */
    uint64_t *states;
    char *boards;                /* cells + 1 bytes a level */
    uint64_t *hist, *at;         /* the histograms end to end; where
                                    each level's starts */
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

static int add_line(char **buf, size_t *len, size_t *cap,
                    const ptb_family *f, size_t i)
{
    char probe[1];
    int need = ptb_family_line(f, i, probe, sizeof probe);
    void *b = *buf;
    if (need < 0 || ptb_room(&b, cap, *len + (size_t)need + 1, 1, 4096))
        return PTB_ENOMEM;
    *buf = b;
    ptb_family_line(f, i, *buf + *len, (size_t)need + 1);
    *len += (size_t)need;
    (*buf)[(*len)++] = '\n';
    return PTB_OK;
}

/* The "levels" record: the family's puzzles hardest first.  The family
 * orders them by moves ascending, then by board: its runs of equal moves
 * are taken from the last, each in its own order. */
static int levels_text(const ptb_family *f, char **out, size_t *len,
                       unsigned *most)
{
    size_t n = ptb_family_count(f), cap = 0, end = n;
    char *buf = NULL, line[16];
    int rc = PTB_OK;
    *len = 0;
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
        for (size_t i = first; rc == PTB_OK && i < end; i++)
            rc = add_line(&buf, len, &cap, f, i);
        end = first;
    }
    *out = buf;
    return rc;
}

int ptb_family_write(const ptb_family *f, const char *dir, uint64_t *bytes)
{
    char *levels = NULL, header[1024], lsum[65], fsum[65], file[64];
    const char *text = ptb_family_text(f);
    size_t len = 0, tlen = strlen(text), hl = 0;
    unsigned most;
    uint64_t size = 0;
    sl_desc *d;
    int rc = ptb_family_desc(text, &d, NULL, 0);
    if (rc != PTB_OK)
        return rc;
    if ((rc = levels_text(f, &levels, &len, &most)) == PTB_OK) {
        sha256_hex(levels ? levels : "", len, lsum);
        sha256_hex(text, tlen, fsum);
        ptb_catf(header, sizeof header, &hl,
                 "kind %s\nfamily %s\nlevels %zu\nmax_moves %u\nwidth %u\n"
                 "height %u\nlevels_bytes %zu\nlevels_sha256 %s\n"
                 "family_bytes %zu\nfamily_sha256 %s\n", LEVELS_KIND,
                 d->name, ptb_family_count(f), most, d->w, d->h, len, lsum,
                 tlen, fsum);
        snprintf(file, sizeof file, "%s%s", d->name, LEVELS_SUFFIX);
        ptb_record rec[2] = { { "family", text, tlen },
                              { "levels", levels ? levels : "", len } };
        rc = ptb_records_write(dir, file, header, rec, 2, &size);
    }
    if (bytes)
        *bytes = size;
    free(levels);
    sl_free(d);
    return rc;
}

/* ==== reading ========================================================= */

/* What the header says, before the records are read. */
typedef struct head {
    int kind;
    char family[32];
    uint64_t levels, max_moves, width, height, lbytes, fbytes;
    char lsum[65], fsum[65];
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
    static const char *const nums[] = { "levels", "max_moves", "width",
                                        "height", "levels_bytes",
                                        "family_bytes" };
    uint64_t *slot[] = { &h->levels, &h->max_moves, &h->width, &h->height,
                         &h->lbytes, &h->fbytes };
    const uint64_t most[] = { UINT32_MAX, LEVEL_MOVES_MAX, SL_MAX_W,
                              SL_MAX_H, (uint64_t)1 << 40, FAMILY_MAX };
#define KEY(s) (kn == strlen(s) && !memcmp(k, s, kn))
    if (KEY("kind"))
        h->kind = vn == strlen(LEVELS_KIND) && !memcmp(v, LEVELS_KIND, vn);
    else if (KEY("family") && vn < sizeof h->family) {
        memcpy(h->family, v, vn);
        h->family[vn] = '\0';
    } else if (KEY("levels_sha256"))
        return hex64(v, vn, h->lsum);
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
 * or misses a line (unknown keys are for later additions). */
static int read_head(const char *text, size_t len, head *h)
{
    memset(h, 0, sizeof *h);
    for (const char *s = text, *end = text + len; s < end;) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        const char *sp = nl ? memchr(s, ' ', (size_t)(nl - s)) : NULL;
        if (!sp)
            return PTB_EFORMAT;
        int rc = head_line(h, s, (size_t)(sp - s), sp + 1,
                           (size_t)(nl - sp - 1));
        if (rc != PTB_OK)
            return rc;
        s = nl + 1;
    }
    return h->kind && h->family[0] && h->seen == 0x3f && h->lsum[0] &&
           h->fsum[0] ? PTB_OK : PTB_EFORMAT;
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
        return rc;
    if (n != len)
        return PTB_ECORRUPT;
    sha256_hex(data, n, got);
    *out = data;
    return strcmp(got, sum) ? PTB_ECORRUPT : PTB_OK;
}

/* Level i's line, from s (its end at end): "MOVES BOARD STATES HIST",
 * every number in range, the board of l->cells characters ('.', 'x', a
 * capital), STATES the sum of HIST's moves + 1 counts, none 0. */
static const char *level_line(ptb_levels *l, size_t i, const char *s,
                              const char *end, size_t *nh, size_t *caph)
{
    uint64_t m, st, sum = 0, c;
    char *board = l->boards + i * (l->cells + 1);
    if (end - s < 2 || !(s = number(s, end, LEVEL_MOVES_MAX, &m)) ||
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
    void *h = l->hist;
    if (ptb_room(&h, caph, *nh + m, sizeof *l->hist, 1024))
        return NULL;
    l->hist = h;
    l->at[i] = *nh;
    for (uint64_t d = 0; d <= m; d++) {
        if ((d && (s == end || *s++ != ',')) ||
            !(s = number(s, end, UINT64_MAX, &c)) || c == 0 ||
            c > UINT64_MAX - sum)
            return NULL;
        sum += c;
        l->hist[(*nh)++] = c;
    }
    l->moves[i] = (unsigned)m;
    l->states[i] = st;
    return s < end && *s == '\n' && sum == st ? s + 1 : NULL;
}

/* Every line of the "levels" record, hardest first, no board twice. */
static int read_levels(ptb_levels *l, const char *text, size_t len,
                       uint64_t most)
{
    const char *s = text, *end = text + len;
    size_t nh = 0, caph = 0;
    l->moves = malloc((l->n + 1) * sizeof *l->moves);
    l->states = malloc((l->n + 1) * sizeof *l->states);
    l->at = malloc((l->n + 1) * sizeof *l->at);
    l->boards = malloc((l->n + 1) * (l->cells + 1));
    if (!l->moves || !l->states || !l->at || !l->boards)
        return PTB_ENOMEM;
    for (size_t i = 0; i < l->n; i++) {
        if (!(s = level_line(l, i, s, end, &nh, &caph)))
            return PTB_ECORRUPT;
        const char *b = l->boards + i * (l->cells + 1);
        if (i && (l->moves[i] > l->moves[i - 1] ||
                  (l->moves[i] == l->moves[i - 1] &&
                   strcmp(b - (l->cells + 1), b) >= 0)))
            return PTB_ECORRUPT;
    }
    l->at[l->n] = nh;
    return s == end && (!l->n || l->moves[0] == most) ? PTB_OK
                                                      : PTB_ECORRUPT;
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
    const char *htext, *family, *levels;
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
        rc = checked_record(l->t, "levels", h.lbytes, h.lsum, &levels);
    if (rc == PTB_OK)
        rc = read_family(l, family, &h);
    if (rc == PTB_OK) {
        snprintf(l->name, sizeof l->name, "%s", h.family);
        l->n = (size_t)h.levels;
        l->cells = (size_t)(h.width * h.height);
        /* a line has its board and at least 7 bytes more: no more lines
         * are allocated than the record can hold */
        rc = l->n > h.lbytes / (l->cells + 7)
             ? PTB_ECORRUPT
             : read_levels(l, levels, (size_t)h.lbytes, h.max_moves);
    }
    return rc;
}

int ptb_levels_open(const char *dir, const char *family, ptb_levels **out)
{
    ptb_levels *l = calloc(1, sizeof *l);
    char *path = NULL;
    int rc = l ? PTB_OK : PTB_ENOMEM;
    *out = NULL;
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

void ptb_levels_close(ptb_levels *l)
{
    if (!l)
        return;
    ptb_table_close(l->t);
    sl_free(l->d);
    free(l->family);
    free(l->moves);
    free(l->states);
    free(l->boards);
    free(l->hist);
    free(l->at);
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

int ptb_levels_get(const ptb_levels *l, size_t i, ptb_level *out)
{
    if (i >= l->n)
        return PTB_EINVAL;
    out->moves = l->moves[i];
    out->states = l->states[i];
    out->board = l->boards + i * (l->cells + 1);
    out->histogram = l->hist + l->at[i];
    return PTB_OK;
}

/* ==== choosing ======================================================== */

void ptb_levels_range(const ptb_levels *l, unsigned lo, unsigned hi,
                      size_t *first, size_t *n)
{
    size_t a = 0, b = l->n;          /* first with moves <= hi */
    while (a < b) {
        size_t m = a + (b - a) / 2;
        if (l->moves[m] > hi)
            a = m + 1;
        else
            b = m;
    }
    size_t c = a, e = l->n;          /* first with moves < lo */
    while (c < e) {
        size_t m = c + (e - c) / 2;
        if (l->moves[m] >= lo)
            c = m + 1;
        else
            e = m;
    }
    *first = a;
    *n = lo <= hi ? c - a : 0;
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
    size_t len = 0;
    if (i >= l->n)
        return -1;
    ptb_catf(buf, cap, &len, "%02u %s %" PRIu64, l->moves[i],
             l->boards + i * (l->cells + 1), l->states[i]);
    return (int)len;
}

int ptb_format_level_json(const ptb_levels *l, size_t i, char *buf,
                          size_t cap)
{
    size_t len = 0;
    if (i >= l->n)
        return -1;
    ptb_catf(buf, cap, &len, "{\"family\":\"%s\",\"index\":%zu,\"moves\":%u,"
             "\"board\":\"%s\",\"states\":%" PRIu64 ",\"histogram\":[",
             l->name, i, l->moves[i], l->boards + i * (l->cells + 1),
             l->states[i]);
    for (unsigned d = 0; d <= l->moves[i]; d++)
        ptb_catf(buf, cap, &len, d ? ",%" PRIu64 : "%" PRIu64,
                 l->hist[l->at[i] + d]);
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
    unsigned n;
    *p = NULL;
    *s = NULL;
    if (i >= l->n)
        return PTB_EINVAL;
    level_text(l, l->boards + i * (l->cells + 1), text, &walls);
    int rc = ptb_family_level_puzzle(l->family, l->boards + i *
                                     (l->cells + 1), p);
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
        (rc == PTB_OK && sol->distance != l->moves[i]))
        rc = PTB_ECORRUPT;       /* not the level the table says */
    if (rc != PTB_OK) {
        ptb_space_close(*s);
        ptb_puzzle_free(*p);
        *s = NULL;
        *p = NULL;
    }
    return rc;
}
