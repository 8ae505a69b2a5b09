"""python/bench.py: the Python module's speed next to the C library's (a
benchmark, not a test).  Run from the top of the tree after `make tables
python` (or `make bench-python`); prints a Markdown table.

Measured: tb.distance() on random Klotski layouts (ShortCodes, metric
move), tb.distance() and tb.solve() on 横刀立马, and a trivial query (frog
'W.B', one move) that shows the cost of a call itself; each next to a C
loop (python/bench.c, one reader, one untimed pass first) doing the same
library work over the same queries, best of 3 rounds.  The Python overhead
per call is the difference.  Then batches split over 1 and 2 threads
sharing one handle (wall time; the machine's other load shows in it)."""
import os
import random
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, "build/python")
import puzzletb  # noqa: E402

TABLES = os.environ.get("PUZZLETB_TABLES", "tables")
HENG = "BAAC BAAC DEEF DGHF IKKJ"
SHORT = "123456789ABCDEFGHJKMNPQRSTUVWXYZ"


def shortcode(v):
    s = ""
    for _ in range(5):
        s, v = SHORT[v % 32] + s, v // 32
    return s


def c_rate(exe, puzzle, metric, mode, queries, repeat):
    p = subprocess.run([exe, TABLES, puzzle, metric, mode, str(repeat)],
                       input="\n".join(q.replace("\n", "/") for q in queries)
                       + "\n", capture_output=True, text=True, check=True)
    n, secs = p.stdout.split()
    return int(n) / float(secs)


def py_rate(call, queries, repeat):
    call(queries[0])
    t0 = time.perf_counter()
    for _ in range(repeat):
        for q in queries:
            call(q)
    return repeat * len(queries) / (time.perf_counter() - t0)


def threaded(call, queries, nthreads):
    parts = [queries[k::nthreads] for k in range(nthreads)]

    def run(part):
        for q in part:
            call(q)
    threads = [threading.Thread(target=run, args=(p,)) for p in parts]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return len(queries) / (time.perf_counter() - t0)


def main():
    tmp = tempfile.mkdtemp()
    exe = os.path.join(tmp, "bench")
    subprocess.run(["cc", "-O2", "-Ilib", "-o", exe, "python/bench.c",
                    "build/libpuzzletb.a", "-llmdb", "-lzstd", "-lpthread"],
                   check=True)
    rng = random.Random(1)
    codes = [shortcode(rng.randrange(29334498)) for _ in range(2000)]
    tb = puzzletb.open(TABLES)
    rows = []

    def row(what, call, puzzle, metric, mode, queries, repeat):
        # best of 3 rounds each, C and Python alternating
        c = p = 0
        for _ in range(3):
            c = max(c, c_rate(exe, puzzle, metric, mode, queries, repeat))
            p = max(p, py_rate(call, queries, repeat))
        rows.append((what, mode, p, c, 1e6 / p - 1e6 / c))

    row("tb.distance, 2000 random Klotski layouts (move)",
        lambda q: tb.distance("klotski", q, "move"), "klotski", "move",
        "distance", codes, 1)
    row("tb.distance, 横刀立马 (move, 81)",
        lambda q: tb.distance("klotski", q, "move"), "klotski", "move",
        "distance", [HENG], 2000)
    row("tb.solve, 横刀立马 (move, 81 moves)",
        lambda q: tb.solve("klotski", q, "move"), "klotski", "move",
        "solve", [HENG], 300)
    row("tb.solve, 横刀立马 (step, 116 moves)",
        lambda q: tb.solve("klotski", q, "step"), "klotski", "step",
        "solve", [HENG], 300)
    row("tb.distance, frog 'W.B' (1 move: the cost of a call)",
        lambda q: tb.distance("frog", q), "frog", "move", "distance",
        ["W.B"], 100000)
    print("| query | C loop (python/bench.c) | Python (calls/s) | "
          "C library (queries/s) | Python overhead per call (µs) |")
    print("|---|---|---:|---:|---:|")
    for what, mode, p, c, over in rows:
        print("| %s | %s | %.0f | %.0f | %.1f |" % (what, mode, p, c, over))
    print()
    print("Threads sharing one handle (best of 3; %d cores, load %s):"
          % (os.cpu_count(),
             " ".join(open("/proc/loadavg").read().split()[:3])))
    print()
    print("| batch | 1 thread (/s) | 2 threads (/s) | ratio |")
    print("|---|---:|---:|---:|")
    batch = [shortcode(rng.randrange(29334498)) for _ in range(4000)]
    for what, call, qs in (
            ("tb.distance, %d random Klotski layouts" % len(batch),
             lambda q: tb.distance("klotski", q, "move"), batch),
            ("tb.solve, 300 x 横刀立马 (step)",
             lambda q: tb.solve("klotski", q, "step"), [HENG] * 300),
            ("tb.solve, 2000 random Klotski layouts (step)",
             lambda q: tb.solve("klotski", q, "step"), codes)):
        r1 = max(threaded(call, qs, 1) for _ in range(3))
        r2 = max(threaded(call, qs, 2) for _ in range(3))
        print("| %s | %.0f | %.0f | %.2fx |" % (what, r1, r2, r2 / r1))
    os.remove(exe)
    os.rmdir(tmp)


if __name__ == "__main__":
    main()
