#!/usr/bin/python3
"""tests/t_serve.py: tbserve end to end, against servers the test starts on
free ports of 127.0.0.1 and stops (nothing else is contacted).

  - the command line: --help, --version, usage errors, a port in use;
  - every answer of /api/v1/PUZZLE equals `tblookup --format json` for the
    seeds' samples and random positions of every puzzle and metric, and its
    legal moves agree with tblookup asked about each successor, with a move
    generator written here from the rules (frog, swap), and with each other
    (best first, categories);
  - moves=..: playing moves equals asking about the board they reach;
  - /random: every position drawn is at the distance asked for by a search
    written here from the rules (four, frog, swap, Klotski's step metric),
    distinct, restricted to the position's part of the table when one is
    given, the same for the same seed; its errors;
  - /levels/FAMILY, its /stats and /play equal tblookup FAMILY --levels
    and --level; a damaged levels table is a 503;
  - /stats equals `tblookup --stats --format json`, /puzzles lists every
    puzzle of `tblookup --help`, then the described puzzles whose tables
    are here, each with its canonical description and drawn start (read
    here from puzzles/NAME.txt); the published optima: century's start 111
    moves in the line metric and 99 in the move metric (Storer, Winning
    Ways), the 8-puzzle's 8672543.1 31 (Reinefeld 1993);
  - every error status with its JSON body (400, 404, 405, 503 for a missing
    and for a corrupt table), ETag / If-None-Match / Cache-Control, HEAD;
  - static files from web/ only: no traversal, whatever the spelling;
  - 1,000 malformed or hostile requests get an error status or a closed
    connection, and the server keeps answering;
  - eight clients at once get the same answers as one; SIGINT and SIGTERM
    stop the server with status 0; one log line per request.

With --patterns DIR (tests/t_searched.sh; DIR holds fifteen's pattern
tables) it checks instead a puzzle past a full table, answered by search:
listed once, answered as tblookup --format json answers it (the published
length of Korf's instance 1, a line the rules replay, a random walk's
bound), a search out of time (--search-seconds) a 503 that says so, and
what needs a full table refused."""
import glob
import http.client
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

SERVE = os.environ.get("TBSERVE", "bin/tbserve")
LOOKUP = os.environ.get("LOOKUP", "bin/tblookup")
TABLES = os.environ.get("PUZZLETB_TABLES", "tables")


class Tap:
    """TAP lines for tests/run: ok N - what / not ok N - what."""

    def __init__(self):
        self.n = self.failed = 0

    def check(self, what, cond):
        self.n += 1
        print(f"{'ok' if cond else 'not ok'} {self.n} - {what}", flush=True)
        self.failed += not cond
        return cond

    def done(self):
        return 1 if self.failed else 0


class Server:
    """bin/tbserve on a free port (--port 0; the port is read from its first
    log line), stopped by stop() or at the end of a with block."""

    def __init__(self, *args, tables=TABLES):
        self.logf = tempfile.NamedTemporaryFile("w+b", prefix="tbserve-",
                                                delete=False)
        self.proc = subprocess.Popen(
            [SERVE, "--port", "0", "--tables", tables, "--web", "web",
             *args], stdout=subprocess.DEVNULL, stderr=self.logf)
        self.port = None
        for _ in range(200):
            m = re.search(r"listening on http://127\.0\.0\.1:(\d+)/",
                          self.log())
            if m:
                self.port = int(m.group(1))
                break
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        if not self.port:
            raise RuntimeError("tbserve did not start: " + self.log())

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
        os.unlink(self.logf.name)

    def log(self):
        with open(self.logf.name, "rb") as f:
            return f.read().decode("utf-8", "replace")

    def url(self, path):
        return f"http://127.0.0.1:{self.port}{path}"

    def stop(self, sig=signal.SIGTERM):
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
                return -1
        return self.proc.returncode

    def request(self, path, method="GET", headers=None):
        """(status, headers dict (lower-case names), body bytes)"""
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            c.request(method, path, headers=headers or {})
            r = c.getresponse()
            body = r.read()
            return r.status, {k.lower(): v for k, v in r.getheaders()}, body
        finally:
            c.close()

    def get(self, path, **kw):
        """(status, headers, parsed JSON or None)"""
        st, hd, body = self.request(path, **kw)
        try:
            return st, hd, json.loads(body)
        except ValueError:
            return st, hd, None


