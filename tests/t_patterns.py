#!/usr/bin/env python3
"""tests/t_patterns.py: answers by search from pattern tables, against
references this test computes itself: a breadth-first search of every
position of small tile boards (one with a wall) and of the 3x4 puzzle's
within 16 moves, and of a ring of 17 distinct tiles (a full table), random
walks from the 15-puzzle's and the 4x5 puzzle's goals, the distances of
positions of the 3x5 and 4x5 puzzles (a search from each to a ball around
the goal), and the published optimal lengths of R. E. Korf's random
15-puzzle instances (Depth-first iterative-deepening, Artificial
Intelligence 27, 1985; tests/data/korf100.txt: number, length, Korf's node
count, then the tiles in his order, 0 the blank, his goal the blank
first).  Prints TAP lines.
Usage: t_patterns.py TBGEN TBLOOKUP TMPDIR [FIFTEEN [FOURTEEN [NINETEEN]]],
the last three the directories of those puzzles' pattern tables."""
import json
import os
import random
import subprocess
import sys
from collections import deque

TBGEN, LOOKUP, TMP = sys.argv[1:4]
n = 0


def check(what, cond, detail=""):
    global n
    n += 1
    print(("ok %d - %s" if cond else "not ok %d - %s") % (n, what))
    if not cond and detail:
        print("# " + str(detail)[:400])


