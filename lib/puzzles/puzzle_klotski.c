/* lib/puzzles/puzzle_klotski.c: Klotski (华容道) on the 4x5 board: the
 * table's states, their ranking and moves, and the generator of the
 * build-time tables.  The notations and the puzzle's definition are
 * klotski_text.c's; klotski.h is what the files share.
 *
 * A layout is one 2x2 block plus any mix of 1x2 (horizontal), 2x1 (vertical)
 * and 1x1 pieces with at least two empty cells: 29,334,498 layouts.  Pieces
 * of one shape are interchangeable in the table.  The goal is the 2x2 block
 * with its top-left corner on cell 13 (rows 4-5, columns 2-3, 1-based).
 *
 * Public index: a layout's number is its rank in ascending CommonCode order,
 * which is the community's ShortCode.  A CommonCode is 36 bits: the 2x2
 * block's top-left cell (4 bits), then 2 bits per remaining unit (a piece or
 * an empty cell) in row-major order of the units' top-left cells, most
 * significant first, zero-padded: 00 empty, 01 1x2, 10 2x1, 11 1x1.
 *
 * Mirror symmetry.  The goal is its own left-right mirror image, so a
 * layout and its mirror are equally far from it, and the table holds one
 * state per mirror class: of a layout and its mirror, the one with the
 * smaller CommonCode stands for both, and the states are those layouts in
 * ascending CommonCode order, 14,673,066 of them (11,634 layouts are their
 * own mirror image).  With the 2x2 block in columns 1-2 every layout stands
 * for itself, in columns 3-4 none; in columns 2-3 the mirror has the block
 * there too, and the layouts' rows decide: the first row from the top that
 * is not its own mirror image sorts before its mirror's in the one that
 * stands (a row code's order is its place in CommonCode order).  A move out
 * of a state lands on its successor's class, marked in the move's code
 * when the successor stands as its mirror; the states one move before a
 * class are the classes of its representative's successors, as moves are
 * reversible and commute with the mirror.  (Format 3 stored the simple
 * split instead, every layout with the block in columns 1-2 or 2-3:
 * 18,804,586 states, 28% more.)
 *
 * Ranking works row by row.  A row is coded in 8 bits (2 bits per cell: the
 * type of the unit whose top-left cell it is, 0 for empty or covered cells),
 * and what a row may hold depends only on the cells covered from above and
 * on how many empty cells came before (capped at 2).  Counting the
 * completions of every (2x2 place, row, state) gives, for each row code
 * (squeezed to its uncovered cells), how many layouts sort before it with
 * the same rows above; a rank is the sum of five independent reads of that
 * 217 KB table, and a move's successor redoes only the rows it touches.
 * Mirror classes are ranked alike: while the rows are their own mirror
 * image, a row's part counts the classes before it (a row code that is its
 * own mirror image adds the classes of its completions, half of them plus
 * half of those that are their own mirror image; a code that sorts before
 * its mirror all its completions; one that sorts after none), and from the
 * first row that is not, the layouts as before.  A move that changes those
 * leading rows may change which of the pair stands, so it is ranked from
 * scratch; others redo only the rows they touch.
 * Unranking finds rows 1 and 2 at once in a list of their code pairs per
 * 2x2 place (23,767 pairs of 16 bytes; a 1024-bucket guide, then a short
 * scan), row 3 in per-state lists (a 64-bucket guide, then a short scan)
 * and reads rows 4-5 from a list of all their completions; each entry
 * names the slot of the row after it, so no lookup stands between rows.
 * (Rows 1-3 found one by one cost 6% more CPU in the search.)  Mirror
 * classes are unranked row by row in such lists, from class slots while
 * the rows are their own mirror image.
 * These tables are constant: the PTB_MKTABLES section at the end of this
 * file computes them at build time and prints build/gen/klotski_tables.h,
 * so opening a space builds nothing.
 *
 * Metrics: "step" moves a piece one cell; "line" any distance in a straight
 * line; "move" to any place it reaches over free cells, turns included.  A
 * move's code is its piece's top-left cell in the state before (bits 0-4)
 * and after (bits 5-9) the move, plus bit 10 when the successor stands as
 * its mirror image.
 *
 * Queries, read by the shared reader (lib/puzzles/text.c: a byte-order mark,
 * CRLF, tabs and blank lines ignored).  A board is 5 rows of 4 cells (rows
 * as lines, joined by '/' or separated by blanks) or the 20 cells as one
 * word: the A-K notation of the seed (A the 2x2 block, B-F two-cell
 * pieces, G-J 1x1 pieces, K empty) when the grid has no '.', else the
 * general grid ('.' empty, one letter or digit per piece; letters keep
 * their case).  Any other single word is a code, by one rule: exactly 5
 * characters is a ShortCode (of 123456789ABCDEFGHJKMNPQRSTUVWXYZ, any
 * case); 6 to 9 hex digits are a CommonCode, trailing zeros optional; 1 to
 * 4 characters are neither.  For scripts, short:WORD (5 characters) and
 * common:HEX (1 to 9 digits, trailing zeros optional) say which.  In batch
 * input a line of one 4-cell row starts a 5-line grid; a code or a
 * one-line grid is one line.
 *
 * Output notation: a board comes back in the notation it came in, with the
 * user's letters, in the user's orientation (a mirrored representative
 * never shows: the native view records the mirroring, and moves are
 * replayed and printed on the user's own board).  A code comes back as a
 * general grid: A the 2x2 block, B, C, ... the other pieces in row-major
 * order, '.' empty.
 *
 * May touch: its arguments and its context only.  No I/O, except the
 * generator's main() under PTB_MKTABLES.
 */
#include "klotski.h"

#ifdef PTB_MKTABLES
/* ==== build-time tables =============================================== */

/* The generator: computes the row tables and prints them as C.  The tables
 * are kept for the (2x2 place, row, state) triples some layout reaches,
 * each a "slot". */

typedef struct kl_rows {
    uint32_t first[KL_HEADS + 1];              /* first index per 2x2 place */
    uint8_t cover[KL_HEADS][KL_ROWS + 1];      /* 2x2 cells in each row */
    uint16_t slot[KL_HEADS][KL_ROWS][KL_STATES];
    unsigned slots;
    uint8_t squeeze[16][KL_CODES];  /* row code without covered cells */
    /* row code after covered cells: KL_BAD, or the cells its 2x1 pieces
     * cover in the next row | empty cells << 4 */
    uint8_t rowstep[16][KL_CODES];
    uint32_t add_at[KL_HEADS][KL_ROWS][KL_STATES];  /* a slot's rank parts */
    uint32_t *add;               /* rank part per slot and squeezed code */
    uint32_t *list_at;           /* per slot + 1: its unranking list */
    kl_guide *guide;             /* per slot */
    kl_entry *list;
    uint32_t *tail_at;           /* per slot of row 4: its completions */
    uint16_t *tail;              /* rows 4 and 5 codes, in order */
    uint32_t adds, entries, tails;
    uint32_t slot_base[2 * KL_HEADS * KL_ROWS * KL_STATES];  /* per slot */
    uint8_t slot_cover[2 * KL_HEADS * KL_ROWS * KL_STATES];  /* per slot */
    uint32_t pair_at[KL_HEADS + 1];  /* per 2x2 place: its pairs */
    kl_pair_guide pair_guide[KL_HEADS];
    kl_pair *pair;
    uint32_t pairs;
    /* mirror classes (2x2 block in columns 2-3): the class slots, numbered
     * after the others, their rank parts, and the start slot per place */
    uint8_t msign[KL_CODES];        /* KL_SYM, KL_FIRST or KL_SECOND */
    uint16_t cslot[KL_HEADS][KL_ROWS][KL_STATES];
    uint32_t cadd_at[KL_HEADS][KL_ROWS][KL_STATES];
    uint16_t start[KL_HEADS];
    uint32_t sfirst[KL_HEADS + 1];  /* first state index per 2x2 place */
    unsigned cslots;
} kl_rows;

