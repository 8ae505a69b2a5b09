/* lib/puzzles/registry.c: the list of built-in puzzles, expanded from puzzles.def,
 * the puzzles loaded from descriptions, and the accessors of the public
 * header that read them. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/format.h"
#include "puzzles.h"
#include "pattern.h"
#include "slide.h"

#define PTB_PUZZLE(n) &ptb_puzzle_##n,
static const ptb_puzzle *const registry[] = {
#include "puzzles.def"
#ifdef PTB_TEST_PUZZLES
#include PTB_TEST_PUZZLES      /* a test build's own puzzles */
#endif
};
#undef PTB_PUZZLE

unsigned ptb_puzzle_count(void)
{
    return (unsigned)(sizeof registry / sizeof registry[0]);
}

const ptb_puzzle *ptb_puzzle_at(unsigned i)
{
    return i < ptb_puzzle_count() ? registry[i] : NULL;
}

const ptb_puzzle *ptb_puzzle_find(const char *name)
{
    for (unsigned i = 0; name && i < ptb_puzzle_count(); i++)
        if (strcmp(registry[i]->name, name) == 0)
            return registry[i];
    return NULL;
}

/* Whether p is one of the registry's puzzles (static, never freed). */
static int registered(const ptb_puzzle *p)
{
    for (unsigned i = 0; i < ptb_puzzle_count(); i++)
        if (registry[i] == p)
            return 1;
    return 0;
}

/* Whether p is a built-in puzzle: one of the registry's, or a copy of one
 * that keeps a description (Klotski) made to hold its table's ranking
 * (builtin_copy()); no description may take a built-in's name. */
static int builtin(const ptb_puzzle *p)
{
    return ptb_puzzle_find(p->name) != NULL;
}

/* A copy of built-in puzzle b that holds the ranking its table stores
 * (read in place from t, or copied when t is NULL), so that a space on it
 * reads the ranking instead of building it.  NULL: out of memory. */
static ptb_puzzle *builtin_copy(const ptb_puzzle *b, const void *ranking,
                                size_t len, ptb_table *t)
{
    ptb_puzzle *c = malloc(sizeof *c);
    if (!c)
        return NULL;
    *c = *b;
    c->stored = NULL;
    c->stored_table = NULL;
    if (!t && ranking && ptb_puzzle_keep(c, ranking, len) != PTB_OK) {
        free(c);
        return NULL;
    }
    if (t) {
        c->stored = ranking;
        c->stored_len = len;
        c->stored_table = t;
    }
    return c;
}

/* Whether name is a built-in puzzle's, which no description may take. */
static int built_in(const char *name)
{
    return ptb_puzzle_find(name) != NULL;
}

int ptb_space_open(const char *puzzle, const char *metric, ptb_space **out)
{
    const ptb_puzzle *p = ptb_puzzle_find(puzzle);
    *out = NULL;
    return p ? ptb_space_new(p, metric, out) : PTB_EINVAL;
}

const char *ptb_puzzle_name(const ptb_puzzle *p) { return p->name; }
const char *ptb_puzzle_summary(const ptb_puzzle *p) { return p->summary; }

const char *ptb_puzzle_metric(const ptb_puzzle *p, unsigned i)
{
    for (unsigned k = 0; p->metrics[k]; k++)
        if (k == i)
            return p->metrics[k];
    return NULL;
}

size_t ptb_puzzle_metrics(const ptb_puzzle *p, char *buf, size_t cap)
{
    size_t len = 0;
    if (cap)
        buf[0] = '\0';
    for (unsigned k = 0; p->metrics[k]; k++)
        ptb_catf(buf, cap, &len, "%s%s", k ? ", " : "", p->metrics[k]);
    return len;
}

const ptb_option *ptb_puzzle_option(const ptb_puzzle *p, unsigned i)
{
    for (unsigned k = 0; p->options && p->options[k].name; k++)
        if (k == i)
            return &p->options[k];
    return NULL;
}

const char *ptb_puzzle_description(const ptb_puzzle *p)
{
    return builtin(p) ? NULL : p->description;   /* (Klotski's is the
                                                   library's own) */
}

const char *ptb_puzzle_start(const ptb_puzzle *p)
{
    return p->start;
}

/* The puzzle of abstraction d->abstract of a description (sl_abstraction():
 * a described puzzle of fewer pieces, named NAME-pattern-N, whose
 * description is d's text); it frees d. */
static int abstraction_puzzle(sl_desc *d, ptb_puzzle **out)
{
    sl_desc *a;
    int rc = sl_abstraction(d, &a);
    sl_free(d);
    if (rc == PTB_OK && (rc = sl_puzzle(a, out)) != PTB_OK)
        sl_free(a);
    if (rc == PTB_OK)
        (*out)->name = a->pattern_name;
    return rc;
}

