#!/usr/bin/env python3
"""tests/layers.py: checks the library's shape (doc/design.md, "Layers").

    tests/layers.py [--objects DIR] [--limits] ROOT

ROOT/lib holds the library, a folder a layer, in the order of LAYERS: a
file may include and call only files of its own layer or of the layers
before it, and no files may call each other in a circle.  The includes
are read from the sources; the calls from the objects under DIR (the
build's, DIR/lib/LAYER/FILE.o), through nm: an undefined symbol of one
object that another defines is a call.  With --limits, no source file has
more than MAX_LINES lines nor a function more than MAX_FUNCTION (a
function: from a line that starts with '{' to the next that starts with
'}', the style of every file here).

Prints one line per fault, "layers: FILE: what", and exits 1 when there
is any, else 0."""
import os
import re
import subprocess
import sys

LAYERS = ["core", "format", "search", "puzzles", "answer"]
MAX_LINES = 1500
MAX_FUNCTION = 80


def layer_of(path, root):
    """The layer index of a file under ROOT/lib/LAYER/, -1 for the public
    header (lib/puzzletb.h: anyone may include it), None outside lib."""
    rel = os.path.relpath(path, os.path.join(root, "lib"))
    parts = rel.split(os.sep)
    if parts[0].startswith(".."):
        return None
    if len(parts) == 1:
        return -1
    return LAYERS.index(parts[0]) if parts[0] in LAYERS else None


def sources(root):
    for dirpath, _, files in os.walk(os.path.join(root, "lib")):
        for f in sorted(files):
            if f.endswith((".c", ".h", ".def")):
                yield os.path.join(dirpath, f)


def check_includes(root, faults):
    inc = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
    for path in sources(root):
        here = layer_of(path, root)
        if here is None:
            faults.append("%s: not in a layer's folder (lib/%s/)" %
                          (path, "|".join(LAYERS)))
            continue
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                m = inc.match(line)
                if not m:
                    continue
                name = m.group(1)
                for cand in (os.path.join(os.path.dirname(path), name),
                             os.path.join(root, "lib", name)):
                    if os.path.exists(cand):
                        break
                else:
                    continue      # made at build time (build/gen)
                there = layer_of(os.path.normpath(cand), root)
                if there is None or there > here:
                    faults.append("%s:%d: includes %s, %s" % (
                        path, n, name, "outside lib/" if there is None else
                        "of the layer above ('%s')" % LAYERS[there]))


def symbols(obj):
    out = subprocess.run(["nm", obj], capture_output=True, text=True,
                         check=True).stdout
    defined, used = set(), set()
    for line in out.splitlines():
        f = line.split()
        if len(f) == 2 and f[0] == "U":
            used.add(f[1])
        elif len(f) == 3 and f[1] in "TDRBVW":
            defined.add(f[2])
    return defined, used


def check_calls(root, objdir, faults):
    objs = {}
    for path in sources(root):
        if path.endswith(".c"):
            rel = os.path.relpath(path, root)[:-2] + ".o"
            obj = os.path.join(objdir, rel)
            if not os.path.exists(obj):
                faults.append("%s: no object %s (build it first)" %
                              (path, obj))
                continue
            objs[path] = symbols(obj)
    owner = {}
    for path, (defined, _) in objs.items():
        for s in defined:
            owner[s] = path
    calls = {p: set() for p in objs}
    for path, (_, used) in objs.items():
        for s in used:
            callee = owner.get(s)
            if callee and callee != path:
                calls[path].add(callee)
                lp, lc = layer_of(path, root), layer_of(callee, root)
                if lc > lp:
                    faults.append("%s: calls %s (%s), of the layer above "
                                  "('%s')" % (path, s, callee, LAYERS[lc]))
    # a circle: a path back to a file already on the way (depth first)
    state, stack = {}, []

    def visit(p):
        state[p] = 1
        stack.append(p)
        for q in sorted(calls[p]):
            if state.get(q) == 1:
                cycle = stack[stack.index(q):] + [q]
                faults.append("%s: calls in a circle: %s" %
                              (q, " -> ".join(cycle)))
            elif q not in state:
                visit(q)
        stack.pop()
        state[p] = 2

    for p in sorted(calls):
        if p not in state:
            visit(p)


def check_limits(root, faults):
    for path in sources(root):
        with open(path, encoding="utf-8") as f:
            over(path, f.read().split("\n"), faults)


def over(path, lines, faults):
    """The faults of one file's lines against the limits."""
    if len(lines) - 1 > MAX_LINES:
        faults.append("%s: %d lines, more than %d" %
                      (path, len(lines) - 1, MAX_LINES))
    start = None
    for n, line in enumerate(lines, 1):
        if line.startswith("{"):
            start = n
        elif line.startswith("}") and start is not None:
            if n - start + 2 > MAX_FUNCTION:
                faults.append("%s:%d: a function of %d lines, more "
                              "than %d" % (path, start - 1,
                                           n - start + 2, MAX_FUNCTION))
            start = None


def main(argv):
    objdir, limits, args = None, False, list(argv)
    while args and args[0].startswith("--"):
        a = args.pop(0)
        if a == "--objects":
            objdir = args.pop(0)
        elif a == "--limits":
            limits = True
        else:
            sys.exit("layers: unknown option %s" % a)
    if len(args) != 1:
        sys.exit(__doc__)
    root, faults = args[0], []
    check_includes(root, faults)
    if objdir:
        check_calls(root, objdir, faults)
    if limits:
        check_limits(root, faults)
    for f in faults:
        print("layers: " + f)
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
