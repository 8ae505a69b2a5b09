#!/usr/bin/python3
"""tests/t_web.py: the page in a real browser (Debian's chromium, headless,
driven by chromium-driver through python3-selenium) against a tbserve
started by the test on a free port of 127.0.0.1.

It loads 横刀立马 from the named starts and reads the distance the page shows
(116 in the step metric and 81 in the move metric: the published figures,
also checked by t_klotski.sh), clicks the first optimal move and sees the
distance drop by one, follows the optimal line to the goal one move at a
time, reopens the shared URL, and loads a bad position to see the parser's
message.

Then, with the viewport at 1280x900 and at 420x900 (a phone), what the page
must show of each puzzle: the goal drawn beside the board (swap's target
with the cells that still differ, Klotski's zone at the bottom middle where
the 2x2 block of the goal board is, four's line of one colour, frog's row
with the colours exchanged), all of it inside the viewport; the move list's
numbers (24 moves) each as wide as its text and inside the list; the
histogram's axes: a bar per distance with the API's counts, distance and
count labels that do not overlap and are at least 10 px high, both axis
titles; the Chinese summary drawn by a font that has its glyphs (asked of
the browser through the DevTools protocol: needs fonts-noto-cjk); a random
position at a chosen distance for four, frog, swap and Klotski, whose
distance the page shows and a search written in tests/t_serve.py from the
rules confirms, and the farthest positions.

Described puzzles (puzzles/*.txt, and a board with a wall that the test
describes and builds with bin/tbgen next to links to the project's
tables): century's drawn start from the Start menu shows 111 (line
metric) with its 10 pieces each one block on its cells, pieces of one shape
in one colour and of different shapes in different ones; its goal from the
description beside it (the 2x2 at the bottom centre in the board's 2x2
colour, the other cells faint, the place dashed on the board), its summary
and sources; a piece clicked shows the places the API lists for it, a
place clicked plays that move and the page shows the API's distance; a
piece that cannot move says so.  The wall is drawn dark on the board and
the goal, Ma's L pieces as one block each, the 8-puzzle from 8672543.1
(and 867254301: '0' is the description's empty) shows 31 with the goal
123/456/78. and its empty cell marked.

With --patterns DIR (tests/t_searched.sh; DIR holds fifteen's pattern
tables): the 15-puzzle, answered by search, shows Korf's instance 1 at its
published 57 moves, "found by search, proven optimal", its optimal line
as the move list; forward, back, a line move and "solve" walk the line
(the boards the page shows replayed here by the rules); random starts are
off.

Play a level: a family's levels (rush-5x5's table), a level of 10
moves as /api/v1/levels/rush-5x5/play gives it, its line walked to the
goal, and another.

Screenshots go to build/web-*.png (build/web-PUZZLE-WIDTH.png at both
widths) for a human look."""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from t_serve import (Server, Tap, four_distance, four_line,  # noqa: E402
                     frog_distance, swap_distance, klotski_decode,
                     klotski_step_distance, P1225, SEED001, CLASSIC,
                     TABLES)

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait
except ImportError:
    print("not ok 1 - python3-selenium is missing (scripts/install-deps)")
    sys.exit(1)


def browser():
    opts = webdriver.ChromeOptions()
    opts.binary_location = "/usr/bin/chromium"
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu",
              "--disable-dev-shm-usage", "--window-size=1280,900",
              "--no-proxy-server", "--disable-extensions",
              "--disable-background-networking"):
        opts.add_argument(a)
    service = Service(executable_path="/usr/bin/chromedriver")
    return webdriver.Chrome(options=opts, service=service)


# A described puzzle with a wall, built by the test next to the project's
# tables: the L piece A goes round the wall to the right (2 moves in the
# move metric: b DR, then A RRRD).
WALLED = """name     walled
summary  a test board with a wall: the L to the right
source   tests/t_web.py, https://example.org/walled
metrics  move step
start
AA...
A..b.
c.#..
goal     ?????/???AA/??#A?
"""