int ptb_puzzle_load(const char *text, ptb_puzzle **out, char *err,
                    size_t errcap)
{
    sl_desc *d;
    *out = NULL;
    int rc = sl_read(text, built_in, &d, err, errcap);
    if (rc == PTB_OK && d->abstract && d->nkeeps)
        return abstraction_puzzle(d, out);
    if (rc == PTB_OK && (rc = d->abstract ? sl_pattern_puzzle(d, out)
                                          : sl_puzzle(d, out)) != PTB_OK)
        sl_free(d);
    return rc;
}

unsigned ptb_puzzle_patterns(const ptb_puzzle *p)
{
    const sl_desc *d = p->description ? p->data : NULL;
    return d && !d->abstract ? d->npatterns : 0;
}

const char *ptb_puzzle_pattern_of(const ptb_puzzle *p, unsigned *group)
{
    const sl_desc *d = p->description ? p->data : NULL;
    if (!d || !d->abstract)
        return NULL;
    if (group)
        *group = d->abstract;
    return d->name;
}

int ptb_puzzle_pattern(const ptb_puzzle *p, unsigned i, ptb_puzzle **out)
{
    *out = NULL;
    if (i >= ptb_puzzle_patterns(p))
        return PTB_EINVAL;
    size_t len = strlen(p->description);
    char *text = malloc(len + 16);
    if (!text)
        return PTB_ENOMEM;
    snprintf(text, len + 16, "%spattern %u\n", p->description, i + 1);
    int rc = ptb_puzzle_load(text, out, NULL, 0);
    free(text);
    return rc == PTB_EPARSE ? PTB_EINVAL : rc;
}

/* The puzzle a table identifies (a built-in one by name, or its stored
 * description's), when that puzzle has the table's metric; a described
 * one keeps the table's ranking, and the table open as long as the puzzle
 * (its stored_table) when it has one.  PTB_EFORMAT when there is none. */
int ptb_table_puzzle(const char *path, ptb_puzzle **out, char *metric,
                     size_t cap)
{
    ptb_table_id id;
    ptb_table *t;
    unsigned m = 0;
    *out = NULL;
    int rc = ptb_table_identify(path, &id, &t);
    if (rc != PTB_OK)
        return rc;
    if ((*out = (ptb_puzzle *)ptb_puzzle_find(id.puzzle))) {
        /* built in: with the description it keeps, if any */
        const char *own = (*out)->description;
        if (!own != !id.description || (own && strcmp(own, id.description)))
            *out = NULL;
    } else if (!id.description ||
               ptb_puzzle_load(id.description, out, NULL, 0) != PTB_OK) {
        *out = NULL;
    }
    if (*out && !strcmp((*out)->name, id.puzzle))
        while ((*out)->metrics[m] && strcmp((*out)->metrics[m], id.metric))
            m++;
    if (!*out || strcmp((*out)->name, id.puzzle) || !(*out)->metrics[m]) {
        ptb_puzzle_free(*out);
        *out = NULL;
        rc = PTB_EFORMAT;
    } else {
        snprintf(metric, cap, "%s", id.metric);
        if (id.ranking && registered(*out)) {    /* a copy keeps it */
            ptb_puzzle *c = builtin_copy(*out, id.ranking, id.ranking_len, t);
            if (c) {
                *out = c;
                t = NULL;
            }
        } else if (id.ranking) {         /* kept, and the table with it */
            (*out)->stored = id.ranking;
            (*out)->stored_len = id.ranking_len;
            (*out)->stored_table = t;
            t = NULL;
        }
    }
    ptb_table_close(t);
    ptb_table_id_free(&id);
    return rc;
}

#define MAX_DESCRIPTION (64 * 1024)

int ptb_puzzle_load_file(const char *path, ptb_puzzle **out, char *err,
                         size_t errcap)
{
    FILE *f = fopen(path, "rb");
    char *text = malloc(MAX_DESCRIPTION + 1);
    size_t n = 0;
    int rc = !f ? errno : !text ? PTB_ENOMEM : PTB_OK;
    *out = NULL;
    if (rc == PTB_OK) {
        n = fread(text, 1, MAX_DESCRIPTION + 1, f);
        rc = ferror(f) ? (errno ? errno : PTB_EIO)
             : n > MAX_DESCRIPTION ? ptb_errf(err, errcap, "longer than "
                                              "64 kB: not a description")
             : memchr(text, '\0', n) ? ptb_errf(err, errcap, "a NUL byte: "
                                                "not a description")
                                     : PTB_OK;
    }
    if (rc == PTB_OK) {
        text[n] = '\0';
        rc = ptb_puzzle_load(text, out, err, errcap);
    }
    if (f)
        fclose(f);
    free(text);
    return rc;
}

