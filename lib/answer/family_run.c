/* lib/answer/family_run.c: a family's puzzles (ptb_family_solve(),
 * ptb_family_run()) and its counts (ptb_family_plan()): the family read,
 * its description checked, the configurations searched or counted
 * (fam_configs()), the puzzles sorted; a sample of the tasks counted
 * (ptb_family_sample()).
 *
 * May touch: its arguments and the heap (the checkpoint file through
 * family_resume.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "family.h"

static int level_cmp(const void *a, const void *b)
{
    const fam_level *x = a, *y = b;
    if (x->moves != y->moves)
        return x->moves < y->moves ? -1 : 1;
    return strcmp(x->board, y->board);
}

/* Whether the family's layouts can be ranked by the engine (the same
 * limits as any description's, and not its own mirror image), into err
 * when not; their number does not matter: each configuration is numbered
 * on its own. */
static int check_space(sl_desc *d, ptb_puzzle **p, char *err, size_t errcap)
{
    ptb_space *s;
    int rc = sl_puzzle(d, p);
    if (rc != PTB_OK) {
        sl_free(d);
        return rc;
    }
    if ((rc = ptb_space_new(*p, NULL, &s)) != PTB_OK) {
        if (rc == PTB_EINVAL)
            ptb_errf(err, errcap, "the family's layouts are too many to "
                     "rank");
        return rc;
    }
    if (!sl_space_desc(s))
        rc = ptb_errf(err, errcap, "a family's description may not be its "
                      "own mirror image (give its goals a side)");
    ptb_space_close(s);
    return rc;
}

static int solve(const char *desc, const fam_opts *o, const char *text,
                 const ptb_family_opts *fo, ptb_family *fam,
                 ptb_family_counts *pl, char *err, size_t errcap)
{
    sl_desc *d;
    ptb_puzzle *p = NULL;
    int rc = sl_read(desc, NULL, &d, err, errcap);
    if (rc != PTB_OK)
        return rc;
    if (o->blocks) {             /* general blocks: family_blocks.c */
        snprintf(fam->name, sizeof fam->name, "%s", d->name);
        rc = o->walls || o->alone || o->open_lines
             ? ptb_errf(err, errcap, "family blocks goes alone (no "
                        "'walls', 'alone' or 'open-lines')")
             : fam_blocks(d, o->blocks, text, fo, fam, pl, err, errcap);
        sl_free(d);
        return rc;
    }
    if ((rc = fam_check_desc(d, err, errcap)) != PTB_OK) {
        sl_free(d);
        return rc;
    }
    snprintf(fam->name, sizeof fam->name, "%s", d->name);
    if ((rc = check_space(d, &p, err, errcap)) == PTB_OK)
        rc = fam_configs(d, o, text, fo, fam, pl, err, errcap);
    if (p)
        ptb_puzzle_free(p);      /* (and d; without p, check_space() freed
                                    it) */
    return rc;
}

/* The family of text solved (or, with pl, counted) into *out. */
static int family_run(const char *text, const ptb_family_opts *fo,
                      ptb_family **out, ptb_family_counts *pl, char *err,
                      size_t errcap)
{
    fam_opts o;
    char *desc;
    *out = NULL;
    ptb_family *fam = calloc(1, sizeof *fam);
    if (!fam)
        return PTB_ENOMEM;
    int rc = fam_split_family(text, &o, &desc, err, errcap);
    if (rc == PTB_OK) {
        rc = solve(desc, &o, text, fo, fam, pl, err, errcap);
        free(desc);
    }
    if (rc != PTB_OK || pl) {
        ptb_family_free(fam);
        return rc;
    }
    qsort(fam->level, fam->n, sizeof *fam->level, level_cmp);
    if (!(fam->text = strdup(text))) {
        ptb_family_free(fam);
        return PTB_ENOMEM;
    }
    *out = fam;
    return PTB_OK;
}

int ptb_family_run(const char *text, const ptb_family_opts *o,
                   ptb_family **out, char *err, size_t errcap)
{
    return family_run(text, o, out, NULL, err, errcap);
}

int ptb_family_solve(const char *text, unsigned threads, ptb_family **out,
                     char *err, size_t errcap)
{
    ptb_family_opts o = { .threads = threads };
    return family_run(text, &o, out, NULL, err, errcap);
}

int ptb_family_plan(const char *text, unsigned threads, ptb_family_counts *out,
                    char *err, size_t errcap)
{
    ptb_family_opts o = { .threads = threads };
    ptb_family *f;
    memset(out, 0, sizeof *out);
    return family_run(text, &o, &f, out, err, errcap);
}

int ptb_family_sample(const char *text, const ptb_family_opts *o,
                      ptb_family_counts *out, char *err, size_t errcap)
{
    ptb_family_opts so = { .threads = o->threads, .every = o->every };
    ptb_family *f;
    memset(out, 0, sizeof *out);
    return family_run(text, &so, &f, out, err, errcap);
}