def tables_with_walled(tmp):
    """A tables directory: links to every table of TABLES, and the walled
    puzzle's tables built there by bin/tbgen."""
    for f in glob.glob(os.path.join(TABLES, "*.mdb")):
        os.symlink(os.path.abspath(f), os.path.join(tmp, os.path.basename(f)))
    desc = os.path.join(tmp, "walled.txt")
    with open(desc, "w") as f:
        f.write(WALLED)
    subprocess.run(["bin/tbgen", "--out", tmp, "--puzzle", desc], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return tmp


def check_searched(t, patterns):
    """fifteen, answered by search, in the page."""
    from t_serve import KORF1, replays
    with Server(tables=patterns) as srv:
        d = browser()
        try:
            ok = open_page(d, srv, frag(puzzle="fifteen", position=KORF1),
                           "57")
            _, _, ans = srv.get("/api/v1/fifteen?" + frag(position=KORF1))
            items = d.find_elements(By.CSS_SELECTOR, "#moves li")
            t.check("fifteen: Korf's instance 1 shows 57, 'found by search, "
                    "proven optimal', its optimal line as the 57 moves",
                    ok and "found by search, proven optimal" in
                    text(d, "category") and len(items) == 57 and
                    [i.get_attribute("data-move") for i in items] ==
                    [m["move"] for m in ans["moves"]] and
                    replays(KORF1, ans) and text(d, "moves-title") ==
                    "The optimal line, found by search")
            t.check("... random starts are off (no full table)",
                    not d.find_element(By.ID, "random").is_enabled() and
                    not d.find_element(By.ID, "farthest").is_enabled())
            d.save_screenshot("build/web-fifteen.png")
            d.find_element(By.ID, "forward").click()
            fwd = wait_text(d, "distance", "56") and \
                position_in_url(d) == ans["moves"][0]["board"]
            _, _, two = srv.get("/api/v1/fifteen?" + frag(
                position=ans["moves"][0]["board"]))
            d.find_elements(By.CSS_SELECTOR, "#moves li button")[9].click()
            tenth = wait_text(d, "distance", "46") and \
                position_in_url(d) == two["moves"][9]["board"]
            d.find_element(By.ID, "back").click()
            back = wait_text(d, "distance", "47") and \
                position_in_url(d) == two["moves"][8]["board"]
            d.find_element(By.ID, "first").click()
            first = wait_text(d, "distance", "57") and \
                position_in_url(d) == ans["input"]
            d.find_element(By.ID, "solve").click()
            t.check("... forward, a line move, back, to the start and "
                    "'solve' walk the line: 56, 46, 47, 57, solved",
                    fwd and tenth and back and first and
                    wait_text(d, "distance", "0") and
                    text(d, "category") == "solved!")
        finally:
            d.quit()
        t.check("the server stopped cleanly", srv.stop() == 0)
    return t.done()


def main():
    t = Tap()
    os.makedirs("build", exist_ok=True)
    if sys.argv[1:2] == ["--patterns"]:
        return check_searched(t, sys.argv[2])
    tmp = tempfile.mkdtemp(prefix="t_web-")
    try:
        return run_all(t, tables_with_walled(tmp))
    finally:
        shutil.rmtree(tmp)


def run_all(t, tables):
    with Server(tables=tables) as srv:
        d = browser()
        try:
            viewport(d, 1280, 900)
            run(t, d, srv)
            check_play_described(t, d, srv)
            for width in (1280, 420):
                viewport(d, width, 900)
                print(f"# the viewport at {width}x900")
                check_described(t, d, srv, width)
                check_goals(t, d, srv, width)
                check_move_numbers(t, d, srv, width)
                check_chart(t, d, srv, width)
                check_cjk(t, d, srv, width)
                check_random(t, d, srv, width)
                check_levels(t, d, srv, width)
        finally:
            d.quit()
        t.check("the server logged every page request and stopped cleanly",
                srv.stop() == 0 and " /app.js 200 " in srv.log())
    return t.done()


def text(d, id_):
    return d.find_element(By.ID, id_).text


def wait_text(d, id_, want, timeout=30):
    """Waits until element id_ shows want; returns whether it did."""
    try:
        WebDriverWait(d, timeout).until(lambda _: text(d, id_) == want)
        return True
    except Exception:
        print(f"# #{id_} shows {text(d, id_)!r}, expected {want!r}")
        return False


def run(t, d, srv):
    open_page(d, srv, "")              # (the puzzles listed first)
    Select(d.find_element(By.ID, "puzzle")).select_by_value("klotski")
    Select(d.find_element(By.ID, "metric")).select_by_value("step")
    Select(d.find_element(By.ID, "start")).select_by_index(1)
    t.check("横刀立马 from the named starts shows 116 in the step metric",
            wait_text(d, "distance", "116"))
    d.save_screenshot("build/web-klotski.png")
    moves = d.find_elements(By.CSS_SELECTOR, "#moves li")
    kinds = [m.get_attribute("class") for m in moves]
    t.check("its legal moves are listed, optimal ones first",
            len(moves) >= 2 and kinds[0] == "optimal" and
            kinds == sorted(kinds, key=lambda k: k != "optimal"))
    bars = d.find_elements(By.CSS_SELECTOR, "#chart rect.bar")
    here = d.find_elements(By.CSS_SELECTOR, "#chart rect.here")
    t.check("the histogram has a bar per distance, the current one marked",
            len(bars) > 116 and len(here) == 1)
    d.find_element(By.CSS_SELECTOR, "#moves li.optimal button").click()
    t.check("clicking the first optimal move: the distance drops to 115",
            wait_text(d, "distance", "115"))
    t.check("... and the URL holds the move played",
            "moves=" in d.current_url)
    shared = d.current_url
    d.find_element(By.ID, "back").click()
    t.check("back: 116 again", wait_text(d, "distance", "116"))
    d.get("about:blank")
    d.get(shared)
    t.check("the shared URL opens at the same position (115)",
            wait_text(d, "distance", "115"))

    d.get(srv.url("/#puzzle=klotski&metric=move"))
    t.check("横刀立马 shows 81 in the move metric",
            wait_text(d, "distance", "81"))
    ok = True
    for left in range(80, -1, -1):
        d.find_element(By.ID, "forward").click()
        if not wait_text(d, "distance", str(left)):
            ok = False
            break
    t.check("forward along the optimal line: 80, 79, ... 0, one by one", ok)
    t.check("... and the goal says so",
            text(d, "category") == "solved!" and
            d.find_element(By.ID, "forward").get_attribute("disabled"))
    d.save_screenshot("build/web-klotski-goal.png")
    # a piece clicked on the board, then one of its places: that move
    d.find_element(By.ID, "first").click()
    wait_text(d, "distance", "81")
    first = d.find_element(By.CSS_SELECTOR, "#moves li.optimal")
    move = first.get_attribute("data-move")
    piece = move.split()[0]
    d.find_element(By.CSS_SELECTOR, f'g.piece[data-piece="{piece}"]').click()
    dests = d.find_elements(By.CSS_SELECTOR, "#board g.dest")
    mine = [li.get_attribute("data-move") for li in
            d.find_elements(By.CSS_SELECTOR, "#moves li")
            if li.get_attribute("data-move").split()[0] == piece]
    t.check(f"clicking Klotski's piece {piece} shows its places, one per "
            "legal move of it",
            sorted(e.get_attribute("data-move") for e in dests) ==
            sorted(mine) and len(mine) >= 1)
    d.find_element(By.CSS_SELECTOR,
                   f'#board g.dest[data-move="{move}"]').click()
    t.check(f"... and clicking the place of its optimal move {move} plays "
            "it: 80", wait_text(d, "distance", "80"))

    pos = d.find_element(By.ID, "position")
    pos.clear()
    pos.send_keys("BAAC\nBAAC\nDEEF\nDGHF\nIKKX")
    d.find_element(By.ID, "load").click()
    err = d.find_element(By.ID, "error")
    try:
        WebDriverWait(d, 20).until(lambda _: err.is_displayed())
    except Exception:
        pass
    expected = srv.get("/api/v1/klotski?position=" +
                       "BAAC%0ABAAC%0ADEEF%0ADGHF%0AIKKX")[2]["error"]
    t.check("a bad position shows the parser's one-line message",
            err.is_displayed() and err.text == expected and
            text(d, "distance") == "–")
    d.save_screenshot("build/web-error.png")

    d.get(srv.url("/#puzzle=frog&n=3"))
    t.check("the frog start for n = 3 takes 15 moves (n(n+2))",
            wait_text(d, "distance", "15"))
    d.get(srv.url("/#puzzle=four"))
    t.check("seed 001's board takes 5 moves", wait_text(d, "distance", "5"))
    stones = d.find_elements(By.CSS_SELECTOR, "#board circle.stone")
    t.check("... drawn as 14 stones", len(stones) == 14)
    d.save_screenshot("build/web-four.png")


# ---- what the page shows of each puzzle, at a width ---------------------

def viewport(d, width, height):
    """The page's viewport exactly width x height CSS pixels (a headless
    window keeps a minimum width of its own)."""
    d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1,
        "mobile": False})


