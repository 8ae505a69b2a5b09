/* lib/answer/family_resume.c: a family's checkpoint file (ptb_family_run()
 * with a checkpoint): the tasks done and the puzzles each kept, appended
 * as each task ends, so that a run killed and started again takes them
 * back and does only the others.
 *
 * The file is text:
 *   puzzletb family checkpoint 1
 *   family SHA256          of the family's text, in hex
 *   tasks N                the run's tasks
 * then a record a task done, in the order tasks end:
 *   task I K               task I, K puzzles
 *   LINE                   K lines, each ptb_family_line()'s form
 *   end I SHA256           of the record's text from "task" to the last
 *                          LINE's newline
 * A record is written by one write() at its task's end.  At open, the
 * records are read in turn; the first that is cut short (a kill in its
 * write) ends them, and the file is cut there; one that is whole but
 * fails its SHA-256, its lines or its task's number, or a task twice,
 * refuses the file.  Puzzles read back are checked as a levels table's
 * lines are (numbers in range, histogram summing to the states); the
 * board is the family's own drawing, written by the same run's code.
 *
 * Beside it, PATH.weights holds what sizes a run's progress: each task's
 * numbers (the layouts its configurations number), counted once by a
 * run with progress and read back by the runs that resume it:
 *   puzzletb family weights 1
 *   family SHA256          as the checkpoint's
 *   tasks N
 *   W                      N lines, task 0 first: its numbers, or '-' for
 *                          a task done before the count (not counted)
 *   end SHA256             of the text above this line
 * It is written whole to PATH.weights.tmp, then renamed.  A file that
 * fails any check, or lacks the weight of a task not done, is ignored
 * (the tasks are counted again and the file replaced): it sizes the
 * progress only, never a table.  The checkpoint's own bytes do not
 * depend on it.
 *
 * fam_tasks: what a run keeps of its tasks, through both files (family.h).
 *
 * May touch: its arguments, the heap and the checkpoint file.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "family.h"

#define MAGIC "puzzletb family checkpoint 1\n"

struct fam_journal {
    int fd;
    char *path;
    pthread_mutex_t lock;
};

static void sha_hex(const void *data, size_t n, char hex[65])
{
    ptb_sha256 c;
    ptb_sha256_init(&c);
    ptb_sha256_update(&c, data, n);
    ptb_sha256_hex(&c, hex);
}

static int add(char **buf, size_t *len, size_t *cap, const char *s, size_t n)
{
    void *b = *buf;
    if (ptb_room(&b, cap, *len + n + 1, 1, 4096))
        return PTB_ENOMEM;
    *buf = b;
    memcpy(*buf + *len, s, n);
    *len += n;
    (*buf)[*len] = '\0';
    return PTB_OK;
}

/* One puzzle's line (without its newline) into l (its hist malloc'd):
 * whether it reads. */
static int read_level(const char *s, const char *end, fam_level *l)
{
    char *e;
    const char *b;
    if (end - s < 2 || s[0] < '0' || s[0] > '9')
        return 0;
    unsigned long moves = strtoul(s, &e, 10);
    if (e >= end || *e != ' ' || moves >= FAR)
        return 0;
    b = e + 1;
    s = memchr(b, ' ', (size_t)(end - b));
    if (!s || s == b || s - b > SL_MAX_CELLS)
        return 0;
    memcpy(l->board, b, (size_t)(s - b));
    l->board[s - b] = '\0';
    for (const char *c = l->board; *c; c++)
        if (*c != '.' && *c != 'x' && (*c < 'A' || *c > 'Z') &&
            (*c < 'a' || *c > 'z'))
            return 0;
    s++;
    if (s >= end || *s < '0' || *s > '9')
        return 0;
    errno = 0;
    unsigned long long states = strtoull(s, &e, 10);
    if (e >= end || *e != ' ' || errno == ERANGE)
        return 0;
    if (!(l->hist = malloc((moves + 1) * sizeof *l->hist)))
        return 0;
    uint64_t sum = 0;
    s = e + 1;
    for (unsigned long d = 0; d <= moves; d++) {
        if (s >= end || *s < '0' || *s > '9')
            break;
        l->hist[d] = strtoull(s, &e, 10);
        sum += l->hist[d];
        s = e + 1;
        if (d < moves ? e >= end || *e != ',' : e != end) {
            e = NULL;
            break;
        }
        if (d == moves) {
            l->moves = (unsigned)moves;
            l->states = states;
            if (sum == states && l->hist[moves] > 0 && l->hist[0] > 0)
                return 1;
        }
    }
    free(l->hist);
    l->hist = NULL;
    return 0;
}

