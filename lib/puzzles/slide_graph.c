/* lib/puzzles/slide_graph.c: the dynamic programme of a described
 * puzzle's layouts (puzzle_slide.c has the design): its graph made when
 * a space opens, saved in a table's ranking and read back from one, each
 * node checked as a walk first comes to it; a layout ranked and unranked
 * along it. */
#include "slide_engine.h"

/* The states of cell c + 1 that state st of cell c leads to: a wall or a
 * covered cell, one; a free cell, empty and then each kind that can stand
 * there, in that order, with the kind into kind[] (-1: empty).  Returns
 * how many, into next[] (at most SL_MAX_KINDS + 1). */
static unsigned choices(const sl_ctx *x, unsigned c, uint64_t st,
                        uint64_t *next, int *kind)
{
    uint64_t win = WIN(st);
    unsigned n = 0;
    if (win & 1 || x->d->walls >> c & 1) {
        next[0] = STATE(win >> 1, PAR(st), LEFT(st));
        return 1;
    }
    kind[n] = -1;
    next[n++] = next_of(x, c, st, -1);
    for (uint32_t m = x->avail[LEFT(st)]; m; m &= m - 1) {
        unsigned k = ptb_low_bit(m);
        if (fits(x, c, win, k)) {
            kind[n] = (int)k;
            next[n++] = next_of(x, c, st, (int)k);
        }
    }
    return n;
}

/* Whether a state after the last cell is a layout of the table: every
 * piece placed (of a kind whose number may vary, any number, leaving
 * min_empty cells), and the start's parity. */
static int complete(const sl_ctx *x, uint64_t st)
{
    return !WIN(st) && PAR(st) == x->target && !LEFT(st);
}

static uint64_t state_hash(const state_set *h, uint64_t st)
{
    return st * 0x9E3779B97F4A7C15u >> h->shift;
}

/* Makes h the set of st[0..n-1] (distinct), in *slot, which grows. */
static int hash_states(state_set *h, const uint64_t *st, size_t n,
                       size_t *cap)
{
    size_t size = 16;
    h->shift = 60;
    for (; size < 2 * n; size *= 2)
        h->shift--;
    if (size > *cap) {
        uint32_t *s = realloc(h->slot, size * sizeof *s);
        if (!s)
            return PTB_ENOMEM;
        h->slot = s;
        *cap = size;
    }
    memset(h->slot, 0, size * sizeof *h->slot);
    h->st = st;
    h->mask = size - 1;
    for (size_t i = 0; i < n; i++) {
        uint64_t j = state_hash(h, st[i]);
        while (h->slot[j])
            j = (j + 1) & h->mask;
        h->slot[j] = (uint32_t)i + 1;
    }
    return PTB_OK;
}

/* The place of st in the set, or -1. */
static int64_t find_state(const state_set *h, uint64_t st)
{
    for (uint64_t j = state_hash(h, st); h->slot[j]; j = (j + 1) & h->mask)
        if (h->st[h->slot[j] - 1] == st)
            return (int64_t)h->slot[j] - 1;
    return -1;
}

/* Lists the states a layout can pass through: a search forward from
 * (cell 0, nothing covered, every piece left), cell by cell, each cell's
 * states sorted (Century: 12,558 of 161,280 entries; Ma's Puzzle 14,698
 * of 399,360). */
int sl_reach_states(const sl_ctx *x, layers *ly)
{
    const sl_desc *d = x->d;
    uint64_t next[SL_MAX_KINDS + 1];
    int kind[SL_MAX_KINDS + 1];
    size_t len = 0, cap = 4096;
    if (!(ly->st = malloc(cap * sizeof *ly->st)))
        return PTB_ENOMEM;
    ly->st[len++] = STATE(0, 0, x->full);
    ly->n[0] = 1;
    for (unsigned c = 0; c + 1 < d->n; c++) {   /* the last cell's are
                                                   linked as they come */
        size_t from = len;
        for (size_t i = ly->at[c]; i < ly->at[c] + ly->n[c]; i++) {
            unsigned nn = choices(x, c, ly->st[i], next, kind);
            int rc = push((void **)&ly->st, &cap, len + nn - 1,
                          sizeof *ly->st, MAX_STATES);
            if (rc != PTB_OK)
                return rc;
            for (unsigned j = 0; j < nn; j++)
                ly->st[len++] = next[j];
        }
        ptb_sort_u64(ly->st + from, len - from);
        size_t u = from;
        for (size_t i = from; i < len; i++)
            if (i == from || ly->st[i] != ly->st[u - 1])
                ly->st[u++] = ly->st[i];
        len = u;
        ly->at[c + 1] = from;
        ly->n[c + 1] = len - from;
    }
    ly->at[d->n] = len;
    ly->n[d->n] = 0;
    return PTB_OK;
}

