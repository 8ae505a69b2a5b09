"""python/tests/test_puzzletb.py: the Python module against tblookup.

tblookup (bin/tblookup, $TBLOOKUP) is the reference: every distance, start
and move list the module gives is compared with what tblookup prints for
the same query, for the seeds' samples and random positions of every puzzle
and metric.  The rules themselves give further independent checks: the
frog's standard start takes n(n+2) moves, and the number of legal moves out
of a swap, four-in-a-row or frog position is counted here from the rules.
Errors must carry tblookup's own messages.  Threads must agree with one
thread and must overlap inside the library (the GIL released).

Run from the top of the tree with PYTHONPATH=build/python (tests/t_pymodule.sh
does, through python/tests/tap.py); $PUZZLETB_TABLES names the tables.
"""
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import unittest

import puzzletb

TBLOOKUP = os.environ.get("TBLOOKUP", "bin/tblookup")
TABLES = os.environ.get("PUZZLETB_TABLES", "tables")
SEED = int(os.environ.get("PTB_TEST_SEED", random.randrange(1 << 30)))
print("# random positions from PTB_TEST_SEED=%d" % SEED, file=sys.stderr)

P1225 = ["1111", "0000", "1110", "0010", "1010", "0101", "1010", "0101"]
HENG = "BAAC BAAC DEEF DGHF IKKJ"             # 横刀立马
SEED002 = "FFBB DAAE DAAE HCCI JKKG"          # seed 002's own sample
FOUR001 = ["BWBO", "WBWB", "BWBW", "WBWO"]    # seed 001's sample
FROG003 = "○ ○ ○ . ● ● ●"                 # seed 003's start, n = 3
SHORT = "123456789ABCDEFGHJKMNPQRSTUVWXYZ"
KLOTSKI_LAYOUTS = 29334498


