/* python/_puzzletb.c: puzzletb._puzzletb, the CPython extension module under
 * `import puzzletb` (python/puzzletb/__init__.py is the documented layer).
 *
 * It wraps libpuzzletb, linked statically (build/libpuzzletb.a), so the
 * module needs no libpuzzletb.so on the loader's path: `pip install .` and a
 * staged `make install` work before, or without, the shared library being
 * installed and registered with ldconfig; only liblmdb and libzstd, Debian
 * packages, are shared.  The library's structs never cross into Python: the
 * module turns them into tuples, so no other language mirrors their sizes.
 *
 * Objects:
 *   Space     a puzzle with one metric (ptb_space): parses queries
 *   Table     a table opened for reading (ptb_table), bound to a Space; solves
 *             (ptb_solve) and analyses (ptb_analyse); for a puzzle past a
 *             full table, its pattern tables (ptb_patterns), which solve
 *             by search (ptb_patterns_solve)
 *   Answer    a copy of one solution or analysis, for its JSON on demand
 *   Position, Move, Successor   named tuples (struct sequences) of answers
 *
 * Threads: the GIL is released while a query is parsed, walked, read and
 * its texts formatted (the work of a call, everything but building the
 * Python objects), so
 * threads sharing one Table answer in parallel.  A ptb_reader must not be
 * shared, so a Table keeps a small pool of "slots" (a reader, a solution and
 * an analysis buffer each) behind a mutex held only to pop and push: a call
 * takes a slot, works on it without the GIL, and returns it.  On a zstd
 * table (swap) a reader keeps the blocks it decoded (up to the table's
 * decoded size, about 10 MB), so warm calls decode nothing; POOL_MAX bounds
 * how many readers stay, and so the memory.  Tables read in place need no
 * reader memory.  Compiled with
 * -DPTB_PY_HOLD_GIL the module keeps the GIL instead, to show that the
 * thread test notices.
 *
 * Errors: the module's own exceptions (Error, ParseError, TableError,
 * Unsolvable) live in the module's state, as do the struct sequence types;
 * there is no global mutable state.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "puzzletb.h"

/* The installed tables directory, compiled in by `make install`'s build;
 * "" when there is none (the module built for the source tree). */
#ifndef PTB_TABLES_DIR
#define PTB_TABLES_DIR ""
#endif

#ifdef PTB_PY_HOLD_GIL
#define NOGIL_BEGIN {
#define NOGIL_END }
#else
#define NOGIL_BEGIN Py_BEGIN_ALLOW_THREADS
#define NOGIL_END Py_END_ALLOW_THREADS
#endif

#define MAX_OPTIONS 32       /* "NAME=VALUE" strings one query may pass */
#define POOL_MAX 8           /* idle slots a table keeps */
#define TEXT_CAP 4096        /* formatted text that fits on the stack */

typedef struct modstate {
    PyObject *Error, *ParseError, *TableError, *Unsolvable, *SearchLimit;
    PyTypeObject *Space, *Table, *Answer, *Position, *Move, *Successor;
    ptb_levels_cache *levels;    /* levels tables kept open across calls
                                    while their files stay the same */
} modstate;

static struct PyModuleDef module_def;

static modstate *state_of_type(PyTypeObject *type)
{
    PyObject *m = PyType_GetModuleByDef(type, &module_def);
    return m ? PyModule_GetState(m) : NULL;
}

/* ==== text helpers ==================================================== */

/* A UTF-8 view of a str argument; NULL with ParseError when it holds a NUL
 * (the library reads C strings), TypeError when it is no str. */
static const char *c_text(modstate *st, PyObject *o, const char *what)
{
    Py_ssize_t len;
    if (!PyUnicode_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s: expected str, got %.80s", what,
                     Py_TYPE(o)->tp_name);
        return NULL;
    }
    const char *s = PyUnicode_AsUTF8AndSize(o, &len);
    if (s && strlen(s) != (size_t)len) {
        PyErr_Format(st->ParseError, "%s: contains a NUL character", what);
        return NULL;
    }
    return s;
}

/* The options tuple as a NULL-terminated array of C strings (valid while
 * the tuple lives).  Returns 0, or -1 with an exception set. */