/* The records of text[0..len) after the header into done and kept;
 * *good the length of those whole; -1 when one is damaged. */
static int read_records(const char *text, size_t len, size_t at,
                        unsigned ntask, uint8_t *done, unsigned *ndone,
                        ptb_family *kept, size_t *good)
{
    *good = at;
    for (;;) {
        const char *s = text + at, *end = text + len, *nl;
        unsigned task;
        unsigned long long k;
        int n = 0;
        if (s == end)
            return 0;
        if (!(nl = memchr(s, '\n', (size_t)(end - s))))
            return 0;                     /* (cut short) */
        if (sscanf(s, "task %u %llu%n", &task, &k, &n) != 2 ||
            s + n != nl || task >= ntask || done[task])
            return -1;
        size_t first = kept->n;
        const char *line = nl + 1;
        int r = 1;               /* 0 cut short, -1 damaged */
        for (unsigned long long i = 0; i < k; i++) {
            void *a = kept->level;
            if (!(nl = memchr(line, '\n', (size_t)(end - line)))) {
                r = 0;
                break;
            }
            if (ptb_room(&a, &kept->cap, kept->n + 1, sizeof *kept->level,
                         64)) {
                r = -1;
                break;
            }
            kept->level = a;
            if (!read_level(line, nl, &kept->level[kept->n])) {
                r = -1;
                break;
            }
            kept->n++;
            line = nl + 1;
        }
        char hex[65], tail[96];
        if (r > 0 && !(nl = memchr(line, '\n', (size_t)(end - line))))
            r = 0;
        if (r > 0) {
            sha_hex(s, (size_t)(line - s), hex);
            int m = snprintf(tail, sizeof tail, "end %u %s", task, hex);
            r = nl - line == m && !memcmp(line, tail, (size_t)m) ? 1 : -1;
        }
        if (r <= 0) {            /* (a record's puzzles, whole or none) */
            while (kept->n > first)
                free(kept->level[--kept->n].hist);
            return r;
        }
        done[task] = 1;
        ++*ndone;
        at = (size_t)(nl + 1 - text);
        *good = at;
    }
}