typedef kl_rows kl_ctx;

#define KL_BAD 0xFFu

/* What row code does after the cells 'covered' from above, whatever the row:
 * KL_BAD, or its 2x1 pieces' cells in the next row | its empties << 4. */
static unsigned kl_row_effect(unsigned covered, unsigned code)
{
    unsigned below = 0, empties = 0;
    for (unsigned k = 0; k < KL_COLS; k++) {
        unsigned ty = code >> 2 * k & 3;
        if (covered >> k & 1) {
            if (ty)
                return KL_BAD;
            continue;
        }
        if (ty == KL_EMPTY)
            empties++;
        else if (ty == KL_HORZ) {
            if (k == KL_COLS - 1 || covered >> (k + 1) & 1)
                return KL_BAD;
            covered |= 1u << (k + 1);
        } else if (ty == KL_VERT) {
            below |= 1u << k;
        }
    }
    return below | empties << 4;
}

static void kl_build_rowstep(kl_ctx *x)
{
    for (unsigned covered = 0; covered < 16; covered++)
        for (unsigned code = 0; code < KL_CODES; code++)
            x->rowstep[covered][code] =
                (uint8_t)kl_row_effect(covered, code);
}

/* Row r with code holds a valid row after state st?  Sets the next state. */
static int kl_row_step(const kl_ctx *x, unsigned hid, unsigned r,
                       unsigned st, unsigned code, unsigned *next)
{
    unsigned e = x->rowstep[st / 3][code];
    unsigned vert = e & 15, below = x->cover[hid][r + 1];
    if (e == KL_BAD || (vert && (r == KL_ROWS - 1 || (below & vert))))
        return 0;
    *next = kl_state(below | vert, st % 3 + (e >> 4));
    return 1;
}

/* Row code order: cell 0 is the most significant, so reverse the pairs. */
static unsigned kl_lex_code(unsigned key)
{
    return (key >> 6 & 3) | (key >> 2 & 0xC) | (key << 2 & 0x30)
        | (key << 6 & 0xC0);
}

/* The mirror image of a row code whose covered cells are symmetric (they
 * stay 0). */
static unsigned kl_mirror_code(unsigned code)
{
    unsigned m = 0;
    for (unsigned k = 0; k < KL_COLS; k++) {
        unsigned ty = code >> 2 * k & 3;
        if (ty == KL_HORZ && k == KL_COLS - 1)
            return code;                /* no row */
        if (ty)
            m |= ty << 2 * (ty == KL_HORZ ? KL_COLS - 2 - k
                                          : KL_COLS - 1 - k);
    }
    return m;
}

static void kl_build_msign(kl_ctx *x)
{
    for (unsigned code = 0; code < KL_CODES; code++) {
        unsigned m = kl_mirror_code(code);
        x->msign[code] = (uint8_t)(m == code ? KL_SYM
                                   : kl_lex_code(code) < kl_lex_code(m)
                                       ? KL_FIRST : KL_SECOND);
    }
}

/* n[hid][r][st]: the ways to fill rows r.. after state st; sym: those of
 * them whose rows are all their own mirror image. */
typedef struct kl_counts {
    uint32_t n[KL_HEADS][KL_ROWS + 1][KL_STATES];
    uint32_t sym[KL_HEADS][KL_ROWS + 1][KL_STATES];
} kl_counts;

static void kl_count(const kl_ctx *x, kl_counts *c)
{
    for (unsigned hid = 0; hid < KL_HEADS; hid++) {
        for (unsigned st = 0; st < KL_STATES; st++)
            c->n[hid][KL_ROWS][st] = c->sym[hid][KL_ROWS][st] =
                st == kl_state(0, KL_MIN_EMPTY);
        for (unsigned r = KL_ROWS; r-- > 0;)
            for (unsigned st = 0; st < KL_STATES; st++) {
                uint32_t sum = 0, sym = 0;
                for (unsigned code = 0, next; code < KL_CODES; code++)
                    if (kl_row_step(x, hid, r, st, code, &next)) {
                        sum += c->n[hid][r + 1][next];
                        if (x->msign[code] == KL_SYM)
                            sym += c->sym[hid][r + 1][next];
                    }
                c->n[hid][r][st] = sum;
                c->sym[hid][r][st] = sym;
            }
    }
}

/* The layouts after state st of row r that stand for their mirror class:
 * those whose first row that is not its own mirror image sorts first, and
 * those that are their own mirror image.  A class slot's state is reached
 * by rows that are their own mirror image, so its completions pair up with
 * their mirrors, except the sym ones. */
static uint32_t kl_classes(const kl_counts *c, unsigned hid, unsigned r,
                           unsigned st)
{
    return (c->n[hid][r][st] + c->sym[hid][r][st]) / 2;
}

/* Numbers the states that some layout reaches, row by row, from n; returns
 * the next number.  Other states get KL_NONE and are never read.  With cls,
 * the class slots: the states of the places in columns 2-3 that rows that
 * are their own mirror image reach. */
static unsigned kl_number_slots(kl_ctx *x, const kl_counts *c, int cls,
                                unsigned n)
{
    for (unsigned hid = 0; hid < KL_HEADS; hid++) {
        uint16_t (*slot)[KL_STATES] = cls ? x->cslot[hid] : x->slot[hid];
        uint8_t reached[KL_ROWS][KL_STATES] = { { 0 } };
        reached[0][kl_state(x->cover[hid][0], 0)] = !cls || kl_centred(hid);
        for (unsigned r = 0; r < KL_ROWS; r++)
            for (unsigned st = 0; st < KL_STATES; st++) {
                slot[r][st] = KL_NONE;
                if (!reached[r][st] || !c->n[hid][r][st])
                    continue;
                slot[r][st] = (uint16_t)n++;
                for (unsigned code = 0, next; code < KL_CODES; code++)
                    if (r + 1 < KL_ROWS && (!cls || x->msign[code] == KL_SYM)
                        && kl_row_step(x, hid, r, st, code, &next)
                        && c->n[hid][r + 1][next])
                        reached[r + 1][next] = 1;
            }
    }
    return n;
}