/* The puzzle's stored index let go: its copy, or the table it lies in. */
static void drop_stored(ptb_puzzle *p)
{
    if (p->stored_table)
        ptb_table_close(p->stored_table);
    else
        free((void *)p->stored);
    p->stored_table = NULL;
    p->stored = NULL;
}

int ptb_puzzle_keep(ptb_puzzle *p, const void *bytes, size_t len)
{
    unsigned char *own = malloc(len ? len : 1);
    if (!own)
        return PTB_ENOMEM;
    memcpy(own, bytes, len);
    drop_stored(p);
    p->stored = own;
    p->stored_len = len;
    return PTB_OK;
}

int ptb_puzzle_copy(const ptb_puzzle *p, ptb_puzzle **out)
{
    *out = NULL;
    if (registered(p)) {
        *out = (ptb_puzzle *)p;
        return PTB_OK;
    }
    if (builtin(p)) {
        *out = builtin_copy(ptb_puzzle_find(p->name), p->stored,
                            p->stored_len, NULL);
        return *out ? PTB_OK : PTB_ENOMEM;
    }
    int rc = ptb_puzzle_load(p->description, out, NULL, 0);
    if (rc == PTB_OK && p->stored &&
        (rc = ptb_puzzle_keep(*out, p->stored, p->stored_len)) != PTB_OK) {
        ptb_puzzle_free(*out);
        *out = NULL;
    }
    return rc;
}

void ptb_puzzle_free(ptb_puzzle *p)
{
    if (!p || registered(p))
        return;
    sl_free((sl_desc *)p->data);
    drop_stored(p);
    free(p);
}

/* Table files are named PUZZLE.mdb or PUZZLE-METRIC.mdb. */
static int table_file(const struct dirent *e)
{
    size_t n = strlen(e->d_name);
    return n > 4 && !strcmp(e->d_name + n - 4, ".mdb") && e->d_name[0] != '.';
}

/* Whether a table file's name can be of the puzzle called name: NAME.mdb
 * or NAME-METRIC.mdb (any name when name is NULL). */
static int named(const char *file, const char *name)
{
    size_t n = name ? strlen(name) : 0;
    return !name || (!strncmp(file, name, n) &&
                     (!strcmp(file + n, ".mdb") || file[n] == '-'));
}

/* What scan() gives each table: fn may take the puzzle (*p = NULL). */
typedef int (*scan_fn)(void *arg, const char *file, ptb_puzzle **p,
                       const char *metric);

/* ptb_tables_scan over the files that can be of the puzzle called name;
 * *bad (may be NULL) gets the error of the first such file that does not
 * read. */
static int scan(const char *dir, const char *name, scan_fn fn, void *arg,
                int *bad)
{
    struct dirent **list;
    char metric[64];
    int n = scandir(dir, &list, table_file, alphasort), rc = PTB_OK;
    if (n < 0)
        return PTB_ENOTABLE;
    for (int i = 0; i < n; i++) {
        ptb_puzzle *p;
        int got = PTB_EINVAL;
        char *path = rc == PTB_OK && named(list[i]->d_name, name)
                     ? ptb_join_path(dir, list[i]->d_name, "") : NULL;
        if (path && (got = ptb_table_puzzle(path, &p, metric,
                                            sizeof metric)) == PTB_OK) {
            rc = fn(arg, list[i]->d_name, &p, metric);
            ptb_puzzle_free(p);
        } else if (got != PTB_EINVAL && bad && *bad == PTB_OK) {
            *bad = got;
        }
        free(path);
        free(list[i]);
    }
    free(list);
    return rc;
}

typedef struct each_table {
    int (*fn)(void *arg, const char *file, const ptb_puzzle *p,
              const char *metric);
    void *arg;
} each_table;

static int give(void *arg, const char *file, ptb_puzzle **p,
                const char *metric)
{
    each_table *e = arg;
    return e->fn(e->arg, file, *p, metric);
}

int ptb_tables_scan(const char *dir,
                    int (*fn)(void *arg, const char *file,
                              const ptb_puzzle *p, const char *metric),
                    void *arg)
{
    each_table e = { fn, arg };
    return scan(dir, NULL, give, &e, NULL);
}

typedef struct lookup {
    const char *name;
    ptb_puzzle *found;
    int rc;
} lookup;