int fam_journal_open(const char *path, const char *text, unsigned ntask,
                     uint8_t *done, unsigned *ndone, ptb_family *kept,
                     fam_journal **out, char *err, size_t errcap)
{
    char head[160], hex[65];
    int fd = open(path, O_RDWR | O_CREAT, 0644), rc = PTB_OK;
    *out = NULL;
    *ndone = 0;
    if (fd < 0)
        return errno;
    sha_hex(text, strlen(text), hex);
    int hn = snprintf(head, sizeof head, MAGIC "family %s\ntasks %u\n",
                      hex, ntask);
    struct stat st;
    char *buf = NULL;
    size_t len = 0, good = 0;
    if (fstat(fd, &st) != 0) {
        rc = errno;
        goto done;
    }
    if (st.st_size > 0) {
        if (!(buf = malloc((size_t)st.st_size + 1))) {
            rc = PTB_ENOMEM;
            goto done;
        }
        while (len < (size_t)st.st_size) {
            ssize_t r = read(fd, buf + len, (size_t)st.st_size - len);
            if (r <= 0) {
                rc = r < 0 ? errno : PTB_ETRUNC;
                goto done;
            }
            len += (size_t)r;
        }
        buf[len] = '\0';
        if (len < (size_t)hn ? memcmp(buf, head, len)
                             : memcmp(buf, head, (size_t)hn)) {
            ptb_errf(err, errcap, "%s: the checkpoint of another family or "
                     "run (remove it to start again)", path);
            rc = PTB_EFORMAT;
            goto done;
        }
        if (len >= (size_t)hn &&
            read_records(buf, len, (size_t)hn, ntask, done, ndone, kept,
                         &good) < 0) {
            ptb_errf(err, errcap, "%s: a damaged checkpoint (remove it to "
                     "start again)", path);
            rc = PTB_EFORMAT;
            goto done;
        }
    }
    if (good < (size_t)hn) {
        if (ftruncate(fd, 0) != 0 || lseek(fd, 0, SEEK_SET) != 0 ||
            write(fd, head, (size_t)hn) != hn) {
            rc = errno ? errno : PTB_EIO;
            goto done;
        }
    } else if (ftruncate(fd, (off_t)good) != 0 ||
               lseek(fd, (off_t)good, SEEK_SET) < 0) {
        rc = errno;
        goto done;
    }
    fam_journal *j = calloc(1, sizeof *j);
    if (!j || !(j->path = strdup(path))) {
        free(j);
        rc = PTB_ENOMEM;
        goto done;
    }
    j->fd = fd;
    pthread_mutex_init(&j->lock, NULL);
    *out = j;
    fd = -1;
done:
    free(buf);
    if (fd >= 0)
        close(fd);
    if (rc != PTB_OK && rc != PTB_EFORMAT)
        while (kept->n)
            free(kept->level[--kept->n].hist);
    return rc;
}

int fam_record(unsigned task, const fam_level *lv, size_t n, char **rec,
               size_t *reclen)
{
    char *buf = NULL, line[64], hex[65];
    size_t len = 0, cap = 0;
    ptb_family view = { .n = n, .level = (fam_level *)lv };
    int m = snprintf(line, sizeof line, "task %u %zu\n", task, n);
    int rc = add(&buf, &len, &cap, line, (size_t)m);
    for (size_t i = 0; rc == PTB_OK && i < n; i++) {
        int need = ptb_family_line(&view, i, line, 1);
        void *b = buf;
        if (need < 0 || ptb_room(&b, &cap, len + (size_t)need + 2, 1, 4096)) {
            rc = PTB_ENOMEM;
            break;
        }
        buf = b;
        ptb_family_line(&view, i, buf + len, (size_t)need + 1);
        len += (size_t)need;
        buf[len++] = '\n';
    }
    if (rc == PTB_OK) {
        sha_hex(buf, len, hex);
        m = snprintf(line, sizeof line, "end %u ", task);
        if ((rc = add(&buf, &len, &cap, line, (size_t)m)) == PTB_OK)
            rc = add(&buf, &len, &cap, hex, 64);
        if (rc == PTB_OK)
            rc = add(&buf, &len, &cap, "\n", 1);
    }
    if (rc != PTB_OK) {
        free(buf);
        return rc;
    }
    *rec = buf;
    *reclen = len;
    return PTB_OK;
}

/* rec[0..len) appended to the file, under the lock. */
static int append(fam_journal *j, const char *rec, size_t len)
{
    int rc = PTB_OK;
    size_t at = 0;
    pthread_mutex_lock(&j->lock);
    while (at < len) {
        ssize_t w = write(j->fd, rec + at, len - at);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            rc = w < 0 ? errno : PTB_EIO;
            break;
        }
        at += (size_t)w;
    }
    pthread_mutex_unlock(&j->lock);
    return rc;
}

int fam_journal_task(fam_journal *j, unsigned task, const fam_level *lv,
                     size_t n)
{
    char *rec;
    size_t len;
    int rc = fam_record(task, lv, n, &rec, &len);
    if (rc == PTB_OK)
        rc = append(j, rec, len);
    free(rec);
    return rc;
}