/* Does a row code put anything on a covered cell?  (Then it is no row,
 * and it must not overwrite the rank part of the row it squeezes to.) */
static int kl_fills_covered(unsigned covered, unsigned code)
{
    for (unsigned k = 0; k < KL_COLS; k++)
        if (covered >> k & 1 && code >> 2 * k & 3)
            return 1;
    return 0;
}

/* Guides the search of a list of n entries that spans count ranks. */
static void kl_fill_guide(const kl_entry *e, uint32_t n, uint32_t count,
                          kl_guide *g)
{
    unsigned shift = 0, j = 0;
    while (count > (uint32_t)KL_GUIDE << shift)
        shift++;
    g->shift = (uint8_t)shift;
    for (uint32_t b = 0; b < KL_GUIDE; b++) {
        while (j + 1 < n && e[j + 1].before <= b << shift)
            j++;
        g->at[b] = (uint8_t)j;
    }
}

/* Fills the rank parts and the unranking list of one slot; with cls, of
 * one class slot, whose parts count classes: a code that is its own mirror
 * image adds the classes after it, one that sorts first all the layouts
 * after it, and one that sorts second none (those layouts stand as their
 * mirrors). */
static void kl_fill_slot(kl_ctx *x, const kl_counts *c, unsigned hid,
                         unsigned r, unsigned st, int cls, uint32_t *n)
{
    unsigned slot = cls ? x->cslot[hid][r][st] : x->slot[hid][r][st];
    uint32_t at = cls ? x->cadd_at[hid][r][st] : x->add_at[hid][r][st];
    uint32_t sum = 0;
    x->slot_base[slot] = at;
    x->slot_cover[slot] = (uint8_t)(st / 3);
    x->list_at[slot] = *n;
    for (unsigned key = 0; key < KL_CODES; key++) {
        unsigned code = kl_lex_code(key), next, sign = x->msign[code];
        if (kl_fills_covered(st / 3, code))
            continue;
        x->add[at + x->squeeze[st / 3][code]] = sum;
        if (!kl_row_step(x, hid, r, st, code, &next)
            || !c->n[hid][r + 1][next] || (cls && sign == KL_SECOND))
            continue;
        int sym = cls && sign == KL_SYM;
        x->list[*n].before = sum;
        x->list[*n].code = (uint8_t)code;
        x->list[*n].next = (uint8_t)next;
        x->list[*n].slot = r + 1 == KL_ROWS ? (uint16_t)KL_NONE
                           : sym ? x->cslot[hid][r + 1][next]
                                 : x->slot[hid][r + 1][next];
        ++*n;
        sum += sym ? kl_classes(c, hid, r + 1, next) : c->n[hid][r + 1][next];
    }
    x->list_at[slot + 1] = *n;
    kl_fill_guide(x->list + x->list_at[slot], *n - x->list_at[slot], sum,
                  &x->guide[slot]);
}

/* Lists the pairs of codes of rows 1 and 2 of 2x2 place hid, in order,
 * and guides their search. */
static void kl_fill_pairs(kl_ctx *x, unsigned hid, uint32_t *n)
{
    unsigned s0 = x->slot[hid][0][kl_state(x->cover[hid][0], 0)];
    uint32_t j = 0, count = x->first[hid + 1] - x->first[hid];
    unsigned shift = 0;
    x->pair_at[hid] = *n;
    for (uint32_t i = x->list_at[s0]; i < x->list_at[s0 + 1]; i++) {
        const kl_entry *a = &x->list[i];
        for (uint32_t k = x->list_at[a->slot]; k < x->list_at[a->slot + 1];
             k++) {
            kl_pair *q = &x->pair[(*n)++];
            q->before = a->before + x->list[k].before;
            q->part0 = a->before;
            q->code0 = a->code;
            q->code1 = x->list[k].code;
            q->slot1 = a->slot;
            q->slot2 = x->list[k].slot;
        }
    }
    x->pair_at[hid + 1] = *n;
    const kl_pair *e = x->pair + x->pair_at[hid];
    uint32_t len = *n - x->pair_at[hid];
    while (count > (uint32_t)KL_PAIR_GUIDE << shift)
        shift++;
    x->pair_guide[hid].shift = (uint8_t)shift;
    for (uint32_t b = 0; b < KL_PAIR_GUIDE; b++) {
        while (j + 1 < len && e[j + 1].before <= b << shift)
            j++;
        x->pair_guide[hid].at[b] = (uint16_t)j;
    }
}

/* Lists every completion of the last two rows after one state of row 4,
 * in order, so unranking reads them directly. */
static void kl_fill_tail(kl_ctx *x, unsigned hid, unsigned st, uint32_t *n)
{
    unsigned slot = x->slot[hid][KL_ROWS - 2][st];
    x->tail_at[slot] = *n;
    for (uint32_t i = x->list_at[slot]; i < x->list_at[slot + 1]; i++) {
        unsigned last = x->slot[hid][KL_ROWS - 1][x->list[i].next];
        for (uint32_t k = x->list_at[last]; k < x->list_at[last + 1]; k++)
            x->tail[(*n)++] = (uint16_t)(x->list[i].code
                                         | x->list[k].code << 8);
    }
}

/* The first state index of each 2x2 place: the places in columns 1-2 hold
 * all their layouts, those in columns 2-3 one per mirror class, those in
 * columns 3-4 none.  An empty range starts where the next one does, so a
 * search for the last start at or below an index never stops on it. */
static void kl_state_firsts(kl_ctx *x, const kl_counts *c)
{
    x->sfirst[0] = 0;
    for (unsigned hid = 0; hid < KL_HEADS; hid++) {
        unsigned st = kl_state(x->cover[hid][0], 0);
        unsigned col = kl_head_cell[hid] % 4;
        x->sfirst[hid + 1] = x->sfirst[hid]
            + (col == 0 ? c->n[hid][0][st]
               : col == 1 ? kl_classes(c, hid, 0, st) : 0);
        x->start[hid] = col == 1 ? x->cslot[hid][0][st] : (uint16_t)KL_NONE;
    }
    for (unsigned hid = KL_HEADS; hid-- > 0;)
        if (kl_head_cell[hid] % 4 == 2)
            x->sfirst[hid] = x->sfirst[hid + 1];
}

