#!/usr/bin/env python3
"""tests/t_family.py: families against a brute force written here.

    tests/t_family.py TBGEN TMPDIR   (TBLOOKUP beside TBGEN)

For small families drawn here (4x3 and 5x3 boards: the distinct 1x2 car
A, which leaves on the right of the middle row, with 1x2 cars both ways
and 1x3 trucks; step or line moves; with or without a family wall and
the filters; with one goal, or two: A at the edge, or one short of it with
the edge's cell empty), every layout is listed, the components are found by a search
over the moves, and the definitions of tbgen --family (man tbgen,
FAMILIES; Fogleman's, as doc/guide.md gives them) are applied as stated:
solvable, the filters, minimal (the farthest layout without any one piece
but A, or without its wall, is nearer a goal), the farthest layout least
by (cells of across pieces and walls, cells of down pieces) as binary
numbers with cell c weighing 2^c, the pieces lettered A, then the rows
from A's (walls and across pieces, left to right), then the columns (down
pieces, top to bottom).  Prints a TAP line a family: its lines equal
the levels tbgen writes (its levels table, read back by tblookup --levels
--format json), as sets."""
import json
import os
import subprocess
import sys
from collections import deque

W, H, ROW = 0, 0, 0              # the board, A's row (set by main())
TWO_GOALS = False                # also solved: A one short of the edge,
                                 # the edge's cell empty (set by main())
SHAPES = {'A': (2, 1), 'h': (2, 1), 'H': (3, 1), 'v': (1, 2), 't': (1, 3)}
KINDS = {}                       # the kinds drawn: their width and height
AXIS = {'A': 'across', 'h': 'across', 'H': 'across', 'v': 'down',
        't': 'down'}


def cells(kind, a):
    w, h = KINDS[kind]
    return {a + dy * W + dx for dy in range(h) for dx in range(w)}


def fits(kind, a, wall):
    w, h = KINDS[kind]
    x, y = a % W, a // W
    return x + w <= W and y + h <= H and wall not in cells(kind, a)


def layouts(wall):
    """Every layout: (A's anchor, frozenset of (kind, anchor))."""
    out = []

    def fill(c, occ, pieces, a):
        if c == W * H:
            if a is not None:
                out.append((a, frozenset(pieces)))
            return
        if c in occ or c == wall:
            fill(c + 1, occ, pieces, a)
            return
        fill(c + 1, occ, pieces, a)
        for kind in KINDS:
            if kind == 'A' and a is not None:
                continue
            cs = cells(kind, c)
            if not fits(kind, c, wall) or cs & occ:
                continue
            if kind == 'A':
                fill(c + 1, occ | cs, pieces, c)
            else:
                fill(c + 1, occ | cs, pieces | {(kind, c)}, a)
    fill(0, set(), set(), None)
    return out


def occupied(lay):
    a, pieces = lay
    occ = set(cells('A', a))
    for kind, b in pieces:
        occ |= cells(kind, b)
    return occ