def open_page(d, srv, fragment, want=None):
    """Loads the page afresh at #fragment; waits for the distance want (or
    for the page to be ready)."""
    d.get("about:blank")
    d.get(srv.url("/#" + fragment))
    if want is not None:
        return wait_text(d, "distance", want)
    try:
        WebDriverWait(d, 30).until(
            lambda _: d.execute_script("return document.body.dataset.ready"))
        return True
    except Exception:
        return False


def frag(**q):
    return urllib.parse.urlencode(q)


def box(d, el):
    """An element's bounding box in the viewport: left, top, right, bottom."""
    r = d.execute_script("const r = arguments[0].getBoundingClientRect();"
                         "return [r.left, r.top, r.right, r.bottom];", el)
    return r


def in_view(d, el):
    """The element is drawn, with a size, and not cut at the viewport's
    sides."""
    left, top, right, bottom = box(d, el)
    width = d.execute_script("return document.documentElement.clientWidth")
    return el.is_displayed() and right - left > 20 and \
        bottom - top > 8 and left >= 0 and right <= width + 0.5


def goal_cells(d, selector):
    return {(int(c.get_attribute("data-r")), int(c.get_attribute("data-c")))
            for c in d.find_elements(By.CSS_SELECTOR, selector)}


def check_goals(t, d, srv, width):
    # Klotski: the zone on both boards, where the goal's 2x2 block is
    ok = open_page(d, srv, frag(puzzle="klotski", metric="step",
                                position=CLASSIC), "116")
    zones = d.find_elements(By.CSS_SELECTOR, "rect.goal-zone")
    where = [tuple(int(z.get_attribute(f"data-{k}")) for k in "rcwh")
             for z in zones]
    goal = d.find_element(By.ID, "goal").get_attribute("data-board") or ""
    _, _, ans = srv.get("/api/v1/klotski?" + frag(position=CLASSIC))
    g = goal.split("\n")
    block = [(r, c) for r in range(4) for c in range(3)
             if g[r][c] != "." and g[r][c] == g[r][c + 1] == g[r + 1][c] ==
             g[r + 1][c + 1]] if len(g) == 5 else []
    t.check(f"{width}: Klotski's goal zone is drawn on the board and on the "
            "goal beside it, at the bottom middle (rows 4-5, columns 2-3), "
            "where the goal board that ends the optimal line has its 2x2 "
            "block", ok and where == [(3, 1, 2, 2)] * 2 and
            goal == ans["moves"][-1]["board"] and block == [(3, 1)] and
            in_view(d, d.find_element(By.ID, "goal")) and
            "2×2 block at the bottom middle" in text(d, "goal-caption"))
    d.save_screenshot(f"build/web-klotski-{width}.png")

    # swap: the target, its differing cells marked
    ok = open_page(d, srv, frag(puzzle="swap", position=P1225), "4")
    rows = P1225.split("\n")
    start, target = rows[:4], rows[4:]
    goal = d.find_element(By.ID, "goal")
    black = len(goal.find_elements(By.CSS_SELECTOR, "circle.stone.black"))
    differ = {(r, c) for r in range(4) for c in range(4)
              if start[r][c] != target[r][c]}
    t.check(f"{width}: swap shows the target it is solved against beside "
            "the start, with the cells that still differ marked",
            ok and goal.get_attribute("data-board") == "\n".join(target) and
            black == "".join(target).count("1") and
            goal_cells(d, "#goal rect.cell.differs") == differ and
            in_view(d, goal) and in_view(d, d.find_element(By.ID, "board"))
            and text(d, "goal-caption").startswith("Target"))
    d.save_screenshot(f"build/web-swap-{width}.png")

    # four: the line of one colour on the goal the optimal line reaches
    ok = open_page(d, srv, frag(puzzle="four", position=SEED001), "5")
    lines = d.find_elements(By.CSS_SELECTOR, "#goal line.goal-line")
    goal = d.find_element(By.ID, "goal").get_attribute("data-board") or ""
    marked = {tuple(int(x) for x in p.split(","))
              for p in (lines[0].get_attribute("data-cells").split()
                        if lines else [])}
    want = four_line(goal) if goal.count("\n") == 3 else None
    t.check(f"{width}: four draws the goal its optimal line reaches with "
            "its line of four marked (the line found here from the rules), "
            "and says who moves",
            ok and len(lines) == 1 and want and marked == set(want) and
            in_view(d, d.find_element(By.ID, "goal")) and
            not d.find_elements(By.CSS_SELECTOR, "#board line.goal-line") and
            text(d, "board-caption") == "black (B) to move")
    d.save_screenshot(f"build/web-four-{width}.png")

    # frog: the row with the colours exchanged, even from a dead end
    ok = open_page(d, srv, frag(puzzle="frog", position="WB.WB"), "∞")
    goal = d.find_element(By.ID, "goal")
    stones = [(float(c.get_attribute("cx")), "B" in c.get_attribute("class")
               .replace("black", "B")) for c in
              goal.find_elements(By.CSS_SELECTOR, "circle.stone")]
    order = "".join("B" if b else "W" for _, b in sorted(stones))
    t.check(f"{width}: frog draws its goal, the colours exchanged (BB.WW), "
            "also for a position that cannot reach it",
            ok and goal.get_attribute("data-board") == "BB.WW" and
            order == "BBWW" and in_view(d, goal))
    open_page(d, srv, frag(puzzle="frog", n="3"), "15")
    d.save_screenshot(f"build/web-frog-{width}.png")


