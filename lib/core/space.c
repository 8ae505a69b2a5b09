/* lib/core/space.c: spaces (a puzzle with one metric and its context), query
 * parsing, and the answer formatters that are the same for every puzzle
 * (JSON, the board); the native format is the puzzle's own. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

static int find_metric(const ptb_puzzle *p, const char *metric, unsigned *m)
{
    for (unsigned i = 0; p->metrics[i]; i++)
        if (!metric || !strcmp(p->metrics[i], metric)) {
            *m = i;
            return PTB_OK;
        }
    return PTB_EINVAL;
}

int ptb_space_new(const ptb_puzzle *p, const char *metric, ptb_space **out)
{
    ptb_space *s;
    unsigned m;
    *out = NULL;
    if (!p || find_metric(p, metric, &m) != PTB_OK)
        return PTB_EINVAL;
    if (!(s = calloc(1, sizeof *s)))
        return PTB_ENOMEM;
    s->p = p;
    s->metric = m;
    int rc = p->open(p, m, &s->ctx);
    if (rc == PTB_OK) {
        s->subtables = p->subtables(s->ctx);
        s->max_moves = p->max_moves ? p->max_moves(s->ctx)
                                    : PTB_MAX_MOVES;
        if (s->max_moves > PTB_MAX_SUCCESSORS)
            rc = PTB_EINVAL;
        if (p->offsets)
            s->offset = p->offsets(s->ctx);
        else if (!(s->own_offset = malloc((s->subtables + 1) *
                                          sizeof *s->own_offset)))
            rc = PTB_ENOMEM;
    }
    for (uint32_t i = 0; rc == PTB_OK && s->own_offset && i <= s->subtables;
         i++)
        s->own_offset[i] = i ? s->own_offset[i - 1] + p->size(s->ctx, i - 1)
                             : 0;
    if (s->own_offset)
        s->offset = s->own_offset;
    if (rc != PTB_OK) {
        ptb_space_close(s);
        return rc;
    }
    *out = s;
    return PTB_OK;
}

void ptb_space_close(ptb_space *s)
{
    if (!s)
        return;
    s->p->close(s->ctx);
    free(s->own_offset);
    free(s);
}

const unsigned char *ptb_space_index(const ptb_space *s, size_t *len)
{
    const unsigned char *own = s->p->index ? s->p->index(s->ctx, len) : NULL;
    if (!own)
        *len = 0;
    return own;
}

void ptb_locate(const ptb_space *s, uint64_t g, uint32_t *sub, uint64_t *idx)
{
    *sub = (uint32_t)ptb_last_at_most(s->offset, s->subtables, g);
    *idx = g - s->offset[*sub];
}

const ptb_puzzle *ptb_space_puzzle(const ptb_space *s) { return s->p; }
const char *ptb_space_metric(const ptb_space *s)
{
    return s->p->metrics[s->metric];
}

unsigned ptb_space_max_moves(const ptb_space *s)
{
    return s->max_moves;
}

int ptb_space_file(const ptb_space *s, char *buf, size_t cap)
{
    size_t len = 0;
    if (s->p->metrics[1] == NULL)
        ptb_catf(buf, cap, &len, "%s.mdb", s->p->name);
    else
        ptb_catf(buf, cap, &len, "%s-%s.mdb", s->p->name,
                 s->p->metrics[s->metric]);
    return (int)len;
}

/* Splits "NAME=VALUE" options into the puzzle's option slots. */
static int sort_options(const ptb_puzzle *p, const char *const *options,
                        const char **opt, int *stands_for_position,
                        char *err, size_t errcap)
{
    for (unsigned i = 0; options && options[i]; i++) {
        const char *eq = strchr(options[i], '=');
        size_t len = eq ? (size_t)(eq - options[i]) : strlen(options[i]);
        unsigned k = 0;
        for (; p->options && p->options[k].name; k++)
            if (strlen(p->options[k].name) == len &&
                !strncmp(p->options[k].name, options[i], len))
                break;
        if (!p->options || !p->options[k].name) {
            ptb_errf(err, errcap, "%s takes no option '%.*s'", p->name,
                     (int)len, options[i]);
            return PTB_EINVAL;
        }
        if (!eq) {
            ptb_errf(err, errcap, "option '%s' needs a value (%s=%s)",
                     p->options[k].name, p->options[k].name,
                     p->options[k].value);
            return PTB_EINVAL;
        }
        if (opt[k]) {
            ptb_errf(err, errcap, "option '%s' is given twice",
                     p->options[k].name);
            return PTB_EINVAL;
        }
        opt[k] = eq + 1;
        if (p->options[k].flags & PTB_OPT_POSITION)
            *stands_for_position = (int)k + 1;
    }
    return PTB_OK;
}

int ptb_space_checked(const ptb_space *s, int rc)
{
    int status = s->p->status ? s->p->status(s->ctx) : PTB_OK;
    return status != PTB_OK && rc != PTB_ENOMEM ? status : rc;
}

int ptb_parse(const ptb_space *s, const char *text,
              const char *const *options, ptb_position out[2], unsigned *n,
              char *err, size_t errcap)
{
    const char *opt[PTB_MAX_OPTIONS + 1] = { NULL };
    int pos_opt = 0;
    memset(out, 0, 2 * sizeof *out);
    *n = 0;
    if (err && errcap)
        err[0] = '\0';
    int rc = sort_options(s->p, options, opt, &pos_opt, err, errcap);
    if (rc != PTB_OK)
        return rc;
    if (pos_opt && text) {
        ptb_errf(err, errcap, "option '%s' stands for the position: give "
                 "one or the other", s->p->options[pos_opt - 1].name);
        return PTB_EINVAL;
    }
    if (!pos_opt && !text)
        return ptb_errf(err, errcap, "empty input");
    rc = ptb_space_checked(s, s->p->parse(s->ctx, text, opt, out, n, err,
                                          errcap));
    if (rc == PTB_ECORRUPT)
        ptb_errf(err, errcap, "%s", ptb_strerror(rc));
    return rc;
}

unsigned ptb_record_lines(const ptb_space *s, const char *first_line)
{
    return s->p->record_lines ? s->p->record_lines(s->ctx, first_line) : 0;
}

int ptb_format_board(const ptb_space *s, const ptb_position *p, char *buf,
                     size_t cap)
{
    return s->p->format_board(s->ctx, p, buf, cap);
}

int ptb_format_move(const ptb_space *s, const ptb_position *before,
                    const ptb_move *m, char *buf, size_t cap)
{
    return s->p->format_move(s->ctx, before, m, buf, cap);
}

int ptb_format_native(const ptb_space *s, const ptb_solution *sol, char *buf,
                      size_t cap)
{
    return s->p->format_answer(s->ctx, sol, buf, cap);
}

int ptb_format_code(const ptb_space *s, uint32_t sub, uint64_t idx, char *buf,
                    size_t cap)
{
    if (s->p->format_code)
        return ptb_space_checked(s, s->p->format_code(s->ctx, sub, idx, buf,
                                                      cap));
    return snprintf(buf, cap, "%" PRIu32 ":%" PRIu64, sub, idx);
}

int ptb_format_position_code(const ptb_space *s, const ptb_position *p,
                             char *buf, size_t cap)
{
    if (p->idx == PTB_NO_INDEX && s->p->format_position_code)
        return s->p->format_position_code(s->ctx, p, buf, cap);
    return ptb_format_code(s, p->sub, p->idx, buf, cap);
}