/* Builds every table; PTB_OK or PTB_ENOMEM. */
static int kl_build_tables(kl_ctx *x)
{
    kl_counts count;
    uint32_t tails = 0, adds = 0, n = 0;
    kl_count(x, &count);
    x->slots = kl_number_slots(x, &count, 0, 0);
    x->cslots = kl_number_slots(x, &count, 1, x->slots) - x->slots;
    unsigned all = x->slots + x->cslots;
    for (unsigned hid = 0; hid < KL_HEADS; hid++) {
        x->first[hid + 1] = x->first[hid]
            + count.n[hid][0][kl_state(x->cover[hid][0], 0)];
        for (unsigned st = 0; st < KL_STATES; st++)
            if (x->slot[hid][KL_ROWS - 2][st] != KL_NONE)
                tails += count.n[hid][KL_ROWS - 2][st];
    }
    for (int cls = 0; cls < 2; cls++)
        for (unsigned hid = 0; hid < KL_HEADS; hid++)
            for (unsigned r = 0; r < KL_ROWS; r++)
                for (unsigned st = 0; st < KL_STATES; st++) {
                    uint32_t *at = cls ? &x->cadd_at[hid][r][st]
                                       : &x->add_at[hid][r][st];
                    *at = adds;
                    if ((cls ? x->cslot : x->slot)[hid][r][st] != KL_NONE)
                        adds += 1u << 2 * (KL_COLS - ptb_popcount(st / 3));
                }
    x->add = calloc(adds + KL_CODES, sizeof *x->add);
    x->list_at = malloc(sizeof *x->list_at * (all + 1));
    x->list = malloc(sizeof *x->list * all * KL_CODES);
    x->tail_at = calloc(x->slots, sizeof *x->tail_at);
    x->guide = malloc(sizeof *x->guide * all);
    x->tail = malloc(sizeof *x->tail * tails);
    x->pair = malloc(sizeof *x->pair * x->slots * KL_CODES);
    if (!x->add || !x->list_at || !x->list || !x->tail_at || !x->tail
        || !x->guide || !x->pair)
        return PTB_ENOMEM;
    for (int cls = 0; cls < 2; cls++)
        for (unsigned hid = 0; hid < KL_HEADS; hid++)
            for (unsigned r = 0; r < KL_ROWS; r++)
                for (unsigned st = 0; st < KL_STATES; st++)
                    if ((cls ? x->cslot : x->slot)[hid][r][st] != KL_NONE)
                        kl_fill_slot(x, &count, hid, r, st, cls, &n);
    x->adds = adds;
    x->entries = n;
    kl_state_firsts(x, &count);
    n = 0;
    for (unsigned hid = 0; hid < KL_HEADS; hid++)
        for (unsigned st = 0; st < KL_STATES; st++)
            if (x->slot[hid][KL_ROWS - 2][st] != KL_NONE)
                kl_fill_tail(x, hid, st, &n);
    x->tails = n;
    n = 0;
    for (unsigned hid = 0; hid < KL_HEADS; hid++) {
        if (x->first[hid + 1] - x->first[hid] > (uint32_t)KL_PAIR_GUIDE << 16)
            return PTB_ERANGE;
        kl_fill_pairs(x, hid, &n);
        if (n - x->pair_at[hid] > 65536)
            return PTB_ERANGE;
    }
    x->pairs = n;
    return PTB_OK;
}

static void kl_build_masks(kl_ctx *x)
{
    for (unsigned hid = 0; hid < KL_HEADS; hid++) {
        unsigned head = kl_head_cell[hid];
        for (unsigned r = 0; r <= KL_ROWS; r++)
            x->cover[hid][r] = (uint8_t)(r == head / 4 || r == head / 4 + 1
                                         ? 3u << head % 4 : 0);
    }
    for (unsigned code = 0; code < KL_CODES; code++) {
        for (unsigned covered = 0; covered < 16; covered++) {
            unsigned q = 0, k = KL_COLS;
            while (k-- > 0)
                if (!(covered >> k & 1))
                    q = q << 2 | (code >> 2 * k & 3);
            x->squeeze[covered][code] = (uint8_t)q;
        }
    }
}


/* Prints n values as a C array: decl names it ("uint8_t kl_x[4][2]"); dim
 * lists the sizes of its inner dimensions, outermost first, so each gets its
 * braces. */
static void kl_print(const char *decl, const uint32_t *v, size_t n,
                     const size_t *dim, unsigned ndim)
{
    size_t span[4] = { 1, 1, 1, 1 }, col = 0;
    for (unsigned k = ndim; k-- > 0;)
        span[k] = dim[k] * (k + 1 < ndim ? span[k + 1] : 1);
    printf("static const %s = {\n", decl);
    for (size_t i = 0; i < n; i++) {
        for (unsigned k = 0; k < ndim; k++)
            if (i % span[k] == 0)
                col += (size_t)printf("{");
        col += (size_t)printf("%lu,", (unsigned long)v[i]);
        for (unsigned k = ndim; k-- > 0;)
            if ((i + 1) % span[k] == 0)
                col += (size_t)printf("},");
        if (col > 70 || i + 1 == n) {
            printf("\n");
            col = 0;
        }
    }
    printf("};\n");
}

/* The same for arrays of other integer types, copied to uint32_t. */
#define KL_PRINT(decl, arr, n, dim, ndim)                                  \
    do {                                                                   \
        uint32_t *v_ = malloc((n) * sizeof *v_);                           \
        if (!v_)                                                           \
            return PTB_ENOMEM;                                             \
        for (size_t i_ = 0; i_ < (n); i_++)                                \
            v_[i_] = (arr)[i_];                                            \
        kl_print(decl, v_, n, dim, ndim);                                  \
        free(v_);                                                          \
    } while (0)