# ---- described puzzles: drawn from the answer's board and the description

def board_pieces(board, empty=".", wall="#"):
    """The pieces of board text: {letter: sorted cells}, each letter one
    piece (as a description draws them)."""
    out = {}
    for r, row in enumerate(board.split("\n")):
        for c, ch in enumerate(row):
            if ch not in empty and ch not in wall and ch != "?":
                out.setdefault(ch, []).append((r, c))
    return out


def shape(cells):
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return frozenset((r - r0, c - c0) for r, c in cells)


def cells_attr(cells):
    return " ".join(f"{r},{c}" for r, c in sorted(cells))


def drawn_pieces(d, svg):
    """{data-cells: (letter, fill)} of the blocks drawn in svg."""
    return {g.get_attribute("data-cells"):
            (g.get_attribute("data-piece"),
             g.find_element(By.TAG_NAME, "path").get_attribute("fill"))
            for g in d.find_elements(By.CSS_SELECTOR, f"#{svg} g.piece")}


def coloured_by_shape(pieces, drawn):
    """Every piece drawn as one block on its cells, and two pieces have one
    colour exactly when they have one shape."""
    keys = {ch: cells_attr(cells) for ch, cells in pieces.items()}
    if sorted(keys.values()) != sorted(drawn) or \
            any(drawn[keys[ch]][0] != ch for ch in pieces):
        print(f"# drawn {drawn}, expected {keys}")
        return False
    fill = {ch: drawn[keys[ch]][1] for ch in pieces}
    return all((shape(pieces[a]) == shape(pieces[b])) ==
               (fill[a] == fill[b]) for a in pieces for b in pieces)


