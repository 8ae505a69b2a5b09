"""puzzletb: precomputed distance tables for classic puzzles, from Python.

The tables hold, for every state of a puzzle, its least number of moves to
the goal; a query walks them to an optimal solution in O(moves).  Puzzles:
swap (4x4 swap, Luogu P1225), four (four-in-a-row, codevs 1004), klotski
(华容道; metrics step, line, move) and frog (黑白子交换).
Build the tables with `make tables` (or `tbgen`); `make install` installs
them.

    >>> import puzzletb
    >>> with puzzletb.open() as tb:
    ...     tb.distance("klotski", "BAAC BAAC DEEF DGHF IKKJ", metric="move")
    ...     s = tb.solve("frog", n=2)
    ...     [m.text for m in s.moves][:3]
    81
    ['W 2-3', 'B 4-2', 'B 5-4']

Positions are strings in any notation tblookup accepts (several lines, or
rows on one line split by spaces, or by '/' for four-in-a-row; Klotski
ShortCodes and CommonCodes; ...) or a list of rows (strings, or sequences
of one-character cells).
A puzzle's query options are keyword arguments: first='B' (four), n=12
(frog, standing for the whole position).

Answers: solve() gives a Solution (distance, moves, start position, the
contest's answer text, the library's JSON with each move's structured
form); distance() an int or None; analyse() every legal move with the
distance after it, best first.  As in python-chess's
syzygy module, probe_distance() and probe_solve() raise Unsolvable where
get_distance() returns None.  Errors: ParseError (a ValueError) with the
library's one-line message for bad input; TableError, naming the file, for
a missing, old-format or damaged table.

A puzzle too big for a full table (the 15-puzzle, `fifteen`) is answered
from its pattern tables (`tbgen --puzzle fifteen --patterns`) by a search,
proven optimal: solve() and distance() work as for any puzzle, the
Solution's search (and its JSON's "search" member) gives the search's
figures, Tablebase.threads and Tablebase.seconds its threads and time
limit (SearchLimit when it runs out); analyse() and info() need a full
table and raise TableError saying so.

A Tablebase may be shared by any number of threads: the tables are read
and walked without the GIL, each call on a reader of its own.
"""

import json as _json
import os as _os
import threading as _threading
from typing import NamedTuple as _NamedTuple, Optional as _Optional

from ._puzzletb import (Error, ParseError, TableError, Unsolvable,
                        SearchLimit, Position, Move, Successor, TABLES_DIR,
                        FORMAT_VERSION)
from ._puzzletb import (Space as _Space, Table as _Table,
                        puzzles as _puzzles, version as _version,
                        _levels, _level_stats, _level_play)

__all__ = ["open", "puzzles", "default_tables", "Tablebase", "Solution",
           "Analysis", "Puzzle", "Option", "Position", "Move", "Successor",
           "Error", "ParseError", "TableError", "Unsolvable", "SearchLimit",
           "TABLES_DIR",
           "FORMAT_VERSION", "__version__"]

__version__ = _version()


class Option(_NamedTuple):
    """A query option a puzzle takes besides its position: pass it as a
    keyword argument, name=value."""
    name: str
    value: str
    help: str
    position: bool


class Puzzle(_NamedTuple):
    """A puzzle of the library's registry."""
    name: str
    summary: str
    metrics: tuple
    options: tuple


def _field_docs(cls, **docs):
    for field, doc in docs.items():
        getattr(cls, field).__doc__ = doc


_field_docs(Option, name="the keyword: 'first', 'n'",
            value="the value's syntax: 'B|W', 'N'",
            help="what it does, one line",
            position="True when it stands for the whole position (no text "
                     "is given with it)")
_field_docs(Puzzle, name="the name queries use: 'klotski'",
            summary="one line", metrics="its metrics; the first is the "
            "default", options="its query options, a tuple of Option")


_PUZZLES = tuple(Puzzle(name, summary, metrics,
                        tuple(Option(*o) for o in options))
                 for name, summary, metrics, options in _puzzles())
_DEFAULT_METRIC = {p.name: p.metrics[0] for p in _PUZZLES}