static int c_options(modstate *st, PyObject *opts, const char **out)
{
    if (opts == Py_None) {
        out[0] = NULL;
        return 0;
    }
    if (!PyTuple_Check(opts)) {
        PyErr_SetString(PyExc_TypeError, "options: expected a tuple");
        return -1;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(opts);
    if (n > MAX_OPTIONS) {
        PyErr_Format(st->ParseError, "too many options (%zd, at most %d)", n,
                     MAX_OPTIONS);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (!(out[i] = c_text(st, PyTuple_GET_ITEM(opts, i), "option")))
            return -1;
    out[n] = NULL;
    return 0;
}

typedef int (*board_fn)(const ptb_space *, const ptb_position *, char *,
                        size_t);

/* A str from a snprintf-style formatter: fmt(a, b, buf, cap).  Small texts
 * use the stack, longer ones the heap. */
#define FORMAT_STR(result, call_with)                                      \
    do {                                                                   \
        char stack_[TEXT_CAP], *buf_ = stack_;                             \
        int n_ = call_with(buf_, sizeof stack_);                           \
        if (n_ >= (int)sizeof stack_) {                                    \
            buf_ = malloc((size_t)n_ + 1);                                 \
            if (!buf_) {                                                   \
                (result) = PyErr_NoMemory();                               \
                break;                                                     \
            }                                                              \
            call_with(buf_, (size_t)n_ + 1);                               \
        }                                                                  \
        (result) = n_ == PTB_ECORRUPT ? NULL /* (a damaged ranking) */     \
                 : n_ < 0 ? PyUnicode_FromString("")                       \
                          : PyUnicode_DecodeUTF8(buf_, n_, "replace");      \
        if (buf_ != stack_)                                                \
            free(buf_);                                                    \
    } while (0)

static PyObject *board_str(const ptb_space *s, const ptb_position *p)
{
    PyObject *r;
#define CALL(b, c) ptb_format_board(s, p, b, c)
    FORMAT_STR(r, CALL);
#undef CALL
    return r;
}

static PyObject *move_str(const ptb_space *s, const ptb_position *before,
                          const ptb_move *m)
{
    PyObject *r;
#define CALL(b, c) ptb_format_move(s, before, m, b, c)
    FORMAT_STR(r, CALL);
#undef CALL
    return r;
}

/* A position's index, or None for a searched puzzle's (PTB_NO_INDEX). */
static PyObject *index_obj(const ptb_position *p)
{
    return p->idx == PTB_NO_INDEX ? Py_NewRef(Py_None)
                                  : PyLong_FromUnsignedLongLong(p->idx);
}

static PyObject *code_str(const ptb_space *s, const ptb_position *p)
{
    PyObject *r;
#define CALL(b, c) ptb_format_position_code(s, p, b, c)
    FORMAT_STR(r, CALL);
#undef CALL
    return r;
}

static PyObject *native_str(const ptb_space *s, const ptb_solution *sol)
{
    PyObject *r;
#define CALL(b, c) ptb_format_native(s, sol, b, c)
    FORMAT_STR(r, CALL);
#undef CALL
    return r;
}

/* ==== struct sequences ================================================ */

static PyStructSequence_Field position_fields[] = {
    { "subtable", "the position's subtable in the table" },
    { "index", "its index in that subtable (the table's order); None "
               "for a puzzle answered by search" },
    { "code", "the state's code (Klotski: its CommonCode; else the index "
              "or the puzzle's one-line form)" },
    { "board", "the board in the puzzle's notation, rows split by '\\n'" },
    { NULL, NULL }
};
static PyStructSequence_Desc position_desc = {
    "puzzletb.Position",
    "A parsed position: its place in the table and its board.",
    position_fields, 4
};

static PyStructSequence_Field move_fields[] = {
    { "text", "the move in the puzzle's notation ('3242', 'G D', "
              "'B 24-14')" },
    { "board", "the board after the move (the same as position.board)" },
    { "code", "the library's number for the move (puzzle-defined)" },
    { "position", "the Position after the move" },
    { NULL, NULL }
};
static PyStructSequence_Desc move_desc = {
    "puzzletb.Move",
    "One move of a solution, and the position it leads to.",
    move_fields, 4
};

static PyStructSequence_Field successor_fields[] = {
    { "text", "the move in the puzzle's notation" },
    { "board", "the board after the move" },
    { "distance", "moves from there to the goal, or None when the goal "
                  "cannot be reached from there" },
    { "code", "the library's number for the move (puzzle-defined)" },
    { "position", "the Position after the move" },
    { NULL, NULL }
};
static PyStructSequence_Desc successor_desc = {
    "puzzletb.Successor",
    "A legal move out of a position with the distance after it.",
    successor_fields, 5
};

static PyObject *position_obj(modstate *st, const ptb_space *s,
                              const ptb_position *p, PyObject *board)
{
    PyObject *o = PyStructSequence_New(st->Position);
    if (!o)
        return NULL;
    PyObject *b = board ? Py_NewRef(board) : board_str(s, p);
    PyObject *v[4] = { PyLong_FromUnsignedLong(p->sub),
                       index_obj(p), code_str(s, p),
                       b };
    int bad = 0;
    if (!v[2] && !PyErr_Occurred())     /* its stored ranking found damaged */
        PyErr_SetString(st->TableError, ptb_strerror(PTB_ECORRUPT));
    for (int i = 0; i < 4; i++) {
        bad |= !v[i];
        PyStructSequence_SET_ITEM(o, i, v[i] ? v[i] : Py_NewRef(Py_None));
    }
    if (bad)
        Py_CLEAR(o);
    return o;
}

static PyObject *distance_obj(unsigned d)
{
    return d == PTB_UNSOLVABLE ? Py_NewRef(Py_None)
                               : PyLong_FromUnsignedLong(d);
}

/* ==== Space =========================================================== */

typedef struct {
    PyObject_HEAD
    ptb_space *s;
    ptb_puzzle *p;             /* a described puzzle, loaded; or NULL */
} SpaceObject;

/* The puzzle called name: built in, or described by a table in tables
 * (NULL: none looked for).  NULL with an exception set. */
static ptb_puzzle *find_puzzle(modstate *st, const char *name,
                               const char *tables)
{
    ptb_puzzle *p = (ptb_puzzle *)ptb_puzzle_find(name);
    int rc = p || !tables ? PTB_OK : ptb_puzzle_lookup(tables, name, &p);
    if (p)
        return p;
    if (rc == PTB_ENOMEM)
        return (ptb_puzzle *)PyErr_NoMemory();
    if (rc != PTB_OK && rc != PTB_EINVAL)       /* tblookup's words */
        PyErr_Format(st->TableError, "%s: %s: %s", tables, name,
                     ptb_strerror(rc));
    else if (tables)
        PyErr_Format(st->ParseError, "unknown puzzle '%s' (not built in, "
                     "and no table of that name in %s)", name, tables);
    else
        PyErr_Format(st->ParseError, "unknown puzzle '%s'", name);
    return NULL;
}

static PyObject *Space_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = { "puzzle", "metric", "tables", NULL };
    const char *puzzle, *metric = NULL, *tables = NULL;
    modstate *st = state_of_type(type);
    if (!st || !PyArg_ParseTupleAndKeywords(args, kw, "s|zz:Space", kwlist,
                                            &puzzle, &metric, &tables))
        return NULL;
    ptb_puzzle *p = find_puzzle(st, puzzle, tables);
    if (!p)
        return NULL;
    SpaceObject *self = (SpaceObject *)type->tp_alloc(type, 0);
    if (!self) {
        ptb_puzzle_free(p);
        return NULL;
    }
    self->p = ptb_puzzle_description(p) ? p : NULL;
    int rc = ptb_space_new(p, metric, &self->s);
    if (rc == PTB_OK)
        return (PyObject *)self;
    char list[256];
    unsigned m = 0;
    ptb_puzzle_metrics(p, list, sizeof list);
    for (unsigned i = 0; ptb_puzzle_metric(p, i); i++)
        m += metric && !strcmp(metric, ptb_puzzle_metric(p, i));
    if (rc == PTB_ENOMEM)
        PyErr_NoMemory();
    else if (metric && !m)                       /* tblookup's words */
        PyErr_Format(st->ParseError, "%s has no metric '%s' (%s: %s)",
                     puzzle, metric, ptb_puzzle_metric(p, 1)
                     ? "metrics" : "its one metric", list);
    else                   /* a stored ranking that fails: the table's */
        PyErr_Format(rc == PTB_EFORMAT || rc == PTB_ECORRUPT
                         ? st->TableError : st->ParseError,
                     "%s: %s", puzzle, ptb_strerror(rc));
    Py_DECREF(self);                             /* frees p */
    return NULL;
}

static void Space_dealloc(SpaceObject *self)
{
    PyTypeObject *type = Py_TYPE(self);
    ptb_space_close(self->s);
    ptb_puzzle_free(self->p);
    type->tp_free(self);
    Py_DECREF(type);
}

/* One query's arguments as C strings (valid while the Python arguments
 * live) and what the library's parse makes of them. */
typedef struct query {
    const char *text;
    const char *opts[MAX_OPTIONS + 1];
    ptb_position starts[2];
    unsigned n;
    char err[512];
} query;

/* Reads the Python arguments of a query; 0, or -1 with an exception. */
static int query_args(modstate *st, PyObject *text, PyObject *opts,
                      query *q)
{
    q->text = NULL;
    if (text != Py_None && !(q->text = c_text(st, text, "position")))
        return -1;
    return c_options(st, opts, q->opts);
}

/* Parses a query; needs no GIL. */
static int query_parse(const ptb_space *s, query *q)
{
    return ptb_parse(s, q->text, q->opts, q->starts, &q->n, q->err,
                     sizeof q->err);
}

/* A failed parse as a Python exception; returns -1. */
static int parse_error(modstate *st, const query *q, int rc)
{
    if (rc == PTB_ENOMEM)
        PyErr_NoMemory();
    else                   /* (PTB_ECORRUPT: a stored ranking found damaged) */
        PyErr_SetString(rc == PTB_ECORRUPT ? st->TableError : st->ParseError,
                        q->err);
    return -1;
}

PyDoc_STRVAR(Space_parse_doc,
"parse(text, options) -> list of Position\n\n"
"The candidate starts of one query (1, or 2 when the query leaves a choice\n"
"open, such as who moves first).  text is a str or None, options a tuple\n"
"of 'NAME=VALUE' strings.  Raises ParseError with the library's message.");

static PyObject *Space_parse(SpaceObject *self, PyObject *args)
{
    PyObject *text, *opts;
    query q;
    int rc;
    modstate *st = state_of_type(Py_TYPE(self));
    if (!st || !PyArg_ParseTuple(args, "OO:parse", &text, &opts) ||
        query_args(st, text, opts, &q) != 0)
        return NULL;
    NOGIL_BEGIN
    rc = query_parse(self->s, &q);
    NOGIL_END
    if (rc != PTB_OK)
        return parse_error(st, &q, rc), NULL;
    PyObject *list = PyList_New(q.n);
    for (unsigned i = 0; list && i < q.n; i++) {
        PyObject *p = position_obj(st, self->s, &q.starts[i], NULL);
        if (!p)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, i, p);
    }
    return list;
}

static PyObject *Space_get_puzzle(SpaceObject *self, void *unused)
{
    (void)unused;
    return PyUnicode_FromString(ptb_puzzle_name(ptb_space_puzzle(self->s)));
}

static PyObject *Space_get_metric(SpaceObject *self, void *unused)
{
    (void)unused;
    return PyUnicode_FromString(ptb_space_metric(self->s));
}

static PyObject *Space_get_file(SpaceObject *self, void *unused)
{
    char file[256];
    (void)unused;
    ptb_space_file(self->s, file, sizeof file);
    return PyUnicode_FromString(file);
}

static PyObject *Space_get_patterns(SpaceObject *self, void *unused)
{
    (void)unused;
    return PyLong_FromUnsignedLong(
        ptb_puzzle_patterns(ptb_space_puzzle(self->s)));
}

static PyMethodDef Space_methods[] = {
    { "parse", (PyCFunction)Space_parse, METH_VARARGS, Space_parse_doc },
    { NULL, NULL, 0, NULL }
};

static PyGetSetDef Space_getset[] = {
    { "puzzle", (getter)Space_get_puzzle, NULL, "the puzzle's name", NULL },
    { "metric", (getter)Space_get_metric, NULL, "the metric's name", NULL },
    { "file", (getter)Space_get_file, NULL,
      "the table's file name ('klotski-step.mdb')", NULL },
    { "patterns", (getter)Space_get_patterns, NULL,
      "how many pattern groups its description names (0: none); such a "
      "puzzle without a full table is answered by a search", NULL },
    { NULL, NULL, NULL, NULL, NULL }
};