def moves(lay, wall, metric):
    a, pieces = lay
    occ = occupied(lay)
    every = [('A', a)] + sorted(pieces)
    for kind, b in every:
        step = 1 if AXIS[kind] == 'across' else W
        rest = occ - cells(kind, b)
        for d in (-step, step):
            c = b + d
            while 0 <= c < W * H and (AXIS[kind] == 'down' or
                                      c // W == b // W) and \
                    fits(kind, c, wall) and not cells(kind, c) & rest:
                if kind == 'A':
                    yield (c, pieces)
                else:
                    yield (a, pieces - {(kind, b)} | {(kind, c)})
                if metric == 'step':
                    break
                c += d


def goal(lay):
    if lay[0] == ROW * W + W - 2:
        return True
    edge = ROW * W + W - 1
    return TWO_GOALS and lay[0] == edge - 2 and edge not in occupied(lay)


def distances(lays, wall, metric):
    dist, queue = {}, deque()
    for lay in lays:
        if goal(lay):
            dist[lay] = 0
            queue.append(lay)
    while queue:
        lay = queue.popleft()
        for nxt in moves(lay, wall, metric):
            if nxt not in dist:
                dist[nxt] = dist[lay] + 1
                queue.append(nxt)
    return dist


def order(lay, wall):
    a, pieces = lay
    across = sum(1 << c for c in cells('A', a))
    down = 0
    for kind, b in pieces:
        m = sum(1 << c for c in cells(kind, b))
        if AXIS[kind] == 'across':
            across |= m
        else:
            down |= m
    if wall is not None:
        across |= 1 << wall
    return (across, down)


def passes(lay, wall):
    a, pieces = lay
    if any(AXIS[k] == 'across' and b // W == a // W for k, b in pieces):
        return False
    across_cells = set(cells('A', a)) | ({wall} if wall is not None else set())
    down_cells = set()
    for kind, b in pieces:
        (across_cells if AXIS[kind] == 'across' else down_cells).update(
            cells(kind, b))
    if any(all(y * W + x in across_cells for x in range(W)) for y in range(H)):
        return False
    return not any(all(y * W + x in down_cells for y in range(H))
                   for x in range(W))


def draw(lay, wall):
    a, pieces = lay
    order_ = [('A', a)]
    rows = [a // W] + [y for y in range(H) if y != a // W]
    for y in rows:
        for x in range(W):
            c = y * W + x
            if c == wall:
                order_.append(('x', c))
            order_ += [(k, b) for k, b in sorted(pieces)
                       if b == c and AXIS[k] == 'across']
    for x in range(W):
        for y in range(H):
            order_ += [(k, b) for k, b in sorted(pieces)
                       if b == y * W + x and AXIS[k] == 'down']
    board = ['.'] * (W * H)
    for i, (kind, b) in enumerate(order_):
        for c in ({b} if kind == 'x' else cells(kind, b)):
            board[c] = 'x' if kind == 'x' else chr(ord('A') + i)
    return ''.join(board)


def family(metric, walls, filters):
    lines = set()
    dist0 = distances(layouts(None), None, metric)
    for wall in [None] + (list(range(W * H)) if walls else []):
        lays = layouts(wall)
        dist = dist0 if wall is None else distances(lays, wall, metric)
        seen = set()
        for start in lays:
            if start in seen or start not in dist:
                continue
            comp, queue = {start}, deque([start])
            while queue:
                for nxt in moves(queue.popleft(), wall, metric):
                    if nxt not in comp:
                        comp.add(nxt)
                        queue.append(nxt)
            seen |= comp
            if filters and not passes(start, wall):
                continue
            most = max(dist[lay] for lay in comp)
            far = min((lay for lay in comp if dist[lay] == most),
                      key=lambda lay: order(lay, wall))
            a, pieces = far
            if any(dist[(a, pieces - {p})] == most for p in pieces):
                continue
            if wall is not None and dist0[far] == most:
                continue
            hist = [sum(1 for lay in comp if dist[lay] == d)
                    for d in range(most + 1)]
            lines.add('%02d %s %d %s' % (most, draw(far, wall), len(comp),
                                         ','.join(map(str, hist))))
    return lines


DESCRIPTION = """name     fam
metrics  %s
distinct A
axis     all
covers   mixes 0
start    %s
goal     %s
%s"""

# the boards: width, height, A's row, the start drawn (its kinds)
BOARDS = {'4x3': (4, 3, 1, 'hhvt/AAvt/...t'),
          '5x3': (5, 3, 1, 'HHHvt/AA.vt/hh..t'),
          '4x4': (4, 4, 1, 'HHHt/AAvt/..vt/hh..')}


def level(w, h, row, board):
    """The level drawn as board (Fogleman's notation, at most one wall)
    on a w x h board whose car A leaves on the right of row 'row': its
    distance to a goal in line moves and its component's size, by a
    breadth-first search from it here."""
    global W, H, ROW, KINDS
    W, H, ROW, KINDS = w, h, row, dict(SHAPES)
    wall = board.index('x') if 'x' in board else None
    a, pieces = None, set()
    for letter in sorted(set(board) - {'.', 'x'}):
        cs = [i for i, ch in enumerate(board) if ch == letter]
        across = cs[-1] - cs[0] == len(cs) - 1
        kind = 'A' if letter == 'A' else \
            ('h' if len(cs) == 2 else 'H') if across else \
            ('v' if len(cs) == 2 else 't')
        if kind == 'A':
            a = cs[0]
        else:
            pieces.add((kind, cs[0]))
    start = (a, frozenset(pieces))
    depth, queue = {start: 0}, deque([start])
    while queue:
        lay = queue.popleft()
        for nxt in moves(lay, wall, 'line'):
            if nxt not in depth:
                depth[nxt] = depth[lay] + 1
                queue.append(nxt)
    return min(d for lay, d in depth.items() if goal(lay)), len(depth)


def full_line(lv):
    """A level of tblookup --levels --format json in the form of tbgen
    --family's lines: MOVES BOARD STATES HIST."""
    return '%02d %s %d %s' % (lv['moves'], lv['board'], lv['states'],
                              ','.join(map(str, lv['histogram'])))


def main():
    global W, H, ROW, KINDS, TWO_GOALS
    tbgen, tmp, n = sys.argv[1], sys.argv[2], 0
    tblookup = os.path.join(os.path.dirname(tbgen), 'tblookup')
    for board, metric, walls, filters, two in (
            ('4x3', 'step', True, False, False),
            ('5x3', 'line', True, True, False),
            ('4x4', 'step', False, False, False),
            ('4x4', 'line', False, True, False),
            ('5x3', 'line', True, True, True),
            ('4x4', 'step', False, False, True)):
        W, H, ROW, start = BOARDS[board]
        TWO_GOALS = two
        KINDS = {k: SHAPES[k] for k in SHAPES if k in start}
        goal_ = '/'.join('?' * (W - 2) + 'AA' if y == ROW else '?' * W
                         for y in range(H))
        if two:
            goal_ += '\ngoal     ' + '/'.join(
                '?' * (W - 3) + 'AA.' if y == ROW else '?' * W
                for y in range(H))
        extra = ('family walls 1\n' if walls else '') + \
                ('family alone\nfamily open-lines\n' if filters else '')
        text = DESCRIPTION % (metric, start, goal_, extra)
        path = '%s/fam.%d.txt' % (tmp, n)
        with open(path, 'w') as f:
            f.write(text)
        got = subprocess.run([tbgen, '--family', path, '--out', tmp, '-q'],
                             capture_output=True, text=True)
        if got.returncode == 0:
            got = subprocess.run([tblookup, 'fam', '--levels', '--tables',
                                  tmp, '--format', 'json'],
                                 capture_output=True, text=True)
        ours = set(full_line(lv) for lv in json.loads(got.stdout or '[]'))
        want = family(metric, walls, filters)
        n += 1
        what = '%s, %s moves%s%s%s: %d puzzles, as the brute force finds' % (
            board, metric, ', at most one wall' if walls else '',
            ', alone and open-lines' if filters else '',
            ', two goals (A at the edge, or one short of it and the edge '
            'empty)' if two else '', len(want))
        if got.returncode == 0 and ours == want:
            print('ok %d - %s' % (n, what))
        else:
            print('not ok %d - %s' % (n, what))
            for line in sorted(want - ours)[:5]:
                print('# missing: ' + line)
            for line in sorted(ours - want)[:5]:
                print('# extra:   ' + line)
            print('# ' + got.stderr.strip())


if sys.argv[1] == '--level':
    print('%d %d' % level(*map(int, sys.argv[2:5]), sys.argv[5]))
else:
    main()