/* Makes the graph from the states of ly, from the last cell back: a
 * state's edges are its choices that lead to a node (after the last cell,
 * a complete state leads to node 0, the end; before, a state of the next
 * cell's, found in a hash of them), in order, each with the completions of
 * the choices before it.  Nodes are laid out from the end back, each
 * cell's in order; the root, cell 0's state, is the last.  A state with no
 * completions is dropped from its cell. */
int sl_link_nodes(sl_ctx *x, layers *ly)
{
    const sl_desc *d = x->d;
    uint64_t next[SL_MAX_KINDS + 1];
    int kind[SL_MAX_KINDS + 1];
    size_t states = ly->at[d->n], used = EDGES, hcap = 0;
    /* room for every node's every choice, up to 16 MB at first */
    size_t cap = (states + 1) * (d->nkinds + 3) + 2 * SL_MAX_KINDS + 4;
    uint32_t nodes = 1, base[SL_MAX_CELLS + 1];
    uint32_t *where;             /* of each node in order, its place */
    state_set ahead = { NULL, NULL, 0, 0 };
    if (states >= UINT32_MAX / 2)
        return PTB_EINVAL;
    cap = cap < ((size_t)1 << 20) ? cap : (size_t)1 << 20;
    where = malloc((states + 1) * sizeof *where);
    x->graph = malloc(cap * sizeof *x->graph);
    int rc = where && x->graph ? PTB_OK : PTB_ENOMEM;
    if (rc == PTB_OK) {                 /* node 0: the end */
        x->graph[0].node = (sl_node){ 1, 0, 0 };
        x->graph[1] = (sl_unit){ .state = { 0, 0 } };
        where[0] = 0;
    }
    for (unsigned c = d->n; rc == PTB_OK && c-- > 0;) {
        size_t kept = 0;
        int last = c + 1 == d->n;
        base[c] = nodes;
        x->lo[c] = (uint32_t)used;
        if (!last && (rc = hash_states(&ahead, ly->st + ly->at[c + 1],
                                       ly->n[c + 1], &hcap)) != PTB_OK)
            break;
        for (size_t i = 0; rc == PTB_OK && i < ly->n[c]; i++) {
            uint64_t st = ly->st[ly->at[c] + i], before = 0;
            unsigned nn = choices(x, c, st, next, kind), ne = 0;
            uint32_t choice = 0;
            int pass = WIN(st) & 1 || d->walls >> c & 1;
            /* room for its units and, past them, the most a walk reads */
            if ((rc = push((void **)&x->graph, &cap,
                           used + 2 * SL_MAX_KINDS + 3, sizeof *x->graph,
                           MAX_GRAPH)) != PTB_OK)
                break;
            for (unsigned j = 0; j < nn; j++) {
                int64_t at = last ? complete(x, next[j]) - 1
                                  : find_state(&ahead, next[j]);
                if (at < 0)
                    continue;           /* no completions */
                uint32_t to = last ? 0 : where[base[c + 1] + at];
                unsigned i = pass ? 0 : (unsigned)kind[j] + 1;
                ne = i + 1;             /* (the units skipped: never read) */
                x->graph[used + EDGES + i].edge = (sl_edge){
                    before, to, (int8_t)(pass ? PASS : kind[j]) };
                choice |= 1u << i;
                before = add_sat(before, x->graph[to].node.total);
            }
            if (before) {
                x->graph[used].node = (sl_node){ before, choice, 0 };
                x->graph[used + 1] = (sl_unit){ .state = { st, 0 } };
                where[nodes++] = (uint32_t)used;
                used += EDGES + ne;
                ly->st[ly->at[c] + kept++] = st;
            }
        }
        ly->n[c] = kept;
    }
    free(ahead.slot);
    if (rc == PTB_OK && ly->n[0] != 1)
        rc = PTB_EINVAL;                /* no layout at all */
    if (rc == PTB_OK) {
        x->root = where[nodes - 1];
        x->size = x->graph[x->root].node.total;
        x->nunits = (uint32_t)used;
    }
    free(where);
    return rc;
}

/* Whether node v of cell c holds, read from a table: a node of cell c
 * (the root, or reached by an edge that checked its state), with a state
 * of the programme's, whose edges are the choices of its state that the
 * programme makes (each to a node of the next cell whose state is the
 * choice's, or past the last cell to the end with a complete state), each
 * with the completions of the ones before it, and whose total is theirs
 * all.  So a walk over checked nodes makes layouts by the rules, and
 * ranks them as the programme does, whatever the table holds. */