def puzzles():
    """Every puzzle of the library, in its fixed order: a list of Puzzle
    (name, summary, metrics, options)."""
    return list(_PUZZLES)


def default_tables():
    """The tables directory open() uses when given none: $PUZZLETB_TABLES
    when set, else the installed tables directory (TABLES_DIR, compiled in
    by `make install`) when it exists, else 'tables'."""
    env = _os.environ.get("PUZZLETB_TABLES")
    if env:
        return env
    if TABLES_DIR and _os.path.isdir(TABLES_DIR):
        return TABLES_DIR
    return "tables"


def open(tables=None, threads=None, seconds=None):
    """Opens the tables in a directory (default: default_tables()) and
    returns a Tablebase, a context manager.  No file is read yet: each
    table opens on first use.  threads and seconds: a search's threads
    (None: the processors) and time limit (None: none), for puzzles
    answered by search from pattern tables."""
    return Tablebase(tables, threads, seconds)


class Solution:
    """The answer to a query.

    distance  the least number of moves to the goal, or None when the goal
              cannot be reached
    moves     one optimal line: a list of Move (text, board after it,
              code, position after it); empty when unsolvable
    start     the Position the answer starts from (subtable, index, code,
              board; index None when a search answers: no table ranks
              it); for a query with two candidates (four-in-a-row
              without first=), the nearer one
    text      the puzzle's native answer, the contest's output format
              ('' when unsolvable); str(solution) is the same
    json      the library's JSON answer
              (text and json are made when first asked for)
    details   each move's structured form, from the JSON: a list of dicts
              ("piece", "from", "to", "direction", ... as the puzzle has)
    search    None for an answer read from a full table; for one found by
              a search from pattern tables, its figures, a dict as the
              JSON's "search" member: optimal (True: the search proves the
              line shortest), nodes expanded, iterations (bounds tried),
              bound (the start's), seconds
    puzzle, metric   what was asked
    """
    __slots__ = ("puzzle", "metric", "distance", "start", "moves",
                 "search", "_answer", "_json", "_text")

    def __init__(self, puzzle, metric, distance, start, moves, answer,
                 search=None):
        self.puzzle = puzzle
        self.metric = metric
        self.distance = distance
        self.start = start
        self.moves = moves
        self.search = search
        self._answer = answer
        self._json = self._text = None

    @property
    def text(self):
        """The puzzle's native answer, the contest's output format ('' when
        unsolvable); made when first asked for."""
        if self._text is None:
            self._text = self._answer.native()
        return self._text

    @property
    def json(self):
        """The library's JSON answer (ptb_format_json(): schema 1, with
        each move's structured "detail"; a searched answer ends with the
        "search" member, as tblookup --format json prints it), as text."""
        if self._json is None:
            self._json = self._answer.json()
        return self._json

    @property
    def details(self):
        """The structured form of each move (the JSON's "detail"), in the
        order of moves."""
        return [m["detail"] for m in _json.loads(self.json)["moves"]]

    def __str__(self):
        return self.text

    def __repr__(self):
        return ("<Solution %s/%s distance=%r start=%s>"
                % (self.puzzle, self.metric, self.distance, self.start.code))


class Analysis(list):
    """Every legal move out of a position, best first: a list of Successor
    (text, board, distance after the move or None, code, position after
    it), ranked by the library (ptb_analyse): by the distance after the
    move, unsolvable last, ties in the puzzle's move order.

    distance  the position's own distance, or None
    category  'goal', 'solvable' or 'unsolvable'
    start     the Position analysed: for a query with two candidates
              (four-in-a-row without first=), the nearer one
    json      the library's JSON analysis (ptb_format_analysis_json())
    details   each move's structured form, in the list's order
    """
    __slots__ = ("distance", "category", "start", "_answer", "_json")

    def __init__(self, distance, category, start, moves, answer):
        super().__init__(moves)
        self.distance = distance
        self.category = category
        self.start = start
        self._answer = answer
        self._json = None

    @property
    def json(self):
        """The library's JSON analysis, as text."""
        if self._json is None:
            self._json = self._answer.json()
        return self._json

    @property
    def details(self):
        """The structured form of each move (the JSON's "detail")."""
        return [m["detail"] for m in _json.loads(self.json)["analysis"]]

    def __repr__(self):
        return "<Analysis %s distance=%r: %s>" % (
            self.category, self.distance,
            ", ".join("%s %s" % (m.text, m.distance) for m in self))


