"""python/tests/test_patterns.py: a puzzle past a full table (fifteen, the
15-puzzle) answered by the module's search from its pattern tables.

Needs $PUZZLETB_PATTERNS, a directory with fifteen's pattern tables
(tbgen --puzzle fifteen --patterns; tests/t_searched.sh builds them), and
is skipped without it.  References: the published optimal lengths of
R. E. Korf's random instances (tests/data/korf100.txt; Depth-first
iterative-deepening, 1985), random walks from the goal (the answer is at
most the walk and of its parity), the rules of the puzzle written here
(each line is replayed), and tblookup's answers to the same queries.
"""
import json
import os
import random
import shutil
import subprocess
import tempfile
import threading
import unittest

import puzzletb

TBLOOKUP = os.environ.get("TBLOOKUP", "bin/tblookup")
PATTERNS = os.environ.get("PUZZLETB_PATTERNS")
KORF = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                    "tests", "data", "korf100.txt")
GOAL = "123456789ABCDEF."
KORF1 = "D68CFE.AB7459132"          # Korf's instance 1, in our goal's terms


def tblookup(*args, stdin=None):
    p = subprocess.run([TBLOOKUP, "fifteen", "--tables", PATTERNS] +
                       list(args), input=stdin, capture_output=True,
                       text=True)
    return p.returncode, p.stdout, p.stderr


def neighbours(cell):
    r, c = divmod(cell, 4)
    return [rr * 4 + cc for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1),
                                       (r, c + 1))
            if 0 <= rr < 4 and 0 <= cc < 4]


def slide(board, cell):
    """The board after the tile at cell slides into the blank."""
    b = list(board)
    e = b.index(".")
    b[e], b[cell] = b[cell], "."
    return "".join(b)


def walk(k, rng):
    """A random walk of k moves from the goal, never straight back."""
    b, prev = GOAL, None
    for _ in range(k):
        e = b.index(".")
        cell = rng.choice([c for c in neighbours(e) if c != prev])
        prev, b = e, slide(b, cell)
    return b


def korf(limit):
    """Korf's instances of at most limit moves: (number, length, board),
    his tiles turned a half turn and renamed 16 - t (his goal has the
    blank first, ours last)."""
    rows = open(KORF).read().split("\n")
    out = []
    for i in range(0, 200, 2):
        number, length, _ = rows[i].split()
        cells = ["."] * 16
        for c, t in enumerate(int(x) for x in rows[i + 1].split()):
            cells[15 - c] = "." if t == 0 else GOAL[15 - t]
        if int(length) <= limit:
            out.append((number, int(length), "".join(cells)))
    return out


def replays(start, solution):
    """Each move of the solution slides one tile next to the blank into
    it, its board is the one reached, and the last board is the goal."""
    b = start
    for m in solution.moves:
        after = m.board.replace("\n", "")
        if not any(slide(b, c) == after for c in neighbours(b.index("."))):
            return False
        b = after
    return b == GOAL


def rows(board):
    return "/".join(board[i:i + 4] for i in range(0, 16, 4))


@unittest.skipUnless(PATTERNS, "no $PUZZLETB_PATTERNS (tests/t_searched.sh "
                     "builds fifteen's pattern tables)")