void fam_journal_close(fam_journal *j, int remove_it)
{
    if (!j)
        return;
    close(j->fd);
    if (remove_it)
        unlink(j->path);
    pthread_mutex_destroy(&j->lock);
    free(j->path);
    free(j);
}

/* ---- the tasks' weights (progress), beside the checkpoint ------------- */

#define WMAGIC "puzzletb family weights 1\n"

static char *weights_path(const char *ckpt, const char *tail)
{
    size_t n = strlen(ckpt) + strlen(tail) + 1;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s%s", ckpt, tail);
    return p;
}

int fam_weights_read(const char *ckpt, const char *text, unsigned ntask,
                     const uint8_t *done, uint64_t *weight)
{
    char head[160], hex[65], *buf = NULL, *path = weights_path(ckpt,
                                                               ".weights");
    int ok = 0, fd = path ? open(path, O_RDONLY) : -1;
    struct stat st;
    size_t len = 0;
    free(path);
    if (fd < 0)
        return 0;
    if (fstat(fd, &st) != 0 || st.st_size < 1 ||
        !(buf = malloc((size_t)st.st_size + 1)))
        goto done;
    while (len < (size_t)st.st_size) {
        ssize_t r = read(fd, buf + len, (size_t)st.st_size - len);
        if (r <= 0)
            goto done;
        len += (size_t)r;
    }
    buf[len] = '\0';
    sha_hex(text, strlen(text), hex);
    int hn = snprintf(head, sizeof head, WMAGIC "family %s\ntasks %u\n",
                      hex, ntask);
    if (len < (size_t)hn || memcmp(buf, head, (size_t)hn) ||
        memchr(buf, '\0', len))
        goto done;
    const char *s = buf + hn, *end = buf + len;
    for (unsigned i = 0; i < ntask; i++) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        char *e;
        if (!nl)
            goto done;
        if (nl - s == 1 && *s == '-') {
            if (!done[i])
                goto done;       /* (a task not done and not counted) */
            weight[i] = 0;
        } else {
            if (s == nl || *s < '0' || *s > '9' || nl - s > 20)
                goto done;
            errno = 0;
            weight[i] = strtoull(s, &e, 10);
            if (e != nl || errno == ERANGE)
                goto done;
        }
        s = nl + 1;
    }
    char tail[80];
    sha_hex(buf, (size_t)(s - buf), hex);
    int m = snprintf(tail, sizeof tail, "end %s\n", hex);
    ok = end - s == m && !memcmp(s, tail, (size_t)m);
done:
    free(buf);
    close(fd);
    return ok;
}

int fam_weights_write(const char *ckpt, const char *text, unsigned ntask,
                      const uint8_t *counted, const uint64_t *weight)
{
    char hex[65], line[160], *buf = NULL;
    size_t len = 0, cap = 0;
    sha_hex(text, strlen(text), hex);
    int m = snprintf(line, sizeof line, WMAGIC "family %s\ntasks %u\n", hex,
                     ntask);
    int rc = add(&buf, &len, &cap, line, (size_t)m);
    for (unsigned i = 0; rc == PTB_OK && i < ntask; i++) {
        m = counted[i] ? snprintf(line, sizeof line, "%llu\n",
                                  (unsigned long long)weight[i])
                       : snprintf(line, sizeof line, "-\n");
        rc = add(&buf, &len, &cap, line, (size_t)m);
    }
    if (rc == PTB_OK) {
        sha_hex(buf, len, hex);
        m = snprintf(line, sizeof line, "end %s\n", hex);
        rc = add(&buf, &len, &cap, line, (size_t)m);
    }
    char *tmp = weights_path(ckpt, ".weights.tmp"),
         *path = weights_path(ckpt, ".weights");
    int fd = rc == PTB_OK && tmp && path
             ? open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644) : -1;
    if (rc == PTB_OK && (!tmp || !path))
        rc = PTB_ENOMEM;
    else if (rc == PTB_OK && fd < 0)
        rc = errno;
    for (size_t at = 0; rc == PTB_OK && at < len;) {
        ssize_t w = write(fd, buf + at, len - at);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            rc = w < 0 ? errno : PTB_EIO;
        else
            at += (size_t)w;
    }
    if (fd >= 0 && close(fd) != 0 && rc == PTB_OK)
        rc = errno;
    if (rc == PTB_OK && rename(tmp, path) != 0)
        rc = errno;
    if (rc != PTB_OK && fd >= 0)
        unlink(tmp);
    free(tmp);
    free(path);
    free(buf);
    return rc;
}