def _text(position):
    """A position argument as the text the library parses."""
    if position is None or isinstance(position, str):
        return position
    if isinstance(position, (bytes, bytearray)):
        return bytes(position).decode()
    try:
        rows = list(position)
    except TypeError:
        raise TypeError("position: expected a string or a list of rows, "
                        "got %s" % type(position).__name__) from None
    return "\n".join(r if isinstance(r, str) else "".join(map(str, r))
                     for r in rows)


def _options(options):
    return tuple("%s=%s" % kv for kv in options.items()) if options else ()


_spaces = {}
_spaces_lock = _threading.Lock()


def _space(puzzle, metric, tables):
    """The shared, immutable Space of (puzzle, metric): a built-in puzzle,
    or one described by its table in the directory tables (a described
    puzzle's space is kept per directory)."""
    key = (puzzle, metric, None if puzzle in _DEFAULT_METRIC else tables)
    s = _spaces.get(key)
    if s is None:
        with _spaces_lock:
            s = _spaces.get(key)
            if s is None:
                s = _spaces[key] = _Space(puzzle, metric, tables)
    return s


def _check_input(space, text, opts):
    """Raises the ParseError of a query, if any, out of an except block
    without chaining it (tblookup also reports bad input first)."""
    try:
        space.parse(text, opts)
    except ParseError as e:
        error = e
    else:
        return
    raise error from None