class Searched(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tb = puzzletb.open(PATTERNS, seconds=60)

    @classmethod
    def tearDownClass(cls):
        cls.tb.close()

    def test_korf(self):
        """fifteen: Korf's instance 1 (57 moves) and his instances of at
        most 45 moves: the module's distance is the published length, each
        line replays by the rules to the goal, as long as tblookup's"""
        cases = [("1", 57, KORF1)] + korf(45)
        self.assertGreaterEqual(len(cases), 4)
        rc, out, err = tblookup("--batch", "--count", stdin="".join(
            rows(b) + "\n" for _, _, b in cases))
        self.assertEqual(rc, 0, err)
        for (number, length, board), count in zip(cases, out.split()):
            with self.subTest(instance=number):
                s = self.tb.solve("fifteen", board)
                self.assertEqual(s.distance, length)
                self.assertEqual(self.tb.distance("fifteen", rows(board)),
                                 length)
                self.assertEqual(int(count), length)
                self.assertEqual(len(s.moves), length)
                self.assertTrue(replays(board, s), s.moves[:3])

    def test_walks(self):
        """fifteen: random walks of 10 to 40 moves from the goal: each
        distance at most the walk and of its parity, tblookup's count"""
        rng = random.Random(1515)
        walks = [(k, walk(k, rng)) for k in (10, 20, 30, 40) * 2]
        rc, out, err = tblookup("--batch", "--count", stdin="".join(
            rows(b) + "\n" for _, b in walks))
        self.assertEqual(rc, 0, err)
        for (k, b), count in zip(walks, out.split()):
            d = self.tb.distance("fifteen", b)
            self.assertTrue(d <= k and (k - d) % 2 == 0, (k, b, d))
            self.assertEqual(d, int(count), b)

    def test_json(self):
        """fifteen: the JSON is tblookup --format json's, its "search"
        member too (nodes, iterations, bound; not seconds), with
        Solution.search the same figures; one thread or two, the same
        line"""
        rc, out, err = tblookup("--format", "json", "-j", "1", KORF1)
        self.assertEqual(rc, 0, err)
        want = json.loads(out)
        self.tb.threads = 1
        try:
            s = self.tb.solve("fifteen", KORF1)
        finally:
            self.tb.threads = None
        got = json.loads(s.json)
        for d in (want, got):
            self.assertIsInstance(d["search"].pop("seconds"), float)
        self.assertEqual(got, want)
        self.assertEqual(s.search["optimal"], True)
        self.assertEqual(s.search["nodes"], want["search"]["nodes"])
        self.assertLessEqual(s.search["bound"], 57)
        self.tb.threads = 2
        try:
            two = self.tb.solve("fifteen", KORF1)
        finally:
            self.tb.threads = None
        self.assertEqual([m.text for m in two.moves],
                         [m["move"] for m in want["moves"]])

    def test_python_threads(self):
        """fifteen: four Python threads sharing the Tablebase get the
        published lengths and the lines one thread gets"""
        cases = korf(45)
        alone = {b: [m.text for m in self.tb.solve("fifteen", b).moves]
                 for _, _, b in cases}
        got, errors = {}, []

        def work(k):
            try:
                for _, length, b in cases[k::4] + cases:
                    s = self.tb.solve("fifteen", b)
                    got[(k, b)] = (s.distance == length and
                                   [m.text for m in s.moves] == alone[b])
            except Exception as e:          # reported below
                errors.append(e)
        threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(errors, [])
        self.assertTrue(got and all(got.values()),
                        [k for k, v in got.items() if not v][:3])

    def test_numbers(self):
        """fifteen: a position as 16 numbers, 0 the blank, and as a list
        of rows: 1 2 ... 13 0 14 15 takes 2 moves"""
        self.assertEqual(self.tb.distance(
            "fifteen", "1 2 3 4 5 6 7 8 9 10 11 12 13 0 14 15"), 2)
        self.assertEqual(self.tb.distance(
            "fifteen", ["1234", "5678", "9ABC", "D.EF"]), 2)
        self.assertEqual(self.tb.solve("fifteen", GOAL).distance, 0)

    def test_needs_full_table(self):
        """fifteen: analyse() and info() raise TableError naming the full
        table they need (its code PTB_ENOTABLE) and why; a bad position is
        still a ParseError"""
        for call in (lambda: self.tb.analyse("fifteen", KORF1),
                     lambda: self.tb.info("fifteen")):
            with self.assertRaises(puzzletb.TableError) as cm:
                call()
            e = cm.exception
            self.assertEqual(e.path, os.path.join(PATTERNS, "fifteen.mdb"))
            self.assertIn("needs a full table", str(e))
            self.assertIn("answered by a search from its pattern tables",
                          str(e))
        rc, _, err = tblookup("--count", "123456789ABCDEF")
        self.assertEqual(rc, 2)
        with self.assertRaises(puzzletb.ParseError) as cm:
            self.tb.distance("fifteen", "123456789ABCDEF")
        self.assertIn("(%s)" % cm.exception, err)   # tblookup's words

    def test_time_limit(self):
        """fifteen: a search past Tablebase.seconds raises SearchLimit (a
        TimeoutError) saying it ran out of time, with its figures"""
        number, length, hard = max(korf(66), key=lambda c: c[1])
        with puzzletb.open(PATTERNS, threads=1, seconds=0.001) as tb:
            with self.assertRaises(puzzletb.SearchLimit) as cm:
                tb.solve("fifteen", hard)
        e = cm.exception
        self.assertIsInstance(e, TimeoutError)
        self.assertIn("fifteen: the search ran out of time (0.001 s)",
                      str(e))
        self.assertGreater(e.search["nodes"], 0)
        self.assertLessEqual(e.search["bound"], length)

    def test_missing(self):
        """fifteen with a pattern table missing: TableError with
        tblookup's message, naming how to build them"""
        tmp = tempfile.mkdtemp(prefix="ptb-patterns-")
        try:
            for k in (1, 2):
                shutil.copy(os.path.join(PATTERNS,
                                         "fifteen-pattern-%d.mdb" % k), tmp)
            with puzzletb.open(tmp) as tb:
                with self.assertRaises(puzzletb.TableError) as cm:
                    tb.distance("fifteen", KORF1)
            p = subprocess.run([TBLOOKUP, "fifteen", "--tables", tmp, KORF1],
                               capture_output=True, text=True)
            self.assertEqual(p.returncode, 3)
            self.assertEqual("tblookup: " + str(cm.exception),
                             p.stderr.strip())
            self.assertIn("tbgen --puzzle fifteen --patterns",
                          str(cm.exception))
        finally:
            shutil.rmtree(tmp)


if __name__ == "__main__":
    unittest.main()
