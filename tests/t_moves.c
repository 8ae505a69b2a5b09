/* tests/t_moves.c: the optional first_move() op (lib/core/puzzle.h) against
 * moves() of the same puzzle, and unmoves() (which the search takes in
 * any order: in the move metric, another way to find them) against the
 * states moves() reaches (the puzzle is reversible), on the described tables make tables builds
 * (century in its three metrics, eight, rush-60, ma, klotski step): for
 * random states, a pick that takes the k-th move it is given must be given
 * moves()' first k moves, in order, and get the k-th back with pick's
 * value; a pick that takes none must be given every move and get 0; with
 * ahead, ahead must be told of no move, or of the same moves in order,
 * each before pick is given the one before it, and of one move at most
 * past the one taken (klotski's must be told); the state taken must have
 * the same moves and unmoves from the layout first_move() keeps for the
 * walk's next step as from its layout made again.  The walk (lib/answer/walk.c)
 * takes its step from first_move() where a puzzle has one, so its answers
 * are those of the moves()' walk (the tables' answers are checked against
 * BFS elsewhere: t_describe.sh).  Last, a description whose states have
 * more moves than the 256 the built-in puzzles list: five 1x1 pieces on
 * an open 8x8 board in the move metric, where from any layout each piece
 * goes to any of the 59 empty cells (5 x 59 = 295 moves, every successor
 * another layout), and the search from scratch (ptb_search) finds the one
 * move to a goal. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "format/format.h"
#include "puzzletb.h"
#include "tables.h"

#define STATES 300

typedef struct picker {
    const ptb_move *want;        /* moves()' */
    unsigned n, take;            /* how many; the one to take, from 1 (0:
                                    none) */
    unsigned given, wrong;       /* calls; calls given another move */
    unsigned told, early;        /* ahead's calls; picks given a move
                                    before ahead was told of the next
                                    (when there is one): none when ahead
                                    is told of any */
    int use_ahead;
} picker;

/* first_move()'s ahead: told of moves()' moves in order too. */
static void ahead(void *arg, const ptb_move *m)
{
    picker *pk = arg;
    if (pk->told >= pk->n || m->to != pk->want[pk->told].to ||
        m->code != pk->want[pk->told].code)
        pk->wrong++;
    pk->told++;
}

static int pick(void *arg, const ptb_move *m)
{
    picker *pk = arg;
    if (pk->given >= pk->n || m->to != pk->want[pk->given].to ||
        m->code != pk->want[pk->given].code)
        pk->wrong++;
    if (pk->use_ahead && pk->told < pk->n && pk->told <= pk->given + 1)
        pk->early++;
    return ++pk->given == pk->take ? 7 : 0;
}

static int u64_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Whether state 'to' has the same moves and unmoves (the search's, which
 * read the layout's kinds too) right after a walk took it (from the layout
 * first_move() kept) as when its layout is made again (after the moves of
 * state 'from'). */
static int same_moves_after(const ptb_puzzle *ops, const void *ctx,
                            uint64_t from, uint64_t to)
{
    static ptb_move a[PTB_MAX_SUCCESSORS], b[PTB_MAX_SUCCESSORS];
    static uint64_t ua[PTB_MAX_SUCCESSORS], ub[PTB_MAX_SUCCESSORS];
    unsigned na = ops->moves(ctx, 0, to, a);
    unsigned nua = ops->unmoves(ctx, 0, to, ua);
    ops->moves(ctx, 0, from, b);
    unsigned nb = ops->moves(ctx, 0, to, b);
    unsigned nub = ops->unmoves(ctx, 0, to, ub);
    return na == nb && memcmp(a, b, na * sizeof *a) == 0 && nua == nub &&
           memcmp(ua, ub, nua * sizeof *ua) == 0;
}

