#!/usr/bin/python3
"""tests/t_describe.py: described sliding-block puzzles against a model of
the rules written here.

Each description below is drawn in this file.  The test reads the drawing
itself, enumerates every layout of the start's pieces by brute force (every
placement of every piece, without overlap, off the walls, pieces of a kind
interchangeable unless distinct), makes the moves of each metric from the
rules (step: one cell; line: any distance in one direction; move: anywhere a
path of steps reaches; axis pieces only along their long axis), and finds
every layout's distance by a BFS from the goals.  Then tbgen builds the
tables, and every layout, drawn as a query, must get that distance from
tblookup (--batch --count, -1 for no solution); the table's state count
must be the enumeration's; --verify must prove it.  Nothing is compared
with the code's own output.

Prints TAP lines ("ok N - ...") for tests/run; run from the top of the tree
(tests/t_describe.sh)."""
import collections
import itertools
import json
import os
import subprocess
import sys
import tempfile

TBGEN = os.environ.get('TBGEN', 'bin/tbgen')
LAYOUTS = {}    # Model.layouts(), by drawing
LOOKUP = os.environ.get('LOOKUP', 'bin/tblookup')
n = 0


def check(what, cond, detail=''):
    global n
    n += 1
    print(('ok %d - %s' if cond else 'not ok %d - %s') % (n, what))
    if not cond and detail:
        print('# ' + str(detail)[:2000].replace('\n', '\n# '))


# ---- the model ----------------------------------------------------------