static int kl_print_tables(const kl_rows *x)
{
    static const size_t d1[1] = { KL_ROWS + 1 }, dc[1] = { KL_CODES };
    static const size_t d3[2] = { KL_ROWS, KL_STATES };
    unsigned all = x->slots + x->cslots;
    char decl[96];
    printf("/* build/gen/klotski_tables.h: made at build time by the "
           "PTB_MKTABLES\n * section of lib/puzzles/puzzle_klotski.c; do not "
           "edit. */\n");
    kl_print("uint32_t kl_first[KL_HEADS + 1]", x->first, KL_HEADS + 1,
             NULL, 0);
    kl_print("uint32_t kl_sfirst[KL_HEADS + 1]", x->sfirst, KL_HEADS + 1,
             NULL, 0);
    KL_PRINT("uint16_t kl_start_slot[KL_HEADS]", x->start, KL_HEADS, NULL,
             0);
    KL_PRINT("uint8_t kl_msign[KL_CODES]", x->msign, KL_CODES, NULL, 0);
    KL_PRINT("uint8_t kl_cover[KL_HEADS][KL_ROWS + 1]", &x->cover[0][0],
             KL_HEADS * (KL_ROWS + 1), d1, 1);
    KL_PRINT("uint8_t kl_squeeze[16][KL_CODES]", &x->squeeze[0][0],
             16 * KL_CODES, dc, 1);
    kl_print("uint32_t kl_add_at[KL_HEADS][KL_ROWS][KL_STATES]",
             &x->add_at[0][0][0], KL_HEADS * KL_ROWS * KL_STATES, d3, 2);
    kl_print("uint32_t kl_cadd_at[KL_HEADS][KL_ROWS][KL_STATES]",
             &x->cadd_at[0][0][0], KL_HEADS * KL_ROWS * KL_STATES, d3, 2);
    /* kl_add ends with KL_CODES zeros: the parts of a row state no layout
     * reaches start where the next slot's do (the last ones at the end),
     * and a kept layout that is no layout (kl_kept()) may read a row code
     * up to KL_CODES - 1 past that */
    snprintf(decl, sizeof decl, "uint32_t kl_add[%lu]",
             (unsigned long)x->adds + KL_CODES);
    kl_print(decl, x->add, x->adds + KL_CODES, NULL, 0);
    snprintf(decl, sizeof decl, "uint32_t kl_list_at[%u]", all + 1);
    kl_print(decl, x->list_at, all + 1, NULL, 0);
    snprintf(decl, sizeof decl, "uint32_t kl_tail_at[%u]", x->slots);
    kl_print(decl, x->tail_at, x->slots, NULL, 0);
    snprintf(decl, sizeof decl, "uint16_t kl_tail[%lu]",
             (unsigned long)x->tails);
    KL_PRINT(decl, x->tail, x->tails, NULL, 0);
    snprintf(decl, sizeof decl, "uint32_t kl_slot_base[%u]", all);
    kl_print(decl, x->slot_base, all, NULL, 0);
    snprintf(decl, sizeof decl, "uint8_t kl_slot_cover[%u]", all);
    KL_PRINT(decl, x->slot_cover, all, NULL, 0);
    kl_print("uint32_t kl_pair_at[KL_HEADS + 1]", x->pair_at, KL_HEADS + 1,
             NULL, 0);
    printf("static const kl_pair kl_pairs[%lu] = {\n",
           (unsigned long)x->pairs);
    for (uint32_t i = 0; i < x->pairs; i++)
        printf("{%lu,%lu,%u,%u,%u,%u},%s", (unsigned long)x->pair[i].before,
               (unsigned long)x->pair[i].part0, x->pair[i].code0,
               x->pair[i].code1, x->pair[i].slot1, x->pair[i].slot2,
               i % 3 == 2 ? "\n" : "");
    printf("};\nstatic const kl_pair_guide kl_pair_guides[KL_HEADS] = {\n");
    for (unsigned h = 0; h < KL_HEADS; h++) {
        printf("{%u,{", x->pair_guide[h].shift);
        for (unsigned b = 0; b < KL_PAIR_GUIDE; b++)
            printf("%u,%s", x->pair_guide[h].at[b], b % 16 == 15 ? "\n" : "");
        printf("}},\n");
    }
    printf("};\n");
    printf("static const kl_entry kl_list[%lu] = {\n",
           (unsigned long)x->entries);
    for (uint32_t i = 0; i < x->entries; i++)
        printf("{%lu,%u,%u,%u},%s", (unsigned long)x->list[i].before,
               x->list[i].code, x->list[i].next, x->list[i].slot,
               i % 4 == 3 ? "\n" : "");
    printf("};\nstatic const kl_guide kl_guides[%u] = {\n", all);
    for (unsigned s = 0; s < all; s++) {
        printf("{%u,{", x->guide[s].shift);
        for (unsigned b = 0; b < KL_GUIDE; b++)
            printf("%u,%s", x->guide[s].at[b], b % 16 == 15 ? "\n" : "");
        printf("}},\n");
    }
    printf("};\n");
    return PTB_OK;
}

int main(void)
{
    kl_rows *x = calloc(1, sizeof *x);
    int rc = x ? PTB_OK : PTB_ENOMEM;
    if (rc == PTB_OK) {
        kl_build_masks(x);
        kl_build_rowstep(x);
        kl_build_msign(x);
        rc = kl_build_tables(x);
    }
    if (rc == PTB_OK)
        rc = kl_print_tables(x);
    if (x) {
        free(x->add);
        free(x->list_at);
        free(x->list);
        free(x->tail_at);
        free(x->guide);
        free(x->tail);
        free(x->pair);
        free(x);
    }
    if (rc != PTB_OK || fflush(stdout) != 0) {
        fprintf(stderr, "mktables_klotski: %s\n", ptb_strerror(rc));
        return 1;
    }
    return 0;
}

#else
/* ==== the puzzle ====================================================== */

#include "klotski_tables.h"

/* ==== bits ============================================================ */

/* The number of bits of m, or 2 if more. */
static unsigned kl_popcount2(uint32_t m)
{
    return (m != 0) + ((m & (m - 1)) != 0);
}

/* The 2x2 block's cells. */
static uint32_t kl_block_cells(unsigned head)
{
    return 0x33u << head;
}

/* Placements one cell away from those in x, in any direction. */
static uint32_t kl_neighbours(uint32_t x)
{
    return (x >> 4) | ((x << 4) & KL_FULL) | ((x >> 1) & ~KL_COL3)
        | ((x << 1) & ~KL_COL0 & KL_FULL);
}

/* Placements one cell away in direction d (0 up, 1 down, 2 left, 3 right). */
uint32_t kl_shift(uint32_t x, unsigned d)
{
    switch (d) {
    case 0:  return x >> 4;
    case 1:  return (x << 4) & KL_FULL;
    case 2:  return (x >> 1) & ~KL_COL3;
    default: return (x << 1) & ~KL_COL0 & KL_FULL;
    }
}

/* Destinations of a piece on cell p whose fitting placements are fit. */
KL_HOT uint32_t kl_reach(unsigned metric, uint32_t fit, unsigned p)
{
    uint32_t from = 1u << p, to = 0;
    if (metric == KL_STEP)
        return kl_neighbours(from) & fit;
    if (metric == KL_LINE) {
        for (unsigned d = 0; d < 4; d++)
            for (uint32_t y = kl_shift(from, d) & fit; y;
                 y = kl_shift(y, d) & fit)
                to |= y;
        return to;
    }
    for (uint32_t r = from; r != to;) {
        to = r;
        r = (r | kl_neighbours(r)) & fit;
    }
    return to & ~from;
}

/* Each row's four cells in reverse order. */
static uint32_t kl_flip_rows(uint32_t m)
{
    m = (m & 0x55555u) << 1 | (m >> 1 & 0x55555u);
    return (m & 0x33333u) << 2 | (m >> 2 & 0x33333u);
}

/* Bit i of m to bit 2i. */
static uint64_t kl_spread(uint32_t m)
{
    uint64_t x = m;
    x = (x | x << 16) & 0x0000FFFF0000FFFFull;
    x = (x | x << 8) & 0x00FF00FF00FF00FFull;
    x = (x | x << 4) & 0x0F0F0F0F0F0F0F0Full;
    x = (x | x << 2) & 0x3333333333333333ull;
    return (x | x << 1) & 0x5555555555555555ull;
}

/* ==== rank and unrank ================================================= */

/* The state of row r (cells covered from above, empty cells before it),
 * given the layout's empty cells e and 2x1 pieces v; *covered gets the
 * covered cells. */
