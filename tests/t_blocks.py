#!/usr/bin/env python3
"""tests/t_blocks.py: families of general blocks against a brute force.

    tests/t_blocks.py TBGEN TMPDIR [WxH:METRIC:MOST ...]  (TBLOOKUP beside)

For small boards drawn here ('family blocks N': every layout of pieces of
any shape of at most N cells, at least one cell empty), the rules of
man puzzletb-description, FAMILIES OF BLOCKS, are applied as stated, with
no code of the engine's: every layout whose goal piece covers the bottom
right cell is listed (a piece is a set of cells joined by their sides; a
layout the set of its pieces, the goal piece apart); the layouts are
linked by the moves (a piece taken to another place: 'move' by steps over
empty cells, turning corners; 'line' straight; 'step' one cell); each
component with a goal is searched from all its goals; a start puts the
goal piece's bounding box in the top left corner; a component whose
farthest start is a move or more away gives one puzzle: MOVES, that start
(least as a string when several: '.' empty, the goal piece 'A', the
others 'B', 'C', ... by their first cell in reading order), the component's
size and its histogram of distances, the last count every layout at least
MOVES away.  Prints a TAP line a family: its lines equal the levels tbgen
writes (read back by tblookup --levels --format json), as sets.  And a
line a family for tbgen --plan: its counts of goal layouts, of those the
goal piece can leave (a cell up or left: the searches' starts), of tasks
(a goal piece's place and a piece count each) equal those made here."""
import json
import os
import re
import subprocess
import sys
from collections import deque

FAMILIES = ['2x3:move:5', '3x3:move:8', '2x4:move:7', '3x3:line:8',
            '3x3:step:8', '3x3:move:3', '2x4:move:2']
PLANS = ['3x3:8', '2x4:3', '3x4:11']


def neighbours(c, w, h):
    x, y = c % w, c // w
    if x > 0:
        yield c - 1
    if x < w - 1:
        yield c + 1
    if y > 0:
        yield c - w
    if y < h - 1:
        yield c + w


def connected(cells, w, h):
    cells = set(cells)
    first = min(cells)
    seen, todo = {first}, [first]
    while todo:
        c = todo.pop()
        for n in neighbours(c, w, h):
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen == cells


def subsets_with(c, rest, most):
    """Every set of at most 'most' cells of rest (a sorted list of cells
    after c) with c."""
    out = []

    def grow(i, chosen):
        if i == len(rest) or len(chosen) == most:
            out.append(frozenset(chosen))
            return
        grow(i + 1, chosen)
        grow(i + 1, chosen + [rest[i]])
    grow(0, [c])
    return out


def partitions(w, h, most):
    """Every layout: a list of pieces (frozensets), at least one cell
    empty."""
    n = w * h
    out = []

    def fill(free, pieces, empty):
        if not free:
            if empty:
                out.append(list(pieces))
            return
        c = min(free)
        rest = sorted(free - {c})
        fill(free - {c}, pieces, empty + 1)
        for s in subsets_with(c, rest, most):
            if connected(s, w, h):
                pieces.append(s)
                fill(free - s, pieces, empty)
                pieces.pop()
    fill(frozenset(range(n)), [], 0)
    return out


def shift(cells, dx, dy, w, h):
    out = set()
    for c in cells:
        x, y = c % w + dx, c // w + dy
        if not (0 <= x < w and 0 <= y < h):
            return None
        out.add(y * w + x)
    return frozenset(out)


def places(piece, others, metric, w, h):
    """The places piece may move to among the cells of others."""
    occupied = set().union(*others) if others else set()
    ok = lambda p: p is not None and not (p & occupied)
    dirs = [(1, 0), (-1, 0), (0, 1), (0, -1)]
    found = set()
    if metric == 'move':
        todo = [piece]
        seen = {piece}
        while todo:
            p = todo.pop()
            for dx, dy in dirs:
                q = shift(p, dx, dy, w, h)
                if ok(q) and q not in seen:
                    seen.add(q)
                    todo.append(q)
        found = seen - {piece}
    else:
        for dx, dy in dirs:
            p = piece
            while True:
                p = shift(p, dx, dy, w, h)
                if not ok(p):
                    break
                found.add(p)
                if metric == 'step':
                    break
    return found


def successors(layout, metric, w, h):
    goal, others = layout
    pieces = [goal] + list(others)
    for i, p in enumerate(pieces):
        rest = pieces[:i] + pieces[i + 1:]
        for q in places(p, rest, metric, w, h):
            if i == 0:
                yield (q, others)
            else:
                yield (goal, others - {p} | {q})