/* CPython's slot tables keep functions in void * (as dlsym() returns
 * them); ISO C does not promise the conversion, POSIX and CPython do. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
static PyType_Slot Space_slots[] = {
    { Py_tp_doc, "Space(puzzle, metric=None, tables=None): a puzzle (built "
                 "in, or described by a table in the directory tables) with "
                 "one metric "
                 "(None: the default), ready to parse queries." },
    { Py_tp_new, Space_new },
    { Py_tp_dealloc, Space_dealloc },
    { Py_tp_methods, Space_methods },
    { Py_tp_getset, Space_getset },
    { 0, NULL }
};
#pragma GCC diagnostic pop

static PyType_Spec Space_spec = {
    "puzzletb._puzzletb.Space", sizeof(SpaceObject), 0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE, Space_slots
};

/* ==== Answer: a solution or analysis kept for its JSON ================= */

/* A copy of what the library answered, so that the JSON text (longer to
 * make than the objects) is made only when asked for. */
typedef struct {
    PyObject_HEAD
    SpaceObject *space;
    ptb_solution *sol;            /* one of the two */
    ptb_analysis *an;
    int searched;                 /* sol found by a search: its figures */
    ptb_search_stats stats;
} AnswerObject;

/* stats: the figures of the search that found sol, or NULL. */
static PyObject *answer_new(modstate *st, SpaceObject *space,
                            const ptb_solution *sol, const ptb_analysis *an,
                            const ptb_search_stats *stats)
{
    AnswerObject *a = PyObject_New(AnswerObject, st->Answer);
    if (!a)
        return NULL;
    a->space = (SpaceObject *)Py_NewRef(space);
    a->sol = NULL;
    a->an = NULL;
    a->searched = stats != NULL;
    if (stats)
        a->stats = *stats;
    if (sol && (a->sol = malloc(sizeof *sol)))
        *a->sol = *sol;
    /* an analysis's moves past n are never read */
    size_t used = an ? offsetof(ptb_analysis, move) +
                       an->n * sizeof an->move[0] : 0;
    if (an && (a->an = malloc(sizeof *an)))
        memcpy(a->an, an, used);
    if (!a->sol && !a->an) {
        Py_DECREF(a);
        return PyErr_NoMemory();
    }
    return (PyObject *)a;
}

static void Answer_dealloc(AnswerObject *self)
{
    PyTypeObject *type = Py_TYPE(self);
    free(self->sol);
    free(self->an);
    Py_XDECREF(self->space);
    PyObject_Free(self);
    Py_DECREF(type);
}

PyDoc_STRVAR(Answer_json_doc,
"json() -> str\n\n"
"The library's JSON answer (schema PTB_JSON_SCHEMA, see doc/guide.md):\n"
"ptb_format_json() for a solution (ptb_format_search_json(), with the\n"
"\"search\" member, for one found by a search), ptb_format_analysis_json()\n"
"for an analysis; each move with its structured form, \"detail\".");

static PyObject *Answer_json(AnswerObject *self, PyObject *unused)
{
    const ptb_space *s = self->space->s;
    PyObject *r;
    (void)unused;
    if (self->sol && self->searched) {
#define CALL(b, c) ptb_format_search_json(s, self->sol, &self->stats, b, c)
        FORMAT_STR(r, CALL);
#undef CALL
    } else if (self->sol) {
#define CALL(b, c) ptb_format_json(s, self->sol, b, c)
        FORMAT_STR(r, CALL);
#undef CALL
    } else {
#define CALL(b, c) ptb_format_analysis_json(s, self->an, NULL, b, c)
        FORMAT_STR(r, CALL);
#undef CALL
    }
    return r;
}

PyDoc_STRVAR(Answer_native_doc,
"native() -> str\n\n"
"The puzzle's native answer to a solution (ptb_format_native(): the\n"
"contest's output format), '' when unsolvable or for an analysis.");

static PyObject *Answer_native(AnswerObject *self, PyObject *unused)
{
    const ptb_space *s = self->space->s;
    (void)unused;
    if (!self->sol || self->sol->distance == PTB_UNSOLVABLE)
        return PyUnicode_FromString("");
    return native_str(s, self->sol);
}

static PyMethodDef Answer_methods[] = {
    { "json", (PyCFunction)Answer_json, METH_NOARGS, Answer_json_doc },
    { "native", (PyCFunction)Answer_native, METH_NOARGS, Answer_native_doc },
    { NULL, NULL, 0, NULL }
};

/* CPython's slot tables keep functions in void * (as dlsym() returns
 * them); ISO C does not promise the conversion, POSIX and CPython do. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
static PyType_Slot Answer_slots[] = {
    { Py_tp_doc, "What the library answered to one query, kept for its "
                 "JSON; made by Table.solve() and Table.analyse()." },
    { Py_tp_dealloc, Answer_dealloc },
    { Py_tp_methods, Answer_methods },
    { 0, NULL }
};
#pragma GCC diagnostic pop

static PyType_Spec Answer_spec = {
    "puzzletb._puzzletb.Answer", sizeof(AnswerObject), 0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE |
    Py_TPFLAGS_DISALLOW_INSTANTIATION, Answer_slots
};

/* ==== Table =========================================================== */

/* What one call works on, without the GIL; never shared between calls. */
typedef struct slot {
    ptb_reader *r;
    ptb_solution *sol;
    ptb_analysis *an;
    /* the solution's texts, made without the GIL: NUL-terminated strings
     * end to end; at[] gives where each starts (solution_texts()) */
    char *text;
    size_t cap;
    size_t at[3 * (PTB_MAX_DISTANCE + 1)];
    struct slot *next;
} slot;

/* The idle slots of a Table. */
typedef struct pool {
    pthread_mutex_t lock;         /* guards idle and nidle */
    slot *idle;
    unsigned nidle;
    const ptb_table *t;           /* a slot's reader reads it; NULL: none */
} pool;

/* A Table answers from its table; a puzzle past a full table (pattern
 * groups, no table of its own) from its pattern tables, by search. */
typedef struct {
    PyObject_HEAD
    SpaceObject *space;
    ptb_table *t;                 /* one of the two */
    ptb_patterns *pt;
    PyObject *path;               /* str: DIR/FILE, or DIR/NAME-pattern-*.mdb */
    PyObject *dir;                /* str: DIR */
    pool pool;
} TableObject;

static void slot_free(slot *sl)
{
    if (!sl)
        return;
    ptb_reader_free(sl->r);
    free(sl->sol);
    free(sl->an);
    free(sl->text);
    free(sl);
}

static void pool_init(pool *pl, const ptb_table *t)
{
    pthread_mutex_init(&pl->lock, NULL);
    pl->idle = NULL;
    pl->nidle = 0;
    pl->t = t;
}

static void pool_free(pool *pl)
{
    while (pl->idle) {
        slot *next = pl->idle->next;
        slot_free(pl->idle);
        pl->idle = next;
    }
    pthread_mutex_destroy(&pl->lock);
}

/* Pops an idle slot or makes one; NULL when out of memory.  No GIL. */
static slot *slot_get(pool *pl)
{
    pthread_mutex_lock(&pl->lock);
    slot *sl = pl->idle;
    if (sl) {
        pl->idle = sl->next;
        pl->nidle--;
    }
    pthread_mutex_unlock(&pl->lock);
    if (sl)
        return sl;
    sl = calloc(1, sizeof *sl);
    if (!sl)
        return NULL;
    sl->sol = malloc(sizeof *sl->sol);
    sl->an = malloc(sizeof *sl->an);
    if (!sl->sol || !sl->an ||
        (pl->t && ptb_reader_new(pl->t, &sl->r) != PTB_OK)) {
        slot_free(sl);
        return NULL;
    }
    return sl;
}

/* Returns a slot to the pool, or frees it when the pool is full. */
static void slot_put(pool *pl, slot *sl)
{
    pthread_mutex_lock(&pl->lock);
    int keep = pl->nidle < POOL_MAX;
    if (keep) {
        sl->next = pl->idle;
        pl->idle = sl;
        pl->nidle++;
    }
    pthread_mutex_unlock(&pl->lock);
    if (!keep)
        slot_free(sl);
}

/* Raises TableError(msg) with its attributes path and code (rc); msg
 * NULL (its making failed) leaves that exception.  Returns NULL. */