class Model:
    """A description as this test reads it: board, walls, kinds, goals."""

    def __init__(self, start, goals, distinct='', axis='', metric='step',
                 reachable=False, mixes=None):
        self.reachable = reachable
        self.mixes = mixes      # covers mixes N: N, else None
        self._cells, self._fits = {}, {}
        self.axis_letters = '' if axis == 'all' else axis
        self.start = (start, distinct, axis)
        rows = start.split('/')
        self.h, self.w = len(rows), len(rows[0])
        self.walls = {(r, c) for r in range(self.h) for c in range(self.w)
                      if rows[r][c] == '#'}
        cells = collections.defaultdict(list)
        for r in range(self.h):
            for c in range(self.w):
                if rows[r][c] not in '.#':
                    cells[rows[r][c]].append((r, c))
        self.letters = {}
        kinds = []          # (shape, label or None, axis)
        self.count = collections.Counter()
        self.anchors = {}
        for x, cs in sorted(cells.items(), key=lambda kv: min(kv[1])):
            a = min(cs)
            self.anchors[x] = a
            shape = tuple(sorted((r - a[0], c - a[1]) for r, c in cs))
            ax = None
            if axis == 'all' or x in axis:
                hgt = max(r for r, _ in shape) + 1
                wid = max(c for _, c in shape) - min(c for _, c in shape) + 1
                ax = 'across' if wid > hgt else 'down'
            label = x if (distinct == 'all' or x in distinct) else None
            kind = (shape, label, ax)
            if kind not in kinds:
                kinds.append(kind)
            self.letters[x] = kinds.index(kind)
            self.count[kinds.index(kind)] += 1
        self.kinds = kinds
        self.metric = metric
        self.goals = []
        for g in goals:
            grows = g.split('/')
            need, empty = [], set()
            seen = set()
            for r in range(self.h):
                for c in range(self.w):
                    x = grows[r][c]
                    if x == '.':
                        empty.add((r, c))
                    elif x not in '?#' and x not in seen:
                        seen.add(x)
                        need.append((self.letters[x], (r, c)))
            self.goals.append((need, empty))

    def cells(self, kind, anchor):
        """The cells a piece of kind covers at anchor (kept: asked for
        millions of times)."""
        key = (kind, anchor)
        cs = self._cells.get(key)
        if cs is None:
            cs = self._cells[key] = tuple((anchor[0] + dr, anchor[1] + dc)
                                          for dr, dc in self.kinds[kind][0])
        return cs

    def fits(self, kind, anchor):
        key = (kind, anchor)
        ok = self._fits.get(key)
        if ok is None:
            ok = self._fits[key] = all(
                0 <= r < self.h and 0 <= c < self.w and (r, c) not in self.walls
                for r, c in self.cells(kind, anchor))
        return ok

    def mixed_layouts(self):
        """Every layout of any number of the pieces that are not distinct
        (the distinct ones each once) with at least self.mixes empty
        cells, filled cell by cell."""
        out = set()
        order = [(r, c) for r in range(self.h) for c in range(self.w)
                 if (r, c) not in self.walls]
        fixed = {k for k, kd in enumerate(self.kinds) if kd[1]}

        def fill(i, used, placed):
            while i < len(order) and order[i] in used:
                i += 1
            if i == len(order):
                if (fixed <= {k for k, _ in placed} and
                        len(order) - len(used) >= self.mixes):
                    out.add(tuple(sorted(placed)))
                return
            fill(i + 1, used, placed)                     # empty
            for k in range(len(self.kinds)):
                if k in fixed and any(k == q for q, _ in placed):
                    continue
                if not self.fits(k, order[i]):
                    continue
                cs = self.cells(k, order[i])
                if any(x in used for x in cs):
                    continue
                fill(i + 1, used | set(cs), placed + [(k, order[i])])
        fill(0, frozenset(), [])
        return out

    def layouts(self):
        """Every layout: a sorted tuple of (kind, anchor) pairs (the same
        for every metric: kept in LAYOUTS by the description's drawing)."""
        key = (self.start, self.mixes)
        if key not in LAYOUTS:
            LAYOUTS[key] = self.enumerate()
        return LAYOUTS[key]

    def enumerate(self):
        if self.mixes is not None:
            return self.mixed_layouts()
        pieces = [k for k in sorted(self.count) for _ in range(self.count[k])]
        out = set()
        # each kind's anchors where it fits the board, in reading order
        spots = {k: [((r, c), frozenset(self.cells(k, (r, c))))
                     for r in range(self.h) for c in range(self.w)
                     if self.fits(k, (r, c))] for k in set(pieces)}

        def place(i, used, placed):
            if i == len(pieces):
                out.add(tuple(sorted(placed)))
                return
            k = pieces[i]
            for a, cs in spots[k]:
                if not cs.isdisjoint(used):
                    continue
                # interchangeable pieces in anchor order: each set once
                if i and pieces[i - 1] == k and a <= placed[-1][1]:
                    continue
                place(i + 1, used | cs, placed + [(k, a)])
        place(0, frozenset(), [])
        return out

    def moves(self, lay):
        out = []
        occ = set()
        for k, a in lay:
            occ.update(self.cells(k, a))
        for i, (k, a) in enumerate(lay):
            others = occ.difference(self.cells(k, a))   # (no overlaps)
            ax = self.kinds[k][2]
            dirs = [(-1, 0), (1, 0), (0, -1), (0, 1)]
            if ax == 'across':
                dirs = [(0, -1), (0, 1)]
            elif ax == 'down':
                dirs = [(-1, 0), (1, 0)]

            def free(b):
                return self.fits(k, b) and not any(
                    x in others for x in self.cells(k, b))
            ends = set()
            if self.metric == 'move':
                seen, todo = {a}, [a]
                while todo:
                    p = todo.pop()
                    for dr, dc in dirs:
                        b = (p[0] + dr, p[1] + dc)
                        if b not in seen and free(b):
                            seen.add(b)
                            todo.append(b)
                ends = seen - {a}
            else:
                for dr, dc in dirs:
                    b = a
                    while True:
                        b = (b[0] + dr, b[1] + dc)
                        if not free(b):
                            break
                        ends.add(b)
                        if self.metric == 'step':
                            break
            for b in ends:
                out.append(tuple(sorted(lay[:i] + lay[i + 1:] + ((k, b),))))
        return out

    def is_goal(self, lay):
        have = set(lay)
        occ = set()
        for k, a in lay:
            occ.update(self.cells(k, a))
        return any(all(p in have for p in need) and not (empty & occ)
                   for need, empty in self.goals)

    def start_layout(self):
        """The start's layout: each letter's piece at its anchor."""
        return tuple(sorted((self.letters[x], a)
                            for x, a in self.anchors.items()))

    def component(self):
        """The layouts reachable from the start (moves are reversible)."""
        seen = {self.start_layout()}
        todo = list(seen)
        while todo:
            for m in self.moves(todo.pop()):
                if m not in seen:
                    seen.add(m)
                    todo.append(m)
        return seen

    def distances(self):
        lays = self.component() if self.reachable else self.layouts()
        dist = {l: 0 for l in lays if self.is_goal(l)}
        # (the BFS from the goals stays in the component: moves are
        # reversible, so the component is closed under them)
        frontier = list(dist)
        while frontier:
            nxt = []
            for l in frontier:
                for m in self.moves(l):       # moves are reversible
                    if m not in dist:
                        dist[m] = dist[l] + 1
                        nxt.append(m)
            frontier = nxt
        return lays, dist

    # ---- the mirror image (left and right swapped) ----

    def mirror_anchor(self, k, a):
        return min((r, self.w - 1 - c) for r, c in self.cells(k, a))

    def folds(self):
        """Whether a table keeps one state for a layout and its mirror
        image: a table of layouts (not a component) whose walls, kinds of
        pieces (each kind's mirror image a kind with as many pieces, the same
        label and axis) and goals are their own mirror images."""
        if self.reachable or {(r, self.w - 1 - c)
                              for r, c in self.walls} != self.walls:
            return False
        self.mk = {}
        for k, (shape, label, ax) in enumerate(self.kinds):
            m = [(r, -c) for r, c in shape]
            a = min(m)
            m = tuple(sorted((r - a[0], c - a[1]) for r, c in m))
            same = [j for j, kd in enumerate(self.kinds)
                    if kd == (m, label, ax) and self.count[j] == self.count[k]]
            if not same:
                return False
            self.mk[k] = same[0]
        goals = {(frozenset(need), frozenset(empty))
                 for need, empty in self.goals}
        return all((frozenset((self.mk[k], self.mirror_anchor(k, a))
                              for k, a in need),
                    frozenset((r, self.w - 1 - c) for r, c in empty))
                   in goals for need, empty in self.goals)

    def mirror(self, lay):
        return tuple(sorted((self.mk[k], self.mirror_anchor(k, a))
                            for k, a in lay))

    def states(self, lays):
        """The table's states: a layout each, or a pair of mirror images
        each when it folds."""
        if not self.folds():
            return len(lays)
        return len({min(l, self.mirror(l)) for l in lays})

    def layout_of(self, grid):
        """The layout a drawing (rows of characters) shows."""
        groups = collections.defaultdict(list)
        for r, row in enumerate(grid):
            for c, x in enumerate(row):
                if x not in '.#':
                    groups[x].append((r, c))
        labels = {kd[1] for kd in self.kinds if kd[1]}
        lay = []
        for x, cs in groups.items():
            a = min(cs)
            shape = tuple(sorted((r - a[0], c - a[1]) for r, c in cs))
            ks = [i for i, kd in enumerate(self.kinds) if kd[0] == shape and
                  kd[1] == (x if x in labels else None)]
            if len(ks) > 1:     # one shape moving two ways: by the letter
                ks = [i for i in ks if
                      bool(self.kinds[i][2]) == (x in self.axis_letters)]
            lay.append((ks[0], a))
        return tuple(sorted(lay))

    def replay(self, drawing, moves):
        """Whether moves (an answer's, as JSON: piece, from, to) are moves
        of the rules one after the other from the drawing, to a goal."""
        grid = [list(row) for row in drawing.split('/')]
        for mv in moves:
            d = mv['detail']
            x, fr = d['piece'], (d['from'][0] - 1, d['from'][1] - 1)
            dr, dc = d['to'][0] - 1 - fr[0], d['to'][1] - 1 - fr[1]
            cs = [(r, c) for r in range(self.h) for c in range(self.w)
                  if grid[r][c] == x]
            if not cs or min(cs) != fr:
                return False
            before = self.layout_of(grid)
            for r, c in cs:
                grid[r][c] = '.'
            for r, c in cs:
                if not (0 <= r + dr < self.h and 0 <= c + dc < self.w) or \
                        grid[r + dr][c + dc] != '.':
                    return False
                grid[r + dr][c + dc] = x
            if self.layout_of(grid) not in self.moves(before):
                return False
        return self.is_goal(self.layout_of(grid))

    def draw(self, lay):
        """The layout as a query: a letter a piece (distinct ones their
        own), rows joined by '/'."""
        g = [['#' if (r, c) in self.walls else '.' for c in range(self.w)]
             for r in range(self.h)]
        labels = {k: kd[1] for k, kd in enumerate(self.kinds) if kd[1]}
        # where pieces of one shape move two ways (neither distinct), the
        # letter tells them apart: one that 'axis' lists for an axis piece,
        # none of those for the other
        twins = [k for k, kd in enumerate(self.kinds) if not kd[1] and any(
            not o[1] and o[0] == kd[0] and o[2] != kd[2] for o in self.kinds)]
        axis = iter(self.axis_letters)
        pool = iter(x for x in 'abcdefghijklmnopqrstuvwxyz'
                    if x not in labels.values() and
                    not (twins and x in self.axis_letters))
        for k, a in lay:
            x = labels.get(k) or (next(axis) if k in twins and self.kinds[k][2]
                                  else next(pool))
            for r, c in self.cells(k, a):
                g[r][c] = x
        return '/'.join(''.join(row) for row in g)