def check_levels(t, d, srv, width):
    """Play a level: a family's levels table (rush-5x5, which make tables
    builds), a level of 10 moves played; the page shows the level /play
    gives, its optimal line as the move list, and walks it to the goal, the
    board drawn as the API's boards, pieces as blocks, inside the viewport;
    "another" shows the next seed's level."""
    open_page(d, srv, "")
    fam = d.find_element(By.ID, "family")
    try:
        WebDriverWait(d, 30).until(
            lambda _: d.find_element(By.ID, "levels").is_displayed() and
            "levels" in text(d, "level-info"))
    except Exception:
        pass
    names = [o.get_attribute("value")
             for o in fam.find_elements(By.TAG_NAME, "option")]
    _, _, fams = srv.get("/api/v1/levels")
    t.check(f"{width}px: the levels section lists the families of "
            "/api/v1/levels", names == fams["families"] and
            "rush-5x5" in names)
    Select(fam).select_by_value("rush-5x5")
    ok = wait_text(d, "level-n", "20")
    moves = d.find_element(By.ID, "level-moves")
    moves.clear()
    moves.send_keys("10")
    d.find_element(By.ID, "level-play").click()
    _, _, want = srv.get("/api/v1/levels/rush-5x5/play?moves=10&seed=0")
    line = [m["move"] for m in want["answer"]["moves"]]
    try:
        WebDriverWait(d, 30).until(lambda _: len(d.find_elements(
            By.CSS_SELECTOR, "#level-line li")) == 10)
    except Exception:
        pass
    shown = [b.text for b in d.find_elements(By.CSS_SELECTOR,
                                             "#level-line li button")]
    t.check(f"{width}px: a level of 10 moves: the level /play gives, its "
            "line as the move list, '10 moves to the goal'",
            ok and want["level"]["board"] in text(d, "level-info") and
            shown == line and text(d, "level-caption") ==
            "10 moves to the goal" and
            coloured_by_shape(board_pieces(want["answer"]["input"]),
                              drawn_pieces(d, "level-board")))
    for _ in range(10):
        d.find_element(By.ID, "level-forward").click()
    last = want["answer"]["moves"][-1]["board"]
    t.check(f"{width}px: forward ten times: 'solved in 10 moves', the "
            "API's last board drawn, inside the viewport",
            text(d, "level-caption") == "solved in 10 moves" and
            coloured_by_shape(board_pieces(last),
                              drawn_pieces(d, "level-board")) and
            in_view(d, d.find_element(By.ID, "level-board")))
    d.save_screenshot(f"build/web-levels-{width}.png")
    d.find_element(By.ID, "level-next").click()
    _, _, other = srv.get("/api/v1/levels/rush-5x5/play?moves=10&seed=1")
    try:
        WebDriverWait(d, 30).until(
            lambda _: other["level"]["board"] in text(d, "level-info"))
        another = True
    except Exception:
        another = False
    t.check(f"{width}px: 'another': the level of seed 1", another)


def listed(srv, name):
    _, _, lst = srv.get("/api/v1/puzzles")
    return next(p for p in lst["puzzles"] if p["name"] == name)


