#!/usr/bin/python3
"""tests/t_web.py: the page in a real browser (Debian's chromium, headless,
driven by chromium-driver through python3-selenium) against a tbserve
started by the test on a free port of 127.0.0.1.

It loads 横刀立马 from the named starts and reads the distance the page shows
(116 in the step metric and 81 in the move metric: the published figures,
also checked by t_klotski.sh), clicks the first optimal move and sees the
distance drop by one, follows the optimal line to the goal one move at a
time, reopens the shared URL, and loads a bad position to see the parser's
message.  Screenshots go to build/web-*.png for a human look."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from t_serve import Server, Tap  # noqa: E402

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
              "--disable-dev-shm-usage", "--window-size=1200,1100",
              "--no-proxy-server", "--disable-extensions",
              "--disable-background-networking"):
        opts.add_argument(a)
    service = Service(executable_path="/usr/bin/chromedriver")
    return webdriver.Chrome(options=opts, service=service)


def main():
    t = Tap()
    os.makedirs("build", exist_ok=True)
    with Server() as srv:
        d = browser()
        try:
            run(t, d, srv)
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
    d.get(srv.url("/"))
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
    # a piece clicked on the board plays that piece's best move
    d.find_element(By.ID, "first").click()
    wait_text(d, "distance", "81")
    first = d.find_element(By.CSS_SELECTOR, "#moves li.optimal")
    piece = first.get_attribute("data-move").split()[0]
    d.find_element(By.CSS_SELECTOR, f'g.piece[data-piece="{piece}"]').click()
    t.check(f"clicking piece {piece} on the board plays its optimal move",
            wait_text(d, "distance", "80"))

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


if __name__ == "__main__":
    sys.exit(main())