static PyObject *raise_table_error(modstate *st, PyObject *path,
                                   PyObject *msg, int rc)
{
    PyObject *e = msg ? PyObject_CallOneArg(st->TableError, msg) : NULL;
    if (e && PyObject_SetAttrString(e, "path", path) == 0) {
        PyObject *code = PyLong_FromLong(rc);
        if (code && PyObject_SetAttrString(e, "code", code) == 0)
            PyErr_SetObject(st->TableError, e);
        Py_XDECREF(code);
    }
    Py_XDECREF(e);
    return NULL;
}

/* Tables that cannot be used: TableError with why (ptb_answers_why:
 * tblookup's words, naming them and how to build them again), its path
 * the file named (NULL: the table's file in dir); MemoryError for
 * PTB_ENOMEM.  Returns NULL. */
static PyObject *answers_error(modstate *st, const ptb_space *s,
                               const char *dir, PyObject *path,
                               const char *why, int rc)
{
    char file[256];
    if (rc == PTB_ENOMEM)
        return PyErr_NoMemory();
    ptb_space_file(s, file, sizeof file);
    PyObject *p = path ? Py_NewRef(path)
                       : PyUnicode_FromFormat("%s/%s", dir, file);
    PyObject *msg = p ? PyUnicode_FromString(why) : NULL;
    if (p)
        raise_table_error(st, p, msg, rc);
    Py_XDECREF(msg);
    Py_XDECREF(p);
    return NULL;
}

static PyObject *Table_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = { "space", "directory", NULL };
    PyObject *space;
    const char *dir;
    modstate *st = state_of_type(type);
    if (!st || !PyArg_ParseTupleAndKeywords(args, kw, "O!s:Table", kwlist,
                                            st->Space, &space, &dir))
        return NULL;
    TableObject *self = (TableObject *)type->tp_alloc(type, 0);
    if (!self)
        return NULL;
    self->space = (SpaceObject *)Py_NewRef(space);
    pool_init(&self->pool, NULL);
    const ptb_space *s = self->space->s;
    char why[1024];
    int rc;
    NOGIL_BEGIN
    rc = ptb_answers_open(s, dir, NULL, &self->t, &self->pt, why, sizeof why);
    NOGIL_END
    self->pool.t = self->t;
    if (rc != PTB_OK) {
        answers_error(st, s, dir, NULL, why, rc);
        Py_DECREF(self);
        return NULL;
    }
    self->dir = PyUnicode_FromString(dir);
    self->path = self->t ? PyUnicode_FromString(ptb_table_path(self->t))
                 : PyUnicode_FromFormat("%s/%s-pattern-*.mdb", dir,
                                        ptb_puzzle_name(ptb_space_puzzle(s)));
    if (!self->path || !self->dir) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

static void Table_dealloc(TableObject *self)
{
    PyTypeObject *type = Py_TYPE(self);
    pool_free(&self->pool);
    ptb_table_close(self->t);
    ptb_patterns_close(self->pt);
    Py_XDECREF(self->path);
    Py_XDECREF(self->dir);
    Py_XDECREF(self->space);
    type->tp_free(self);
    Py_DECREF(type);
}

/* A failed read of the table, or of the pattern tables: TableError
 * naming them and how to build them again. */
static PyObject *read_error(modstate *st, TableObject *self, int rc)
{
    char why[1024];
    const char *dir = PyUnicode_AsUTF8(self->dir);
    if (!dir)
        return NULL;
    ptb_answers_why(self->space->s, dir, NULL, rc, why, sizeof why);
    return answers_error(st, self->space->s, dir, self->path, why, rc);
}

/* What needs a full table (analyse(), info()), asked of a Table that
 * answers by search: TableError naming the table missing, and why. */
static PyObject *needs_table(TableObject *self, const char *what)
{
    modstate *st = state_of_type(Py_TYPE(self));
    const ptb_space *s = self->space->s;
    char file[256];
    ptb_space_file(s, file, sizeof file);
    PyObject *path = st ? PyUnicode_FromFormat("%U/%s", self->dir, file)
                        : NULL;
    PyObject *msg = path ? PyUnicode_FromFormat(
        "%U: %s; %s needs a full table, and %s is answered by a search from "
        "its pattern tables (%U): solve() and distance() only", path,
        ptb_strerror(PTB_ENOTABLE), what,
        ptb_puzzle_name(ptb_space_puzzle(s)), self->path) : NULL;
    if (path)
        raise_table_error(st, path, msg, PTB_ENOTABLE);
    Py_XDECREF(msg);
    Py_XDECREF(path);
    return NULL;
}

/* A failed parse on a table: read_error() when the space found its stored
 * ranking damaged (PTB_ECORRUPT), else parse_error(); returns NULL. */
static PyObject *query_error(modstate *st, TableObject *self, const query *q,
                             int prc)
{
    if (prc == PTB_ECORRUPT)
        return read_error(st, self, prc);
    parse_error(st, q, prc);
    return NULL;
}

/* What solution_texts() formats. */
enum { T_MOVE, T_BOARD, T_CODE };

/* Appends one text to the slot's buffer and notes where it starts in
 * sl->at[k]; *len is the buffer's length so far.  0, or -1 when out of
 * memory.  Needs no GIL. */
static int put_text(const ptb_space *s, slot *sl, size_t *len, size_t k,
                    int kind, const ptb_position *p,
                    const ptb_position *before,
                    const ptb_move *m)
{
    for (;;) {
        char *buf = sl->text + *len;
        size_t room = sl->cap - *len;
        int n = kind == T_MOVE ? ptb_format_move(s, before, m, buf, room)
              : kind == T_BOARD ? ptb_format_board(s, p, buf, room)
              : ptb_format_position_code(s, p, buf, room);
        if (n < 0) {
            n = 0;
            if (room)
                *buf = '\0';
        }
        if ((size_t)n < room) {
            sl->at[k] = *len;
            *len += (size_t)n + 1;
            return 0;
        }
        size_t cap = 2 * sl->cap + (size_t)n + 1;
        char *more = realloc(sl->text, cap);
        if (!more)
            return -1;
        sl->text = more;
        sl->cap = cap;
    }
}

/* Formats the texts of sl->sol: for the start (index 0) and after each
 * move i (index i + 1), at[3 * index + T_BOARD] and T_CODE, and the move
 * itself at T_MOVE.  Returns PTB_OK or PTB_ENOMEM.  Needs no GIL. */
static int solution_texts(const ptb_space *s, slot *sl)
{
    const ptb_solution *sol = sl->sol;
    size_t len = 0;
    int bad = put_text(s, sl, &len, T_BOARD, T_BOARD, &sol->start, NULL,
                       NULL) ||
              put_text(s, sl, &len, T_CODE, T_CODE, &sol->start, NULL, NULL);
    for (unsigned i = 0; !bad && i < sol->distance; i++) {
        const ptb_position *before = i ? &sol->after[i - 1] : &sol->start;
        size_t k = 3 * (i + 1);
        bad = put_text(s, sl, &len, k + T_MOVE, T_MOVE, NULL, before,
                       &sol->move[i]) ||
              put_text(s, sl, &len, k + T_BOARD, T_BOARD, &sol->after[i],
                       NULL, NULL) ||
              put_text(s, sl, &len, k + T_CODE, T_CODE, &sol->after[i],
                       NULL, NULL);
    }
    return bad ? PTB_ENOMEM : PTB_OK;
}

/* What answers a query: a table walked, or a search guided by pattern
 * tables; and how a failure of either becomes an exception. */
typedef struct solver solver;
struct solver {
    SpaceObject *space;
    pool *pool;
    const ptb_table *t;              /* a table; NULL: pt */
    const ptb_patterns *pt;
    ptb_search_opts opts;            /* pt's search: threads and limits */
    ptb_search_stats stats;          /* ... and what it did */
    PyObject *owner;                 /* the Table */
    PyObject *(*fail)(modstate *, const solver *, int rc);  /* NULL back */
};

/* Parses a query, walks the table (or searches) and formats the answer's
 * texts, in one stretch without the GIL; on success *out holds a slot
 * with the solution (rc PTB_OK or PTB_NOTFOUND) and its texts, to be given
 * back by the caller.  Returns 0, or -1 with an exception. */