def tblookup(*args, stdin=None):
    p = subprocess.run([LOOKUP] + list(args), input=stdin,
                       capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


class Board:
    """A tile board from its drawing: the rules, written here."""

    def __init__(self, rows):
        self.w, self.h = len(rows[0]), len(rows)
        self.goal = "".join(rows)
        self.nbr = {}
        for c, ch in enumerate(self.goal):
            if ch == "#":
                continue
            r, k = divmod(c, self.w)
            near = []
            for dr, dk in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                rr, kk = r + dr, k + dk
                if 0 <= rr < self.h and 0 <= kk < self.w and \
                        self.goal[rr * self.w + kk] != "#":
                    near.append(rr * self.w + kk)
            self.nbr[c] = near

    def moves(self, s):
        e = s.index(".")
        for c in self.nbr[e]:
            t = list(s)
            t[e], t[c] = t[c], "."
            yield "".join(t)

    def distances(self, depth=None):
        """Every position's distance, or those of at most depth moves."""
        d = {self.goal: 0}
        q = deque([self.goal])
        while q:
            s = q.popleft()
            if depth is not None and d[s] == depth:
                continue
            for t in self.moves(s):
                if t not in d:
                    d[t] = d[s] + 1
                    q.append(t)
        return d

    def distance(self, s, ball, radius, most):
        """s's distance to the goal, found where a search from s meets the
        ball of the positions at most radius from the goal (its first level
        to meet the ball holds a position of a shortest line: each of its
        levels before was farther than radius); None past most."""
        level, seen, depth = [s], {s}, 0
        while depth + radius <= most:
            met = [depth + ball[t] for t in level if t in ball]
            if met:
                return min(met)
            nxt = []
            for t in level:
                for u in self.moves(t):
                    if u not in seen:
                        seen.add(u)
                        nxt.append(u)
            level, depth = nxt, depth + 1
        return None

    def walk(self, k, rng):
        s, back = self.goal, None
        for _ in range(k):
            nxt = [t for t in self.moves(s) if t != back]
            back, s = s, rng.choice(nxt)
        return s

    def rows(self, s):
        return "/".join(s[i:i + self.w] for i in range(0, len(s), self.w))


def describe(name, rows, patterns):
    path = os.path.join(TMP, name + ".txt")
    with open(path, "w") as f:
        f.write("name %s\nmetrics step\ndistinct all\ncovers reachable\n"
                "patterns %s\nstart %s\ngoal %s\n" %
                (name, patterns, "/".join(rows), "/".join(rows)))
    out = os.path.join(TMP, name)
    p = subprocess.run([TBGEN, "-q", "--puzzle", path, "--patterns",
                        "--out", out], capture_output=True, text=True)
    check("%s: tbgen --patterns builds its tables" % name,
          p.returncode == 0, p.stderr)
    return path, out


def replayed(board, start, answer):
    """Whether the JSON answer's boards are moves of the rules from start
    to the goal, as many as its distance."""
    s = start
    for m in answer["moves"]:
        t = m["board"].replace("\n", "")
        if t not in set(board.moves(s)):
            return False
        s = t
    return s == board.goal and len(answer["moves"]) == answer["distance"]


def every_distance(name, rows, patterns, samples, depth=None):
    """Positions of the board (within depth moves of the goal) answered
    by search, against this test's BFS."""
    board = Board(rows)
    path, out = describe(name, rows, patterns)
    d = board.distances(depth)
    rng = random.Random(name)
    picks = rng.sample(sorted(d), min(samples, len(d)))
    rc, got, err = tblookup(path, "--tables", out, "--batch", "--count",
                            stdin="".join(board.rows(s) + "\n" for s in picks))
    got = got.split()
    wrong = [(s, d[s], g) for s, g in zip(picks, got) if int(g) != d[s]]
    check("%s: %d positions answered by search, each as long as the BFS "
          "of all %d positions%s says" % (name, len(picks), len(d),
                                          " within %d moves" % depth
                                          if depth else ""),
          rc == 0 and len(got) == len(picks) and not wrong, wrong[:3] or err)
    rc, got, err = tblookup(path, "--tables", out, "--batch", "--format",
                            "json", stdin="".join(board.rows(s) + "\n"
                                                  for s in picks))
    bounds = [json.loads(line)["search"]["bound"] for line in got.split("\n")
              if line] if rc == 0 else []
    over = [(s, b, d[s]) for s, b in zip(picks, bounds) if b > d[s]]
    check("%s: the pattern tables' bound of each of them is at most its "
          "distance (a bound %.1f moves under it on average)" %
          (name, sum(d[s] - b for s, b in zip(picks, bounds)) /
           max(len(bounds), 1)),
          rc == 0 and len(bounds) == len(picks) and not over, over[:3] or err)
    far = max(d, key=lambda s: (d[s], s))
    rc, got, err = tblookup(path, "--tables", out, "--format", "json",
                            board.rows(far))
    ans = json.loads(got) if rc == 0 else {}
    check("%s: a farthest position (%d moves): the search's line is moves "
          "of the rules to the goal, proven optimal" % (name, d[far]),
          rc == 0 and ans["distance"] == d[far] and replayed(board, far, ans)
          and ans["search"]["optimal"] is True, err or got[:200])
    rc, got, err = tblookup("--tables", out, "--verify",
                            name + "-pattern-1", name + "-pattern-2")
    check("%s: tblookup --verify proves its pattern tables" % name,
          rc == 0 and got.count(" ok: ") == 2, err)
    return path, out


def fifteen(tables):
    board = Board(["1234", "5678", "9ABC", "DEF."])
    rng = random.Random(15)
    walks = [(k, board.walk(k, rng)) for k in (8, 14, 20, 26, 30, 34) * 3]
    rc, got, err = tblookup("fifteen", "--tables", tables, "--batch",
                            "--count", stdin="".join(
                                board.rows(s) + "\n" for _, s in walks))
    got = got.split()
    bad = [(k, s, g) for (k, s), g in zip(walks, got)
           if int(g) > k or (k - int(g)) % 2]
    check("fifteen: %d random walks of 8 to 34 moves from the goal: each "
          "answer at most the walk, of its parity" % len(walks),
          rc == 0 and len(got) == len(walks) and not bad, bad[:3] or err)
    k, s = walks[-1]
    rc, got, err = tblookup("fifteen", "--tables", tables, "--format",
                            "json", board.rows(s))
    ans = json.loads(got) if rc == 0 else {}
    check("fifteen: a walk of %d moves: the line is moves of the rules to "
          "the goal" % k, rc == 0 and replayed(board, s, ans), err)
    # no table ranks fifteen's positions: the JSON has no index
    check("fifteen: the JSON's index is null (no table ranks its positions)",
          rc == 0 and "index" in ans and ans["index"] is None, got[:200])
    # the other half of the boards: a board reaches the goal only if its
    # permutation of the 16 cells (the blank one of them) has the parity
    # of the blank's distance from its goal cell, as each move swaps the
    # blank with a neighbour; drawn at random, those that have not are
    # each refused (-2), those that have are left out (too far to search)
    odd = []
    while len(odd) < 12:
        t = list(board.goal)
        rng.shuffle(t)
        seen, swaps = set(), 0
        for c in range(16):                  # (cycles of cell -> goal cell)
            length = 0
            while c not in seen:
                seen.add(c)
                c = board.goal.index(t[c])
                length += 1
            swaps += max(length - 1, 0)
        e = t.index(".")
        if (swaps + abs(e // 4 - 3) + abs(e % 4 - 3)) % 2:
            odd.append("".join(t))
    near = [board.walk(k, rng) for k in (4, 7, 10)]
    rc, got, err = tblookup("fifteen", "--tables", tables, "--batch",
                            "--count", stdin="".join(
                                board.rows(s) + "\n" for s in odd + near))
    got = got.split()
    check("fifteen: 12 random boards of the other half are each refused "
          "(-2), beside 3 walks of 4 to 10 moves answered",
          len(got) == 15 and got[:12] == ["-2"] * 12 and
          all(0 <= int(g) <= k and (k - int(g)) % 2 == 0
              for g, k in zip(got[12:], (4, 7, 10))) and
          err.count("not one of those reachable from the description's "
                    "start: its tiles' order and the empty cell's place "
                    "have the other parity") == 12,
          got or err)
    # --bfs ranks them (the programme made then): the same distance
    s = board.walk(9, rng)
    rc, want, err = tblookup("fifteen", "--tables", tables, "--count",
                             board.rows(s))
    rc2, got, err2 = tblookup("fifteen", "--bfs", "--format", "json",
                              board.rows(s))
    ans = json.loads(got) if rc2 == 0 else {}
    check("fifteen: --bfs (a search of the puzzle's own index) agrees on a "
          "walk of 9 moves, and its JSON has the index",
          rc == 0 and rc2 == 0 and ans.get("distance") == int(want) and
          isinstance(ans.get("index"), int) and replayed(board, s, ans),
          err + err2 + got[:200])
    # Korf's instances, turned a half turn with tile t renamed 16 - t, so
    # that his goal (the blank first) becomes ours (the blank last)
    letters = "123456789ABCDEF"
    rows = open(os.path.join(os.path.dirname(__file__), "data",
                             "korf100.txt")).read().split("\n")
    short = []
    for i in range(0, 200, 2):
        number, length, _ = rows[i].split()
        tiles = [int(x) for x in rows[i + 1].split()]
        cells = ["."] * 16
        for c, t in enumerate(tiles):
            cells[15 - c] = "." if t == 0 else letters[15 - t]
        if int(length) <= 45:
            short.append((number, int(length), board.rows("".join(cells))))
    rc, got, err = tblookup("fifteen", "--tables", tables, "--batch",
                            "--count", stdin="".join(p + "\n"
                                                      for _, _, p in short))
    got = got.split()
    wrong = [(no, want, g) for (no, want, _), g in zip(short, got)
             if int(g) != want]
    check("fifteen: Korf's %d instances of at most 45 moves (%s) answered "
          "with their published lengths" % (len(short),
                                            ", ".join(no for no, _, _ in short)),
          rc == 0 and len(got) == len(short) and not wrong, wrong or err)


def searched_sample(name, tables, board, seed, radius, walks, lo, hi, count):
    """count positions of lo to hi moves (a search written here to the
    goal's ball of that radius), answered by the search with their
    distance; returns the random generator for more."""
    ball = board.distances(radius)
    rng = random.Random(seed)
    sample = []
    while len(sample) < count:
        s = board.walk(rng.randrange(*walks), rng)
        d = board.distance(s, ball, radius, hi)
        if d is not None and d >= lo:
            sample.append((d, s))
    rc, got, err = tblookup(name, "--tables", tables, "--batch",
                            "--count", "-j", "1", stdin="".join(
                                board.rows(s) + "\n" for _, s in sample))
    got = got.split()
    wrong = [(d, s, g) for (d, s), g in zip(sample, got) if int(g) != d]
    check("%s: %d positions of %d to %d moves (a search written here "
          "to the goal's ball of radius %d) answered with their distance"
          % (name, len(sample), lo, hi, radius),
          rc == 0 and len(got) == len(sample) and not wrong,
          wrong[:3] or err)
    return rng


def searched_walks(name, tables, board, rng, lengths, threads):
    """Random walks of the given lengths from the goal: each answer at
    most the walk, of its parity, a line of the rules to the goal, proven
    optimal."""
    walks = [(k, board.walk(k, rng)) for k in lengths]
    rc, got, err = tblookup(name, "--tables", tables, "--format", "json",
                            "--batch", "-j", str(threads), stdin="".join(
                                board.rows(s) + "\n" for _, s in walks))
    answers = [json.loads(line) for line in got.splitlines()] if rc == 0 \
        else []
    check("%s: walks of %d to %d moves: each answer at most the walk, of "
          "its parity, a line of the rules to the goal, proven optimal"
          % (name, min(lengths), max(lengths)),
          len(answers) == len(walks) and
          all(a["distance"] <= k and (k - a["distance"]) % 2 == 0 and
              replayed(board, s, a) and a["search"]["optimal"] is True
              for (k, s), a in zip(walks, answers)), err or got[:200])


def fourteen(tables):
    board = Board(["12345", "6789A", "BCDE."])
    rng = searched_sample("fourteen", tables, board, 14, 16, (24, 60),
                          20, 28, 24)
    searched_walks("fourteen", tables, board, rng, (40, 50, 60, 70), 1)


def nineteen(tables):
    """The 4x5 puzzle: 19 tiles, more kinds than the engine once took."""
    board = Board(["12345", "6789A", "BCDEF", "GHIJ."])
    rng = searched_sample("nineteen", tables, board, 19, 14, (18, 50),
                          16, 26, 20)
    searched_walks("nineteen", tables, board, rng, (30, 36, 40, 44), 2)


def many_kinds():
    """A full table of 17 distinct tiles (more kinds than the engine once
    took) on a ring of 18 cells: every position's distance against the
    BFS here."""
    rows = ["ABCDEF", "G####H", "I####J", "K####L", "MNOPQ."]
    board = Board(rows)
    dist = board.distances()
    path = os.path.join(TMP, "t-ring17.txt")
    with open(path, "w") as f:
        f.write("name t-ring17\nmetrics step\ndistinct all\n"
                "covers reachable\nstart\n%s\n\ngoal\n%s\n"
                % ("\n".join(rows), "\n".join(rows)))
    p = subprocess.run([TBGEN, "--quiet", "--puzzle", path, "--out", TMP],
                       capture_output=True, text=True)
    order = sorted(dist)
    rc, got, err = tblookup("t-ring17", "--tables", TMP, "--batch",
                            "--count", stdin="".join(board.rows(s) + "\n"
                                                     for s in order))
    got = got.split()
    bad = [(s, g) for s, g in zip(order, got) if int(g) != dist[s]]
    check("17 kinds: a ring of 18 cells, its table's %d positions each at "
          "its distance by the BFS here (at most %d moves)"
          % (len(dist), max(dist.values())),
          p.returncode == 0 and rc == 0 and len(got) == len(order) and
          not bad, bad[:3] or p.stderr + err)


many_kinds()
every_distance("t-pat8", ["123", "456", "78."], "1234 5678", 300)
every_distance("t-patwall", ["#12", "345", "67."], "123 4567", 300)
every_distance("t-pat2x4", ["1234", "567."], "12 34 567", 300)
# the 3x4 puzzle (eleven): its full table (239,500,800 positions, 80 s)
# is built on request only, so the BFS here goes 16 moves deep
every_distance("t-pat3x4", ["1234", "5678", "9AB."], "1234 5678 9AB", 300,
               depth=16)
if len(sys.argv) > 4:
    fifteen(sys.argv[4])
if len(sys.argv) > 5:
    fourteen(sys.argv[5])
if len(sys.argv) > 6:
    nineteen(sys.argv[6])