KL_HOT unsigned kl_row_state(unsigned hid, unsigned r, uint32_t e,
                             uint32_t v, unsigned *covered)
{
    *covered = kl_cover[hid][r] | (r ? v >> 4 * (r - 1) & 15 : 0);
    return kl_state(*covered, kl_popcount2(e & ((1u << 4 * r) - 1)));
}

/* The rank part of a row code in a row whose state's parts start at base
 * in kl_add, with 'covered' covered from above. */
KL_HOT uint32_t kl_code_part(uint32_t base, unsigned covered, unsigned code)
{
    return kl_add[base + kl_squeeze[covered][code & 255]];
}

/* The part of a rank that row r adds, given the layout's unit types t, its
 * empty cells e and its 2x1 pieces v (only rows up to r matter); at is
 * kl_add_at, or kl_cadd_at for a mirror class's rows up to its first that
 * is not its own mirror image. */
KL_HOT uint32_t kl_part(const uint32_t (*at)[KL_ROWS][KL_STATES],
                        unsigned hid, unsigned r, uint64_t t, uint32_t e,
                        uint32_t v)
{
    unsigned covered, st = kl_row_state(hid, r, e, v, &covered);
    return kl_code_part(at[hid][r][st], covered, (unsigned)(t >> 8 * r));
}

/* l's rank among the layouts with its 2x2 place, or with sym > 0 among the
 * mirror classes of its place (l stands for its class; sym as
 * kl_sym_rows() gives it). */
static inline uint32_t kl_offset(const kl_layout *l, unsigned hid,
                                 unsigned sym)
{
    uint32_t off = 0;
    for (unsigned r = 0; r < KL_ROWS; r++)
        off += kl_part(r < sym ? kl_cadd_at : kl_add_at, hid, r, l->t, l->e,
                       l->v);
    return off;
}

/* For a layout with the 2x2 block in columns 2-3 (its mirror has it there
 * too): the number of rows from the top up to the first that is not its
 * own mirror image, that one included (5 when the layout is its own
 * mirror image), and whether the mirror stands for the pair (its row there
 * sorts first). */
static unsigned kl_sym_rows(uint64_t t, int *flip)
{
    for (unsigned r = 0; r < KL_ROWS; r++) {
        unsigned sign = kl_msign[t >> 8 * r & 255];
        if (sign != KL_SYM) {
            *flip = sign == KL_SECOND;
            return r + 1;
        }
    }
    *flip = 0;
    return KL_ROWS;
}

/* Bit 2i of x to bit i (the other bits are ignored): kl_spread undone. */
static uint32_t kl_gather(uint64_t x)
{
    x &= 0x5555555555555555ull;
    x = (x | x >> 1) & 0x3333333333333333ull;
    x = (x | x >> 2) & 0x0F0F0F0F0F0F0F0Full;
    x = (x | x >> 4) & 0x00FF00FF00FF00FFull;
    x = (x | x >> 8) & 0x0000FFFF0000FFFFull;
    return (uint32_t)(x | x >> 16);
}

/* Completes a layout from t and head: the cells whose type has its low
 * bit set, and its high bit, give the three kinds of pieces. */
void kl_from_rows(uint64_t t, unsigned head, kl_layout *l)
{
    uint32_t lo = kl_gather(t), hi = kl_gather(t >> 1);
    uint32_t h = lo & ~hi, v = hi & ~lo, s = lo & hi;
    l->t = t;
    l->h = h;
    l->v = v;
    l->s = s;
    l->head = head;
    l->e = KL_FULL & ~(h | h << 1 | v | v << 4 | s | kl_block_cells(head));
}

/* The mirror image of l. */
void kl_mirror(const kl_layout *l, kl_layout *out)
{
    uint32_t h = kl_flip_rows(l->h) >> 1, v = kl_flip_rows(l->v);
    uint32_t s = kl_flip_rows(l->s);
    out->t = kl_spread(h) | kl_spread(v) << 1 | kl_spread(s) * 3;
    out->h = h;
    out->v = v;
    out->s = s;
    out->e = kl_flip_rows(l->e);
    out->head = l->head + 2 - 2 * (l->head % 4);
}

/* The index of the state that stands for l; *flip: that is l's mirror
 * image.  The block in columns 3-4 stands as its mirror; in columns 2-3, the
 * mirror stands when it sorts first. */
uint32_t kl_state_of(const kl_layout *l, int *flip)
{
    kl_layout m;
    unsigned sym = 0;
    *flip = l->head % 4 == 2;
    if (l->head % 4 == 1)
        sym = kl_sym_rows(l->t, flip);
    if (*flip)
        kl_mirror(l, &m);
    const kl_layout *s = *flip ? &m : l;
    unsigned hid = (unsigned)kl_head_id[s->head];
    return kl_sfirst[hid] + kl_offset(s, hid, sym);
}

/* Finds rank off in a slot's list: the entry whose span holds it. */
static const kl_entry *kl_find(unsigned slot, uint32_t off)
{
    const kl_guide *g = &kl_guides[slot];
    const kl_entry *e = kl_list + kl_list_at[slot];
    const kl_entry *end = kl_list + kl_list_at[slot + 1] - 1;
    e += g->at[off >> g->shift];
    while (e < end && e[1].before <= off)
        e++;
    return e;
}

/* The layout that stands for mirror class off of 2x2 place hid (columns
 * 2-3), row by row from the place's class slot: each row's list gives its
 * code and the slot of the next row, a class slot while the rows are
 * their own mirror image. */
static void kl_unrank_class(unsigned hid, uint32_t off, kl_layout *l,
                            kl_rowinfo *ri)
{
    uint64_t t = 0;
    unsigned slot = kl_start_slot[hid];
    int flip;
    for (unsigned r = 0; r < KL_ROWS; r++) {
        const kl_entry *e = kl_find(slot, off);
        ri->covered[r] = kl_slot_cover[slot];
        ri->base[r] = kl_slot_base[slot];
        ri->part[r] = e->before;
        off -= e->before;
        t |= (uint64_t)e->code << 8 * r;
        slot = e->slot;
    }
    kl_from_rows(t, kl_head_cell[hid], l);
    ri->sym = kl_sym_rows(t, &flip);
}

/* The layout of rank off among those of 2x2 place hid, and its rows' rank
 * parts (ri->rank is left to the caller): rows 1-2 by a guided search of
 * the place's list of pairs, row 3 of its state's list (the entries hold
 * the parts), rows 4-5 by one read of their completions. */