static int solve_query(modstate *st, solver *sv, PyObject *text,
                       PyObject *opts, slot **out, int *rc_out)
{
    query q;
    int prc, rc = PTB_ENOMEM;
    slot *sl = NULL;
    const ptb_space *s = sv->space->s;
    if (query_args(st, text, opts, &q) != 0)
        return -1;
    NOGIL_BEGIN
    prc = query_parse(s, &q);
    if (prc == PTB_OK && (sl = slot_get(sv->pool)))
        rc = sv->t ? ptb_solve(sv->t, sl->r, q.starts, q.n, sl->sol)
             : ptb_patterns_solve(sv->pt, q.starts, q.n, &sv->opts, sl->sol,
                                  &sv->stats);
    if (rc == PTB_NOTFOUND)
        sl->sol->distance = 0;          /* the start's texts only */
    if ((rc == PTB_OK || rc == PTB_NOTFOUND) &&
        solution_texts(s, sl) != PTB_OK)
        rc = PTB_ENOMEM;
    if (sl && rc == PTB_NOTFOUND)
        sl->sol->distance = PTB_UNSOLVABLE;
    NOGIL_END
    if (prc != PTB_OK && prc != PTB_ECORRUPT)
        return parse_error(st, &q, prc);
    if (prc != PTB_OK || (rc != PTB_OK && rc != PTB_NOTFOUND)) {
        if (sl)
            slot_put(sv->pool, sl);
        sv->fail(st, sv, prc != PTB_OK ? prc : rc);
        return -1;
    }
    *out = sl;
    *rc_out = rc;
    return 0;
}

/* distance() of a full table. */
static PyObject *table_distance(TableObject *self, PyObject *args,
                                PyObject *kw)
{
    static char *kwlist[] = { "text", "options", "threads", "seconds",
                              "nodes", NULL };
    modstate *st = state_of_type(Py_TYPE(self));
    PyObject *text, *opts;
    query q;
    unsigned best = PTB_UNSOLVABLE, d, threads;
    double seconds;
    unsigned long long nodes;
    int prc, rc = PTB_ENOMEM;
    slot *sl = NULL;
    if (!st || !PyArg_ParseTupleAndKeywords(args, kw, "OO|IdK:distance",
                                            kwlist, &text, &opts, &threads,
                                            &seconds, &nodes) ||
        query_args(st, text, opts, &q) != 0)
        return NULL;
    NOGIL_BEGIN
    prc = query_parse(self->space->s, &q);
    if (prc == PTB_OK && (sl = slot_get(&self->pool)))
        for (unsigned i = 0; i < q.n; i++) {
            rc = ptb_distance(self->t, sl->r, &q.starts[i], &d);
            if (rc == PTB_NOTFOUND)
                rc = PTB_OK;
            if (rc != PTB_OK)
                break;
            if (d < best)
                best = d;
        }
    NOGIL_END
    if (sl)
        slot_put(&self->pool, sl);
    if (prc != PTB_OK)
        return query_error(st, self, &q, prc);
    if (rc != PTB_OK)
        return read_error(st, self, rc);
    return distance_obj(best);
}

/* A str of the slot's texts. */
static PyObject *slot_str(const slot *sl, size_t k)
{
    const char *t = sl->text + sl->at[k];
    return PyUnicode_DecodeUTF8(t, (Py_ssize_t)strlen(t), "replace");
}

/* A Position from a slot's texts: index 0 the start, i + 1 after move i;
 * board, when given, is its board (a new reference is taken). */
static PyObject *slot_position(modstate *st, const slot *sl,
                               const ptb_position *p, size_t index,
                               PyObject *board)
{
    PyObject *o = PyStructSequence_New(st->Position);
    if (!o)
        return NULL;
    PyObject *v[4] = { PyLong_FromUnsignedLong(p->sub),
                       index_obj(p),
                       slot_str(sl, 3 * index + T_CODE),
                       board ? Py_NewRef(board)
                             : slot_str(sl, 3 * index + T_BOARD) };
    int bad = 0;
    for (int i = 0; i < 4; i++) {
        bad |= !v[i];
        PyStructSequence_SET_ITEM(o, i, v[i] ? v[i] : Py_NewRef(Py_None));
    }
    if (bad)
        Py_CLEAR(o);
    return o;
}

/* The moves of a solution as a list of Move, from the slot's texts. */
static PyObject *moves_list(modstate *st, const slot *sl)
{
    const ptb_solution *sol = sl->sol;
    PyObject *list = PyList_New(sol->distance);
    for (unsigned i = 0; list && i < sol->distance; i++) {
        size_t k = 3 * (i + 1);
        PyObject *m = PyStructSequence_New(st->Move);
        PyObject *board = slot_str(sl, k + T_BOARD);
        PyObject *pos = board ? slot_position(st, sl, &sol->after[i], i + 1,
                                              board)
                              : NULL;
        PyObject *v[4] = { slot_str(sl, k + T_MOVE), board,
                           PyLong_FromUnsignedLong(sol->move[i].code), pos };
        int bad = !m;
        for (int j = 0; j < 4; j++) {
            bad |= !v[j];
            if (m)
                PyStructSequence_SET_ITEM(m, j,
                                          v[j] ? v[j] : Py_NewRef(Py_None));
            else
                Py_XDECREF(v[j]);
        }
        if (bad) {
            Py_XDECREF(m);
            Py_CLEAR(list);
        } else {
            PyList_SET_ITEM(list, i, m);
        }
    }
    return list;
}

/* The search's figures, as the JSON's "search" member has them. */
static PyObject *search_obj(const ptb_search_stats *x)
{
    return Py_BuildValue("{sOsKsIsIsd}", "optimal", Py_True, "nodes",
                         (unsigned long long)x->nodes, "iterations",
                         x->iterations, "bound", x->bound, "seconds",
                         x->seconds);
}

/* A query's answer as solve() gives it: (distance, start, moves, answer),
 * and the search's figures last when it was searched. */
static PyObject *solve_answer(solver *sv, PyObject *args)
{
    modstate *st = state_of_type(Py_TYPE(sv->owner));
    PyObject *text, *opts;
    slot *sl;
    int rc;
    if (!st || !PyArg_ParseTuple(args, "OO", &text, &opts) ||
        solve_query(st, sv, text, opts, &sl, &rc) != 0)
        return NULL;
    const ptb_solution *sol = sl->sol;
    int ok = rc == PTB_OK;
    const ptb_search_stats *stats = sv->pt ? &sv->stats : NULL;
    PyObject *v[5] = {
        distance_obj(ok ? sol->distance : PTB_UNSOLVABLE),
        slot_position(st, sl, &sol->start, 0, NULL),
        ok ? moves_list(st, sl) : PyList_New(0),
        answer_new(st, sv->space, sol, NULL, stats),
        stats ? search_obj(stats) : NULL };
    slot_put(sv->pool, sl);
    Py_ssize_t n = stats ? 5 : 4, bad = 0;
    PyObject *r = PyTuple_New(n);
    for (Py_ssize_t i = 0; i < n; i++) {
        bad |= !v[i];
        if (r && v[i])
            PyTuple_SET_ITEM(r, i, v[i]);
        else
            Py_XDECREF(v[i]);
    }
    if (bad)
        Py_CLEAR(r);
    return r;
}

/* A search that reached its limit: SearchLimit with its figures. */
static PyObject *search_limit(modstate *st, const solver *sv)
{
    const ptb_search_stats *x = &sv->stats;
    const char *name = ptb_puzzle_name(ptb_space_puzzle(sv->space->s));
    int timed = sv->opts.seconds > 0 &&
                (!sv->opts.nodes || x->nodes < sv->opts.nodes);
    char what[64];
    if (timed)
        snprintf(what, sizeof what, "ran out of time (%g s)",
                 sv->opts.seconds);
    else
        snprintf(what, sizeof what, "reached its node limit (%llu)",
                 (unsigned long long)sv->opts.nodes);
    PyObject *msg = PyUnicode_FromFormat(
        "%s: the search %s after %llu nodes and %u bounds from %u: no "
        "answer proven", name, what, (unsigned long long)x->nodes,
        x->iterations, x->bound);
    PyObject *e = msg ? PyObject_CallOneArg(st->SearchLimit, msg) : NULL;
    PyObject *fig = e ? search_obj(x) : NULL;
    if (fig && PyDict_DelItemString(fig, "optimal") == 0 &&
        PyObject_SetAttrString(e, "search", fig) == 0)
        PyErr_SetObject(st->SearchLimit, e);
    Py_XDECREF(fig);
    Py_XDECREF(e);
    Py_XDECREF(msg);
    return NULL;
}