def tblookup(*args, stdin=None):
    p = subprocess.run([LOOKUP, "--tables", TABLES, *args], input=stdin,
                       capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def api_path(puzzle, position=None, **params):
    q = {}
    if position is not None:
        q["position"] = position
    q.update({k: v for k, v in params.items() if v is not None})
    return f"/api/v1/{puzzle}?" + urllib.parse.urlencode(q)


# ---- positions: the seeds' samples and random ones, from the rules ----

CLASSIC = "BAAC\nBAAC\nDEEF\nDGHF\nIKKJ"
SEED002 = "FFBB\nDAAE\nDAAE\nHCCI\nJKKG"
P1225 = "1111\n0000\n1110\n0010\n1010\n0101\n1010\n0101"
SEED001 = "BWBO\nWBWB\nBWBW\nWBWO"


def random_swap(rng):
    k = rng.randint(0, 16)

    def board():
        cells = ["1"] * k + ["0"] * (16 - k)
        rng.shuffle(cells)
        return "\n".join("".join(cells[i:i + 4]) for i in range(0, 16, 4))
    return board() + "\n" + board()


def random_four(rng):
    cells = list("B" * 7 + "W" * 7 + "OO")
    rng.shuffle(cells)
    return "\n".join("".join(cells[i:i + 4]) for i in range(0, 16, 4))


def random_frog(rng):
    n = rng.randint(1, 12)
    cells = list("W" * n + "B" * n)
    rng.shuffle(cells)
    cells.insert(rng.randint(0, 2 * n), ".")
    return "".join(cells)


def random_klotski(rng):
    """The 2x2 block, then random 1x2, 2x1 and 1x1 pieces until two cells
    are left empty (retries until that works)."""
    while True:
        g = [["."] * 4 for _ in range(5)]
        r, c = rng.randint(0, 3), rng.randint(0, 2)
        for dr in (0, 1):
            for dc in (0, 1):
                g[r + dr][c + dc] = "A"
        free = 16
        letters = iter("BCDEFGHIJKLMN")
        for _ in range(200):
            if free == 2:
                return "\n".join("".join(row) for row in g)
            h, w = rng.choice([(1, 2), (2, 1), (1, 1), (1, 1)])
            r, c = rng.randint(0, 5 - h), rng.randint(0, 4 - w)
            cells = [(r + i, c + j) for i in range(h) for j in range(w)]
            if free - len(cells) < 2 or any(g[y][x] != "." for y, x in cells):
                continue
            ch = next(letters, None)
            if ch is None:
                break
            for y, x in cells:
                g[y][x] = ch
            free -= len(cells)


# ---- independent move generators (from the rules in doc/guide.md) --------

def frog_moves(row):
    """White moves right, black left: a step into the empty cell, or a jump
    over one piece of the other colour into it."""
    e = row.index(".")
    out = []
    for frm in range(len(row)):
        p = row[frm]
        d = e - frm
        if p == "W" and (d == 1 or (d == 2 and row[frm + 1] == "B")):
            out.append(frm)
        if p == "B" and (d == -1 or (d == -2 and row[frm - 1] == "W")):
            out.append(frm)
    return out


def swap_moves(board):
    """Every pair of edge-adjacent cells of different colours."""
    g = board.split("\n")
    n = 0
    for r in range(4):
        for c in range(4):
            if c < 3 and g[r][c] != g[r][c + 1]:
                n += 1
            if r < 3 and g[r][c] != g[r + 1][c]:
                n += 1
    return n


def klotski_steps(board):
    """Step metric: one piece slides one cell up, down, left or right into
    empty cells ('.' in a general grid, else K in the A-K notation)."""
    g = board.split("\n")
    empty = "." if "." in board else "K"
    pieces = {}
    for r, row in enumerate(g):
        for c, ch in enumerate(row):
            if ch != empty:
                pieces.setdefault(ch, set()).add((r, c))
    n = 0
    for cells in pieces.values():
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            to = {(r + dr, c + dc) for r, c in cells}
            n += all(0 <= r < 5 and 0 <= c < 4 and
                     ((r, c) in cells or g[r][c] == empty) for r, c in to)
    return n


# ---- independent distances: searches written here from the rules -------

def bfs_distance(start, moves, is_goal, limit=40):
    """Moves from start to the nearest goal, by breadth-first search over
    moves(state) (an iterable of states); None past limit or when no goal
    can be reached."""
    layer, seen = [start], {start}
    for d in range(limit + 1):
        if any(is_goal(x) for x in layer):
            return d
        nxt = []
        for x in layer:
            for y in moves(x):
                if y not in seen:
                    seen.add(y)
                    nxt.append(y)
        if not nxt:
            return None
        layer = nxt
    return None


FOUR_LINES = ([[(r, c) for c in range(4)] for r in range(4)] +
              [[(r, c) for r in range(4)] for c in range(4)] +
              [[(i, i) for i in range(4)], [(i, 3 - i) for i in range(4)]])


def four_line(board):
    """The cells of a line of four stones of one colour, or None."""
    g = board.split("\n")
    for line in FOUR_LINES:
        if g[line[0][0]][line[0][1]] in "BW" and \
                len({g[r][c] for r, c in line}) == 1:
            return line
    return None


def four_distance(code):
    """code: 'ROW/ROW/ROW/ROW S', S the side to move; the sides alternate,
    a piece of the side to move slides into a neighbouring empty cell."""
    rows, side = code.split()

    def moves(st):
        b, s = st
        out = []
        for i, ch in enumerate(b):
            if ch != "O":
                continue
            r, c = divmod(i, 4)
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                y, x = r + dr, c + dc
                j = y * 4 + x
                if 0 <= y < 4 and 0 <= x < 4 and b[j] == s:
                    nb = list(b)
                    nb[i], nb[j] = s, "O"
                    out.append(("".join(nb), "W" if s == "B" else "B"))
        return out

    def goal(st):
        b = st[0]
        return four_line("\n".join(b[i:i + 4] for i in range(0, 16, 4)))
    return bfs_distance((rows.replace("/", ""), side), moves, goal)


def frog_distance(row):
    n = len(row) // 2

    def moves(x):
        e = x.index(".")
        out = []
        for frm in frog_moves(x):
            y = list(x)
            y[e], y[frm] = y[frm], "."
            out.append("".join(y))
        return out
    return bfs_distance(row, moves, lambda x: x == "B" * n + "." + "W" * n)


def swap_distance(code):
    """code: the start's four rows then the target's, joined by '/'; a move
    swaps two edge-adjacent cells of different colours.  Searched from both
    ends at once (every move is its own reverse)."""
    rows = code.split("/")
    a, b = "".join(rows[:4]), "".join(rows[4:])
    pairs = [(i, i + 1) for i in range(16) if i % 4 < 3] + \
            [(i, i + 4) for i in range(12)]

    def moves(x):
        for i, j in pairs:
            if x[i] != x[j]:
                y = list(x)
                y[i], y[j] = y[j], y[i]
                yield "".join(y)
    if sorted(a) != sorted(b):
        return None
    da, db = {a: 0}, {b: 0}
    fa, fb = [a], [b]
    while True:
        met = [da[x] + db[x] for x in fa if x in db] + \
              [da[x] + db[x] for x in fb if x in da]
        if met:
            return min(met)
        if len(fa) > len(fb):          # grow the smaller side
            da, db, fa, fb = db, da, fb, fa
        nxt = []
        for x in fa:
            for y in moves(x):
                if y not in da:
                    da[y] = da[x] + 1
                    nxt.append(y)
        fa = nxt


KLOTSKI_SHAPES = {"A": (2, 2), "h": (1, 2), "v": (2, 1), "s": (1, 1)}


def klotski_decode(code):
    """A CommonCode (9 hex digits) as a set of pieces (kind, row, column):
    the first digit is the 2x2 block's cell (row * 4 + column), then two
    bits a piece for the other pieces in reading order of the free cells
    left: 00 empty, 01 1x2, 10 2x1, 11 1x1 (the Klotski community's code,
    the guide's CommonCode)."""
    v = int(code, 16)
    head = v >> 32
    occ = [[False] * 4 for _ in range(5)]
    pieces = [("A", head // 4, head % 4)]
    for dr in (0, 1):
        for dc in (0, 1):
            occ[head // 4 + dr][head % 4 + dc] = True
    bits = [(v >> (30 - 2 * k)) & 3 for k in range(16)]
    k = 0
    for r in range(5):
        for c in range(4):
            if occ[r][c]:
                continue
            kind = ".hvs"[bits[k]] if k < 16 else "."
            k += 1
            if kind == ".":
                continue
            h, w = KLOTSKI_SHAPES[kind]
            for dr in range(h):
                for dc in range(w):
                    occ[r + dr][c + dc] = True
            pieces.append((kind, r, c))
    return frozenset(pieces)


def klotski_step_distance(code):
    """Step metric: a piece slides one cell; the goal is the 2x2 block at
    the bottom middle (rows 4-5, columns 2-3 from 1)."""
    def cells(kind, r, c):
        h, w = KLOTSKI_SHAPES[kind]
        return {(r + i, c + j) for i in range(h) for j in range(w)}

    def moves(st):
        occ = set()
        for p in st:
            occ |= cells(*p)
        for p in st:
            mine = cells(*p)
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                to = cells(p[0], p[1] + dr, p[2] + dc)
                if all(0 <= r < 5 and 0 <= c < 4 and
                       ((r, c) in mine or (r, c) not in occ) for r, c in to):
                    yield st - {p} | {(p[0], p[1] + dr, p[2] + dc)}
    return bfs_distance(klotski_decode(code), moves,
                        lambda st: ("A", 3, 1) in st, limit=60)


# ---- the checks ---------------------------------------------------------

def check_cli(t):
    p = subprocess.run([SERVE, "--help"], capture_output=True, text=True)
    t.check("--help: usage on stdout, status 0",
            p.returncode == 0 and p.stdout.startswith("usage: tbserve") and
            not p.stderr)
    p = subprocess.run([SERVE, "--version"], capture_output=True, text=True)
    _, lhelp, _ = tblookup("--version")
    t.check("--version: the library's version, status 0",
            p.returncode == 0 and
            p.stdout.split() == ["tbserve", lhelp.split()[1]])
    for args, what in ((["--bogus"], "unknown option '--bogus'"),
                       (["--port", "70000"], "--port takes 0..65535"),
                       (["--threads", "0"], "--threads takes 1..256"),
                       (["--search-seconds", "0"],
                        "--search-seconds takes 0.001..86400, got '0'"),
                       (["--bind", "localhost:1"], "--bind takes an IPv4"),
                       (["--port"], "option '--port' needs a value"),
                       (["extra"], "unexpected argument 'extra'")):
        p = subprocess.run([SERVE, *args], capture_output=True, text=True)
        lines = p.stderr.splitlines()
        t.check(f"usage error {' '.join(args)}: status 2, one line + hint",
                p.returncode == 2 and not p.stdout and len(lines) == 2 and
                lines[0].startswith("tbserve: " + what) and
                lines[1] == "Try 'tbserve --help'.")
    with Server() as a:
        p = subprocess.run([SERVE, "--port", str(a.port)],
                           capture_output=True, text=True, timeout=20)
        t.check("a port in use: status 1 and a message",
                p.returncode == 1 and "cannot listen" in p.stderr)


def same_as_tblookup(t, srv, what, puzzle, position, metric=None, **opts):
    """The API's answer is tblookup --analyse --format json's, byte for
    byte, and without its "analysis" it is tblookup --format json's;
    returns the API's answer."""
    args = [puzzle, "--format", "json"]
    if metric:
        args += ["--metric", metric]
    for k, v in opts.items():
        args += [f"--{k}", v]
    if position is not None:
        args.append(position)
    rc, out, err = tblookup(*args)
    rca, outa, erra = tblookup("--analyse", *args)
    st, hd, body = srv.request(api_path(puzzle, position, metric=metric,
                                        **opts))
    ok = (st == 200 and rc in (0, 1) and rca == rc and
          body.decode() == outa and
          hd.get("content-type") == "application/json")
    ans = json.loads(body) if st == 200 else None
    if ok:
        plain = dict(ans)
        del plain["analysis"]
        ok = plain == json.loads(out)
    if not ok:
        print(f"# {what}: {st} {body[:300]!r}\n# tblookup: {rc} {out[:300]}")
    return ans if ok else None


def check_successors(ans, puzzle, metric, position, opts):
    """Best first, categories right, and each successor's distance what
    tblookup says of that board."""
    d = ans["distance"]
    succ = ans["analysis"]
    key = [(s["distance"] is None, s["distance"] or 0) for s in succ]
    if key != sorted(key):
        return "not best first"
    for s in succ:
        sd = s["distance"]
        cat = "unsolvable" if sd is None else "goal" if sd == 0 else "solvable"
        opt = d is not None and sd is not None and sd + 1 == d
        if s["category"] != cat or s["optimal"] != opt:
            return f"move {s['move']}: {s['category']} {s['optimal']}"
        args = [puzzle, "--count"] + (["--metric", metric] if metric else [])
        board = s["board"]
        if puzzle == "swap":               # the target stays the query's
            board += "\n" + position.split("\n", 4)[4]
        if puzzle == "four":               # the other side moves next
            args += ["--first", "W" if s["move"][0] == "B" else "B"]
        rc, out, _ = tblookup(*args, board)
        got = int(out) if rc == 0 else None
        if got != sd:
            return f"move {s['move']}: API says {sd}, tblookup {got}"
    if d not in (None, 0) and (not succ or not succ[0]["optimal"]):
        return "no optimal move from a solvable position"
    if d not in (None, 0) and succ[0]["move"] != ans["moves"][0]["move"] \
            and succ[0]["distance"] != d - 1:
        return "the line's first move is not an optimal one"
    if puzzle == "frog" and len(succ) != len(frog_moves(ans["input"])):
        return "frog: move count differs from the rules"
    if puzzle == "swap" and len(succ) != swap_moves(ans["input"]):
        return "swap: move count differs from the rules"
    if puzzle == "klotski" and ans["metric"] == "step" and \
            len(succ) != klotski_steps(ans["input"]):
        return "klotski: step count differs from the rules"
    return None


def check_answers(t, srv):
    rng = random.Random(int(os.environ.get("SEED", "13")))
    print(f"# random positions from seed {os.environ.get('SEED', '13')}")
    cases = [("swap", P1225, None, {}), ("four", SEED001, None, {}),
             ("four", SEED001, None, {"first": "B"}),
             ("four", SEED001, None, {"first": "W"}),
             ("klotski", CLASSIC, "step", {}), ("klotski", CLASSIC, "line", {}),
             ("klotski", CLASSIC, "move", {}), ("klotski", SEED002, None, {}),
             ("klotski", "4WVE1", None, {}),
             ("frog", "WWW.BBB", None, {}), ("frog", "WB.WB", None, {})]
    cases += [("frog", None, None, {"n": str(n)}) for n in range(1, 13)]
    for _ in range(12):
        cases.append(("swap", random_swap(rng), None, {}))
        cases.append(("four", random_four(rng), None,
                      rng.choice([{}, {"first": "B"}, {"first": "W"}])))
        cases.append(("frog", random_frog(rng), None, {}))
        cases.append(("klotski", random_klotski(rng),
                      rng.choice(["step", "line", "move"]), {}))
    bad = []
    unsolvable = 0
    for i, (puzzle, pos, metric, opts) in enumerate(cases):
        what = f"{puzzle} {metric or ''} {pos!r} {opts}"
        ans = same_as_tblookup(t, srv, what, puzzle, pos, metric, **opts)
        if ans is None:
            bad.append(what)
            continue
        unsolvable += ans["distance"] is None
        if i < 24 or i % 3 == 0:            # tblookup per successor: slow
            why = check_successors(ans, puzzle, metric, pos, opts)
            if why:
                bad.append(f"{what}: {why}")
                print(f"# {what}: {why}")
    t.check(f"{len(cases)} answers (samples and random positions of every "
            f"puzzle and metric, {unsolvable} unsolvable) hold tblookup "
            "--format json's object; legal moves agree with tblookup and "
            "the rules", not bad)


def check_moves_param(t, srv):
    st, _, ans = srv.get(api_path("klotski", CLASSIC, metric="move"))
    line = [m["move"] for m in ans["moves"]]
    st, _, a5 = srv.get(api_path("klotski", CLASSIC, metric="move",
                                 moves=",".join(line[:5])))
    _, _, b5 = srv.get(api_path("klotski", ans["moves"][4]["board"],
                                metric="move"))
    t.check("moves=: five moves of the line from 横刀立马 give the answer for "
            "the board they reach (76 in the move metric)",
            st == 200 and a5 == b5 and a5["distance"] == 76)
    st, _, a = srv.get(api_path("klotski", CLASSIC, metric="move",
                                moves=",".join(line)))
    t.check("moves=: the whole line reaches a goal",
            st == 200 and a["distance"] == 0 and a["category"] == "goal")
    losing = [s["move"] for s in ans["analysis"] if not s["optimal"]][0]
    st, _, a = srv.get(api_path("klotski", CLASSIC, metric="move",
                                moves=losing))
    t.check("moves=: a losing move leads where its listed distance said",
            a["distance"] == [s for s in ans["analysis"]
                              if s["move"] == losing][0]["distance"])
    st, _, a = srv.get(api_path("four", SEED001, moves="B 24-14"))
    _, _, b = srv.get(api_path("four", a["input"].replace("\n", "/"),
                               first="W"))
    t.check("moves= on four with either side first: from the nearer start, "
            "then the other side moves", st == 200 and a == b)
    st, _, a = srv.get(api_path("klotski", CLASSIC, moves="I R,Z Z"))
    t.check("moves=: an illegal move is a 400 naming it",
            st == 400 and a["error"] == 'moves: move 2 "Z Z" is not legal '
            'there')


def swap_orbit(target):
    """The boards a target may be relabeled to (doc/guide.md: the 8 symmetries of
    the square, and swapping the colours)."""
    g = [list(r) for r in target.split("\n")]
    out = set()
    for _ in range(4):
        g = [list(r) for r in zip(*g[::-1])]                 # a quarter turn
        for h in (g, [r[::-1] for r in g]):                  # and a mirror
            for flip in (False, True):
                out.add("/".join("".join(("1" if x == "0" else "0")
                                         if flip else x for x in r)
                                 for r in h))
    return out


def check_random(t, srv):
    """/random against the searches above: every position drawn is at the
    distance asked for, as the rules say."""
    cases = [("four", None, None, 0, 5, {}, four_distance),
             ("four", None, None, 3, 8, {}, four_distance),
             ("four", None, None, 8, 64, {}, four_distance),
             ("frog", None, None, 9, 6, {"n": "4"}, frog_distance),
             ("frog", None, None, 0, 3, {"n": "5"}, frog_distance),  # 1
             ("swap", None, None, 6, 4, {}, swap_distance),
             ("swap", None, P1225, 5, 4, {}, swap_distance),
             ("klotski", "step", None, 12, 3, {}, klotski_step_distance)]
    bad = []
    for puzzle, metric, position, d, limit, opts, dist in cases:
        what = f"{puzzle} {metric or ''} at {d} {opts} {position!r}"
        q = {"distance": d, "seed": 7, "limit": limit, **opts}
        q.update({"metric": metric} if metric else {})
        q.update({"position": position} if position else {})
        path = f"/api/v1/{puzzle}/random?" + urllib.parse.urlencode(q)
        st, hd, body = srv.request(path)
        ans = json.loads(body) if st == 200 else {}
        pos = ans.get("positions", [])
        got = [dist(p) for p in pos]
        args = [puzzle, "--random-at", str(d), "--seed", "7", "--limit",
                str(limit), "--format", "json"]
        args += ["--metric", metric] if metric else []
        args += [x for k, v in opts.items() for x in (f"--{k}", v)]
        args += [position] if position else []
        rc, out, _ = tblookup(*args)
        want = 1 if puzzle == "frog" and d == 0 else limit  # one goal per n
        why = (f"status {st}" if st != 200 else
               f"{len(pos)} positions" if len(pos) != want else
               "not distinct" if len(set(pos)) != len(pos) else
               f"the rules say {got}" if got != [d] * want else
               "tblookup --random-at differs" if body.decode() != out else
               "frog: not of size n" if puzzle == "frog" and
               any(len(p) != 2 * int(opts["n"]) + 1 for p in pos) else
               "swap: another target" if position and
               any(p.split("/", 4)[4] not in swap_orbit(position[20:])
                   for p in pos) else
               "the echo" if (ans["puzzle"], ans["distance"], ans["seed"]) !=
               (puzzle, d, 7) else None)
        if why:
            bad.append(f"{what}: {why}")
            print(f"# {what}: {why}; {body[:300]!r}")
    t.check(f"/random: {len(cases)} draws (four, frog of size n, swap, swap "
            "for a target, Klotski), each position distinct and at the "
            "distance asked for by a search from the rules; the same as "
            "tblookup --random-at", not bad)
    one = "/api/v1/four/random?distance=5&limit=6"
    _, _, a = srv.get(one + "&seed=1")
    _, _, b = srv.get(one + "&seed=1")
    _, hd, c = srv.get(one + "&seed=2")
    t.check("/random: the same seed draws the same positions, another seed "
            "others; seed 0 by default",
            a == b and a["positions"] != c["positions"] and
            srv.get(one)[2] == srv.get(one + "&seed=0")[2] and
            hd.get("etag") == srv.request("/api/v1/four/stats")[1]["etag"])
    _, _, stats = srv.get("/api/v1/four/stats")
    far = [four_distance(p) for p in stats["farthest"]]
    t.check("/stats: four's farthest positions are at max_distance, 8, by a "
            "search from the rules (the page's 'farthest' start)",
            stats["max_distance"] == 8 and far == [8] * len(far) and far)

    def err(path, status, pattern):
        return err2(srv, path, status, pattern)
    t.check("/random: a distance no position has is a 404 naming the "
            "farthest ('of this kind' where a position restricts the draw "
            "to a part of the table)", err("/api/v1/four/random?distance=9", 404,
                            r"^no position is at distance 9 \(the farthest "
                            r"are at 8") and
            err("/api/v1/frog/random?distance=30&n=2", 404,
                r"^no position of this kind .* at distance 30") and
            err(api_path("four", SEED001).replace("?", "/random?") +
                "&distance=9", 404, r"^no position is at distance 9"))
    bad_pos = "BAAC\nBAAC\nDEEF\nDGHF\nIKKX"
    _, _, lerr = tblookup("klotski", bad_pos)
    t.check("/random: bad parameters are 400s naming them",
            err("/api/v1/four/random", 400, "missing parameter 'distance'")
            and err("/api/v1/four/random?distance=1023", 400,
                    r'^distance: takes 0\.\.1022, got "1023"$') and
            err("/api/v1/four/random?distance=-1", 400, "distance: takes") and
            err("/api/v1/four/random?distance=", 400, "distance: takes") and
            err("/api/v1/four/random?distance=3&limit=0", 400,
                r"limit: takes 1\.\.64") and
            err("/api/v1/four/random?distance=3&limit=65", 400,
                r"limit: takes 1\.\.64") and
            err("/api/v1/four/random?distance=3&seed=18446744073709551616",
                400, "seed: takes 0..18446744073709551615") and
            err("/api/v1/four/random?distance=3&moves=B", 400,
                'unknown parameter "moves"') and
            err("/api/v1/four/random?distance=3&distance=4", 400,
                "given twice") and
            err(api_path("klotski", bad_pos).replace("?", "/random?") +
                "&distance=3", 400,
                "^" + re.escape(lerr.strip().split(": ", 2)[2]) + "$") and
            err("/api/v1/chess/random?distance=3", 404, "unknown puzzle"))
    st, _, a = srv.get("/api/v1/four/random?distance=3&seed="
                       "18446744073709551615")
    t.check("/random: the largest seed is taken",
            st == 200 and a["seed"] == 18446744073709551615)


def check_stats_and_list(t, srv):
    ok = True
    _, helptext, _ = tblookup("--help")
    # --help: the built-in puzzles, then the described ones of the tables
    builtin, _, described = helptext.split("puzzles:\n", 1)[1].partition(
        "\ndescribed puzzles")
    names = re.findall(r"^  (\S+) ", builtin, re.M)
    names_d = re.findall(r"^  (\S+) ", described, re.M)
    st, _, lst = srv.get("/api/v1/puzzles")
    t.check("/api/v1/puzzles lists every puzzle of tblookup --help, then "
            "the described ones whose tables are here, every table ok",
            st == 200 and [p["name"] for p in lst["puzzles"]
                           if "description" not in p] == names and
            [p["name"] for p in lst["puzzles"]] == names + names_d and
            all(m["status"] == "ok" for p in lst["puzzles"]
                for m in p["metrics"]))
    for p in lst["puzzles"]:
        for m in p["metrics"]:
            if m.get("search"):         # no full table: no statistics
                continue
            rc, out, _ = tblookup(p["name"], "--stats", "--metric", m["name"],
                                  "--format", "json")
            st, hd, body = srv.request(f"/api/v1/{p['name']}/stats?metric="
                                       + m["name"])
            if st != 200 or body.decode() != out or rc != 0:
                ok = False
                print(f"# stats {p['name']} {m['name']}: {st} {body[:200]}")
    t.check("/stats equals tblookup --stats --format json for every table", ok)
    opts = {p["name"]: [o["name"] for o in p["options"]]
            for p in lst["puzzles"]}
    t.check("the options listed are the ones tblookup --help documents",
            opts.get("four") == ["first"] and opts.get("frog") == ["n"])


def check_levels(t, srv):
    """/api/v1/levels/FAMILY, /stats and /play against tblookup's --levels
    and --level (its own tests compare those with Fogleman's program and a
    BFS); the errors, and a damaged levels table a 503."""
    def lookup_json(*args):
        rc, out, _ = tblookup(*args, "--format", "json")
        return json.loads(out) if rc == 0 else None
    st, _, a = srv.get("/api/v1/levels")
    t.check("/levels: the families with levels tables here, in name order",
            st == 200 and a == {"families": sorted(
                os.path.basename(f)[:-len(".levels.mdb")] for f in
                glob.glob(os.path.join(TABLES, "*.levels.mdb")))} and
            "rush-5x5" in a["families"])
    st, _, a = srv.get("/api/v1/levels/rush-5x5?limit=1000")
    want = lookup_json("rush-5x5", "--levels")
    t.check("/levels/rush-5x5?limit=1000: the first 1,000 of tblookup "
            "--levels, of 1,730 chosen",
            st == 200 and want and a["chosen"] == 1730 and
            a["levels"] == want[:1000])
    st, _, a = srv.get("/api/v1/levels/rush-5x5?moves=12&seed=5&limit=3")
    t.check("/levels/rush-5x5?moves=12&seed=5&limit=3: tblookup --levels "
            "--moves 12 --random --seed 5 --limit 3",
            st == 200 and a["levels"] == lookup_json(
                "rush-5x5", "--levels", "--moves", "12", "--random",
                "--seed", "5", "--limit", "3"))
    st, _, a = srv.get("/api/v1/levels/rush-5x5?at-least=18")
    t.check("/levels/rush-5x5?at-least=18: tblookup --levels --at-least 18",
            st == 200 and a["levels"] == lookup_json(
                "rush-5x5", "--levels", "--at-least", "18"))
    st, _, a = srv.get("/api/v1/levels/rush-4x4/stats")
    t.check("/levels/rush-4x4/stats: tblookup --levels --stats",
            st == 200 and a == lookup_json("rush-4x4", "--levels", "--stats"))
    st, _, a = srv.get("/api/v1/levels/rush-5x5/play?moves=20&seed=1")
    t.check("/levels/rush-5x5/play?moves=20&seed=1: tblookup --level 20 "
            "--seed 1, an answer of 20 moves",
            st == 200 and a == lookup_json("rush-5x5", "--level", "20",
                                           "--seed", "1") and
            a["answer"]["distance"] == 20 and
            len(a["answer"]["moves"]) == 20)
    for path, status, pattern in (
            ("levels/nope", 404, "no levels of family 'nope'"),
            ("levels/rush-4x4/play?moves=99", 404, "no level of 99 moves"),
            ("levels/rush-4x4/play", 400, "missing parameter 'moves'"),
            ("levels/rush-4x4?odd=1", 400, "unknown parameter"),
            ("levels/rush-4x4?limit=0", 400, "limit: takes 1..1000"),
            ("levels/rush-4x4/more", 404, "no such API path")):
        st, _, a = srv.get("/api/v1/" + path)
        t.check(f"/{path}: {status}, '{pattern}'",
                st == status and a and a["status"] == status and
                pattern in a["error"])
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(TABLES, "rush-4x4.levels.mdb"), "rb") as f:
            good = f.read()
        at = good.index(b"EBBBE.CCEAAFDDDF")
        damaged = good[:at] + b"F" + good[at + 1:]
        path = os.path.join(tmp, "rush-4x4.levels.mdb")

        def made(data):                 # a new file, as tbgen writes one
            with open(path + ".tmp", "wb") as f:
                f.write(data)
            os.replace(path + ".tmp", path)

        def is_damaged(st, a):
            return st == 503 and "rush-4x4.levels.mdb: " in a["error"] \
                and "corrupt" in a["error"]
        made(damaged)
        with Server(tables=tmp) as bad:
            st, _, a = bad.get("/api/v1/levels/rush-4x4")
            t.check("a damaged levels table: 503 naming it and the cause",
                    is_damaged(st, a))
            made(good)
            want = lookup_json("rush-4x4", "--levels", "--stats")
            got = [bad.get("/api/v1/levels/rush-4x4/stats")
                   for _ in range(3)]
            t.check("... made again while the server runs: read anew, "
                    "then answered again from it (tblookup's stats)",
                    all(st == 200 and a == want for st, _, a in got))
            made(damaged)
            st, _, a = bad.get("/api/v1/levels/rush-4x4")
            t.check("... made again, damaged: opened again, 503",
                    is_damaged(st, a))


def read_description(path):
    """From a description file, written here from the format (man 5
    puzzletb-description): its name, its start as rows joined by '/' (the
    'empty' characters drawn '.', the 'wall' ones '#'), and its source
    lines."""
    name, empty, wall, start, sources, drawing = None, "", "", [], [], None
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if drawing is not None:
                if line.strip() and line.split()[0] not in (
                        "name", "summary", "source", "metrics", "distinct",
                        "axis", "empty", "wall", "covers", "start", "goal"):
                    drawing.append("".join(line.split()))
                    continue
                drawing = None
            if not line.strip() or line.startswith("#"):
                continue
            key, _, val = line.partition(" ")
            val = val.strip()
            if key == "name":
                name = val
            elif key == "empty":
                empty = val.replace(" ", "")
            elif key == "wall":
                wall = val.replace(" ", "")
            elif key == "source":
                sources.append(val)
            elif key == "start":
                if val:
                    start = ["".join(r.split()) for r in re.split(r"[/ ]+",
                                                                 val)]
                else:
                    drawing = start
    start = "/".join("".join("." if ch in empty else "#" if ch in wall
                             else ch for ch in row) for row in start)
    return name, start, sources


def check_described(t, srv):
    """The described puzzles whose tables are here: listed with their
    description and drawn start; the published optima."""
    _, _, lst = srv.get("/api/v1/puzzles")
    listed = {p["name"]: p for p in lst["puzzles"]}
    ok, names = True, []
    for path in sorted(glob.glob("puzzles/*.txt")):
        name, start, sources = read_description(path)
        if not glob.glob(os.path.join(TABLES, f"{name}*.mdb")):
            continue
        names.append(name)
        p = listed.get(name, {})
        desc = p.get("description", "")
        lines = desc.split("\n")
        st, _, a = srv.get(api_path(name, p.get("start", "")))
        if not (lines[0] == f"name {name}" and desc.endswith("\n") and
                f"start {start}" in lines and p.get("start") == start and
                [ln[7:] for ln in lines if ln.startswith("source ")] ==
                sources and any(ln.startswith("goal ") for ln in lines) and
                [m["name"] for m in p["metrics"]] ==
                [ln for ln in lines if ln.startswith("metrics ")][0]
                .split()[1:] and st == 200 and a["distance"] is not None):
            ok = False
            print(f"# {name}: {p} / {start!r} {sources}: {st} {a}")
    builtin = [p for p in lst["puzzles"] if p["name"] not in names]
    t.check("/api/v1/puzzles lists the described puzzles "
            f"({', '.join(names)}) with their canonical description (its "
            "name, sources and metrics as in puzzles/NAME.txt) and the start "
            "drawn there, which is answered; the built-in ones without",
            ok and len(names) >= 7 and
            all("description" not in p and "start" not in p
                for p in builtin))
    cstart = listed["century"]["start"]
    got = {m: srv.get(api_path("century", cstart, metric=m))[2]["distance"]
           for m in ("line", "move")}
    t.check("century's start: 111 moves in the line metric (Storer) and 99 "
            "in the move metric (Winning Ways)",
            got == {"line": 111, "move": 99} or print(f"# {got}"))
    st, _, a = srv.get(api_path("eight", "8672543.1"))
    st0, _, a0 = srv.get(api_path("eight", "867254301"))
    t.check("the 8-puzzle's 8672543.1 takes 31 moves, one of the two "
            "hardest (Reinefeld 1993), also drawn with 0 for the blank",
            st == st0 == 200 and a["distance"] == a0["distance"] == 31 and
            a0["input"] == "867\n254\n301")
    st, _, a = srv.get(api_path("century", cstart, metric="line",
                                moves="h L"))
    d = a.get("moves", [{}])[0].get("detail", {}) if st == 200 else {}
    t.check("a described puzzle's move details: piece, from, to, path and "
            "direction; moves=.. plays one",
            st == 200 and a["distance"] == 110 and
            set(d) >= {"piece", "from", "to", "path", "direction"})


def check_errors(t, srv):
    def err(path, status, pattern, method="GET"):
        st, hd, body = srv.get(path, method=method)
        good = (st == status and isinstance(body, dict) and
                set(body) == {"error", "status"} and
                body["status"] == status and
                re.search(pattern, body["error"]) is not None and
                hd.get("content-type") == "application/json" and
                "\n" not in body["error"])
        if not good:
            print(f"# {method} {path}: {st} {body}")
        return good, hd
    bad_pos = "BAAC\nBAAC\nDEEF\nDGHF\nIKKX"
    _, _, lerr = tblookup("klotski", bad_pos)
    msg = lerr.strip().split(": ", 2)[2]
    t.check("400: a bad position gets the parser's one-line message",
            err(api_path("klotski", bad_pos), 400, "^" + re.escape(msg) +
                "$")[0])
    _, _, lerr = tblookup("frog", "--n", "13")
    _, _, body = srv.get(api_path("frog", n="13"))
    t.check("400: a bad option value gets the parser's message, as "
            "tblookup shows it",
            err(api_path("frog", n="13"), 400, "^n: .*'13'")[0] and
            lerr.splitlines()[0].endswith(body["error"][1:]))
    t.check("400: an option the puzzle does not take",
            err(api_path("klotski", CLASSIC, first="B"), 400,
                'unknown parameter "first"')[0])
    t.check("400: a parameter given twice",
            err("/api/v1/klotski?position=4WVE1&position=4WVE1", 400,
                "given twice")[0])
    t.check("400: no position",
            err("/api/v1/klotski?metric=step", 400, "missing parameter")[0])
    t.check("400: a position longer than any notation, refused at once",
            err(api_path("klotski", "A" * 257), 400,
                "longer than 256 bytes")[0])
    t.check("400: a NUL byte in a parameter",
            err("/api/v1/klotski?position=4WVE1%00", 400, "NUL")[0])
    t.check("400: bad UTF-8 is echoed as U+FFFD in valid JSON",
            err("/api/v1/klotski?position=%ff%fe", 400, "\ufffd")[0])
    t.check("400: a parameter name in bad UTF-8 is quoted with U+FFFD",
            err("/api/v1/klotski?position=4WVE1&%ff%22x=1", 400,
                'unknown parameter "\ufffd"x"$')[0])
    t.check("404: an unknown puzzle",
            err("/api/v1/chess?position=x", 404, "unknown puzzle \"chess\"")[0])
    t.check("404: an unknown metric, the puzzle's metrics named",
            err(api_path("klotski", CLASSIC, metric="fly"), 404,
                "unknown metric \"fly\" for klotski; metrics: step line move"
                )[0])
    t.check("404: an unknown API path",
            err("/api/v1/klotski/extra", 404, "no such API path")[0] and
            err("/api/v2/puzzles", 404, "no such API version")[0])
    t.check("404: a page that is not in web/",
            err("/nothing.html", 404, "no such page")[0])
    for method in ("POST", "PUT", "DELETE", "OPTIONS", "BREW"):
        good, hd = err("/api/v1/puzzles", 405, "only GET and HEAD", method)
        t.check(f"405: {method}, with Allow: GET, HEAD",
                good and hd.get("allow") == "GET, HEAD")

    tmp = tempfile.mkdtemp(prefix="tbserve-tables-")
    try:
        shutil.copy(os.path.join(TABLES, "swap.mdb"), tmp)
        with open(os.path.join(TABLES, "four.mdb"), "rb") as f:
            data = f.read()
        with open(os.path.join(tmp, "four.mdb"), "wb") as f:
            f.write(data[:len(data) // 3])
        with open(os.path.join(tmp, "frog.mdb"), "wb") as f:
            f.write(b"not a table" * 1000)
        shutil.copy(os.path.join(TABLES, "eight.mdb"), tmp)
        subprocess.run([sys.executable, "tests/craft.py",
                        os.path.join(tmp, "eight.mdb"), "graph^", "4 2"],
                       check=True, capture_output=True)
        with Server(tables=tmp) as bad:
            tgt = P1225
            st, _, a = bad.get(api_path("swap", tgt))
            t.check("503 server: the table present still answers",
                    st == 200 and a["distance"] == 4)
            f = re.escape(tmp)
            t.check("503: a missing table, named with how to rebuild it",
                    err2(bad, api_path("klotski", CLASSIC), 503,
                         f"^{f}/klotski-step.mdb: .*make tables"))
            t.check("503: a truncated table, named",
                    err2(bad, api_path("four", SEED001), 503,
                         f"^{f}/four.mdb: "))
            t.check("503: a file that is no table, named",
                    err2(bad, api_path("frog", n="3"), 503,
                         f"^{f}/frog.mdb: "))
            t.check("503: a described table whose stored graph is damaged "
                    "where the query walks, named",
                    err2(bad, api_path("eight", "867254301"), 503,
                         f"^{f}/eight.mdb: table is corrupt"))
            t.check("503 also for /stats and /random",
                    err2(bad, "/api/v1/klotski/stats", 503,
                         "klotski-step.mdb") and
                    err2(bad, "/api/v1/klotski/random?distance=3", 503,
                         "klotski-step.mdb"))
            st, _, lst = bad.get("/api/v1/puzzles")
            status = {(p["name"], m["name"]): m["status"]
                      for p in lst["puzzles"] for m in p["metrics"]}
            t.check("/api/v1/puzzles shows each table's state",
                    status[("swap", "swap")] == "ok" and
                    status[("klotski", "step")] != "ok" and
                    status[("four", "move")] != "ok")
            st, _, _ = bad.get(api_path("klotski", "nonsense"))
            t.check("a bad position is a 400 even when the table is missing",
                    st == 400)
            shutil.copy(os.path.join(TABLES, "klotski-step.mdb"), tmp)
            st, _, a = bad.get(api_path("klotski", CLASSIC))
            t.check("a table generated while the server runs is picked up",
                    st == 200 and a["distance"] == 116)
    finally:
        shutil.rmtree(tmp)


def err2(srv, path, status, pattern):
    st, hd, body = srv.get(path)
    good = (st == status and isinstance(body, dict) and
            body.get("status") == status and
            re.search(pattern, body.get("error", "")) is not None)
    if not good:
        print(f"# {path}: {st} {body}")
    return good


def check_http(t, srv):
    path = api_path("klotski", CLASSIC)
    st, hd, body = srv.request(path)
    etag = hd.get("etag", "")
    t.check("answers carry an ETag and a Cache-Control",
            st == 200 and re.fullmatch(r'"[0-9a-f]{16}"', etag) and
            "max-age" in hd.get("cache-control", ""))
    st2, hd2, body2 = srv.request(path, headers={"If-None-Match": etag})
    t.check("If-None-Match with that ETag: 304, no body",
            st2 == 304 and body2 == b"" and hd2.get("etag") == etag)
    st3, _, _ = srv.request(path, headers={"If-None-Match": '"0"'})
    t.check("another ETag: 200", st3 == 200)
    _, hs, _ = srv.request("/api/v1/klotski/stats")
    _, hm, _ = srv.request(api_path("klotski", CLASSIC, metric="move"))
    t.check("the ETag is the table's: same for /stats, another for "
            "another metric", hs.get("etag") == etag and
            hm.get("etag") not in (None, etag))
    st, hd, b = srv.request(path, method="HEAD")
    t.check("HEAD: the headers of GET, no body",
            st == 200 and b == b"" and hd.get("etag") == etag)
    _, _, b1 = srv.request(path)
    st, _, b2 = srv.request(api_path("klotski", "1A9BF0C00"))
    def moves(b):   # boards aside: a code comes back as the general grid
        return [{k: v for k, v in m.items() if k != "board"}
                for m in json.loads(b)["analysis"]]
    t.check("a repeated query (served from the cache) and the same "
            "position by its code: the same answer but for the echo and "
            "the boards' notation", b1 == body and moves(b2) == moves(body))
    st, hd, b = srv.request("/")
    with open("web/index.html", "rb") as f:
        t.check("/ serves web/index.html as text/html",
                st == 200 and b == f.read() and
                hd.get("content-type", "").startswith("text/html"))
    for name, ctype in (("app.js", "text/javascript"),
                        ("style.css", "text/css")):
        st, hd, b = srv.request("/" + name)
        with open("web/" + name, "rb") as f:
            t.check(f"/{name} is web/{name} as {ctype}",
                    st == 200 and b == f.read() and
                    hd.get("content-type", "").startswith(ctype))


def raw(port, data, timeout=5.0, half_close=False):
    """Sends bytes; returns the status of the reply ('closed' when the
    server closed without one, 'timeout' when it neither answered nor
    closed)."""
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    try:
        s.sendall(data)
        if half_close:
            s.shutdown(socket.SHUT_WR)
        got = b""
        while b"\r\n" not in got:
            chunk = s.recv(4096)
            if not chunk:
                break
            got += chunk
    except socket.timeout:
        return "timeout"
    except (ConnectionResetError, BrokenPipeError):
        return "closed"
    finally:
        s.close()
    m = re.match(rb"HTTP/1\.[01] (\d{3})", got)
    return int(m.group(1)) if m else "closed"


def check_traversal(t, srv):
    paths = ["/../Makefile", "/%2e%2e/Makefile", "/..%2fMakefile",
             "/web/../Makefile", "//etc/passwd",
             "/%2e%2e%2f%2e%2e%2fetc/passwd",
             "/./index.html/..", "/index.html/../../README.md", "/.",
             "/..", "/serve.h", "/.hidden", "/index.html/"]
    got = []
    for p in paths:
        st = raw(srv.port, f"GET {p} HTTP/1.1\r\nHost: x\r\n"
                 "Connection: close\r\n\r\n".encode())
        got.append(st)
    t.check("static files only from web/: every traversal spelling is a 404",
            all(s == 404 for s in got) or print(f"# {list(zip(paths, got))}"))
    got = [raw(srv.port, f"GET {p} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
           for p in ("/%00index.html", "/index.html%00.txt")]
    t.check("a NUL byte in a path is a 400", got == [400, 400])


def hostile(rng, i):
    """One malformed or hostile request: (bytes, half_close)."""
    kind = i % 12
    junk = bytes(rng.randrange(256) for _ in range(rng.randint(1, 64)))
    if kind == 0:     # bad UTF-8 in the path and the query
        return (b"GET /api/v1/klotski?position=" + junk.replace(b" ", b"")
                .replace(b"\r", b"").replace(b"\n", b"") +
                b" HTTP/1.1\r\nHost: x\r\n\r\n", False)
    if kind == 1:     # a huge query string
        return (b"GET /api/v1/klotski?position=" + b"A" * rng.randint(
            17000, 200000) + b" HTTP/1.1\r\nHost: x\r\n\r\n", False)
    if kind == 2:     # '..' paths
        depth = b"/.." * rng.randint(1, 20)
        return (b"GET " + depth + b"/etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n",
                False)
    if kind == 3:     # unknown methods
        m = "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
                    for _ in range(rng.randint(1, 12)))
        return (f"{m} /api/v1/puzzles HTTP/1.1\r\nHost: x\r\n\r\n".encode(),
                False)
    if kind == 4:     # half-closed in the middle of the request line
        return (b"GET /api/v1/klotski?posi", True)
    if kind == 5:     # half-closed in the headers
        return (b"GET /api/v1/puzzles HTTP/1.1\r\nHost: x\r\nX-A: ", True)
    if kind == 6:     # garbage
        return (junk + b"\r\n\r\n", False)
    if kind == 7:     # a header bigger than the connection's memory
        return (b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"x" * 40000 +
                b"\r\n\r\n", False)
    if kind == 8:     # too many parameters
        q = "&".join(f"p{k}={k}" for k in range(rng.randint(17, 400)))
        return (f"GET /api/v1/klotski?{q} HTTP/1.1\r\nHost: x\r\n\r\n"
                .encode(), False)
    if kind == 9:     # bad percent escapes and NULs
        return (b"GET /api/v1/four?position=%zz%00%f&first=%%% HTTP/1.1\r\n"
                b"Host: x\r\n\r\n", False)
    if kind == 10:    # a body on a GET, a lying Content-Length
        return (b"GET /api/v1/puzzles HTTP/1.1\r\nHost: x\r\n"
                b"Content-Length: 100000\r\n\r\nabc", True)
    return (b"GET /api/v1/klotski?moves=" + b"I R," * rng.randint(1, 3000) +
            b"&position=4WVE1 HTTP/1.1\r\nHost: x\r\n\r\n", False)


def check_hostile(t, srv):
    rng = random.Random(1000)
    bad = []
    alive = True
    for i in range(1000):
        data, half = hostile(rng, i)
        st = raw(srv.port, data, half_close=half)
        if not (st == "closed" or (isinstance(st, int) and st >= 400)):
            bad.append((i % 12, st))
        if i % 100 == 99:
            s, _, a = srv.get(api_path("klotski", CLASSIC))
            alive &= s == 200 and a["distance"] == 116
    t.check("1,000 malformed or hostile requests: each an error status or a "
            "closed connection", not bad or print(f"# {bad[:10]}"))
    t.check("... and valid requests answered between and after them",
            alive and srv.proc.poll() is None)


def check_concurrent(t, srv):
    paths = [api_path("klotski", CLASSIC, metric=m)
             for m in ("step", "line", "move")]
    paths += [api_path("frog", n=str(n)) for n in range(1, 13)]
    paths += [api_path("four", SEED001), api_path("swap", P1225)]
    want = {p: srv.request(p)[2] for p in paths}
    errors = []

    def client(k):
        c = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=30)
        for j in range(60):
            p = paths[(k * 7 + j) % len(paths)]
            c.request("GET", p)
            r = c.getresponse()
            if r.status != 200 or r.read() != want[p]:
                errors.append(p)
        c.close()
    th = [threading.Thread(target=client, args=(k,)) for k in range(8)]
    for x in th:
        x.start()
    for x in th:
        x.join()
    t.check("eight clients on keep-alive connections at once: every answer "
            "the same as alone", not errors)


def check_log_and_stop(t, srv):
    log = srv.log()
    lines = [ln for ln in log.splitlines() if not ln.startswith("tbserve:")]
    t.check("one log line per request: method, path, status, microseconds",
            re.search(r"^GET /api/v1/puzzles 200 \d+$", log, re.M) and
            re.search(r"^POST /api/v1/puzzles 405 \d+$", log, re.M) and
            all(re.fullmatch(r"\S+ \S+ (\d{3}|-) \d+( \(.*\))?", ln)
                for ln in lines))
    rc = srv.stop(signal.SIGINT)
    if not t.check("SIGINT: the server stops with status 0",
                   rc == 0 and "SIGINT: stopping" in srv.log()):
        print("# status", rc, "".join("\n# " + ln for ln in
                                     srv.log().splitlines()[-30:]))


# ---- a puzzle answered by search from pattern tables (--patterns DIR) ----

KORF1 = "D68CFE.AB7459132"     # Korf's instance 1 (1985): 57 moves
KORF17 = "46ED78B93AF5C.21"    # his instance 17: 66 moves, his longest
GOAL15 = "123456789ABCDEF."


def slide_ok(before, after):
    """after is before with one tile next to the blank slid into it."""
    e, f = before.index("."), after.index(".")
    (r, c), (rr, cc) = divmod(e, 4), divmod(f, 4)
    b = list(before)
    b[e], b[f] = b[f], "."
    return abs(r - rr) + abs(c - cc) == 1 and "".join(b) == after


def replays(start, ans):
    b = start
    for m in ans["moves"]:
        after = m["board"].replace("\n", "")
        if not slide_ok(b, after):
            return False
        b = after
    return b == GOAL15


def walk15(k, rng):
    b, prev = GOAL15, None
    for _ in range(k):
        e = b.index(".")
        r, c = divmod(e, 4)
        near = [rr * 4 + cc for rr, cc in ((r - 1, c), (r + 1, c),
                                           (r, c - 1), (r, c + 1))
                if 0 <= rr < 4 and 0 <= cc < 4 and rr * 4 + cc != prev]
        f = rng.choice(near)
        x = list(b)
        x[e], x[f] = x[f], "."
        prev, b = e, "".join(x)
    return b


def without_seconds(ans):
    ans["search"].pop("seconds", None)
    return ans


def check_searched_answers(t, srv, patterns):
    st, _, d = srv.get("/api/v1/puzzles")
    names = [p["name"] for p in d["puzzles"]] if d else []
    fifteen = [p for p in d["puzzles"] if p["name"] == "fifteen"] if d else []
    t.check("/puzzles lists fifteen once, answered by search, with its "
            "start, and none of its pattern tables as a puzzle",
            st == 200 and len(fifteen) == 1 and
            fifteen[0]["start"] == "1234/5678/9ABC/DEF." and
            fifteen[0]["metrics"] == [{"name": "step", "table": "fifteen.mdb",
                                       "status": "ok", "search": True}] and
            not [n for n in names if "-pattern-" in n])
    st, hd, a = srv.get(api_path("fifteen", KORF1))
    p = subprocess.run([LOOKUP, "--tables", patterns, "fifteen", "-j", "1",
                        "--format", "json", KORF1], capture_output=True,
                       text=True)
    want = json.loads(p.stdout) if p.returncode == 0 else None
    t.check("Korf's instance 1: 200, its published 57 moves, a line the "
            "rules replay, proven optimal; never cached (no ETag)",
            st == 200 and a["distance"] == 57 and replays(KORF1, a) and
            a["search"]["optimal"] is True and "etag" not in hd and
            hd.get("cache-control") == "no-cache")
    t.check("... the JSON is tblookup --format json -j 1's, its \"search\" "
            "member too (but seconds)",
            want is not None and without_seconds(a) == without_seconds(want))
    rng = random.Random(60)
    ok = True
    for k in (12, 25, 36):
        b = walk15(k, rng)
        st, _, a = srv.get(api_path("fifteen", b))
        ok &= st == 200 and a["distance"] <= k and \
            (k - a["distance"]) % 2 == 0 and replays(b, a)
    st, _, a = srv.get(api_path(
        "fifteen", "1 2 3 4 5 6 7 8 9 10 11 12 13 0 14 15"))
    t.check("random walks of 12, 25, 36 moves: at most the walk, of its "
            "parity, lines the rules replay; 16 numbers: 2 moves",
            ok and st == 200 and a["distance"] == 2)


def check_searched_errors(t, srv):
    def err(path, status, pattern):
        st, hd, a = srv.get(path)
        return st == status and a is not None and a.get("status") == status \
            and re.search(pattern, a.get("error", "")) is not None
    t.check("/stats and /random of fifteen: 404, they need a full table",
            err("/api/v1/fifteen/stats", 404, r"^fifteen: /stats needs a "
                r"full table \(fifteen\.mdb\).*answered by a search") and
            err("/api/v1/fifteen/random?distance=3", 404,
                r"^fifteen: /random needs a full table"))
    t.check("moves= on fifteen: 400, no table to play them on",
            err(api_path("fifteen", KORF1, moves="4 U"), 400,
                r"^moves: fifteen is answered by a search") and
            err(api_path("fifteen", "1234"), 400, r"expected 4 rows"))


def check_searched(t, patterns):
    with Server(tables=patterns) as srv:
        check_searched_answers(t, srv, patterns)
        check_searched_errors(t, srv)
        t.check("SIGTERM: status 0", srv.stop() == 0)
    with Server("--search-seconds", "0.001", tables=patterns) as srv:
        st, hd, a = srv.get(api_path("fifteen", KORF17))
        t.check("--search-seconds 0.001: Korf's instance 17 (66 moves) is a "
                "503 saying the search ran out of time",
                st == 503 and a["status"] == 503 and
                a["error"].startswith("fifteen: the search ran out of time "
                                      "(0.001 s, tbserve --search-seconds)"))
        st, _, a = srv.get(api_path("fifteen", GOAL15))
        t.check("... and the server answers on: the goal, 0 moves",
                st == 200 and a["distance"] == 0)
        t.check("SIGTERM: status 0", srv.stop() == 0)
    tmp = tempfile.mkdtemp(prefix="tbserve-patterns-")
    try:
        for k in (1, 2):
            shutil.copy(os.path.join(patterns, f"fifteen-pattern-{k}.mdb"),
                        tmp)
        with Server(tables=tmp) as srv:
            st, _, a = srv.get(api_path("fifteen", KORF1))
            t.check("a pattern table missing: 503 naming them and how to "
                    "build them",
                    st == 503 and a["error"] == f"{tmp}/fifteen.mdb: table "
                    "not found, and its pattern tables: table not found; "
                    f"build them with 'tbgen --puzzle fifteen --patterns "
                    f"--out {tmp}'")
            t.check("SIGTERM: status 0", srv.stop() == 0)
    finally:
        shutil.rmtree(tmp)
    return t.done()


def main():
    t = Tap()
    if sys.argv[1:2] == ["--patterns"]:
        return check_searched(t, sys.argv[2])
    check_cli(t)
    with Server("--threads", "2") as srv:
        check_answers(t, srv)
        check_moves_param(t, srv)
        check_random(t, srv)
        check_stats_and_list(t, srv)
        check_described(t, srv)
        check_levels(t, srv)
        check_errors(t, srv)
        check_http(t, srv)
        check_traversal(t, srv)
        check_concurrent(t, srv)
        check_hostile(t, srv)
        check_log_and_stop(t, srv)
    with Server("--cache", "0", "--threads", "1") as srv:
        st, _, a = srv.get(api_path("klotski", CLASSIC))
        t.check("--cache 0 --threads 1 answers the same",
                st == 200 and a["distance"] == 116)
        t.check("SIGTERM: status 0", srv.stop() == 0)
    return t.done()


if __name__ == "__main__":
    sys.exit(main())