def check_described(t, d, srv, width):
    century = listed(srv, "century")
    start = century["start"].replace("/", "\n")
    ok = open_page(d, srv, frag(puzzle="century", metric="line"), "111")
    pieces = board_pieces(start)
    drawn = drawn_pieces(d, "board")
    t.check(f"{width}: century opens at its drawn start (111 in the line "
            "metric, Storer's count): 10 pieces, each one block on its "
            "cells, one colour per shape (4 shapes, 4 colours)",
            ok and len(drawn) == 10 and coloured_by_shape(pieces, drawn) and
            len({f for _, f in drawn.values()}) == 4 and
            d.find_element(By.ID, "position").get_attribute("value") ==
            start and in_view(d, d.find_element(By.ID, "board")))
    goal = drawn_pieces(d, "goal")
    faint = d.find_elements(By.CSS_SELECTOR, "#goal rect.cell.any")
    marks = [e.get_attribute("data-cells") for e in
             d.find_elements(By.CSS_SELECTOR, "#board path.goal-piece")]
    big = cells_attr(pieces["B"])
    t.check(f"{width}: ... its goal drawn beside it from the description "
            "(????/????/????/?BB?/?BB?): the 2x2 block at the bottom centre "
            "in the board's 2x2 colour, the 16 other cells faint, the same "
            "place dashed on the board",
            list(goal) == ["3,1 3,2 4,1 4,2"] and
            goal["3,1 3,2 4,1 4,2"][1] == drawn[big][1] and
            len(faint) == 16 and marks == ["3,1 3,2 4,1 4,2"] and
            text(d, "goal-caption").startswith("Goal: the pieces drawn") and
            in_view(d, d.find_element(By.ID, "goal")))
    sources = [ln.split(" ", 1)[1] for ln in
               century["description"].split("\n")
               if ln.startswith("source ")]
    d.save_screenshot(f"build/web-century-{width}.png")
    box_ = d.find_element(By.ID, "sources-box")
    folded = box_.get_attribute("open") is None
    if folded:
        box_.find_element(By.TAG_NAME, "summary").click()
    shown = [e.text for e in d.find_elements(By.CSS_SELECTOR, "#sources li")]
    how = "folded on a phone, opened by a click" if width < 700 else "open"
    t.check(f"{width}: ... its summary and its {len(sources)} sources shown "
            f"({how}), their addresses as links",
            text(d, "summary") == century["summary"] and shown == sources and
            folded == (width < 700) and
            len(d.find_elements(By.CSS_SELECTOR, "#sources a")) ==
            sum("http" in s for s in sources) and len(sources) == 5)

    ok = open_page(d, srv, frag(puzzle="walled"), "2")
    walls = goal_cells(d, "#board rect.wall")
    gwalls = goal_cells(d, "#goal rect.wall")
    pieces = board_pieces(WALLED.split("start\n")[1].split("\ngoal")[0])
    drawn = drawn_pieces(d, "board")
    goal = drawn_pieces(d, "goal")
    t.check(f"{width}: a described puzzle with a wall (built by the test): "
            "the wall drawn dark on the board and on its goal, the L piece "
            "one block, its goal place in its colour (2 moves)",
            ok and walls == {(2, 2)} and gwalls == {(2, 2)} and
            coloured_by_shape(pieces, drawn) and
            list(goal) == ["1,3 1,4 2,3"] and
            goal["1,3 1,4 2,3"][1] == drawn["0,0 0,1 1,0"][1] and
            len(goal_cells(d, "#goal rect.cell.any")) == 11)
    d.save_screenshot(f"build/web-walled-{width}.png")

    ok = open_page(d, srv, frag(puzzle="ma"), "23")
    pieces = board_pieces(listed(srv, "ma")["start"].replace("/", "\n"))
    drawn = drawn_pieces(d, "board")
    t.check(f"{width}: Ma's Puzzle (23 moves, Hordern): 9 blocks, its two "
            "L's each one block in colours of their own, both L's dashed "
            "where the goal wants them",
            ok and len(drawn) == 9 and coloured_by_shape(pieces, drawn) and
            sorted(e.get_attribute("data-cells") for e in d.find_elements(
                By.CSS_SELECTOR, "#board path.goal-piece")) ==
            ["0,3 0,4 1,4", "1,3 2,3 2,4"])
    d.save_screenshot(f"build/web-ma-{width}.png")

    for pos in ("8672543.1", "867254301"):
        ok = open_page(d, srv, frag(puzzle="eight", position=pos), "31")
        drawn = drawn_pieces(d, "board")
        goal = drawn_pieces(d, "goal")
        empty = goal_cells(d, "#goal rect.cell.must-empty")
        t.check(f"{width}: the 8-puzzle from {pos} ('0' is empty, as the "
                "description says) shows 31 (Reinefeld 1993): its 8 tiles "
                "drawn, one colour; the goal 123/456/78. beside it with its "
                "empty cell marked",
                ok and sorted(p for p, _ in drawn.values()) == list("12345678")
                and len({f for _, f in drawn.values()}) == 1 and
                sorted(p for p, _ in goal.values()) == list("12345678") and
                goal["0,0"][0] == "1" and empty == {(2, 2)} and
                in_view(d, d.find_element(By.ID, "goal")))
    d.save_screenshot(f"build/web-eight-{width}.png")