static void first_move_is_moves(const char *name, const char *metric)
{
    ptb_puzzle *p;
    ptb_space *s = NULL;
    int rc = ptb_puzzle_lookup(tables_dir(), name, &p);
    if (rc == PTB_OK && (rc = ptb_space_new(p, metric, &s)) != PTB_OK)
        ptb_puzzle_free(p);
    if (!check(rc == PTB_OK, "%s %s: its space opens (%s)", name, metric ? metric : "(its only metric)",
               ptb_strerror(rc)))
        return;
    const ptb_puzzle *ops = ptb_space_puzzle(s);
    uint64_t size = ops->size(s->ctx, 0);
    unsigned bad = 0, tried = 0, unbad = 0, kept_bad = 0, told = 0;
    srand(7);
    for (unsigned i = 0; ops->first_move && i < STATES; i++) {
        static ptb_move mv[PTB_MAX_SUCCESSORS], out;
        static uint64_t to[PTB_MAX_SUCCESSORS], from[PTB_MAX_SUCCESSORS];
        ptb_position pos;
        memset(&pos, 0, sizeof pos);
        pos.idx = (uint64_t)rand() * (uint64_t)rand() % size;
        unsigned n = ops->moves(s->ctx, 0, pos.idx, mv);
        unsigned nu = ops->unmoves(s->ctx, 0, pos.idx, from);
        for (unsigned j = 0; j < n; j++)
            to[j] = mv[j].to;
        qsort(to, n, sizeof *to, u64_cmp);
        qsort(from, nu, sizeof *from, u64_cmp);
        unbad += nu != n || memcmp(to, from, n * sizeof *to) != 0;
        for (unsigned take = 0; take <= 2 * n + 1; take++, tried++) {
            int use = take > n;
            unsigned t = use ? take - n - 1 : take;
            picker pk = { mv, n, t, 0, 0, 0, 0, use };
            int got = ops->first_move(s->ctx, &pos, pick, use ? ahead : NULL,
                                      &pk, &out);
            bad += pk.wrong != 0 || (pk.told && pk.early) ||
                   pk.given != (t ? t : n) || got != (t ? 7 : 0) ||
                   (t && (out.to != mv[t - 1].to ||
                          out.code != mv[t - 1].code)) ||
                   (use && pk.told > (t ? t + 1 : n));
            if (pk.told && t && pk.told < t) /* (and of the one taken) */
                bad++;
            told += pk.told;
            if (t)
                kept_bad += !same_moves_after(ops, s->ctx, pos.idx, out.to);
        }
    }
    check(unbad == 0, "%s %s: unmoves() gives the states moves() reaches, "
          "on %u states (%u differ)", name,
          metric ? metric : "(its only metric)", STATES, unbad);
    if (strcmp(name, "klotski") == 0) /* (the engine's moves made ahead,
                                           as for a walk on its table) */
        check(told > 0, "%s %s: first_move() tells ahead of its moves "
              "(%u told)", name, metric, told);
    check(kept_bad == 0, "%s %s: a state a walk took has the moves and "
          "unmoves it has when its layout is made again, on %u states (%u "
          "differ)", name,
          metric ? metric : "(its only metric)", STATES, kept_bad);
    check(ops->first_move && tried > STATES && bad == 0,
          "%s %s: first_move() gives pick moves()' moves in order and "
          "returns the one taken, on %u states (%u picks, %u wrong)",
          name, metric ? metric : "(its only metric)", STATES, tried, bad);
    ptb_space_close(s);
    ptb_puzzle_free(p);
}

/* Five 1x1 pieces on an open 8x8 board, the move metric. */
static void many_moves(void)
{
    static const char text[] =
        "name t-five\nmetrics move\n"
        "start ABCDE.../......../......../......../......../......../"
        "......../........\n"
        "goal\n????????\n????????\n????????\n????????\n????????\n"
        "????????\n????????\n???????A\n";
    static ptb_move mv[PTB_MAX_SUCCESSORS];
    static uint64_t to[PTB_MAX_SUCCESSORS], from[PTB_MAX_SUCCESSORS];
    static ptb_solution sol;
    ptb_puzzle *p;
    ptb_space *s = NULL;
    ptb_position pos[2];
    unsigned npos = 0;
    char err[200];
    int rc = ptb_puzzle_load(text, &p, err, sizeof err);
    if (rc == PTB_OK && (rc = ptb_space_new(p, NULL, &s)) != PTB_OK)
        ptb_puzzle_free(p);
    if (!check(rc == PTB_OK, "five pieces on 8x8, move metric: the space "
               "opens (%s %s)", ptb_strerror(rc), rc == PTB_EPARSE ? err : ""))
        return;
    const ptb_puzzle *ops = ptb_space_puzzle(s);
    unsigned most = ptb_space_max_moves(s);
    check(most >= 295 && most <= PTB_MAX_SUCCESSORS,
          "... a state may have %u moves: at least 295, more than 256", most);
    rc = ptb_parse(s, "ABCDE.../......../......../......../......../"
                   "......../......../........", NULL, pos, &npos, err,
                   sizeof err);
    unsigned n = rc == PTB_OK ? ops->moves(s->ctx, 0, pos[0].idx, mv) : 0;
    unsigned nu = rc == PTB_OK ? ops->unmoves(s->ctx, 0, pos[0].idx, from) : 0;
    for (unsigned j = 0; j < n; j++)
        to[j] = mv[j].to;
    qsort(to, n, sizeof *to, u64_cmp);
    qsort(from, nu, sizeof *from, u64_cmp);
    unsigned dup = 0;
    for (unsigned j = 1; j < n; j++)
        dup += to[j] == to[j - 1] || to[j - 1] == pos[0].idx;
    check(n == 5 * 59 && dup == 0, "... the start has %u moves (5 x 59 = "
          "295), to %u distinct other layouts", n, n - dup);
    check(nu == n && !memcmp(to, from, n * sizeof *to),
          "... and unmoves() gives the same %u layouts", nu);
    rc = ptb_search(s, pos, npos, &sol);
    check(rc == PTB_OK && sol.distance == 1,
          "... the search from scratch: one move to a goal (%s, %u)",
          ptb_strerror(rc), sol.distance);
    ptb_space_close(s);
    ptb_puzzle_free(p);
}

int main(void)
{
    static const char *const t[][2] = {
        { "century", "move" }, { "century", "line" }, { "century", "step" },
        { "eight", NULL },     { "rush-60", "line" }, { "ma", "move" },
        { "klotski", "step" },
    };
    for (unsigned i = 0; i < sizeof t / sizeof t[0]; i++)
        first_move_is_moves(t[i][0], t[i][1]);
    many_moves();
    return check_done();
}