static int lookup_one(void *arg, const char *file, ptb_puzzle **pp,
                      const char *metric)
{
    lookup *l = arg;
    ptb_puzzle *p = *pp;
    char own[160];
    if (strcmp(p->name, l->name) || builtin(p)) {
        /* NAME.mdb or NAME-<its metric>.mdb holding another puzzle's
         * table: that table is in the place of one of name's */
        size_t n = strlen(l->name);
        snprintf(own, sizeof own, "%s-%s.mdb", l->name, metric);
        if (!strcmp(file, own) ||
            (!strncmp(file, l->name, n) && !strcmp(file + n, ".mdb")))
            l->rc = PTB_EFORMAT;
        return PTB_OK;
    }
    l->found = p;                                 /* taken */
    l->rc = PTB_OK;
    *pp = NULL;
    return 1;                                     /* stop */
}

/* A puzzle with no table of its own but pattern tables: the puzzle whose
 * description NAME-pattern-1.mdb stores (NAME-pattern-1-METRIC.mdb, in a
 * described metric, for an abstraction of several), without its
 * 'pattern' line. */
static int pattern_owner(const char *dir, const char *name, ptb_puzzle **out)
{
    static const char *const suffix[] = { "", "-step", "-line", "-move" };
    char metric[64], *path = NULL;
    ptb_puzzle *q = NULL;
    int rc = PTB_EINVAL;
    if (name[0] == '.' || strchr(name, '/') || strlen(name) > 64)
        return rc;
    char file[80];
    for (unsigned i = 0; !q && i < sizeof suffix / sizeof *suffix; i++) {
        snprintf(file, sizeof file, "%s-pattern-1%s", name, suffix[i]);
        free(path);
        if (!(path = ptb_join_path(dir, file, ".mdb")))
            return PTB_ENOMEM;
        if (ptb_table_puzzle(path, &q, metric, sizeof metric) != PTB_OK)
            q = NULL;
    }
    if (q && !builtin(q)) {
        const char *line = strstr(q->description, "\npattern ");
        char *text = line ? strdup(q->description) : NULL;
        if (text) {                     /* the line cut out */
            char *at = text + (line - q->description) + 1;
            char *next = at + strcspn(at, "\n") + 1;
            memmove(at, next, strlen(next) + 1);
            if (ptb_puzzle_load(text, out, NULL, 0) == PTB_OK &&
                !strcmp((*out)->name, name) && ptb_puzzle_patterns(*out))
                rc = PTB_OK;
            else
                ptb_puzzle_free(*out);
        }
        free(text);
    }
    if (rc != PTB_OK)
        *out = NULL;
    ptb_puzzle_free(q);
    free(path);
    return rc;
}

/* A built-in puzzle that keeps a description (*out): a copy holding the
 * ranking the first of its tables in dir that reads stores (its space
 * then opens without building it), or itself when none reads. */
static int builtin_ranked(const char *dir, ptb_puzzle **out)
{
    const ptb_puzzle *b = *out;
    char file[160], metric[64];
    for (unsigned m = 0; b->metrics[m]; m++) {
        ptb_puzzle *q = NULL;
        snprintf(file, sizeof file, b->metrics[1] ? "%s-%s" : "%s", b->name,
                 b->metrics[m]);
        char *path = ptb_join_path(dir, file, ".mdb");
        if (!path)
            return PTB_ENOMEM;
        int rc = ptb_table_puzzle(path, &q, metric, sizeof metric);
        free(path);
        if (rc == PTB_OK && q != b) {
            *out = q;
            return PTB_OK;
        }
    }
    return PTB_OK;
}

int ptb_puzzle_lookup(const char *dir, const char *name, ptb_puzzle **out)
{
    lookup l = { name, NULL, PTB_EINVAL };
    int bad = PTB_OK;
    char metric[64], *path;
    *out = (ptb_puzzle *)ptb_puzzle_find(name);   /* built in */
    if (*out && (*out)->description)
        return builtin_ranked(dir, out);
    if (*out)
        return PTB_OK;
    /* NAME.mdb first, without reading the directory: the one table of a
     * puzzle of one metric; taken only when it holds the puzzle called
     * name (anything else, as the scan finds it) */
    path = name[0] != '.' && !strchr(name, '/')
           ? ptb_join_path(dir, name, ".mdb") : NULL;
    if (path && ptb_table_puzzle(path, out, metric, sizeof metric) == PTB_OK &&
        (builtin(*out) || strcmp((*out)->name, name))) {
        ptb_puzzle_free(*out);
        *out = NULL;
    }
    free(path);
    if (*out)
        return PTB_OK;
    scan(dir, name, lookup_one, &l, &bad);
    *out = l.found;
    if (l.found)
        return PTB_OK;
    if (!bad && pattern_owner(dir, name, out) == PTB_OK)
        return PTB_OK;
    return bad ? bad : l.rc;
}