def check_play_described(t, d, srv):
    """Century: the named start, a piece picked up and put down by clicks,
    the distances as the API says."""
    open_page(d, srv, frag(puzzle="century", metric="line",
                           position="aBBc/dBBe/d.fe/g.fh/iijj"))
    start = Select(d.find_element(By.ID, "start"))
    names = [o.text for o in start.options]
    start.select_by_index(1)
    t.check("century's Start menu offers its drawn start, which shows 111",
            names == ["(choose)", "the start as drawn"] and
            wait_text(d, "distance", "111"))
    _, _, ans = srv.get("/api/v1/century?" + frag(
        metric="line", position=listed(srv, "century")["start"]))
    d.find_element(By.CSS_SELECTOR, 'g.piece[data-piece="a"]').click()
    t.check("clicking a piece that cannot move says so and shows no places",
            text(d, "board-caption") == "a cannot move" and
            not d.find_elements(By.CSS_SELECTOR, "#board g.dest"))
    for s in ans["analysis"]:
        piece = s["detail"]["piece"]
        d.find_element(By.CSS_SELECTOR,
                       f'g.piece[data-piece="{piece}"]').click()
        dests = {e.get_attribute("data-move"): e for e in
                 d.find_elements(By.CSS_SELECTOR, "#board g.dest")}
        mine = [m["move"] for m in ans["analysis"]
                if m["detail"]["piece"] == piece]
        picked = d.find_elements(By.CSS_SELECTOR, "#board g.piece.picked")
        t.check(f"clicking piece {piece} picks it up and shows where it can "
                f"go: {', '.join(mine)}, as the API lists",
                sorted(dests) == sorted(mine) and len(picked) == 1 and
                picked[0].get_attribute("data-piece") == piece)
        if s["move"] == ans["analysis"][0]["move"]:
            d.save_screenshot("build/web-century-picked.png")
        dests[s["move"]].click()
        t.check(f"... clicking the place of {s['move']} plays it: the "
                f"distance is the API's, {s['distance']}",
                wait_text(d, "distance", str(s["distance"])) and
                position_in_url(d) == listed(srv, "century")["start"]
                .replace("/", "\n") and
                urllib.parse.parse_qs(urllib.parse.urlparse(
                    d.current_url).fragment)["moves"] == [s["move"]])
        d.find_element(By.ID, "back").click()
        wait_text(d, "distance", "111")
    first = d.find_element(By.CSS_SELECTOR, "#moves li button")
    first.click()
    t.check("the move list plays a move too, as for the other puzzles",
            wait_text(d, "distance", str(ans["analysis"][0]["distance"])))


def check_move_numbers(t, d, srv, width):
    """24 legal moves (every pair of neighbours differs): the numbers
    1. to 24. are text inside the list, each no wider than its box."""
    pos = "1010\n0101\n1010\n0101\n1100\n1100\n0011\n0011"
    ok = open_page(d, srv, frag(puzzle="swap", position=pos))
    nums = d.find_elements(By.CSS_SELECTOR, "#moves li .num")
    got = d.execute_script("""
      const ol = document.getElementById('moves').getBoundingClientRect();
      return [...document.querySelectorAll('#moves li .num')].map(e => {
        const r = e.getBoundingClientRect(), g = document.createRange();
        g.selectNodeContents(e);
        const t = g.getBoundingClientRect();
        return [e.textContent, t.width, r.width, r.left, t.left, t.right,
                e.scrollWidth, e.clientWidth, ol.left, ol.right];
      });""")
    bad = [x for x in got if not (x[1] <= x[2] + 0.5 and x[4] >= x[3] - 0.5
                                  and x[4] >= x[8] - 0.5 and
                                  x[5] <= x[9] + 0.5 and x[6] <= x[7])]
    t.check(f"{width}: the move list's numbers 1. to 24. are whole: each "
            "text within its box and within the list",
            ok and [x[0] for x in got] == [f"{i}." for i in range(1, 25)] and
            len(nums) == 24 and not bad or print(f"# clipped: {bad[:3]}"))


def check_chart(t, d, srv, width):
    ok = open_page(d, srv, frag(puzzle="klotski", metric="step",
                                position=CLASSIC), "116")
    _, _, stats = srv.get("/api/v1/klotski/stats?metric=step")
    chart = d.find_element(By.ID, "chart")
    d.execute_script("arguments[0].scrollIntoView()", chart)
    counts = [int(b.get_attribute("data-count")) for b in
              chart.find_elements(By.CSS_SELECTOR, "rect.bar")]
    here = chart.find_elements(By.CSS_SELECTOR, "rect.bar.here")
    xt = chart.find_elements(By.CSS_SELECTOR, "text.x-tick")
    yt = chart.find_elements(By.CSS_SELECTOR, "text.y-tick")
    xb = sorted(box(d, e) for e in xt)
    yb = sorted((box(d, e) for e in yt), key=lambda b: b[1])
    apart = all(a[2] <= b[0] for a, b in zip(xb, xb[1:])) and \
        all(a[3] <= b[1] for a, b in zip(yb, yb[1:]))
    tall = all(b[3] - b[1] >= 10 for b in xb + yb)
    left, _, right, _ = box(d, chart)
    out = [b for b in xb + yb if b[0] < left - 0.5 or b[2] > right + 0.5]
    xs = [int(e.text) for e in xt]
    ys = [e.text for e in yt]
    t.check(f"{width}: the histogram has a bar per distance with the API's "
            "counts, the current one marked with its count",
            ok and counts == stats["histogram"] and len(here) == 1 and
            here[0].get_attribute("data-distance") == "116" and
            f"116: {stats['histogram'][116]:,}" in
            " ".join(e.text for e in chart.find_elements(
                By.CSS_SELECTOR, "text.here-label")))
    t.check(f"{width}: its axes are labelled: distances from 0 to the "
            "farthest and counts in powers of ten, none overlapping, at "
            "least 10 px high, inside the chart, both axes titled",
            len(xs) >= 5 and xs[0] == 0 and xs[-1] == stats["max_distance"]
            and xs == sorted(xs) and ys[0] == "1" and "10" in ys and
            "1M" in ys and apart and tall and not out and
            "distance" in text(d, "x-title") and
            "positions" in text(d, "y-title") or
            print(f"# x {xs} y {ys} apart {apart} tall {tall} out {out} "
                  f"of {left}..{right}"))
    d.save_screenshot(f"build/web-chart-{width}.png")