class Tablebase:
    """The tables of one directory, opened lazily, one per (puzzle,
    metric).  Use as a context manager, or call close().  Safe to share
    between threads.  Methods take (puzzle, position=None, metric=None,
    **options): metric None is the puzzle's default, options are the
    puzzle's query options (first='B', n=12)."""

    def __init__(self, tables=None, threads=None, seconds=None):
        self.directory = tables if tables is not None else default_tables()
        """the tables directory"""
        self.threads = threads
        """a search's threads, 1..256 (None: the processors): for a
        puzzle answered by search from pattern tables"""
        self.seconds = seconds
        """a search's time limit in seconds (None: none); past it, solve()
        and distance() raise SearchLimit"""
        self._tables = {}
        self._lock = _threading.Lock()
        self._closed = False

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        """Closes the tables (calls in progress in other threads finish
        first, on their own references).  Further queries raise
        ValueError."""
        with self._lock:
            self._closed = True
            self._tables = {}

    def __repr__(self):
        return "<puzzletb.Tablebase %r%s>" % (
            self.directory, " closed" if self._closed else "")

    def _table(self, puzzle, metric, text, opts):
        if metric is None:
            metric = _DEFAULT_METRIC.get(puzzle)
        t = self._tables.get((puzzle, metric))
        if t is not None:
            return t
        with self._lock:
            if self._closed:
                raise ValueError("the tablebase is closed")
            t = self._tables.get((puzzle, metric))
            if t is None:
                s = _space(puzzle, metric, self.directory)
                try:
                    t = _Table(s, self.directory)
                except TableError:
                    _check_input(s, text, opts)   # bad input first
                    raise
                self._tables[(puzzle, metric)] = t
        return t

    def _search(self):
        """A search's threads and time limit, as the library takes them."""
        return (self.threads or min(_os.cpu_count() or 1, 256),
                self.seconds or 0.0)

    def tables(self):
        """The tables opened so far: {(puzzle, metric): path}."""
        return {k: t.path for k, t in self._tables.items()}

    def info(self, puzzle, metric=None):
        """What the build of a table found: a dict with states, solvable,
        max_distance, histogram (a list indexed by distance), bytes,
        subtables, exact (False for tables of residues), modulus (0 for
        exact tables, else 3 or 4: the distance mod this) and encoding."""
        return self._table(puzzle, metric, None, ()).info()

    def parse(self, puzzle, position=None, metric=None, **options):
        """The candidate starts of a query, a list of Position (two when
        the query leaves the side to move open), without reading a table.
        Raises ParseError."""
        if metric is None:
            metric = _DEFAULT_METRIC.get(puzzle)
        return _space(puzzle, metric, self.directory).parse(
            _text(position), _options(options))

    def get_distance(self, puzzle, position=None, metric=None, **options):
        """The least number of moves from the position to the goal, or
        None when the goal cannot be reached from it.  Raises ParseError
        for bad input, TableError for a missing or damaged table."""
        text, opts = _text(position), _options(options)
        return self._table(puzzle, metric, text, opts).distance(
            text, opts, *self._search())

    distance = get_distance

    def probe_distance(self, puzzle, position=None, metric=None, **options):
        """As get_distance(), but raises Unsolvable instead of returning
        None."""
        d = self.get_distance(puzzle, position, metric, **options)
        if d is None:
            raise Unsolvable("no solution: the goal cannot be reached from "
                             "this position")
        return d

    def solve(self, puzzle, position=None, metric=None, **options):
        """An optimal solution: a Solution whose distance is None (and
        moves empty) when the goal cannot be reached.  Raises ParseError
        for bad input, TableError for a missing or damaged table."""
        text, opts = _text(position), _options(options)
        t = self._table(puzzle, metric, text, opts)
        return Solution(puzzle, t.space.metric,
                        *t.solve(text, opts, *self._search()))

    def probe_solve(self, puzzle, position=None, metric=None, **options):
        """As solve(), but raises Unsolvable when the goal cannot be
        reached."""
        s = self.solve(puzzle, position, metric, **options)
        if s.distance is None:
            raise Unsolvable("no solution: the goal cannot be reached from "
                             "this position")
        return s

    def analyse(self, puzzle, position=None, metric=None, **options):
        """Every legal move out of the position with the distance after
        it, best first: an Analysis (a list of Successor, with the
        position's distance and category).  Empty when no move is legal
        (a finished four-in-a-row game).  Raises ParseError for bad
        input, TableError for a missing or damaged table."""
        text, opts = _text(position), _options(options)
        return Analysis(*self._table(puzzle, metric, text,
                                     opts).analyse(text, opts))

    analyze = analyse

    # ---- a family's levels (its levels table: tbgen --family) ----

    def levels(self, family, moves=None, at_least=None, seed=None,
               limit=None):
        """The levels of a family's levels table (FAMILY.levels.mdb in
        the tables directory): a list of dicts, as tblookup FAMILY
        --levels --format json gives them ("family", "index" (0: the
        hardest), "moves", "board", "states", "histogram"), hardest
        first; only those of moves= moves, or of at_least= or more;
        drawn in a random order when seed= is given (the same seed, the
        same levels: tblookup's --random --seed); at most limit=.  The
        table is opened (its header, statistics and family checked) by
        the first call that needs it and kept open for the next ones (of
        any handle) while its file stays the same (device, inode, size
        and time); a table made again is opened again.  Each level's
        block is checked when a level of it is read.  Raises TableError
        for a missing or damaged table, or a damaged block read."""
        lo = moves if moves is not None else (at_least or 0)
        hi = moves if moves is not None else 1022
        return [_json.loads(v) for v in
                _levels(self.directory, family, lo, hi, seed, limit or 0)]

    def level_stats(self, family):
        """How many levels a family has at each number of moves: a dict
        {moves: count}, hardest first (tblookup FAMILY --levels
        --stats)."""
        return dict(_level_stats(self.directory, family))

    def play_level(self, family, moves, seed=0):
        """A level of that many moves, drawn by seed, played (tblookup
        FAMILY --level MOVES --seed SEED): a dict, {"level": the level as
        levels() gives it, "answer": the library's JSON answer as a dict,
        its "distance" the level's moves and "moves" an optimal line},
        found by a breadth-first search of the level's component.  None
        when the family has no level of that many moves.  Raises
        TableError for a missing or damaged table (or a level whose
        answer is not its moves)."""
        got = _level_play(self.directory, family, moves, seed)
        if got is None:
            return None
        return {"level": _json.loads(got[0]), "answer": _json.loads(got[1])}
