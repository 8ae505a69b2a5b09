/* lib/answer/levels_cache.c: levels tables kept open across requests or
 * calls (ptb_levels_cache, for tbserve and the Python module): an open
 * (ptb_levels_open()) maps the file and reads and checks its header,
 * statistics and family, and a table keeps the last block it read
 * decoded, so the cache keeps a table while its file stays the same
 * (device, inode, size, modification time); a table made again (a new
 * file renamed in, as tbgen writes it) is opened again, and the old one
 * closed when its last user releases it.
 *
 * May touch: its arguments, the heap and the files it stats and opens.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "answer.h"

typedef struct entry {
    struct entry *next;
    char *dir;
    char family[32];
    ptb_levels *l;
    dev_t dev;
    ino_t ino;
    off_t size;
    struct timespec mtime;
    unsigned refs;               /* users of l */
    int stale;                   /* its file changed: closed at refs 0 */
} entry;

struct ptb_levels_cache {
    pthread_mutex_t lock;        /* the list and every entry */
    entry *list;
};

int ptb_levels_cache_new(ptb_levels_cache **out)
{
    if (!(*out = calloc(1, sizeof **out)))
        return PTB_ENOMEM;
    pthread_mutex_init(&(*out)->lock, NULL);
    return PTB_OK;
}

static int same_file(const entry *e, const struct stat *st)
{
    return e->dev == st->st_dev && e->ino == st->st_ino &&
           e->size == st->st_size &&
           e->mtime.tv_sec == st->st_mtim.tv_sec &&
           e->mtime.tv_nsec == st->st_mtim.tv_nsec;
}

static void entry_free(entry *e)
{
    ptb_levels_close(e->l);
    free(e->dir);
    free(e);
}

/* The entry of dir and family whose file st describes, one more user;
 * else a new one (the old one stale).  Under the lock. */
static int acquire(ptb_levels_cache *c, const char *dir, const char *family,
                   const struct stat *st, ptb_levels **out)
{
    entry *e;
    for (e = c->list; e; e = e->next)
        if (!e->stale && !strcmp(e->family, family) && !strcmp(e->dir, dir))
            break;
    if (e && same_file(e, st)) {
        e->refs++;
        *out = e->l;
        return PTB_OK;
    }
    if (e)
        e->stale = 1;            /* (closed by the release of its last) */
    if (!(e = calloc(1, sizeof *e)) || !(e->dir = strdup(dir))) {
        free(e);
        return PTB_ENOMEM;
    }
    int rc = ptb_levels_open(dir, family, &e->l);
    if (rc != PTB_OK) {
        free(e->dir);
        free(e);
        return rc;
    }
    snprintf(e->family, sizeof e->family, "%s", family);
    e->dev = st->st_dev;
    e->ino = st->st_ino;
    e->size = st->st_size;
    e->mtime = st->st_mtim;
    e->refs = 1;
    e->next = c->list;
    c->list = e;
    *out = e->l;
    return PTB_OK;
}

/* Closes the stale entries no one uses.  Under the lock. */
static void sweep(ptb_levels_cache *c)
{
    for (entry **pe = &c->list, *e; (e = *pe);)
        if (e->stale && e->refs == 0) {
            *pe = e->next;
            entry_free(e);
        } else
            pe = &e->next;
}

int ptb_levels_cache_get(ptb_levels_cache *c, const char *dir,
                         const char *family, ptb_levels **out)
{
    char path[4096];
    struct stat st;
    *out = NULL;
    if (!family[0] || strchr(family, '/') || strlen(family) > 31)
        return PTB_EINVAL;
    if (snprintf(path, sizeof path, "%s/%s.levels.mdb", dir, family) >=
        (int)sizeof path)
        return PTB_EINVAL;
    if (stat(path, &st) != 0)
        return errno == ENOENT ? PTB_ENOTABLE : PTB_EIO;
    pthread_mutex_lock(&c->lock);
    int rc = acquire(c, dir, family, &st, out);
    sweep(c);
    pthread_mutex_unlock(&c->lock);
    return rc;
}

void ptb_levels_cache_release(ptb_levels_cache *c, ptb_levels *l)
{
    if (!l)
        return;
    pthread_mutex_lock(&c->lock);
    for (entry *e = c->list; e; e = e->next)
        if (e->l == l && e->refs > 0) {
            e->refs--;
            break;
        }
    sweep(c);
    pthread_mutex_unlock(&c->lock);
}

void ptb_levels_cache_free(ptb_levels_cache *c)
{
    if (!c)
        return;
    while (c->list) {
        entry *e = c->list;
        c->list = e->next;
        entry_free(e);
    }
    pthread_mutex_destroy(&c->lock);
    free(c);
}
