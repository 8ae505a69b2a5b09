#!/usr/bin/env python3
"""tests/t_abstract.py: answers by search from abstractions combined by
maximum ('abstraction' lines), against full tables, which are an
independent breadth-first search of every state: on J. H. Conway's Century
(every metric), on Rush Hour's hardest level (rush-60, line and step) and
on two boards drawn here.  Each description is written here with its
abstractions, its pattern tables built here; positions are drawn at random
from the full table at each of many distances, so each answer's length is
known.  For each: the search's length is the table's, its bound at most
that, its line descends the full table move by move; and on many more
positions, each abstraction's distance of the position's image (drawn
here: the pieces it leaves out taken off) is at most the position's.
Prints TAP lines.  Usage: t_abstract.py TBGEN TBLOOKUP TMPDIR TABLES"""
import json
import os
import subprocess
import sys

TBGEN, LOOKUP, TMP, TABLES = sys.argv[1:5]
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


def pieces(board, w, distinct):
    """The pieces of a drawing (rows joined by '/'): of each letter, its
    kind (its letter when distinct, else its shape) and its cells."""
    cells = board.replace("/", "")
    out = {}
    for c, ch in enumerate(cells):
        if ch not in ".#":
            out.setdefault(ch, []).append(c)
    kinds = {}
    for ch, cs in out.items():
        a = cs[0]
        shape = tuple(((c // w) - (a // w), (c % w) - (a % w)) for c in cs)
        kinds[ch] = ("distinct", ch) if ch in distinct else shape
    return kinds


def image(board, w, distinct, keep):
    """The drawing of board's image in an abstraction keeping the kinds
    of keep: the other pieces taken off."""
    kinds = pieces(board, w, distinct)
    return "".join(ch if ch in "./#" or kinds[ch] in keep else "."
                   for ch in board)


def describe(name, text, abstractions):
    path = os.path.join(TMP, name + ".txt")
    with open(path, "w") as f:
        f.write(text.replace("ABSTRACTIONS", "".join(
            "abstraction %s\n" % a for a in abstractions)))
    out = os.path.join(TMP, name)
    p = subprocess.run([TBGEN, "-q", "--puzzle", path, "--patterns",
                        "--out", out], capture_output=True, text=True)
    check("%s: tbgen --patterns builds its abstractions' tables (%d)" %
          (name, len(abstractions)), p.returncode == 0, p.stderr)
    return path, out


def positions(full, tables, metric, dists, limit):
    """Positions drawn at random from the full table at each distance."""
    got = []
    for d in dists:
        rc, out, err = tblookup(full, "--tables", tables, "-m", metric,
                                "--random-at", str(d), "--limit", str(limit),
                                "--seed", str(d))
        got += [(p, d) for p in out.split()]
    return got


def ties(name, path, out, full, tables, metric, dists, limit):
    picks = positions(full, tables, metric, dists, limit)
    stdin = "".join(p + "\n" for p, _ in picks)
    rc, got, err = tblookup(full, "--tables", tables, "-m", metric,
                            "--batch", "--count", stdin=stdin)
    sure = rc == 0 and got.split() == [str(d) for _, d in picks]
    rc, got, err = tblookup(path, "--tables", out, "-m", metric, "--batch",
                            "--format", "json", stdin=stdin)
    ans = [json.loads(line) for line in got.split("\n") if line] \
        if rc == 0 else []
    wrong = [(p, d, a["distance"]) for (p, d), a in zip(picks, ans)
             if a["distance"] != d or a["search"]["optimal"] is not True]
    check("%s, %s: %d positions at %d to %d moves: the search's length is "
          "the full table's, proven optimal" % (name, metric, len(picks),
                                                min(dists), max(dists)),
          sure and rc == 0 and len(ans) == len(picks) and not wrong,
          wrong[:3] or err)
    over = [(p, d, a["search"]["bound"]) for (p, d), a in zip(picks, ans)
            if a["search"]["bound"] > d]
    check("%s, %s: each start's bound is at most its distance (%.1f under "
          "it on average; %d nodes in all)" %
          (name, metric, sum(d - a["search"]["bound"]
                             for (_, d), a in zip(picks, ans)) /
           max(len(ans), 1), sum(a["search"]["nodes"] for a in ans)),
          len(ans) == len(picks) and not over, over[:3])
    # each line, asked of the full table board by board, one move nearer
    boards, want = [], []
    for (p, d), a in zip(picks, ans):
        for i, m in enumerate(a["moves"]):
            boards.append(m["board"].replace("\n", "/"))
            want.append(str(d - 1 - i))
    rc, got, err = tblookup(full, "--tables", tables, "-m", metric,
                            "--batch", "--count",
                            stdin="".join(b + "\n" for b in boards))
    check("%s, %s: each line's boards (%d) are each one move nearer the "
          "goal by the full table" % (name, metric, len(boards)),
          rc == 0 and got.split() == want and len(boards) > 0, err)


def admissible(name, out, full, tables, metric, w, distinct, keeps,
               dists, limit):
    """Each abstraction's distance of many positions' images is at most
    the position's (tables only: no search)."""
    picks = positions(full, tables, metric, dists, limit)
    bad, tried = [], 0
    for g, keep in enumerate(keeps):
        imgs = [image(p, w, distinct, keep) for p, _ in picks]
        rc, got, err = tblookup("%s-pattern-%d" % (name, g + 1), "--tables",
                                out, "-m", metric, "--batch", "--count",
                                stdin="".join(i + "\n" for i in imgs))
        got = got.split()
        if rc != 0 or len(got) != len(picks):
            bad.append((g + 1, err))
            continue
        bad += [(g + 1, p, d, h) for (p, d), h in zip(picks, got)
                if int(h) > d]
        tried += len(got)
    check("%s, %s: %d images of %d positions in its %d abstractions: none "
          "farther from its goal than the position" %
          (name, metric, tried, len(picks), len(keeps)),
          not bad and tried == len(picks) * len(keeps), bad[:3])


# ---- Century: four kinds (1x1, 2x1, 1x2, 2x2), none distinct ----
CENTURY = """name t-cent
metrics move line step
ABSTRACTIONS
start aBBc/dBBe/df.e/gf.h/iijj
goal ????/????/????/?BB?/?BB?
"""
one, tall, wide, big = ((0, 0),), ((0, 0), (1, 0)), ((0, 0), (0, 1)), \
    ((0, 0), (0, 1), (1, 0), (1, 1))
path, out = describe("t-cent", CENTURY, ["Bdij", "Baij", "Bad"])
keeps = [{big, tall, wide}, {big, one, wide}, {big, one, tall}]
for metric, dists in (("move", range(0, 41, 5)), ("line", range(0, 43, 7)),
                      ("step", range(0, 43, 7))):
    ties("t-cent", path, out, "century", TABLES, metric, dists, 3)
    admissible("t-cent", out, "century", TABLES, metric, 4, "", keeps,
               range(0, 100, 3), 20)

# ---- rush-60: cars along their axis, A distinct ----
RUSH = """name t-rush
metrics line step
distinct A
axis all
empty o
wall x
covers reachable
ABSTRACTIONS
start IBBxoo/IooLDD/JAALoo/JoKEEM/FFKooM/GGHHHM
goal ??????/??????/????AA/??????/??????/??????
"""
path, out = describe("t-rush", RUSH, ["AIJKLM", "AIJKLH"])
tall2, tall3, wide3 = ((0, 0), (1, 0)), ((0, 0), (1, 0), (2, 0)), \
    ((0, 0), (0, 1), (0, 2))
keeps = [{("distinct", "A"), tall2, tall3}, {("distinct", "A"), tall2, wide3}]
for metric, dists, most in (("line", range(0, 41, 10), 61),
                            ("step", range(0, 61, 15), 94)):
    ties("t-rush", path, out, "rush-60", TABLES, metric, dists, 1)
    admissible("t-rush", out, "rush-60", TABLES, metric, 6, "A", keeps,
               range(0, most, 3), 20)

# ---- drawn here: a full table of each, built here too ----
DRAWN = [
    ("t-drawn1", """name t-drawn1
metrics step line move
ABSTRACTIONS
start AAb/AAc/dd./e.f
goal ???/???/?AA/?AA
""", ["Ab", "Ad", "Ae"], 3, [{((0, 0), (0, 1), (1, 0), (1, 1)), one},
                             {((0, 0), (0, 1), (1, 0), (1, 1)), wide},
                             {((0, 0), (0, 1), (1, 0), (1, 1)), one}]),
    ("t-drawn2", """name t-drawn2
metrics step move
distinct X
ABSTRACTIONS
start X#ab/cd.e/ff.g/hh..
goal ???X/????/????/????
""", ["Xa", "Xf", "Xcd"], 4, [{("distinct", "X"), one},
                              {("distinct", "X"), wide},
                              {("distinct", "X"), one}]),
]
for name, text, abstr, w, keeps in DRAWN:
    path, out = describe(name, text, abstr)
    full = out + "-full"                 # (else the search is not asked)
    p = subprocess.run([TBGEN, "-q", "--puzzle", path, "--out", full],
                       capture_output=True, text=True)
    check("%s: its full tables, built" % name, p.returncode == 0, p.stderr)
    for metric in text.split("\n")[1].split()[1:]:
        ties(name, path, out, path, full, metric, range(0, 40, 2), 4)
        admissible(name, out, path, full, metric, w,
                   "X" if "distinct X" in text else "", keeps,
                   range(0, 40), 10)