CJK = re.compile(r"CJK|Han|Hei|PingFang|YaHei|Noto Sans [ST]C")


def check_cjk(t, d, srv, width):
    """The browser says which fonts drew the summary's glyphs."""
    open_page(d, srv, frag(puzzle="swap"), "4")
    summary = text(d, "summary")
    han = sum(1 for ch in summary if "\u4e00" <= ch <= "\u9fff")
    d.execute_cdp_cmd("DOM.enable", {})
    d.execute_cdp_cmd("CSS.enable", {})
    root = d.execute_cdp_cmd("DOM.getDocument", {"depth": 1})
    node = d.execute_cdp_cmd("DOM.querySelector", {
        "nodeId": root["root"]["nodeId"], "selector": "#summary"})
    fonts = d.execute_cdp_cmd("CSS.getPlatformFontsForNode",
                              {"nodeId": node["nodeId"]})["fonts"]
    drawn = sum(f["glyphCount"] for f in fonts if CJK.search(f["familyName"]))
    t.check(f"{width}: the Chinese summary (黑白棋游戏) is drawn by a font "
            "with CJK glyphs, not as empty boxes (fonts-noto-cjk)",
            han == 5 and drawn >= han or
            print(f"# {han} Han characters; fonts used: {fonts}"))


def position_in_url(d):
    q = urllib.parse.parse_qs(urllib.parse.urlparse(d.current_url).fragment)
    return q.get("position", [""])[0]


def draw_at(d, distance):
    at = d.find_element(By.ID, "at")
    at.clear()
    at.send_keys(str(distance))
    d.find_element(By.ID, "random").click()


def check_random(t, d, srv, width):
    cases = [(frag(puzzle="four", position=SEED001), 6, four_distance),
             (frag(puzzle="frog", n="4"), 9, frog_distance),
             (frag(puzzle="swap", position=P1225), 5, swap_distance),
             (frag(puzzle="klotski", metric="step"), 12,
              klotski_step_distance)]
    for fragment, dist, search in cases:
        puzzle = fragment.split("&")[0].split("=")[1]
        open_page(d, srv, fragment)
        before = position_in_url(d)
        draw_at(d, dist)
        ok = wait_text(d, "distance", str(dist), timeout=60)
        code = position_in_url(d)
        origin = text(d, "origin")
        got = search(code) if ok and code else None
        t.check(f"{width}: {puzzle}: 'random at this distance' {dist} loads "
                f"a new position, shows {dist} and says so, and a search "
                "from the rules agrees",
                ok and code != before and got == dist and
                f"random position at distance {dist}" in origin and
                (puzzle != "frog" or len(code) == 9) or
                print(f"# {code!r}: {got}; {origin!r}"))
        if puzzle == "klotski":
            kinds = sorted(k for k, _, _ in klotski_decode(code))
            t.check(f"{width}: ... the Klotski one drawn as its pieces",
                    len(d.find_elements(By.CSS_SELECTOR, "#board g.piece"))
                    == len(kinds))
        if puzzle == "four":
            d.save_screenshot(f"build/web-random-{width}.png")
    open_page(d, srv, frag(puzzle="four"), "5")
    draw_at(d, 9)
    try:
        WebDriverWait(d, 30).until(
            lambda _: "no position is at distance 9" in text(d, "origin"))
        said = True
    except Exception:
        said = False
    t.check(f"{width}: a distance no position has: the page says so and "
            "names the farthest", said and "farthest are at 8" in
            text(d, "origin") and text(d, "distance") == "5")
    seen = []
    for _ in range(2):
        d.find_element(By.ID, "farthest").click()
        WebDriverWait(d, 30).until(lambda _: position_in_url(d) not in
                                   [SEED001] + seen)
        wait_text(d, "distance", "8")
        seen.append(position_in_url(d))
    t.check(f"{width}: 'a farthest position' loads four's farthest ones, "
            "one after another, each at 8 by a search from the rules",
            len(set(seen)) == 2 and
            [four_distance(c) for c in seen] == [8, 8] and
            "farthest position 2 of 8" in text(d, "origin"))


if __name__ == "__main__":
    sys.exit(main())