void fam_weights_remove(const char *ckpt)
{
    char *path = weights_path(ckpt, ".weights");
    if (path)
        unlink(path);
    free(path);
}

/* ---- a run's tasks (fam_tasks) --------------------------------------- */

int fam_tasks_open(fam_tasks *t, const ptb_family_opts *o, const char *text,
                   unsigned ntask, int plan, int weights, const char *phase,
                   char *err, size_t errcap)
{
    memset(t, 0, sizeof *t);
    t->ntask = ntask;
    t->shared = o->take && !plan;
    t->o = o;
    t->text = text;
    t->phase = phase;
    pthread_mutex_init(&t->lock, NULL);
    if (!(t->done = calloc(ntask ? ntask : 1, 1)) ||
        !(t->weight = calloc(ntask ? ntask : 1, sizeof *t->weight)))
        return PTB_ENOMEM;
    if (plan || !o->checkpoint || o->take || o->every > 1)
        return PTB_OK;
    /* The tasks taken back are not counted again: the progress is of the
     * rest. */
    unsigned ndone = 0;
    int rc = fam_journal_open(o->checkpoint, text, ntask, t->done, &ndone,
                              &t->back, &t->jr, err, errcap);
    if (rc == PTB_OK && ndone && o->progress)
        o->progress(o->progress_ctx, "resume", ndone, ntask);
    /* The weights of the tasks left, read from beside the checkpoint when
     * a run counted them. */
    if (rc == PTB_OK && weights &&
        fam_weights_read(o->checkpoint, text, ntask, t->done, t->weight)) {
        t->counted = 1;
        for (unsigned i = 0; i < ntask; i++)
            t->total += t->done[i] ? 0 : t->weight[i];
    }
    return rc;
}

void fam_tasks_counted(fam_tasks *t)
{
    uint8_t *counted = t->jr ? malloc(t->ntask ? t->ntask : 1) : NULL;
    t->total = 0;
    for (unsigned i = 0; i < t->ntask; i++) {
        t->total += t->done[i] ? 0 : t->weight[i];
        if (counted)
            counted[i] = !t->done[i];
    }
    /* (a failure only leaves them uncounted for the next run) */
    if (counted)
        (void)fam_weights_write(t->o->checkpoint, t->text, t->ntask, counted,
                                t->weight);
    free(counted);
}

int fam_tasks_next(fam_tasks *t, unsigned *i)
{
    unsigned every = t->o->every;
    if (t->shared) {
        pthread_mutex_lock(&t->lock);
        int k = t->o->take(t->o->share_ctx, t->ntask, i);
        pthread_mutex_unlock(&t->lock);
        return k < 0 || (k > 0 && *i >= t->ntask) ? PTB_EIO : k > 0;
    }
    for (;;) {
        unsigned k = __atomic_fetch_add(&t->next, 1, __ATOMIC_RELAXED);
        if (k >= t->ntask)
            return 0;
        *i = t->order ? t->order[k] : k;
        if (!t->done[*i] && (every < 2 || k % every == every / 2))
            return 1;
    }
}

/* Task i's puzzles lv[0..n) to the process that shares the tasks out. */
static int give(fam_tasks *t, unsigned i, const fam_level *lv, size_t n)
{
    char *rec;
    size_t len;
    int rc = fam_record(i, lv, n, &rec, &len);
    if (rc != PTB_OK)
        return rc;
    pthread_mutex_lock(&t->lock);
    if (t->o->give(t->o->share_ctx, i, rec, len))
        rc = PTB_EIO;
    pthread_mutex_unlock(&t->lock);
    free(rec);
    return rc;
}