# ---- the descriptions ---------------------------------------------------

CASES = [
    # name, description text, model arguments
    ('walls', '''# a notch and a wall inside; a 2x1 and three 1x1 pieces
name t-walls
metrics step line move
start
A.B#
A.C.
#.D.

goal ????/????/#?D?
''', dict(start='A.B#/A.C./#.D.', goals=['????/????/#?D?'])),
    ('ell', '''name t-ell
summary an L-shaped piece and two squares; two goals
metrics move step
start   LL./L../..a/.b.
goal    ???/???/LL?/L??
goal    ???/??./?LL/?L?
''', dict(start='LL./L../..a/.b.',
          goals=['???/???/LL?/L??', '???/??./?LL/?L?'])),
    ('axis', '''name t-axis
metrics line step
distinct A
axis all
start
..B.
AAB.
...C
DD.C

goal ????/??AA/????/????
''', dict(start='..B./AAB./...C/DD.C', goals=['????/??AA/????/????'],
          distinct='A', axis='all')),
    ('tiles', '''name t-tiles
metrics step
distinct all
empty 0
start 123/450
goal  123/45.
''', dict(start='123/45.', goals=['123/45.'], distinct='all')),
    ('twins', '''# two 1x2 bars, one moving along its row only (listed in 'axis'),
# the other freely: two kinds, which a drawing tells apart by the letter
name t-twins
metrics step line move
distinct A
axis B
start
BB..
A.CC
....
goal
????
????
???A
''', dict(start='BB../A.CC/....', goals=['????/????/???A'], distinct='A',
          axis='B')),
    ('twinfold', '''# the same two ways of moving on a board, pieces and goal that are
# their own mirror image: a state for a layout and its mirror image
name t-twinfold
metrics step move
distinct A
axis B
start
BB.
A..
.CC
goal
???
???
?A?
''', dict(start='BB./A../.CC', goals=['???/???/?A?'], distinct='A',
          axis='B')),
    ('mixed', '''name t-mixed
summary two distinct squares among interchangeable ones, a 1x2 bar
metrics move line
distinct XY
start
XaY.
bb.c
goal
Y??X
????
''', dict(start='XaY./bb.c', goals=['Y??X/????'], distinct='XY')),
 ('jam', '''# a small Rush Hour: the table covers what the start reaches
name t-jam
metrics line step
distinct A
axis all
covers reachable
start
.BB.C
AA.DC
..ED.
FFE..
goal ?????/???AA/?????/?????
''', dict(start='.BB.C/AA.DC/..ED./FFE..', goals=['?????/???AA/?????/?????'],
          distinct='A', axis='all', reachable=True)),
    ('reach-walls', '''name t-reach-walls
metrics move
covers reachable
start   ab#/c../..#
goal    ??#/?a?/??#
''', dict(start='ab#/c../..#', goals=['??#/?a?/??#'], reachable=True)),
    # tile puzzles, whose component the engine does not search (Wilson's
    # theorem gives it as half the layouts); this test searches it
    ('tiles', '''name t-tiles
metrics step
distinct all
covers reachable
start   123/45.
goal    123/45.
''', dict(start='123/45.', goals=['123/45.'], distinct='all',
          reachable=True)),
    ('tiles-wall', '''name t-tiles-wall
metrics line step
distinct all
covers reachable
start   12#/345/67.
goal    ??#/?1?/???
goal    ??#/???/??1
''', dict(start='12#/345/67.', goals=['??#/?1?/???', '??#/???/??1'],
          distinct='all', reachable=True)),
    # boards that are their own mirror images: a state for a layout and
    # its mirror image
    ('mirror', '''name t-mirror
metrics step line move
start   a.b./ccd./..d.
goal    ????/????/?cc?
''', dict(start='a.b./ccd./..d.', goals=['????/????/?cc?'])),
    ('mirror-ells', '''# two L pieces, each the other's mirror image; two goals, each
# the other's mirror image; walls that are their own
name t-mirror-ells
metrics move step
start   #...#/LL.MM/L...M/.a.b.
goal    #???#/?????/LL???/L????
goal    #???#/?????/???MM/????M
''', dict(start='#...#/LL.MM/L...M/.a.b.',
          goals=['#???#/?????/LL???/L????', '#???#/?????/???MM/????M'])),
    # any mix of the pieces that are not distinct, as Klotski's layouts
    ('mixes', '''name t-mixes
metrics step line move
distinct A
covers mixes 2
start
AAB
AAB
C.D
EE.
goal    ???/???/?AA/?AA
''', dict(start='AAB/AAB/C.D/EE.', goals=['???/???/?AA/?AA'],
          distinct='A', mixes=2)),
    ('mixes-mirror', '''# Klotski on a board 4 wide and 3 tall: the block to the bottom
# centre
name t-mixes-mirror
metrics step move
distinct A
covers mixes 2
start   AAB./AAB./C.DD
goal    ????/?AA?/?AA?
''', dict(start='AAB./AAB./C.DD', goals=['????/?AA?/?AA?'],
          distinct='A', mixes=2)),
    # Klotski itself: every layout of 横刀立马's pieces (65,880), whose
    # farthest (126 steps) tests/t_describe.sh also asks the built-in
    # klotski tables (the step metric only: each metric takes this model
    # about 15 s)
    ('classic', '''name t-classic
metrics step
distinct A
start   BAAC/BAAC/DEEF/DGHF/I..J
goal    ????/????/????/?AA?/?AA?
''', dict(start='BAAC/BAAC/DEEF/DGHF/I..J', goals=['????/????/????/?AA?/?AA?'],
          distinct='A')),
]