static PyObject *table_fail(modstate *st, const solver *sv, int rc)
{
    if (rc == PTB_ELIMIT)
        return search_limit(st, sv);
    return read_error(st, (TableObject *)sv->owner, rc);
}

PyDoc_STRVAR(Table_solve_doc,
"solve(text, options, threads=1, seconds=0.0, nodes=0)\n"
"    -> (distance, start, moves, answer[, search])\n\n"
"distance: int or None; start: the Position walked from (the nearest\n"
"candidate; the first when none reaches the goal); moves: a list of Move;\n"
"answer: an Answer for the native text and the JSON, made on demand.\n"
"A Table of pattern tables answers by ptb_patterns_solve(), an IDA*\n"
"search on threads, stopped after seconds of wall time or nodes expanded\n"
"(0: no limit) with SearchLimit; search is then its figures, the JSON's\n"
"\"search\" member (optimal, nodes, iterations, bound, seconds).  A full\n"
"table ignores threads, seconds and nodes.");

static PyObject *Table_solve(TableObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = { "text", "options", "threads", "seconds",
                              "nodes", NULL };
    PyObject *text, *opts;
    unsigned threads = 1;
    double seconds = 0;
    unsigned long long nodes = 0;
    solver sv = { self->space, &self->pool, self->t, self->pt, { 0, 0, 0 },
                  { 0, 0, 0, 0 }, (PyObject *)self, table_fail };
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|IdK:solve", kwlist, &text,
                                     &opts, &threads, &seconds, &nodes))
        return NULL;
    if (threads < 1 || threads > 256 || !(seconds >= 0)) {
        PyErr_Format(PyExc_ValueError, threads < 1 || threads > 256
                     ? "threads: takes 1..256, got %u"
                     : "seconds: takes a number >= 0", threads);
        return NULL;
    }
    sv.opts = (ptb_search_opts){ threads, nodes, seconds };
    PyObject *pair = PyTuple_Pack(2, text, opts);
    PyObject *r = pair ? solve_answer(&sv, pair) : NULL;
    Py_XDECREF(pair);
    return r;
}

PyDoc_STRVAR(Table_distance_doc,
"distance(text, options, threads=1, seconds=0.0, nodes=0) -> int or None\n"
"\n"
"The least number of moves from the query's position (the nearest of its\n"
"candidates) to the goal, by ptb_distance(); None when the goal cannot be\n"
"reached.  A Table of pattern tables searches, as solve().");

static PyObject *Table_distance(TableObject *self, PyObject *args,
                                PyObject *kw)
{
    if (!self->pt)
        return table_distance(self, args, kw);
    PyObject *r = Table_solve(self, args, kw);
    PyObject *d = r ? Py_NewRef(PyTuple_GET_ITEM(r, 0)) : NULL;
    Py_XDECREF(r);
    return d;
}

static PyObject *successor_obj(modstate *st, const ptb_space *s,
                               const ptb_position *from,
                               const ptb_successor *sc)
{
    PyObject *o = PyStructSequence_New(st->Successor);
    if (!o)
        return NULL;
    PyObject *board = board_str(s, &sc->after);
    PyObject *pos = board ? position_obj(st, s, &sc->after, board) : NULL;
    PyObject *v[5] = { move_str(s, from, &sc->move), board,
                       distance_obj(sc->distance),
                       PyLong_FromUnsignedLong(sc->move.code), pos };
    int bad = 0;
    for (int k = 0; k < 5; k++) {
        bad |= !v[k];
        PyStructSequence_SET_ITEM(o, k, v[k] ? v[k] : Py_NewRef(Py_None));
    }
    if (bad)
        Py_CLEAR(o);
    return o;
}

PyDoc_STRVAR(Table_analyse_doc,
"analyse(text, options) -> (distance, category, start, moves, answer)\n\n"
"ptb_analyse(): the nearest candidate (start), its distance (int or None)\n"
"and category ('goal', 'solvable', 'unsolvable'), and every legal move\n"
"out of it as a list of Successor, ranked by the library: by the distance\n"
"after the move, unsolvable last, ties in the puzzle's move order.\n"
"answer is an Answer for the library's JSON.");

static PyObject *Table_analyse(TableObject *self, PyObject *args)
{
    modstate *st = state_of_type(Py_TYPE(self));
    const ptb_space *s = self->space->s;
    PyObject *text, *opts;
    query q;
    int prc, rc = PTB_ENOMEM;
    slot *sl = NULL;
    if (st && self->pt)
        return needs_table(self, "analyse()");
    if (!st || !PyArg_ParseTuple(args, "OO:analyse", &text, &opts) ||
        query_args(st, text, opts, &q) != 0)
        return NULL;
    NOGIL_BEGIN
    prc = query_parse(s, &q);
    if (prc == PTB_OK && (sl = slot_get(&self->pool)))
        rc = ptb_analyse(self->t, sl->r, q.starts, q.n, sl->an);
    NOGIL_END
    if (prc != PTB_OK)
        return query_error(st, self, &q, prc);
    if (rc != PTB_OK) {
        if (sl)
            slot_put(&self->pool, sl);
        return read_error(st, self, rc);
    }
    const ptb_analysis *an = sl->an;
    PyObject *list = PyList_New(an->n);
    for (unsigned i = 0; list && i < an->n; i++) {
        PyObject *o = successor_obj(st, s, &an->position, &an->move[i]);
        if (!o)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, i, o);
    }
    PyObject *r = list ? Py_BuildValue("(NsNNN)", distance_obj(an->distance),
                                       ptb_category_name(an->category),
                                       position_obj(st, s, &an->position,
                                                    NULL),
                                       list, answer_new(st, self->space,
                                                        NULL, an, NULL))
                       : NULL;
    slot_put(&self->pool, sl);
    return r;
}

PyDoc_STRVAR(Table_info_doc,
"info() -> dict\n\n"
"What the build found: states, solvable, max_distance, histogram (a list\n"
"indexed by distance), bytes, subtables, exact (False for tables of\n"
"residues), modulus (0 exact, 3 or 4: the distance mod this) and encoding.");

static PyObject *Table_info(TableObject *self, PyObject *unused)
{
    ptb_table_info in;
    (void)unused;
    if (self->pt)
        return needs_table(self, "info()");
    int rc = ptb_table_get_info(self->t, &in);
    if (rc != PTB_OK)
        return read_error(state_of_type(Py_TYPE(self)), self, rc);
    PyObject *h = PyList_New(in.max_distance + 1);
    for (unsigned d = 0; h && d <= in.max_distance; d++) {
        PyObject *v = PyLong_FromUnsignedLongLong(in.histogram[d]);
        if (!v)
            Py_CLEAR(h);
        else
            PyList_SET_ITEM(h, d, v);
    }
    if (!h)
        return NULL;
    return Py_BuildValue("{sKsKsIsNsKsIsOsIss}", "states",
                         (unsigned long long)in.states, "solvable",
                         (unsigned long long)in.solvable, "max_distance",
                         in.max_distance, "histogram", h, "bytes",
                         (unsigned long long)in.bytes, "subtables",
                         (unsigned)in.subtables, "exact",
                         in.exact ? Py_True : Py_False, "modulus",
                         in.modulus, "encoding", in.encoding);
}

static PyMethodDef Table_methods[] = {
    { "distance", (PyCFunction)(void (*)(void))Table_distance,
      METH_VARARGS | METH_KEYWORDS, Table_distance_doc },
    { "solve", (PyCFunction)(void (*)(void))Table_solve,
      METH_VARARGS | METH_KEYWORDS, Table_solve_doc },
    { "analyse", (PyCFunction)Table_analyse, METH_VARARGS,
      Table_analyse_doc },
    { "info", (PyCFunction)Table_info, METH_NOARGS, Table_info_doc },
    { NULL, NULL, 0, NULL }
};

static PyMemberDef Table_members[] = {
    { "path", T_OBJECT, offsetof(TableObject, path), READONLY,
      "the file the table was opened from (pattern tables: "
      "DIR/NAME-pattern-*.mdb)" },
    { "directory", T_OBJECT, offsetof(TableObject, dir), READONLY,
      "the directory it was opened from" },
    { "space", T_OBJECT, offsetof(TableObject, space), READONLY,
      "the Space the table answers for" },
    { NULL, 0, 0, 0, NULL }
};