static int check_node(const sl_ctx *x, uint32_t v, unsigned c)
{
    const sl_desc *d = x->d;
    uint32_t hi = c ? x->lo[c - 1] : x->nunits;
    uint64_t st, sum = 0;
    if (v < x->lo[c] || (uint64_t)v + 1 >= hi)
        return 0;
    st = x->graph[v + 1].state[0];
    if (WIN(st) >= x->nwin || PAR(st) >= x->npar || LEFT(st) >= x->nleft)
        return 0;
    const sl_node *nd = &x->graph[v].node;
    uint32_t choice = nd->choice;
    if (!choice || nd->frow > x->nfrow || choice >> (d->nkinds + 1) ||
        v + EDGES - 1 + 32 - (unsigned)__builtin_clz(choice) >= hi)
        return 0;
    /* Each choice with an edge, in the order of choices() (bit i: empty,
     * or a wall or covered cell, for i = 0; kind i - 1 else), must be one
     * its state makes: only the edges' choices are made, not every one. */
    uint64_t win = WIN(st);
    int pass = win & 1 || d->walls >> c & 1;
    for (uint32_t m = choice; m; m &= m - 1) {
        unsigned i = ptb_low_bit(m);
        uint64_t next;
        if (pass) {
            if (i)
                return 0;
            next = STATE(win >> 1, PAR(st), LEFT(st));
        } else if (!i) {
            next = next_of(x, c, st, -1);
        } else {
            if (!(x->avail[LEFT(st)] >> (i - 1) & 1) ||
                !fits(x, c, win, i - 1))
                return 0;
            next = next_of(x, c, st, (int)i - 1);
        }
        const sl_edge *e = &x->graph[v + EDGES + i].edge;
        if (e->kind != (pass ? PASS : (int)i - 1) || e->before != sum)
            return 0;
        if (c + 1 == d->n ? e->next != 0 || !complete(x, next)
                          : e->next < x->lo[c + 1] ||
                                (uint64_t)e->next + 1 >= x->lo[c] ||
                                x->graph[e->next + 1].state[0] != next)
            return 0;
        uint64_t t = x->graph[e->next].node.total;
        if (!t || t > MAX_LAYOUTS)
            return 0;
        sum += t;
    }
    return sum == nd->total && sum <= MAX_LAYOUTS;
}

/* Whether node v of cell c of a graph read from a table may be walked:
 * once check_node() has found it to hold (else the space is damaged). */
int sl_node_check(const sl_ctx *x, uint32_t v, unsigned c)
{
    if (v < x->nunits && check_node(x, v, c)) {
        hold(x->ok, v);
        return 1;
    }
    return damage(x);
}

/* The parity a layout ends with (a tile puzzle's class). */
unsigned sl_parity_of(const sl_ctx *x, const layout *l)
{
    const sl_desc *d = x->d;
    uint64_t st = STATE(0, 0, x->full);
    for (unsigned c = 0; c < d->n; c++)
        st = WIN(st) & 1 || d->walls >> c & 1
                 ? STATE(WIN(st) >> 1, PAR(st), LEFT(st))
                 : next_of(x, c, st, l->at[c] ? l->at[c] - 1 : -1);
    return PAR(st);
}

/* The layout of a drawing, a character a cell (checked by parse, or the
 * description's start). */
void sl_layout_of(const sl_desc *d, const unsigned char *cell, layout *l)
{
    uint8_t piece[256] = { 0 };  /* of each character: 1 + its piece, or
                                    EMPTY_CHAR */
    uint64_t cells[SL_MAX_CELLS];
    unsigned n = 0;
    enum { EMPTY_CHAR = 0xFF };
    clear_layout(d, l);
    for (unsigned c = 0; c < d->n; c++) {   /* (anchors in reading order) */
        unsigned char ch = cell[c];
        if ((d->walls >> c & 1) || piece[ch] == EMPTY_CHAR)
            continue;
        if (!piece[ch]) {
            if (sl_is_empty(d, (char)ch)) {
                piece[ch] = EMPTY_CHAR;
                continue;
            }
            piece[ch] = (uint8_t)++n;
            cells[n - 1] = 0;
            l->anchor[n - 1] = (uint8_t)c;
        }
        cells[piece[ch] - 1] |= (uint64_t)1 << c;
    }
    for (unsigned i = 0; i < n; i++) {
        unsigned a = l->anchor[i];
        put_piece(d, l, (unsigned)sl_kind_of(d, (char)cell[a], cells[i] >> a),
                  a);
    }
    l->np = n;
}