def top_left(cells, w):
    return min(c % w for c in cells) == 0 and min(c // w for c in cells) == 0


def draw(layout, w, h):
    goal, others = layout
    board = ['.'] * (w * h)
    for c in goal:
        board[c] = 'A'
    for i, p in enumerate(sorted(others, key=min)):
        for c in p:
            board[c] = chr(ord('B') + i)
    return ''.join(board)


def can_leave(goal, others, w, h):
    """Whether the goal piece can move a cell up or left."""
    taken = set().union(*others) if others else set()
    for dx, dy in ((-1, 0), (0, -1)):
        q = shift(goal, dx, dy, w, h)
        if q is not None and not (q & taken):
            return True
    return False


def plan_counts(w, h, most):
    """What tbgen --plan counts of the family: every goal layout, those
    whose goal piece can leave (a cell up or left), the tasks (a goal
    piece's place covering the bottom right cell and a piece count from 1
    to the cells it leaves, each place of at most 'most' cells), those with
    a goal the piece can leave, and the most such goals of a task."""
    n, corner = w * h, w * h - 1
    goals, leave, task = 0, 0, {}
    for pieces in partitions(w, h, most):
        g = [p for p in pieces if corner in p]
        if not g:
            continue
        goals += 1
        others = [p for p in pieces if p != g[0]]
        if can_leave(g[0], others, w, h):
            leave += 1
            key = (g[0], len(pieces))
            task[key] = task.get(key, 0) + 1
    tasks = 0
    for first in range(n):
        for s in subsets_with(first, list(range(first + 1, n)), most):
            if corner in s and connected(s, w, h):
                tasks += n - len(s)
    return goals, leave, tasks, len(task), max(task.values() or [0])


def plan_line(tbgen, tmp, name, text):
    """tbgen --plan --family's counts: goal layouts, those the goal piece
    can leave, tasks, those with such goals, the largest."""
    path = os.path.join(tmp, name + '.txt')
    with open(path, 'w') as f:
        f.write(text)
    out = subprocess.run([tbgen, '--plan', '--family', path], check=True,
                         capture_output=True, text=True).stdout
    m = re.match(r'\S+: ([\d,]+) goal layouts, ([\d,]+) of them the goal '
                 r'piece can leave \(the searches\' starts\); ([\d,]+) tasks '
                 r'\(([\d,]+) with such goals\), the largest ([\d,]+);', out)
    return tuple(int(x.replace(',', '')) for x in m.groups()) if m else out


def family(w, h, metric, most):
    corner = w * h - 1
    goals = []
    for pieces in partitions(w, h, most):
        g = [p for p in pieces if corner in p]
        if g:
            goals.append((g[0], frozenset(p for p in pieces if p != g[0])))
    done, levels = set(), set()
    for g in goals:
        if g in done:
            continue
        comp, todo = {g}, [g]
        while todo:
            lay = todo.pop()
            for s in successors(lay, metric, w, h):
                if s not in comp:
                    comp.add(s)
                    todo.append(s)
        sources = [x for x in comp if corner in x[0]]
        done.update(sources)
        dist = {x: 0 for x in sources}
        queue = deque(sources)
        while queue:
            lay = queue.popleft()
            for s in successors(lay, metric, w, h):
                if s not in dist:
                    dist[s] = dist[lay] + 1
                    queue.append(s)
        starts = [x for x in comp if top_left(x[0], w)]
        if not starts:
            continue
        moves = max(dist[x] for x in starts)
        if moves == 0:
            continue
        board = min(draw(x, w, h) for x in starts if dist[x] == moves)
        hist = [0] * (moves + 1)
        for d in dist.values():
            hist[min(d, moves)] += 1
        levels.add((moves, board, len(comp), tuple(hist)))
    return levels


def description(name, w, h, metric, most):
    rows = ['A' + '.' * (w - 1)] + ['.' * w] * (h - 1)
    goal = '/'.join('?' * (w - 1) + ('A' if y == h - 1 else '?')
                    for y in range(h))
    return ('name %s\nmetrics %s\ndistinct A\nstart\n%s\n\ngoal %s\n'
            'family blocks %d\n' % (name, metric, '\n'.join(rows), goal,
                                    most))


def built(tbgen, tmp, name, text):
    path = os.path.join(tmp, name + '.txt')
    with open(path, 'w') as f:
        f.write(text)
    subprocess.run([tbgen, '--family', path, '--out', tmp, '--quiet'],
                   check=True)
    tblookup = os.path.join(os.path.dirname(tbgen), 'tblookup')
    out = subprocess.run([tblookup, '--tables', tmp, name, '--levels',
                          '--format', 'json'], check=True,
                         capture_output=True, text=True).stdout
    return {(j['moves'], j['board'], j['states'], tuple(j['histogram']))
            for j in json.loads(out)}


def main():
    tbgen, tmp = sys.argv[1], sys.argv[2]
    fams = sys.argv[3:] or FAMILIES
    plans = [] if sys.argv[3:] else PLANS
    print('1..%d' % (len(fams) + len(plans)))
    failed = 0
    for i, spec in enumerate(plans, len(fams) + 1):
        size, most = spec.split(':')
        w, h = map(int, size.split('x'))
        name = 'blocks-%dx%d-plan-%s' % (w, h, most)
        want = plan_counts(w, h, int(most))
        got = plan_line(tbgen, tmp, name, description(name, w, h, 'move',
                                                      int(most)))
        failed += want != got
        print('%s %d - %s: tbgen --plan counts %d goal layouts, %d the goal '
              'piece can leave, %d tasks (%d with such goals), the largest '
              '%d, as counted here' % ('ok' if want == got else 'not ok', i,
                                       name) + want)
        if want != got:
            print('#   tbgen: %s' % (got,))
    for i, spec in enumerate(fams, 1):
        size, metric, most = spec.split(':')
        w, h = map(int, size.split('x'))
        name = 'blocks-%dx%d-%s-%s' % (w, h, metric, most)
        want = family(w, h, metric, int(most))
        got = built(tbgen, tmp, name, description(name, w, h, metric,
                                                  int(most)))
        ok = want == got and want
        failed += not ok
        print('%s %d - %s: %d puzzles, the hardest %d moves, as the '
              'brute force finds them' % ('ok' if ok else 'not ok', i,
                                          name, len(want),
                                          max(l[0] for l in want or [(0,)])))
        if not ok:
            for l in sorted(want - got)[:5]:
                print('#   missing %s' % (l,))
            for l in sorted(got - want)[:5]:
                print('#   extra   %s' % (l,))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