def tblookup(args, stdin=None):
    """Runs tblookup; returns (status, stdout, stderr)."""
    p = subprocess.run([TBLOOKUP] + list(args) + ["--tables", TABLES],
                       input=stdin, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def batch_json(puzzle, records, *args):
    """tblookup --batch --format json over records: one dict per record."""
    rc, out, err = tblookup([puzzle, "--batch", "--format", "json"] +
                            list(args), "\n\n".join(records) + "\n")
    assert rc in (0, 1), err
    lines = out.splitlines()
    assert len(lines) == len(records), (len(lines), len(records), err)
    return [json.loads(line) for line in lines]


def batch_count(puzzle, records, *args):
    """tblookup --batch --count: distances, None for unsolvable."""
    rc, out, err = tblookup([puzzle, "--batch", "--count"] + list(args),
                            "\n\n".join(records) + "\n")
    assert rc in (0, 1), err
    counts = [int(x) for x in out.split()]
    assert len(counts) == len(records), err
    return [None if c < 0 else c for c in counts]


# ---- random positions, from the rules of each puzzle -----------------

def rand_swap(rng):
    k = rng.randrange(17)
    boards = []
    for _ in range(2):
        cells = ["1"] * k + ["0"] * (16 - k)
        rng.shuffle(cells)
        boards += ["".join(cells[i:i + 4]) for i in range(0, 16, 4)]
    return "\n".join(boards)


def rand_klotski(rng):
    """A random ShortCode: a layout's rank in CommonCode order, 5 digits
    of SHORT."""
    v, s = rng.randrange(KLOTSKI_LAYOUTS), ""
    for _ in range(5):
        s, v = SHORT[v % 32] + s, v // 32
    return s


def rand_four(rng):
    cells = list("BBBBBBBWWWWWWWOO")
    rng.shuffle(cells)
    return "\n".join("".join(cells[i:i + 4]) for i in range(0, 16, 4))


def rand_frog(rng):
    n = rng.randint(1, 12)
    cells = ["W"] * n + ["B"] * n + ["."]
    rng.shuffle(cells)
    return "".join(cells)


def frog_walk(rng, n, steps):
    """A solvable-looking frog row: random legal moves from the start."""
    row = list("W" * n + "." + "B" * n)
    for _ in range(steps):
        moves = frog_moves("".join(row))
        if not moves:
            break
        a, b = rng.choice(moves)
        row[a], row[b] = row[b], row[a]
    return "".join(row)


# ---- legal moves, counted from the rules -------------------------------

def frog_moves(row):
    """(from, to) of every legal frog move: W moves right, B left, by a
    step into the empty cell or a jump over one frog of the other colour."""
    e, out = row.index("."), []
    for d, who, other in ((-1, "W", "B"), (1, "B", "W")):
        if 0 <= e + d < len(row) and row[e + d] == who:
            out.append((e + d, e))
        j = e + 2 * d
        if 0 <= j < len(row) and row[j] == who and row[e + d] == other:
            out.append((j, e))
    return out


def swap_moves(board):
    """Swaps of two orthogonally adjacent cells of different colours."""
    g = board.split("\n")[:4]
    n = 0
    for r in range(4):
        for c in range(4):
            n += c < 3 and g[r][c] != g[r][c + 1]
            n += r < 3 and g[r][c] != g[r + 1][c]
    return n


def four_lines(g):
    lines = [g[r] for r in range(4)]
    lines += ["".join(g[r][c] for r in range(4)) for c in range(4)]
    lines += ["".join(g[i][i] for i in range(4)),
              "".join(g[i][3 - i] for i in range(4))]
    return lines


def four_moves(board, side):
    """Slides of a piece of side into an orthogonally adjacent empty cell;
    none once four of a colour stand in a line (the game is over)."""
    g = board.split("\n")
    if any(l in ("BBBB", "WWWW") for l in four_lines(g)):
        return 0
    n = 0
    for r in range(4):
        for c in range(4):
            if g[r][c] != side:
                continue
            for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                rr, cc = r + dr, c + dc
                n += 0 <= rr < 4 and 0 <= cc < 4 and g[rr][cc] == "O"
    return n


def metrics():
    """Every (puzzle, metric) of the registry."""
    return [(p.name, m) for p in puzzletb.puzzles() for m in p.metrics]


class Base(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tb = puzzletb.open(TABLES)
        cls.rng = random.Random(SEED)

    @classmethod
    def tearDownClass(cls):
        cls.tb.close()

    def queries(self, puzzle, count):
        """The seeds' samples and count random positions of puzzle."""
        rng = self.rng
        if puzzle == "swap":
            return ["\n".join(P1225)] + [rand_swap(rng) for _ in range(count)]
        if puzzle == "klotski":
            return [HENG, SEED002, "1A9BF0C00", "4WVE1"] + \
                   [rand_klotski(rng) for _ in range(count)]
        if puzzle == "four":
            return ["\n".join(FOUR001)] + [rand_four(rng)
                                           for _ in range(count)]
        frog = FROG003.replace(" ", "").replace("○", "W").replace("●", "B")
        return [frog] \
            + [rand_frog(rng) for _ in range(count // 2)] \
            + [frog_walk(rng, rng.randint(1, 12), rng.randint(0, 40))
               for _ in range(count - count // 2)]


class TestRegistry(Base):
    def test_puzzles_match_help(self):
        """puzzles() lists tblookup's built-in puzzles, summaries, options
        and metrics, in its order (--help lists the described ones of the
        tables directory after them)"""
        rc, out, _ = tblookup(["--help"])
        blocks = []
        builtin = out.split("puzzles:\n", 1)[1].split("\ndescribed puzzles")[0]
        for line in builtin.splitlines():
            if line.startswith("  ") and line[2] != " ":
                name, summary = line.split(None, 1)
                blocks.append([name, summary, [], []])
            elif line.strip().startswith("--"):
                blocks[-1][2].append(line.split()[0][2:])
            elif line.strip().startswith("metrics:"):
                blocks[-1][3] = [w for w in line.split()[1:]
                                 if w != "(default)"]
        mine = [[p.name, p.summary, [o.name for o in p.options],
                 list(p.metrics) if len(p.metrics) > 1 else []]
                for p in puzzletb.puzzles()]
        self.assertEqual(rc, 0)
        self.assertEqual(mine, blocks)

    def test_options_declared(self):
        """four declares first=B|W, frog n (standing for the position)"""
        opts = {p.name: p.options for p in puzzletb.puzzles()}
        self.assertEqual([(o.name, o.position) for o in opts["four"]],
                         [("first", False)])
        self.assertEqual([(o.name, o.position) for o in opts["frog"]],
                         [("n", True)])
        self.assertEqual(opts["swap"], ())

    def test_parse_candidates(self):
        """four without first= has two candidate starts, with it one"""
        both = self.tb.parse("four", FOUR001)
        one = self.tb.parse("four", FOUR001, first="W")
        self.assertEqual(len(both), 2)
        self.assertEqual(len(one), 1)
        self.assertIn(one[0], both)


class TestAgainstTblookup(Base):
    def check_batch(self, puzzle, metric, records, options, args):
        want = batch_json(puzzle, records, "--metric", metric, *args)
        bad = []
        for text, w in zip(records, want):
            s = self.tb.solve(puzzle, text, metric, **options)
            d = self.tb.distance(puzzle, text, metric, **options)
            got = {"distance": s.distance,
                   "subtable": s.start.subtable, "index": s.start.index,
                   "moves": [{"move": m.text, "board": m.board}
                             for m in s.moves]}
            exp = {k: w[k] for k in got}
            exp["moves"] = [{"move": m["move"], "board": m["board"]}
                            for m in w["moves"]]
            if got != exp or d != w["distance"] or \
               len(s.moves) != (s.distance or 0) or \
               json.loads(s.json) != w or \
               s.details != [m["detail"] for m in w["moves"]]:
                bad.append((text, got, exp, d))
        self.assertEqual(bad[:2], [], "%d of %d differ" %
                         (len(bad), len(records)))
        return want

    def test_every_puzzle_and_metric(self):
        """every puzzle and metric: distances, starts, move lists (text,
        board, structured detail) and the JSON equal tblookup's for the
        seeds' samples and random positions"""
        for puzzle, metric in metrics():
            with self.subTest(puzzle=puzzle, metric=metric):
                n = 40 if puzzle == "klotski" else 150
                want = self.check_batch(puzzle, metric,
                                        self.queries(puzzle, n), {}, [])
                solvable = sum(w["distance"] is not None for w in want)
                print("# %s/%s: %d positions, %d solvable" %
                      (puzzle, metric, len(want), solvable),
                      file=sys.stderr)

    def test_four_first(self):
        """four with first='B' / first='W' equals tblookup --first"""
        for side in "BW":
            self.check_batch("four", "move", self.queries("four", 100),
                             {"first": side}, ["--first", side])

    def test_frog_standard_starts(self):
        """frog n=1..12 takes n(n+2) moves, and tblookup --n agrees"""
        for n in range(1, 13):
            s = self.tb.solve("frog", n=n)
            rc, out, _ = tblookup(["frog", "--n", str(n)])
            self.assertEqual(s.distance, n * (n + 2))
            self.assertEqual(s.text, out)
            self.assertEqual(rc, 0)

    def test_native_text(self):
        """Solution.text is tblookup's native answer for the samples"""
        cases = [("swap", "\n".join(P1225), None),
                 ("klotski", HENG, "step"), ("klotski", HENG, "move"),
                 ("klotski", SEED002, "line"),
                 ("four", "\n".join(FOUR001), None),
                 ("frog", FROG003, None)]
        for puzzle, text, metric in cases:
            s = self.tb.solve(puzzle, text, metric)
            args = [puzzle, text] + (["--metric", metric] if metric else [])
            rc, out, _ = tblookup(args)
            self.assertEqual((rc, str(s)), (0, out), (puzzle, metric))

    def test_known_answers(self):
        """published and seed figures: P1225 sample 4, 横刀立马 116/90/81,
        seed 002's sample 49 steps, seed 001's sample 5"""
        tb = self.tb
        self.assertEqual(tb.distance("swap", P1225), 4)
        self.assertEqual([tb.distance("klotski", HENG, m)
                          for m in ("step", "line", "move")], [116, 90, 81])
        self.assertEqual(tb.distance("klotski", SEED002), 49)
        self.assertEqual(tb.distance("four", FOUR001), 5)

    def test_unsolvable(self):
        """unsolvable: distance None, no moves; probe_* raise Unsolvable"""
        tb = self.tb
        rc, out, err = tblookup(["frog", "WB.WB"])
        self.assertEqual((rc, out), (1, ""))
        self.assertIsNone(tb.distance("frog", "WB.WB"))
        self.assertIsNone(tb.get_distance("frog", "WB.WB"))
        s = tb.solve("frog", "WB.WB")
        self.assertEqual((s.distance, s.moves, s.text), (None, [], ""))
        self.assertEqual(s.start.board, "WB.WB")
        with self.assertRaises(puzzletb.Unsolvable) as cm:
            tb.probe_distance("frog", "WB.WB")
        self.assertEqual("tblookup: " + str(cm.exception), err.strip())
        self.assertRaises(puzzletb.Unsolvable, tb.probe_solve, "frog",
                          "WB.WB")
        self.assertIsInstance(cm.exception, LookupError)
        self.assertEqual(tb.probe_distance("frog", "W.B"), 3)

    def test_notations(self):
        """one position in several notations gives one answer"""
        tb = self.tb
        forms = [HENG, HENG.replace(" ", "\n"), HENG.split(),
                 [list(r) for r in HENG.split()], "1A9BF0C00", "4WVE1"]
        want = tb.solve("klotski", HENG)
        for f in forms:
            s = tb.solve("klotski", f)
            # a code comes back as the general grid ('.' empty), a board
            # in its own letters: the same layout either way
            self.assertEqual((s.distance, s.start.index, s.start.code,
                              s.moves[0].text),
                             (want.distance, want.start.index,
                              want.start.code, want.moves[0].text), repr(f))
        grid = [[int(c) for c in r] for r in P1225]
        self.assertEqual(tb.distance("swap", grid), 4)
        self.assertEqual(tb.distance("frog", FROG003), 15)
        self.assertEqual(tb.distance("frog", b"WWW.BBB"), 15)


class TestAnalyse(Base):
    def successor_query(self, puzzle, text, succ):
        """The successor as a query tblookup answers, with its options."""
        if puzzle == "swap":
            return succ.board + "\n" + "\n".join(text.split("\n")[4:]), []
        if puzzle == "four":
            return succ.board, ["--first", "W" if succ.text[0] == "B"
                                else "B"]
        return succ.board, []

    def test_analyse(self):
        """analyse(): sorted, the best move one closer, each distance equal
        to tblookup's for the board after it, and as many moves as the
        rules allow (swap, four, frog)"""
        for puzzle, metric in metrics():
            queries = self.queries(puzzle, 12 if puzzle == "klotski" else 40)
            if puzzle == "four":
                queries = [(q, s) for q in queries for s in "BW"]
            else:
                queries = [(q, None) for q in queries]
            groups = {}
            for text, side in queries:
                opts = {"first": side} if side else {}
                d = self.tb.distance(puzzle, text, metric, **opts)
                succ = self.tb.analyse(puzzle, text, metric, **opts)
                key = lambda x: (x.distance is None, x.distance or 0)
                self.assertEqual(succ, sorted(succ, key=key), text)
                if d:
                    self.assertEqual(succ[0].distance + 1, d, text)
                if puzzle == "frog":
                    self.assertEqual(len(succ), len(frog_moves(text)), text)
                elif puzzle == "swap":
                    self.assertEqual(len(succ), swap_moves(text), text)
                elif puzzle == "four":
                    self.assertEqual(len(succ), four_moves(text, side), text)
                for sc in succ:
                    q, args = self.successor_query(puzzle, text, sc)
                    groups.setdefault(tuple(args), []).append((q, sc))
            for args, items in groups.items():
                counts = batch_count(puzzle, [q for q, _ in items],
                                     "--metric", metric, *args)
                got = [sc.distance for _, sc in items]
                self.assertEqual(got, counts, (puzzle, metric, args))

    def test_against_tblookup_analyse(self):
        """analyse() equals tblookup --analyse: the position's distance and
        category, every move's text, board, distance and detail, in order"""
        for puzzle, metric in metrics():
            queries = self.queries(puzzle, 10 if puzzle == "klotski" else 40)
            want = batch_json(puzzle, queries, "--metric", metric,
                              "--analyse")
            bad = []
            for text, w in zip(queries, want):
                a = self.tb.analyse(puzzle, text, metric)
                got = (a.distance, a.category, a.start.index,
                       [(m.text, m.board, m.distance) for m in a],
                       a.details)
                exp = (w["distance"], w["category"], w["index"],
                       [(m["move"], m["board"], m["distance"])
                        for m in w["analysis"]],
                       [m["detail"] for m in w["analysis"]])
                if got != exp:
                    bad.append((text, got, exp))
            self.assertEqual(bad[:1], [], "%s/%s: %d of %d differ" %
                             (puzzle, metric, len(bad), len(queries)))

    def test_four_nearer_side(self):
        """four without first= analyses the nearer side to move (the first
        candidate on a tie), with the position's distance and category"""
        rng = random.Random(SEED + 2)
        for text in ["\n".join(FOUR001)] + [rand_four(rng)
                                             for _ in range(60)]:
            cands = self.tb.parse("four", text)
            sides = {a.start: a for a in (
                self.tb.analyse("four", text, first=c) for c in "BW")}
            best = min((sides[c] for c in cands),
                       key=lambda a: 255 if a.distance is None
                       else a.distance)
            a = self.tb.analyse("four", text)
            self.assertEqual((a.start, a.distance, list(a)),
                             (best.start, best.distance, list(best)), text)
            d = self.tb.distance("four", text)
            self.assertEqual(a.distance, d)
            self.assertEqual(a.category, "unsolvable" if d is None else
                             "goal" if d == 0 else "solvable")

    def test_details(self):
        """analyse(): each move's structured form names the piece moved,
        in the order of the list"""
        a = self.tb.analyse("klotski", HENG)
        self.assertEqual(len(a.details), len(a))
        for m, det in zip(a, a.details):
            self.assertEqual(m.text.split()[0], det["piece"])
        self.assertEqual(json.loads(a.json)["distance"], 116)


class TestErrors(Base):
    BAD = [("swap", "1111\n0000", []),
           ("swap", "11111\n0000\n1110\n0010\n1010\n0101\n1010\n0101", []),
           ("swap", "1111\n0000\n1110\n0010\n1010\n0101\n1010\n0111", []),
           ("klotski", "ZZZZZ", []), ("klotski", "BAAC BAAC", []),
           ("klotski", "AABB AABB CCDD EEFF ....", []),
           ("klotski", "ABCD EFGH IJKL MNOP QRST", []),
           ("four", "BWBO/WBWB/BWBW/WBWX", []),
           ("four", "BWBO/WBWB/BWBW/WBWO", ["first", "X"]),
           ("frog", "WW.B", []), ("frog", "WWxBB", []), ("frog", "", []),
           ("frog", None, ["n", "13"]), ("frog", None, ["n", "0"]),
           ("frog", None, ["n", "x"])]

    def test_parse_errors(self):
        """bad positions and options raise ParseError (a ValueError) with
        tblookup's message"""
        for puzzle, text, opt in self.BAD:
            kw = {opt[0]: opt[1]} if opt else {}
            with self.assertRaises(puzzletb.ParseError, msg=text) as cm:
                self.tb.solve(puzzle, text, **kw)
            msg = str(cm.exception)
            if opt:       # tblookup names the option as its flag
                rc, out, err = tblookup([puzzle, "--" + opt[0], opt[1]])
                want = "tblookup: --" + msg
            else:         # the position from standard input
                rc, out, err = tblookup([puzzle, "-i", "-"], text)
                want = "tblookup: standard input: " + msg
            self.assertEqual((rc, err.splitlines()[0]), (2, want))
            self.assertNotIn("\n", msg)
            self.assertIsInstance(cm.exception, ValueError)
            for call in (self.tb.distance, self.tb.analyse, self.tb.parse):
                self.assertRaises(puzzletb.ParseError, call, puzzle, text,
                                  **kw)

    def test_unknown_puzzle_metric_option(self):
        """unknown puzzle, metric or option: ParseError; tblookup's words
        for the first two, and every metric named"""
        with self.assertRaises(puzzletb.ParseError) as cm:
            self.tb.solve("nope", "x")
        rc, _, err = tblookup(["nope", "x"])
        self.assertEqual((rc, err.splitlines()[0]),
                         (2, "tblookup: " + str(cm.exception)))
        with self.assertRaises(puzzletb.ParseError) as cm:
            self.tb.solve("klotski", "x", "foo")
        rc, _, err = tblookup(["klotski", "--metric", "foo", "x"])
        msg = str(cm.exception)
        self.assertEqual(rc, 2)
        self.assertEqual(err.split(" (")[0],
                         "tblookup: " + msg.split(" (")[0])
        self.assertTrue(msg.endswith("(metrics: step, line, move)"), msg)
        with self.assertRaises(puzzletb.ParseError) as cm:
            self.tb.solve("klotski", HENG, colour="red")
        self.assertIn("colour", str(cm.exception))
        with self.assertRaises(puzzletb.ParseError):
            self.tb.solve("frog", "W.B", n=1)     # both text and n=

    def test_bad_types(self):
        """a NUL or a non-text position is refused, not crashed on"""
        self.assertRaises(puzzletb.ParseError, self.tb.solve, "frog",
                          "W.B\0junk")
        self.assertRaises(TypeError, self.tb.solve, "frog", 42)
        self.assertRaises(puzzletb.ParseError, self.tb.solve, "four",
                          FOUR001, first="B\0")
        self.assertEqual(self.tb.distance("frog", "W.B"), 3)

    def table_case(self, name, damage, query, puzzle="swap",
                   table="swap.mdb"):
        """Copies a table, damages it, and expects the query to raise
        TableError naming the file with tblookup's message, again when
        asked again (distance and analyse too), while the handle goes on
        parsing; returns the error's code."""
        d = tempfile.mkdtemp()
        try:
            path = os.path.join(d, table)
            shutil.copy(os.path.join(TABLES, table), path)
            damage(path)
            with puzzletb.open(d) as tb:
                with self.assertRaises(puzzletb.TableError, msg=name) as cm:
                    tb.solve(puzzle, query)
                self.assertEqual(cm.exception.path, path)
                self.assertIn(path + ": ", str(cm.exception))
                p = subprocess.run([TBLOOKUP, puzzle, "--tables", d, query],
                                   capture_output=True, text=True)
                self.assertEqual((p.returncode, p.stderr.strip()),
                                 (3, "tblookup: " + str(cm.exception)), name)
                for again in (tb.distance, tb.analyse):
                    self.assertRaises(puzzletb.TableError, again, puzzle,
                                      query)
                self.assertEqual(len(tb.parse("frog", "W.B")), 1)
            return cm.exception.code
        finally:
            shutil.rmtree(d)

    @staticmethod
    def craft(*args):
        """A damage: tests/craft.py on the table with these arguments."""
        craft = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                             "..", "..", "tests", "craft.py")
        return lambda path: subprocess.run([sys.executable, craft, path,
                                            *args], check=True,
                                           capture_output=True)

    def test_damaged_graph(self):
        """a described table whose stored graph is damaged where the query
        walks (every node of a cell: tests/craft.py), or whose stored fold
        rows are (the first path of every row but the root's), raises
        TableError naming the file, as tblookup does, for solve, distance
        and analyse"""
        self.table_case("graph", self.craft("graph^", "4 2"), "867254301",
                        "eight", "eight.mdb")
        self.table_case("fold rows", self.craft("fold^", "path off 1"),
                        "aBBc/dBBe/df.e/gf.h/iijj",   # puzzles/century.txt
                        "century", "century-move.mdb")

    def test_missing_table(self):
        """a missing table raises TableError naming the file"""
        self.table_case("missing", os.remove, "\n".join(P1225))

    def test_truncated_table(self):
        """a truncated table raises TableError naming the file"""
        def cut(path):
            with open(path, "r+b") as f:
                f.truncate(os.path.getsize(path) // 2)
        self.table_case("truncated", cut, "\n".join(P1225))

    def test_other_version(self):
        """a table of format 1 (named databases 'meta' and 'blocks', as
        FORMAT.md describes it) raises TableError: another version"""
        import hashlib
        import lmdb

        def format1(path):
            os.remove(path)
            env = lmdb.open(path, subdir=False, lock=False, max_dbs=2)
            with env.begin(write=True) as txn:
                meta = env.open_db(b"meta", txn=txn)
                blocks = env.open_db(b"blocks", txn=txn)
                body = "magic puzzletb\nformat 1\npuzzle swap\nmetric swap\n"
                txn.put(b"header", (body + "meta_sha256 " + hashlib.sha256(
                    body.encode()).hexdigest() + "\n").encode(), db=meta)
                txn.put(b"\0" * 8, b"x", db=blocks)
            env.close()
        code = self.table_case("format 1", format1, "\n".join(P1225))
        self.assertEqual(code, -8)            # PTB_EVERSION

    def test_edited_header(self):
        """a table whose header was edited (its version) raises TableError"""
        def version(path):
            data = bytearray(open(path, "rb").read())
            line = b"\nformat %d\n" % puzzletb.FORMAT_VERSION
            at = data.find(line)
            self.assertGreater(at, 0)
            data[at + 8] = ord("9")
            open(path, "wb").write(data)
        self.table_case("format 9", version, "\n".join(P1225))

    def test_corrupt_block(self):
        """one flipped byte in the block a query reads: TableError"""
        start = self.tb.parse("swap", P1225)[0]
        def flip(path):
            subprocess.run([sys.executable, "tests/corrupt.py", path,
                            str(start.subtable), str(start.index)],
                           check=True, capture_output=True)
        self.table_case("corrupt", flip, "\n".join(P1225))

    def test_parse_error_before_table_error(self):
        """bad input is reported before a missing table, as tblookup does"""
        d = tempfile.mkdtemp()
        try:
            with puzzletb.open(d) as tb:
                self.assertRaises(puzzletb.ParseError, tb.solve, "frog",
                                  "WW.B")
                self.assertRaises(puzzletb.TableError, tb.solve, "frog",
                                  "W.B")
        finally:
            shutil.rmtree(d)


class TestLevels(Base):
    """A family's levels (tables/FORMAT.md, "Levels tables"), against
    tblookup FAMILY --levels and --level, whose own tests compare them
    with Fogleman's program and with a breadth-first search."""

    def lookup(self, *args):
        rc, out, err = tblookup(list(args) + ["--format", "json"])
        self.assertEqual(rc, 0, err)
        return json.loads(out)

    def test_levels(self):
        """levels() is tblookup --levels: every level, or moves=,
        at_least=, seed= (--random --seed) and limit="""
        tb = self.tb
        self.assertEqual(tb.levels("rush-5x5"),
                         self.lookup("rush-5x5", "--levels"))
        self.assertEqual(tb.levels("rush-5x5", moves=12),
                         self.lookup("rush-5x5", "--levels", "--moves", "12"))
        self.assertEqual(tb.levels("rush-5x5", at_least=17, limit=3),
                         self.lookup("rush-5x5", "--levels", "--at-least",
                                     "17", "--limit", "3"))
        self.assertEqual(tb.levels("rush-5x5", moves=10, seed=9, limit=4),
                         self.lookup("rush-5x5", "--levels", "--moves", "10",
                                     "--random", "--seed", "9", "--limit",
                                     "4"))

    def test_level_stats(self):
        """level_stats() counts the levels at each number of moves, as
        tblookup --levels --stats"""
        want = self.lookup("rush-5x5", "--levels", "--stats")
        self.assertEqual(list(self.tb.level_stats("rush-5x5").items()),
                         [tuple(c) for c in want["counts"]])
        self.assertEqual(sum(self.tb.level_stats("rush-5x5").values()), 1730)

    def test_play_level(self):
        """play_level() is tblookup --level N --seed S: the level and an
        answer of its moves; None when there is no such level"""
        got = self.tb.play_level("rush-5x5", 18, seed=3)
        self.assertEqual(got, self.lookup("rush-5x5", "--level", "18",
                                          "--seed", "3"))
        self.assertEqual(got["answer"]["distance"], 18)
        self.assertEqual(len(got["answer"]["moves"]), 18)
        self.assertIsNone(self.tb.play_level("rush-5x5", 99))

    def test_damaged_levels(self):
        """a missing or damaged levels table raises TableError naming the
        file"""
        with tempfile.TemporaryDirectory() as tmp:
            tb = puzzletb.open(tmp)
            with self.assertRaises(puzzletb.TableError) as e:
                tb.levels("rush-4x4")
            self.assertIn("rush-4x4.levels.mdb: table not found",
                          str(e.exception))
            path = os.path.join(tmp, "rush-4x4.levels.mdb")
            shutil.copy(os.path.join(TABLES, "rush-4x4.levels.mdb"), path)
            with open(path, "r+b") as f:
                data = f.read()
                f.seek(data.index(b"EBBBE.CCEAAFDDDF"))
                f.write(b"F")
            for call in (lambda: tb.levels("rush-4x4"),
                         lambda: tb.levels("rush-4x4", moves=7),
                         lambda: tb.play_level("rush-4x4", 7)):
                with self.assertRaises(puzzletb.TableError) as e:
                    call()
                self.assertIn("corrupt", str(e.exception))
                self.assertEqual(e.exception.path, path)
            # the statistics read no level: the intact table's
            self.assertEqual(list(tb.level_stats("rush-4x4").items()),
                             list(self.tb.level_stats("rush-4x4").items()))

    def test_levels_kept_open(self):
        """a levels table stays open across calls while its file is the
        same (device, inode, size, time): bytes changed in place, with its
        size and time kept, are not read again; a file renamed in (as tbgen
        writes a table) is opened and checked again"""
        with tempfile.TemporaryDirectory() as tmp:
            tb = puzzletb.open(tmp)
            path = os.path.join(tmp, "rush-4x4.levels.mdb")
            good = os.path.join(tmp, "good")
            shutil.copy(os.path.join(TABLES, "rush-4x4.levels.mdb"), good)
            shutil.copy(good, path)
            want = tb.levels("rush-4x4")
            self.assertEqual(len(want), 32)
            st = os.stat(path)
            with open(path, "r+b") as f:
                data = f.read()
                f.seek(data.index(b"EBBBE.CCEAAFDDDF"))
                f.write(b"F")
            os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
            self.assertEqual(os.stat(path).st_size, st.st_size)
            self.assertEqual(tb.levels("rush-4x4"), want)
            self.assertEqual(sum(tb.level_stats("rush-4x4").values()), 32)
            bad = os.path.join(tmp, "bad")
            shutil.copy(path, bad)
            os.rename(bad, path)
            with self.assertRaises(puzzletb.TableError) as e:
                tb.levels("rush-4x4")
            self.assertIn("corrupt", str(e.exception))
            shutil.copy(good, bad)
            os.rename(bad, path)
            self.assertEqual(tb.levels("rush-4x4"), want)


class TestHandle(Base):
    def test_lazy_and_closed(self):
        """tables open on first use, once per (puzzle, metric); a closed
        handle refuses queries"""
        with puzzletb.open(TABLES) as tb:
            self.assertEqual(tb.tables(), {})
            tb.distance("klotski", HENG)
            tb.distance("klotski", HENG, "step")
            self.assertEqual(list(tb.tables()), [("klotski", "step")])
            self.assertEqual(tb.tables()[("klotski", "step")],
                             os.path.join(TABLES, "klotski-step.mdb"))
        self.assertRaises(ValueError, tb.distance, "swap", P1225)

    def test_default_directory(self):
        """default: $PUZZLETB_TABLES, else the installed directory when it
        exists, else tables"""
        old = os.environ.get("PUZZLETB_TABLES")
        try:
            os.environ["PUZZLETB_TABLES"] = "/some/where"
            self.assertEqual(puzzletb.open().directory, "/some/where")
            del os.environ["PUZZLETB_TABLES"]
            want = puzzletb.TABLES_DIR if puzzletb.TABLES_DIR and \
                os.path.isdir(puzzletb.TABLES_DIR) else "tables"
            self.assertEqual(puzzletb.default_tables(), want)
        finally:
            if old is not None:
                os.environ["PUZZLETB_TABLES"] = old

    def test_info(self):
        """info() gives tblookup --stats' histogram"""
        rc, out, _ = tblookup(["four", "--stats"])
        hist = [int(l.split()[1]) for l in out.splitlines()
                if l[:1].isdigit()]
        info = self.tb.info("four")
        self.assertEqual(info["histogram"], hist)
        # one state per board with black to move: 823,680 positions, the
        # ones with white to move stored colour-swapped (tests/t_four.c)
        self.assertEqual(info["states"], 411840)
        self.assertEqual((info["exact"], info["modulus"]), (True, 0))
        # swap: every start reaches its target, stored one bit a state
        # (the distance mod 4 with the board's parity, tables/FORMAT.md)
        info = self.tb.info("swap")
        self.assertEqual((info["exact"], info["modulus"], info["encoding"]),
                         (False, 4, "packed1"))
        self.assertEqual(info["solvable"], info["states"])


class TestDocs(unittest.TestCase):
    def test_docstrings(self):
        """help(puzzletb): every public name, method and field has a
        docstring"""
        missing = []
        for name in puzzletb.__all__:
            obj = getattr(puzzletb, name)
            if callable(obj) and not (obj.__doc__ or "").strip():
                missing.append(name)
            if isinstance(obj, type):
                for attr, v in vars(obj).items():
                    if not attr.startswith("_") and callable(v) and \
                       not (v.__doc__ or "").strip():
                        missing.append(name + "." + attr)
        for t in (puzzletb.Position, puzzletb.Move, puzzletb.Successor,
                  puzzletb.Option, puzzletb.Puzzle):
            fields = getattr(t, "_fields", None) or [
                k for k, v in vars(t).items()
                if type(v).__name__ == "member_descriptor"]
            for f in fields:
                doc = getattr(t, f).__doc__ or ""
                if not doc.strip() or doc.startswith("Alias for field"):
                    missing.append(t.__name__ + "." + f)
        self.assertEqual(missing, [])
        import pydoc
        text = pydoc.render_doc(puzzletb, renderer=pydoc.plaintext)
        for word in ("probe_distance", "ParseError", "Successor", "analyse"):
            self.assertIn(word, text)

    def test_example(self):
        """the module docstring's example runs as shown"""
        import doctest
        old = os.environ.get("PUZZLETB_TABLES")
        os.environ["PUZZLETB_TABLES"] = TABLES
        try:
            r = doctest.testmod(puzzletb)
        finally:
            if old is None:
                del os.environ["PUZZLETB_TABLES"]
            else:
                os.environ["PUZZLETB_TABLES"] = old
        self.assertEqual((r.failed, r.attempted > 0), (0, True))


class TestThreads(Base):
    def workload(self):
        rng = random.Random(SEED + 1)
        q = [("klotski", rand_klotski(rng), m) for _ in range(12)
             for m in ("step", "line", "move")]
        q += [("swap", rand_swap(rng), None) for _ in range(30)]
        q += [("four", rand_four(rng), None) for _ in range(30)]
        q += [("frog", frog_walk(rng, 12, rng.randint(0, 60)), None)
              for _ in range(30)]
        return q

    @staticmethod
    def answer(tb, q):
        s = tb.solve(q[0], q[1], q[2])
        return s.distance, [m.text for m in s.moves]

    def test_eight_threads_agree(self):
        """8 threads sharing one fresh handle give one thread's answers"""
        work = self.workload()
        with puzzletb.open(TABLES) as tb:
            want = [self.answer(tb, q) for q in work]
        results, errors = [None] * 8, []
        with puzzletb.open(TABLES) as tb:
            def run(k):
                try:
                    order = list(range(len(work)))
                    random.Random(k).shuffle(order)
                    got = [None] * len(work)
                    for i in order:
                        got[i] = self.answer(tb, work[i])
                    results[k] = got
                except Exception as e:       # reported below
                    errors.append(e)
            threads = [threading.Thread(target=run, args=(k,))
                       for k in range(8)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            self.assertEqual(len(tb.tables()), 6)
        self.assertEqual(errors, [])
        for k in range(8):
            self.assertEqual(results[k], want, "thread %d" % k)

    def test_gil_released(self):
        """while one thread walks a table, another runs Python: the GIL is
        released in the library (checked by overlap, not by timing)"""
        tb, far = self.tb, "4FEA13400"      # 138 moves in 'move'
        tb.solve("klotski", far, "move")
        stamps, done = [], threading.Event()

        def ticker():
            while not done.is_set():
                stamps.append(time.perf_counter())
                time.sleep(0)                # gives the GIL back at once
        # With the GIL held through a call, the ticker could only run in
        # one at a forced switch, one per 5 s: in s seconds, at most s / 5
        # + 1 calls could see it.  With the GIL released, a call sees it
        # whenever the ticker gets a core during the call: idle, about one
        # call in four; on a loaded machine, where it may wait for a core
        # longer than 200 calls take, the calls go on (up to 60 s) until
        # 10 have.
        old = sys.getswitchinterval()
        sys.setswitchinterval(5.0)
        t = threading.Thread(target=ticker)
        t.start()
        seen = calls = 0
        begin = time.perf_counter()
        try:
            while seen < 10 and time.perf_counter() - begin < 60:
                n = len(stamps)
                tb.solve("klotski", far, "move")
                calls += 1
                seen += len(stamps) > n
        finally:
            done.set()
            t.join()
            sys.setswitchinterval(old)
        took = time.perf_counter() - begin
        print("# %d of %d calls saw the other thread run (%.2f s)" %
              (seen, calls, took), file=sys.stderr)
        self.assertGreaterEqual(seen, 10)
        self.assertGreater(seen, took / 5 + 1)


if __name__ == "__main__":
    unittest.main()