int fam_tasks_end(fam_tasks *t, unsigned i, const fam_level *lv, size_t n)
{
    if (t->shared)
        return give(t, i, lv, n);
    int rc = t->jr ? fam_journal_task(t->jr, i, lv, n) : PTB_OK;
    if (rc == PTB_OK && t->o->progress && !t->o->take) {
        pthread_mutex_lock(&t->lock);
        t->sofar += t->weight[i];
        t->o->progress(t->o->progress_ctx, t->phase, t->sofar, t->total);
        pthread_mutex_unlock(&t->lock);
    }
    return rc;
}

int fam_tasks_skip(fam_tasks *t, unsigned i)
{
    return t->shared ? give(t, i, NULL, 0) : PTB_OK;
}

int fam_tasks_close(fam_tasks *t, int rc, ptb_family *fam)
{
    if (rc == PTB_OK && fam)
        rc = fam_gather(fam, &t->back);
    fam_journal_close(t->jr, rc == PTB_OK);
    if (t->jr && rc == PTB_OK)
        fam_weights_remove(t->o->checkpoint);
    for (size_t i = 0; i < t->back.n; i++)
        free(t->back.level[i].hist);
    free(t->back.level);
    free(t->done);
    free(t->weight);
    free(t->order);
    pthread_mutex_destroy(&t->lock);
    memset(t, 0, sizeof *t);
    return rc;
}

/* ---- a checkpoint that others' records fill (tbgen-mpi) -------------- */

struct ptb_family_journal {
    fam_journal *j;
    unsigned ntask;
    unsigned char *done;
};

int ptb_family_journal_open(const char *path, const char *text,
                            unsigned ntask, unsigned char *done,
                            ptb_family_journal **out, char *err,
                            size_t errcap)
{
    ptb_family kept = { 0 };
    unsigned ndone;
    *out = NULL;
    ptb_family_journal *pj = calloc(1, sizeof *pj);
    if (!pj)
        return PTB_ENOMEM;
    memset(done, 0, ntask);
    int rc = fam_journal_open(path, text, ntask, done, &ndone, &kept, &pj->j,
                              err, errcap);
    while (kept.n)
        free(kept.level[--kept.n].hist);
    free(kept.level);
    if (rc != PTB_OK) {
        free(pj);
        return rc;
    }
    pj->ntask = ntask;
    pj->done = done;
    *out = pj;
    return PTB_OK;
}

int ptb_family_journal_add(ptb_family_journal *j, const char *rec,
                           size_t len, unsigned *task)
{
    ptb_family kept = { 0 };
    unsigned ndone = 0, t = 0;
    size_t good;
    int bad = 0;
    char *text = malloc(len + 1);
    if (!text)
        return PTB_ENOMEM;
    memcpy(text, rec, len);
    text[len] = '\0';
    unsigned ends = 0;           /* lines "end ...": one record, one */
    for (const char *l = text; l && l < text + len;
         l = strchr(l, '\n'), l += l != NULL)
        ends += !strncmp(l, "end ", 4);
    if (sscanf(text, "task %u", &t) != 1 || t >= j->ntask || j->done[t] ||
        memchr(text, '\0', len) || ends != 1)
        bad = 1;
    else if (read_records(text, len, 0, j->ntask, j->done, &ndone, &kept,
                          &good) < 0 || ndone != 1 || good != len) {
        bad = 1;
        j->done[t] = 0;          /* (read_records() may have set it) */
    }
    while (kept.n)
        free(kept.level[--kept.n].hist);
    free(kept.level);
    free(text);
    if (bad)
        return PTB_EFORMAT;
    int rc = append(j->j, rec, len);
    if (rc != PTB_OK) {
        j->done[t] = 0;
        return rc;
    }
    *task = t;
    return PTB_OK;
}

void ptb_family_journal_close(ptb_family_journal *j)
{
    if (!j)
        return;
    fam_journal_close(j->j, 0);
    free(j);
}