def run(args, stdin=None):
    return subprocess.run(args, input=stdin, capture_output=True, text=True)


def build(tmp, name, text):
    path = os.path.join(tmp, name + '.txt')
    with open(path, 'w') as f:
        f.write(text)
    return run([TBGEN, '--quiet', '--puzzle', path, '--out', tmp])


def main():
    tmp = tempfile.mkdtemp()
    for name, text, args in CASES:
        r = build(tmp, name, text)
        check('%s: tbgen builds it' % name, r.returncode == 0, r.stderr)
        metrics = [l.split()[1:] for l in text.splitlines()
                   if l.startswith('metrics')][0]
        for metric in metrics:
            model = Model(metric=metric, **args)
            lays, dist = model.distances()
            puzzle = 't-' + name
            r = run([LOOKUP, '--tables', tmp, puzzle, '--metric', metric,
                     '--stats'])
            head = r.stdout.splitlines()[0] if r.stdout else ''
            states = model.states(lays)
            check('%s %s: the table has a state per layout%s (%d, counted '
                  'here)' % (name, metric, ' and its mirror image'
                             if model.folds() else '', states),
                  ' %d states,' % states in head, head + r.stderr)
            order = sorted(lays)
            queries = ''.join(model.draw(l) + '\n' for l in order)
            r = run([LOOKUP, '--tables', tmp, puzzle, '--metric', metric,
                     '--batch', '--count'], queries)
            got = r.stdout.split()
            want = [str(dist.get(l, -1)) for l in order]
            bad = [(model.draw(l), g, w) for l, g, w in zip(order, got, want)
                   if g != w]
            check('%s %s: every layout answers the BFS of the rules (%d '
                  'solvable, at most %d moves)' %
                  (name, metric, len(dist), max(dist.values())),
                  len(got) == len(want) and not bad,
                  (bad[:5], r.stderr[:300]))
            if model.folds():
                # answers from drawings and their mirror images alike: each
                # move a move of the rules, to a goal, as many as the BFS
                sample = [l for l in order if l in dist][::max(1, len(dist) // 40)]
                sample += [model.mirror(l) for l in sample]
                bad = []
                for l in sample:
                    r = run([LOOKUP, '--tables', tmp, puzzle, '--metric',
                             metric, '--format', 'json', model.draw(l)])
                    try:
                        a = json.loads(r.stdout)
                        good = len(a['moves']) == dist[l] and \
                            model.replay(model.draw(l), a['moves'])
                    except (ValueError, KeyError):
                        good = False
                    if not good:
                        bad.append((model.draw(l), r.stdout[:300]))
                check('%s %s: %d answers, from drawings and their mirror '
                      'images, replay as moves of the rules to a goal' %
                      (name, metric, len(sample)), not bad, bad[:3])
            out = model.reachable and sorted(model.layouts() - set(lays))[:300]
            if out:
                r = run([LOOKUP, '--tables', tmp, puzzle, '--metric', metric,
                         '--batch', '--count'],
                        ''.join(model.draw(l) + '\n' for l in out))
                check('%s %s: each of %d layouts outside the component is '
                      'refused' % (name, metric, len(out)),
                      r.stdout.split() == ['-2'] * len(out) and
                      r.returncode == 2, (r.stdout[:200], r.stderr[:200]))
            r = run([LOOKUP, '--tables', tmp, '--verify', '--metric', metric,
                     puzzle])
            check('%s %s: --verify proves the table' % (name, metric),
                  r.returncode == 0 and ' ok: ' in r.stdout, r.stderr)
    print('# %d checks' % n)


if __name__ == '__main__':
    main()