/* CPython's slot tables keep functions in void * (as dlsym() returns
 * them); ISO C does not promise the conversion, POSIX and CPython do. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
static PyType_Slot Table_slots[] = {
    { Py_tp_doc, "Table(space, directory): the table of a Space opened from "
                 "a directory; raises TableError naming the file when it is "
                 "missing, of another format version or damaged.  A puzzle "
                 "with pattern groups (Space.patterns) and no table of its "
                 "own opens its pattern tables instead and answers by "
                 "search (solve(), distance()).  Safe to share between "
                 "threads." },
    { Py_tp_new, Table_new },
    { Py_tp_dealloc, Table_dealloc },
    { Py_tp_methods, Table_methods },
    { Py_tp_members, Table_members },
    { 0, NULL }
};
#pragma GCC diagnostic pop

static PyType_Spec Table_spec = {
    "puzzletb._puzzletb.Table", sizeof(TableObject), 0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE, Table_slots
};

/* ==== module ========================================================== */

PyDoc_STRVAR(puzzles_doc,
"puzzles() -> list of (name, summary, metrics, options)\n\n"
"The library's registry, in its fixed order; options are tuples\n"
"(name, value syntax, help, stands for the whole position).");

static PyObject *mod_puzzles(PyObject *m, PyObject *unused)
{
    (void)m, (void)unused;
    PyObject *list = PyList_New(0);
    for (unsigned i = 0; list && i < ptb_puzzle_count(); i++) {
        const ptb_puzzle *p = ptb_puzzle_at(i);
        PyObject *metrics = PyList_New(0), *options = PyList_New(0), *t;
        for (unsigned k = 0; metrics && ptb_puzzle_metric(p, k); k++) {
            t = PyUnicode_FromString(ptb_puzzle_metric(p, k));
            if (!t || PyList_Append(metrics, t) != 0)
                Py_CLEAR(metrics);
            Py_XDECREF(t);
        }
        for (unsigned k = 0; options && ptb_puzzle_option(p, k); k++) {
            const ptb_option *o = ptb_puzzle_option(p, k);
            t = Py_BuildValue("(sssO)", o->name, o->value, o->help,
                              o->flags & PTB_OPT_POSITION ? Py_True
                                                          : Py_False);
            if (!t || PyList_Append(options, t) != 0)
                Py_CLEAR(options);
            Py_XDECREF(t);
        }
        t = metrics && options
            ? Py_BuildValue("(ssNN)", ptb_puzzle_name(p),
                            ptb_puzzle_summary(p), PyList_AsTuple(metrics),
                            PyList_AsTuple(options))
            : NULL;
        Py_XDECREF(metrics);
        Py_XDECREF(options);
        if (!t || PyList_Append(list, t) != 0)
            Py_CLEAR(list);
        Py_XDECREF(t);
    }
    return list;
}

static PyObject *mod_version(PyObject *m, PyObject *unused)
{
    (void)m, (void)unused;
    return PyUnicode_FromString(ptb_version());
}

/* ---- a family's levels (levels tables: tbgen --family) ------------- */

/* The levels table of family in dir, open (the module's cache keeps it
 * while its file stays the same: give it back with levels_done()), or
 * NULL with TableError (its path and code) raised. */
static ptb_levels *levels_open(PyObject *m, const char *dir,
                               const char *family)
{
    ptb_levels *l;
    ptb_levels_cache *cache = ((modstate *)PyModule_GetState(m))->levels;
    int rc;
    NOGIL_BEGIN
    rc = ptb_levels_cache_get(cache, dir, family, &l);
    NOGIL_END
    if (rc == PTB_OK)
        return l;
    if (rc == PTB_ENOMEM) {
        PyErr_NoMemory();
        return NULL;
    }
    PyObject *path = PyUnicode_FromFormat("%s/%s.levels.mdb", dir, family);
    PyObject *msg = path ? PyUnicode_FromFormat(
        "%U: %s; build it with 'tbgen --family %s --out %s'", path,
        ptb_strerror(rc), family, dir) : NULL;
    if (path)
        raise_table_error(PyModule_GetState(m), path, msg, rc);
    Py_XDECREF(msg);
    Py_XDECREF(path);
    return NULL;
}

static void levels_done(PyObject *m, ptb_levels *l)
{
    ptb_levels_cache_release(((modstate *)PyModule_GetState(m))->levels, l);
}

/* The levels table's error when level i was read (its block failed its
 * checks): TableError raised, NULL. */
static PyObject *level_error(PyObject *m, const char *dir,
                             const char *family, size_t i, int rc)
{
    if (rc == PTB_ENOMEM)
        return PyErr_NoMemory();
    PyObject *path = PyUnicode_FromFormat("%s/%s.levels.mdb", dir, family);
    PyObject *msg = path ? PyUnicode_FromFormat(
        "%U: level %zu: %s; rebuild it with 'tbgen --family %s --out %s'",
        path, i, ptb_strerror(rc), family, dir) : NULL;
    if (path && msg)
        raise_table_error(PyModule_GetState(m), path, msg, rc);
    Py_XDECREF(msg);
    Py_XDECREF(path);
    return NULL;
}

/* Level i's JSON (ptb_format_level_json()) as a str, or NULL with an
 * error raised. */
static PyObject *level_str(PyObject *m, const char *dir, const char *family,
                           const ptb_levels *l, size_t i)
{
    char buf[8192];
    int n;
    NOGIL_BEGIN
    n = ptb_format_level_json(l, i, buf, sizeof buf);
    NOGIL_END
    if (n < 0)
        return level_error(m, dir, family, i, n);
    if ((size_t)n >= sizeof buf)
        return PyErr_Format(PyExc_RuntimeError, "a level's JSON is longer "
                            "than %zu bytes", sizeof buf);
    return PyUnicode_FromStringAndSize(buf, n);
}

PyDoc_STRVAR(levels_doc,
"_levels(directory, family, lo, hi, seed, limit) -> list of str\n\n"
"The JSON of the levels with lo..hi moves, hardest first, or drawn at\n"
"random by seed (None: not drawn), at most limit (0: all).");

static PyObject *mod_levels(PyObject *m, PyObject *args)
{
    const char *dir, *family;
    unsigned lo, hi;
    PyObject *seed;
    Py_ssize_t limit;
    size_t first, n;
    if (!PyArg_ParseTuple(args, "ssIIOn:_levels", &dir, &family, &lo, &hi,
                          &seed, &limit))
        return NULL;
    uint64_t sd = seed == Py_None ? 0 : PyLong_AsUnsignedLongLong(seed);
    if (PyErr_Occurred())
        return NULL;
    ptb_levels *l = levels_open(m, dir, family);
    if (!l)
        return NULL;
    ptb_levels_range(l, lo, hi, &first, &n);
    size_t k = limit > 0 && (size_t)limit < n ? (size_t)limit : n;
    size_t *pick = PyMem_Malloc((k ? k : 1) * sizeof *pick);
    PyObject *list = pick ? PyList_New(0) : PyErr_NoMemory();
    if (pick && seed != Py_None)
        k = ptb_levels_draw(l, first, n, sd, k, pick);
    else
        for (size_t i = 0; pick && i < k; i++)
            pick[i] = first + i;
    for (size_t i = 0; list && i < k; i++) {
        PyObject *v = level_str(m, dir, family, l, pick[i]);
        if (!v || PyList_Append(list, v) != 0)
            Py_CLEAR(list);
        Py_XDECREF(v);
    }
    PyMem_Free(pick);
    levels_done(m, l);
    return list;
}

PyDoc_STRVAR(level_stats_doc,
"_level_stats(directory, family) -> list of (moves, count), hardest first");

static PyObject *mod_level_stats(PyObject *m, PyObject *args)
{
    const char *dir, *family;
    size_t first, n;
    if (!PyArg_ParseTuple(args, "ss:_level_stats", &dir, &family))
        return NULL;
    ptb_levels *l = levels_open(m, dir, family);
    PyObject *list = l ? PyList_New(0) : NULL;
    for (unsigned mv = PTB_LEVEL_MOVES + 1; list && mv-- > 0;) {
        ptb_levels_range(l, mv, mv, &first, &n);
        if (!n)
            continue;
        PyObject *v = Py_BuildValue("(In)", mv, (Py_ssize_t)n);
        if (!v || PyList_Append(list, v) != 0)
            Py_CLEAR(list);
        Py_XDECREF(v);
    }
    levels_done(m, l);
    return list;
}

PyDoc_STRVAR(level_play_doc,
"_level_play(directory, family, moves, seed) -> (str, str) or None\n\n"
"A level of that many moves drawn by seed and played: its JSON and its\n"
"answer's (ptb_format_json()); None when there is none.");