static void kl_unrank_at(unsigned hid, uint32_t off, kl_layout *l,
                         kl_rowinfo *ri)
{
    const kl_pair_guide *pg = &kl_pair_guides[hid];
    const kl_pair *p = kl_pairs + kl_pair_at[hid];
    const kl_pair *pend = kl_pairs + kl_pair_at[hid + 1] - 1;
    unsigned c;
    p += pg->at[off >> pg->shift];
    while (p < pend && p[1].before <= off)
        p++;
    ri->sym = 0;
    ri->covered[0] = kl_cover[hid][0];
    ri->base[0] = kl_add_at[hid][0][kl_state(kl_cover[hid][0], 0)];
    ri->part[0] = p->part0;
    ri->covered[1] = kl_slot_cover[p->slot1];
    ri->base[1] = kl_slot_base[p->slot1];
    ri->part[1] = p->before - p->part0;
    off -= p->before;
    uint64_t t = p->code0 | (uint64_t)p->code1 << 8;
    unsigned slot = p->slot2;
    const kl_entry *e = kl_find(slot, off);
    ri->covered[2] = kl_slot_cover[slot];
    ri->base[2] = kl_slot_base[slot];
    ri->part[2] = e->before;
    off -= e->before;
    t |= (uint64_t)e->code << 16;
    slot = e->slot;
    unsigned tail = kl_tail[kl_tail_at[slot] + off];
    t |= (uint64_t)tail << 8 * (KL_ROWS - 2);
    kl_from_rows(t, kl_head_cell[hid], l);
    ri->covered[3] = kl_slot_cover[slot];
    ri->base[3] = kl_slot_base[slot];
    ri->part[3] = kl_code_part(ri->base[3], ri->covered[3], tail);
    ri->base[4] = kl_add_at[hid][4][kl_row_state(hid, 4, l->e, l->v, &c)];
    ri->covered[4] = (uint8_t)c;
    ri->part[4] = off - ri->part[3];
}

/* The place of an index among firsts (12 + 1 starts): the last start at
 * or below idx. */
static unsigned kl_place(const uint32_t *first, uint32_t idx)
{
    unsigned hid = 0;
    for (unsigned k = 1; k < KL_HEADS; k++)
        hid += idx >= first[k];
    return hid;
}

/* The layout of a state index. */
void kl_unrank(uint32_t idx, kl_layout *l, kl_rowinfo *ri)
{
    unsigned hid = kl_place(kl_sfirst, idx);
    if (kl_centred(hid))
        kl_unrank_class(hid, idx - kl_sfirst[hid], l, ri);
    else
        kl_unrank_at(hid, idx - kl_sfirst[hid], l, ri);
    ri->rank = idx;
}

/* The layouts (ShortCodes), and the table's states (a layout and its
 * mirror image one). */
uint32_t kl_layouts(void)
{
    return kl_first[KL_HEADS];
}

uint32_t kl_states(void)
{
    return kl_sfirst[KL_HEADS];
}

/* A layout's ShortCode number: its rank among all layouts in CommonCode
 * order (kl_unrank_short()'s inverse). */
uint32_t kl_short_rank(const kl_layout *l)
{
    unsigned hid = (unsigned)kl_head_id[l->head];
    return kl_first[hid] + kl_offset(l, hid, 0);
}

/* The layout of a ShortCode's number. */
void kl_unrank_short(uint32_t n, kl_layout *l)
{
    unsigned hid = kl_place(kl_first, n);
    kl_rowinfo ri;
    kl_unrank_at(hid, n - kl_first[hid], l, &ri);
}

/* What ranking l, a state's layout, finds row by row (kl_rowinfo);
 * returns its state index (kl_state_of() without the mirror). */
uint32_t kl_rows_of(const kl_layout *l, kl_rowinfo *ri)
{
    unsigned hid = (unsigned)kl_head_id[l->head], c;
    int flip;
    ri->sym = kl_centred(hid) ? kl_sym_rows(l->t, &flip) : 0;
    ri->rank = kl_sfirst[hid];
    for (unsigned r = 0; r < KL_ROWS; r++) {
        unsigned st = kl_row_state(hid, r, l->e, l->v, &c);
        ri->base[r] = (r < ri->sym ? kl_cadd_at : kl_add_at)[hid][r][st];
        ri->covered[r] = (uint8_t)c;
        ri->part[r] = kl_code_part(ri->base[r], c, (unsigned)(l->t >> 8 * r));
        ri->rank += ri->part[r];
    }
    return ri->rank;
}

/* ==== CommonCode ====================================================== */

uint64_t kl_common_code(const kl_layout *l)
{
    uint32_t covered = kl_block_cells(l->head) | l->h << 1 | l->v << 4;
    uint32_t body = 0;
    unsigned shift = 32;
    for (unsigned i = 0; i < KL_CELLS; i++) {
        if (covered >> i & 1)
            continue;
        shift -= 2;
        body |= (uint32_t)(l->t >> 2 * i & 3) << shift;
    }
    return (uint64_t)l->head << 32 | body;
}

/* Decodes a CommonCode; NULL, or why it is not a layout. */
const char *kl_decode(uint64_t code, kl_layout *l)
{
    unsigned head = (unsigned)(code >> 32);
    uint32_t body = (uint32_t)code;
    if (head >= KL_CELLS || kl_head_id[head] < 0)
        return "the 2x2 block does not fit at that cell";
    uint32_t used = kl_block_cells(head);
    uint64_t t = 0;
    for (unsigned i = 0; i < KL_CELLS; i++) {
        if (used >> i & 1)
            continue;
        unsigned ty = body >> 30;
        body <<= 2;
        uint32_t cells = kl_shape[ty] << i;
        if ((ty == KL_HORZ && i % 4 == 3) || cells > KL_FULL
            || (used & cells))
            return "a piece does not fit on the board";
        used |= cells;
        t |= (uint64_t)ty << 2 * i;
    }
    if (body)
        return "it has more pieces than the board holds";
    kl_from_rows(t, head, l);
    if (ptb_popcount(l->e) < KL_MIN_EMPTY)
        return "it has fewer than 2 empty cells";
    return NULL;
}

/* ==== moves =========================================================== */

/* Type of the piece whose top-left cell is p. */
unsigned kl_type_at(const kl_layout *l, unsigned p)
{
    return p == l->head ? KL_BLOCK : (unsigned)(l->t >> 2 * p & 3);
}

/* The layout after moving the piece on p (of type ty) to q. */
void kl_move(const kl_layout *l, unsigned ty, unsigned p, unsigned q,
             kl_layout *out)
{
    *out = *l;
    out->e = (l->e | kl_shape[ty] << p) & ~(kl_shape[ty] << q);
    uint32_t flip = 1u << p | 1u << q;
    switch (ty) {
    case KL_BLOCK: out->head = q; return;
    case KL_HORZ:  out->h ^= flip; break;
    case KL_VERT:  out->v ^= flip; break;
    default:       out->s ^= flip; break;
    }
    out->t ^= (uint64_t)ty << 2 * p ^ (uint64_t)ty << 2 * q;
}

KL_HOT void kl_emit(kl_sink *o, uint32_t idx, unsigned code)
{
    if (o->mv) {
        o->mv[o->n].to = idx;
        o->mv[o->n].code = code;
    }
    if (o->to)
        o->to[o->n] = idx;
    o->n++;
}

/* The piece of type ty on p moves to q: the state of the successor, with
 * KL_FLIP in the move's code when its mirror image stands for it. */
