/* lib/answer/json.c: the JSON answers, one schema for every puzzle (version
 * PTB_JSON_SCHEMA; the fields are listed in doc/guide.md, "JSON").
 *
 * An answer is one object: the schema version, the puzzle and metric, the
 * start's place in the table, its board ("input"), the query's own fields
 * ("query", from the puzzle's format_query_json), the category and distance,
 * the optimal line ("moves"), and for an analysis every legal move ranked
 * ("analysis").  Each move carries its text, its structured form ("detail",
 * from the puzzle's format_move_json), the board after it and the distance
 * from there.  The rule for "metric": it is always present and always the
 * table's metric name (ptb_space_metric()), even for puzzles with only one;
 * every distance in the object counts moves of that metric.
 *
 * May touch: its arguments only.  No I/O.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "answer.h"

/* Appends text as a JSON string (quotes included). */
static void cat_string(char *buf, size_t cap, size_t *len, const char *text)
{
    ptb_catf(buf, cap, len, "\"");
    for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
        if (*c == '"' || *c == '\\')
            ptb_catf(buf, cap, len, "\\%c", *c);
        else if (*c == '\n')
            ptb_catf(buf, cap, len, "\\n");
        else if (*c < 0x20)
            ptb_catf(buf, cap, len, "\\u%04x", *c);
        else
            ptb_catf(buf, cap, len, "%c", *c);
    }
    ptb_catf(buf, cap, len, "\"");
}

/* Appends the board of p as a JSON string. */
static void cat_board(const ptb_space *s, const ptb_position *p, char *buf,
                      size_t cap, size_t *len)
{
    char board[512];
    s->p->format_board(s->ctx, p, board, sizeof board);
    cat_string(buf, cap, len, board);
}

/* A distance, or null. */
static void cat_distance(char *buf, size_t cap, size_t *len, unsigned d)
{
    if (d > PTB_MAX_DISTANCE)
        ptb_catf(buf, cap, len, "null");
    else
        ptb_catf(buf, cap, len, "%u", d);
}

/* {"move":..,"detail":{..},"board":..,"distance":..} without the closing
 * brace, for the move m made from before, reaching after. */
static void cat_move(const ptb_space *s, const ptb_position *before,
                     const ptb_move *m, const ptb_position *after,
                     unsigned distance, char *buf, size_t cap, size_t *len)
{
    char text[512];
    s->p->format_move(s->ctx, before, m, text, sizeof text);
    ptb_catf(buf, cap, len, "{\"move\":");
    cat_string(buf, cap, len, text);
    if (s->p->format_move_json) {
        s->p->format_move_json(s->ctx, before, m, text, sizeof text);
        ptb_catf(buf, cap, len, ",\"detail\":%s", text);
    }
    ptb_catf(buf, cap, len, ",\"board\":");
    cat_board(s, after, buf, cap, len);
    ptb_catf(buf, cap, len, ",\"distance\":");
    cat_distance(buf, cap, len, distance);
}

static int category_of(unsigned distance)
{
    return distance == 0 ? PTB_CAT_GOAL
         : distance <= PTB_MAX_DISTANCE ? PTB_CAT_SOLVABLE
         : PTB_CAT_UNSOLVABLE;
}

/* Everything up to and including the line's "moves" list. */
static void cat_head(const ptb_space *s, const ptb_position *start,
                     unsigned distance, const ptb_solution *line, char *buf,
                     size_t cap, size_t *len)
{
    char query[1024];
    ptb_catf(buf, cap, len, "{\"schema\":%d,\"puzzle\":", PTB_JSON_SCHEMA);
    cat_string(buf, cap, len, s->p->name);
    ptb_catf(buf, cap, len, ",\"metric\":");
    cat_string(buf, cap, len, s->p->metrics[s->metric]);
    ptb_catf(buf, cap, len, ",\"subtable\":%" PRIu32 ",\"index\":",
             start->sub);
    if (start->idx == PTB_NO_INDEX)     /* (a searched puzzle's) */
        ptb_catf(buf, cap, len, "null,\"input\":");
    else
        ptb_catf(buf, cap, len, "%" PRIu64 ",\"input\":", start->idx);
    cat_board(s, start, buf, cap, len);
    query[0] = '\0';
    if (s->p->format_query_json)
        s->p->format_query_json(s->ctx, start, query, sizeof query);
    ptb_catf(buf, cap, len, ",\"query\":{%s},\"category\":\"%s\","
             "\"distance\":", query,
             ptb_category_name(category_of(distance)));
    cat_distance(buf, cap, len, distance);
    ptb_catf(buf, cap, len, ",\"moves\":[");
    unsigned steps = line && line->distance <= PTB_MAX_DISTANCE
                   ? line->distance : 0;
    for (unsigned i = 0; i < steps; i++) {
        cat_move(s, i ? &line->after[i - 1] : &line->start, &line->move[i],
                 &line->after[i], steps - 1 - i, buf, cap, len);
        ptb_catf(buf, cap, len, "}%s", i + 1 < steps ? "," : "");
    }
    ptb_catf(buf, cap, len, "]");
}

/* A line's answer; with st, the search's figures that found it. */
static int format_line(const ptb_space *s, const ptb_solution *sol,
                       const ptb_search_stats *st, char *buf, size_t cap)
{
    size_t len = 0;
    if (cap)
        buf[0] = '\0';
    cat_head(s, &sol->start, sol->distance, sol, buf, cap, &len);
    if (st)
        ptb_catf(buf, cap, &len, ",\"search\":{\"optimal\":true,\"nodes\":%"
                 PRIu64 ",\"iterations\":%u,\"bound\":%u,\"seconds\":"
                 "%.6f}", st->nodes, st->iterations, st->bound, st->seconds);
    ptb_catf(buf, cap, &len, "}");
    return (int)len;
}

int ptb_format_json(const ptb_space *s, const ptb_solution *sol, char *buf,
                    size_t cap)
{
    return format_line(s, sol, NULL, buf, cap);
}

int ptb_format_search_json(const ptb_space *s, const ptb_solution *sol,
                           const ptb_search_stats *st, char *buf, size_t cap)
{
    return format_line(s, sol, st, buf, cap);
}

int ptb_format_analysis_json(const ptb_space *s, const ptb_analysis *a,
                             const ptb_solution *line, char *buf, size_t cap)
{
    size_t len = 0;
    if (cap)
        buf[0] = '\0';
    cat_head(s, &a->position, a->distance, line, buf, cap, &len);
    ptb_catf(buf, cap, &len, ",\"analysis\":[");
    for (unsigned i = 0; i < a->n; i++) {
        const ptb_successor *m = &a->move[i];
        cat_move(s, &a->position, &m->move, &m->after, m->distance, buf, cap,
                 &len);
        ptb_catf(buf, cap, &len, ",\"category\":\"%s\",\"optimal\":%s}%s",
                 ptb_category_name(category_of(m->distance)),
                 m->distance + 1 == a->distance ? "true" : "false",
                 i + 1 < a->n ? "," : "");
    }
    ptb_catf(buf, cap, &len, "]}");
    return (int)len;
}