static PyObject *mod_level_play(PyObject *m, PyObject *args)
{
    const char *dir, *family;
    unsigned moves;
    unsigned long long seed;
    size_t first, n, i;
    ptb_puzzle *p = NULL;
    ptb_space *s = NULL;
    int rc = PTB_OK;
    if (!PyArg_ParseTuple(args, "ssIK:_level_play", &dir, &family, &moves,
                          &seed))
        return NULL;
    ptb_levels *l = levels_open(m, dir, family);
    if (!l)
        return NULL;
    ptb_solution *sol = PyMem_Malloc(sizeof *sol);
    char *buf = PyMem_Malloc(1u << 20);
    PyObject *out = NULL;
    ptb_levels_range(l, moves, moves, &first, &n);
    if (!sol || !buf) {
        PyErr_NoMemory();
    } else if (!ptb_levels_draw(l, first, n, seed, 1, &i)) {
        out = Py_NewRef(Py_None);
    } else {
        NOGIL_BEGIN
        rc = ptb_level_solve(l, i, &p, &s, sol);
        NOGIL_END
        int len = rc == PTB_OK ? ptb_format_json(s, sol, buf, 1u << 20) : -1;
        if (rc != PTB_OK)
            level_error(m, dir, family, i, rc);
        else if (len < 0 || len >= 1 << 20)
            PyErr_SetString(PyExc_RuntimeError, "an answer past 1 MiB");
        else
            out = Py_BuildValue("(Ns#)", level_str(m, dir, family, l, i),
                                buf, (Py_ssize_t)len);
    }
    ptb_space_close(s);
    ptb_puzzle_free(p);
    PyMem_Free(buf);
    PyMem_Free(sol);
    levels_done(m, l);
    return out;
}

static PyMethodDef module_methods[] = {
    { "_levels", mod_levels, METH_VARARGS, levels_doc },
    { "_level_stats", mod_level_stats, METH_VARARGS, level_stats_doc },
    { "_level_play", mod_level_play, METH_VARARGS, level_play_doc },
    { "puzzles", mod_puzzles, METH_NOARGS, puzzles_doc },
    { "version", mod_version, METH_NOARGS,
      "version() -> str: the version of the library linked in." },
    { NULL, NULL, 0, NULL }
};

static int add_exceptions(PyObject *m, modstate *st)
{
    st->Error = PyErr_NewExceptionWithDoc("puzzletb.Error",
        "Base class of puzzletb's exceptions.", NULL, NULL);
    if (!st->Error)
        return -1;
    PyObject *b = PyTuple_Pack(2, st->Error, PyExc_ValueError);
    st->ParseError = b ? PyErr_NewExceptionWithDoc("puzzletb.ParseError",
        "Bad input: a malformed position or option value, an option the "
        "puzzle does not take, an unknown puzzle or metric.  The message is "
        "the library's one line, as tblookup prints it.", b, NULL) : NULL;
    Py_XDECREF(b);
    st->TableError = PyErr_NewExceptionWithDoc("puzzletb.TableError",
        "A table is missing, of another format version, truncated or "
        "corrupt.  The message names the file; attributes: path (the "
        "file), code (the library's PTB_E* number).", st->Error, NULL);
    b = PyTuple_Pack(2, st->Error, PyExc_LookupError);
    st->Unsolvable = b ? PyErr_NewExceptionWithDoc("puzzletb.Unsolvable",
        "Raised by the probe_* calls when the goal cannot be reached from "
        "the position (the get_* calls return None instead).", b, NULL)
        : NULL;
    Py_XDECREF(b);
    b = PyTuple_Pack(2, st->Error, PyExc_TimeoutError);
    st->SearchLimit = b ? PyErr_NewExceptionWithDoc("puzzletb.SearchLimit",
        "A search from pattern tables reached its limit (Tablebase."
        "seconds) before it proved an answer.  Attribute search: its "
        "figures (nodes, iterations, bound, seconds).", b, NULL) : NULL;
    Py_XDECREF(b);
    if (!st->ParseError || !st->TableError || !st->Unsolvable ||
        !st->SearchLimit)
        return -1;
    return PyModule_AddObjectRef(m, "Error", st->Error) ||
           PyModule_AddObjectRef(m, "ParseError", st->ParseError) ||
           PyModule_AddObjectRef(m, "TableError", st->TableError) ||
           PyModule_AddObjectRef(m, "Unsolvable", st->Unsolvable) ||
           PyModule_AddObjectRef(m, "SearchLimit", st->SearchLimit) ? -1 : 0;
}

static int add_types(PyObject *m, modstate *st)
{
    st->Space = (PyTypeObject *)PyType_FromModuleAndSpec(m, &Space_spec,
                                                         NULL);
    st->Table = (PyTypeObject *)PyType_FromModuleAndSpec(m, &Table_spec,
                                                         NULL);
    st->Answer = (PyTypeObject *)PyType_FromModuleAndSpec(m, &Answer_spec,
                                                          NULL);
    st->Position = PyStructSequence_NewType(&position_desc);
    st->Move = PyStructSequence_NewType(&move_desc);
    st->Successor = PyStructSequence_NewType(&successor_desc);
    if (!st->Space || !st->Table || !st->Answer || !st->Position ||
        !st->Move || !st->Successor)
        return -1;
    return PyModule_AddType(m, st->Space) || PyModule_AddType(m, st->Table) ||
           PyModule_AddObjectRef(m, "Position", (PyObject *)st->Position) ||
           PyModule_AddObjectRef(m, "Move", (PyObject *)st->Move) ||
           PyModule_AddObjectRef(m, "Successor", (PyObject *)st->Successor)
           ? -1 : 0;
}

static int module_exec(PyObject *m)
{
    modstate *st = PyModule_GetState(m);
    if (add_exceptions(m, st) || add_types(m, st))
        return -1;
    if (ptb_levels_cache_new(&st->levels) != PTB_OK) {
        PyErr_NoMemory();
        return -1;
    }
    return PyModule_AddStringConstant(m, "TABLES_DIR", PTB_TABLES_DIR) ||
           PyModule_AddIntConstant(m, "FORMAT_VERSION", PTB_FORMAT_VERSION) ||
           PyModule_AddIntConstant(m, "MAX_DISTANCE", PTB_MAX_DISTANCE)
           ? -1 : 0;
}

static int module_traverse(PyObject *m, visitproc visit, void *arg)
{
    modstate *st = PyModule_GetState(m);
    Py_VISIT(st->Error);
    Py_VISIT(st->ParseError);
    Py_VISIT(st->TableError);
    Py_VISIT(st->Unsolvable);
    Py_VISIT(st->SearchLimit);
    Py_VISIT(st->Space);
    Py_VISIT(st->Table);
    Py_VISIT(st->Answer);
    Py_VISIT(st->Position);
    Py_VISIT(st->Move);
    Py_VISIT(st->Successor);
    return 0;
}

static int module_clear(PyObject *m)
{
    modstate *st = PyModule_GetState(m);
    Py_CLEAR(st->Error);
    Py_CLEAR(st->ParseError);
    Py_CLEAR(st->TableError);
    Py_CLEAR(st->Unsolvable);
    Py_CLEAR(st->SearchLimit);
    Py_CLEAR(st->Space);
    Py_CLEAR(st->Table);
    Py_CLEAR(st->Answer);
    Py_CLEAR(st->Position);
    Py_CLEAR(st->Move);
    Py_CLEAR(st->Successor);
    return 0;
}

static void module_free(void *m)
{
    modstate *st = PyModule_GetState(m);
    module_clear(m);
    if (st) {
        ptb_levels_cache_free(st->levels);
        st->levels = NULL;
    }
}

/* CPython's slot tables keep functions in void * (as dlsym() returns
 * them); ISO C does not promise the conversion, POSIX and CPython do. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
static PyModuleDef_Slot module_slots[] = {
    { Py_mod_exec, module_exec },
    { 0, NULL }
};
#pragma GCC diagnostic pop

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "puzzletb._puzzletb",
    "The C half of puzzletb: libpuzzletb's registry, parser, tables and "
    "walk.\nUse the documented layer, `import puzzletb`.",
    sizeof(modstate), module_methods, module_slots, module_traverse,
    module_clear, module_free
};

PyMODINIT_FUNC PyInit__puzzletb(void)
{
    return PyModuleDef_Init(&module_def);
}