static void kl_full_move(const kl_layout *l, unsigned ty, unsigned p,
                         unsigned q, kl_sink *o)
{
    kl_layout after;
    int flip;
    kl_move(l, ty, p, q, &after);
    uint32_t idx = kl_state_of(&after, &flip);
    kl_emit(o, idx, p | q << 5 | (flip ? KL_FLIP : 0));
}

/* The moves of the pieces other than the 2x2 block whose top-left cells
 * are in 'pieces', by cell, then destinations by cell.  A move changes only
 * the rows it touches, so only their rank parts are redone, from the unit
 * types, empty cells and 2x1 pieces after it; the first of those rows keeps
 * its state (what is covered from above and the empty cells before it), so
 * only its code is looked up again.  A mirror class's rows up to its first
 * that is not its own mirror image decide which of the pair stands for it:
 * a move that touches them is ranked from scratch. */
KL_HOT void kl_piece_moves(const kl_ctx *x, const kl_layout *l,
                           const kl_rowinfo *ri, uint32_t pieces, kl_sink *o)
{
    unsigned hid = (unsigned)kl_head_id[l->head];
    const uint32_t *part = ri->part, *base = ri->base, rank = ri->rank;
    const uint8_t *covered = ri->covered;
    for (; pieces; pieces &= pieces - 1) {
        unsigned p = ptb_low_bit(pieces), ty = (unsigned)(l->t >> 2 * p & 3);
        uint32_t vert = l->v >> p & 1;       /* a 2x1 piece */
        uint32_t shape = kl_shape[ty], e0 = l->e | shape << p;
        uint32_t dest = kl_reach(x->metric, kl_fit(ty, e0), p);
        uint64_t t0 = l->t ^ (uint64_t)ty << 2 * p;
        uint32_t v0 = l->v & ~(1u << p);
        for (; dest; dest &= dest - 1) {
            unsigned q = ptb_low_bit(dest);
            uint64_t t = t0 ^ (uint64_t)ty << 2 * q;
            uint32_t e = e0 & ~(shape << q), v = v0 | vert << q;
            unsigned r0 = (p < q ? p : q) / 4;
            unsigned r1 = ((p > q ? p : q) + 4 * vert) / 4;
            if (r0 < ri->sym) {
                kl_full_move(l, ty, p, q, o);
                continue;
            }
            uint32_t idx = rank - part[r0]
                + kl_code_part(base[r0], covered[r0], (unsigned)(t >> 8 * r0));
            for (unsigned r = r0 + 1; r <= r1; r++)
                idx += kl_part(kl_add_at, hid, r, t, e, v) - part[r];
            kl_emit(o, idx, p | q << 5);
        }
    }
}

/* Every move from l, pieces by top-left cell (the 2x2 block in its turn),
 * then destinations by cell.  Only a piece next to an empty cell can
 * move. */
KL_HOT unsigned kl_moves_of(const kl_ctx *x, const kl_layout *l,
                            const kl_rowinfo *ri, ptb_move *mv, uint64_t *to)
{
    kl_sink o = { mv, to, 0 };
    uint32_t near = kl_neighbours(l->e);
    uint32_t pieces = (l->h & (near | near >> 1)) | (l->v & (near | near >> 4))
        | (l->s & near);
    uint32_t before = (1u << l->head) - 1;
    kl_piece_moves(x, l, ri, pieces & before, &o);
    if (kl_block_cells(l->head) & near) {
        unsigned p = l->head;
        uint32_t fit = kl_fit(KL_BLOCK, l->e | kl_block_cells(p));
        for (uint32_t dest = kl_reach(x->metric, fit, p); dest;
             dest &= dest - 1)
            kl_full_move(l, KL_BLOCK, p, ptb_low_bit(dest), &o);
    }
    kl_piece_moves(x, l, ri, pieces & ~before, &o);
    return o.n;
}

/* ==== ops: state space ================================================ */

void kl_close(void *ctx)
{
    free(ctx);
}

int kl_open(const ptb_puzzle *self, unsigned metric,
            void **ctx)
{
    (void)self;
    kl_ctx *x = calloc(1, sizeof *x);
    if (!x)
        return PTB_ENOMEM;
    x->metric = metric;
    *ctx = x;
    return PTB_OK;
}

uint32_t kl_subtables(const void *ctx)
{
    (void)ctx;
    return 1;
}

uint64_t kl_size(const void *ctx, uint32_t sub)
{
    (void)ctx;
    return sub == 0 ? kl_sfirst[KL_HEADS] : 0;
}

void kl_goals(const void *ctx, uint32_t sub,
              void (*emit)(void *arg, uint64_t idx), void *arg)
{
    unsigned hid = (unsigned)kl_head_id[KL_GOAL_HEAD];
    (void)ctx;
    if (sub != 0)
        return;
    for (uint64_t i = kl_sfirst[hid]; i < kl_sfirst[hid + 1]; i++)
        emit(arg, i);
}

int kl_is_goal(const void *ctx, uint32_t sub, uint64_t idx)
{
    unsigned hid = (unsigned)kl_head_id[KL_GOAL_HEAD];
    (void)ctx;
    return sub == 0 && idx >= kl_sfirst[hid] && idx < kl_sfirst[hid + 1];
}

unsigned kl_moves(const void *ctx, uint32_t sub, uint64_t idx,
                  ptb_move *out)
{
    kl_layout l;
    if (sub != 0 || idx >= kl_sfirst[KL_HEADS])
        return 0;
    kl_rowinfo ri;
    kl_unrank((uint32_t)idx, &l, &ri);
    return kl_moves_of(ctx, &l, &ri, out, NULL);
}

/* The states one move before a class are the classes of its
 * representative's successors: moves are reversible and commute with the
 * mirror, so if a successor of s is l or its mirror image, a move from l
 * reaches s or its mirror image. */
unsigned kl_unmoves(const void *ctx, uint32_t sub, uint64_t idx,
                    uint64_t *out)
{
    kl_layout l;
    if (sub != 0 || idx >= kl_sfirst[KL_HEADS])
        return 0;
    kl_rowinfo ri;
    kl_unrank((uint32_t)idx, &l, &ri);
    return kl_moves_of(ctx, &l, &ri, NULL, out);
}

/* The kept layout; 0 if it is not the layout of p's state (a position
 * not made by parse() and apply()). */
static int kl_kept(const ptb_position *p, kl_layout *s, kl_rowinfo *ri)
{
    kl_kept_layout(p, s);
    if (p->sub != 0 || s->head >= KL_CELLS || kl_head_id[s->head] < 0)
        return 0;
    return kl_rows_of(s, ri) == p->idx;
}

/* moves() of p's state, from its kept layout: no unranking. */
unsigned kl_position_moves(const void *ctx, const ptb_position *p,
                           ptb_move *out)
{
    kl_layout l;
    kl_rowinfo ri;
    if (kl_kept(p, &l, &ri))
        return kl_moves_of(ctx, &l, &ri, out, NULL);
    return kl_moves(ctx, p->sub, p->idx, out);
}

#endif /* PTB_MKTABLES */
