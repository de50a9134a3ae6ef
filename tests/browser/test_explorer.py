#!/usr/bin/env python3
"""The web explorer in a real browser: headless Chromium driven by Selenium (Debian's chromium,
chromium-driver, python3-selenium), against `gonu serve` on small tables made here, on loopback.

It plays a line by clicking pieces and their targets; after every move it checks each listed move
and each arrow on the board (colour by value for the mover, distance) against `gonu query --json`
of that position, and the list's order (best first). Then: undo, redo by key, reload of the
address (same position and record), perfect play answering, position entry (good and bad), a
table switch, a narrow window, and a screenshot. Exit 77 (ctest's skip) only when Chromium or its
driver is absent.

usage: test_explorer.py --gonu build/bin/gonu --screenshot OUT.png
"""
import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

SKIP = 77
# Loopback only: no proxy may see these requests.
for var in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
    os.environ.pop(var, None)
os.environ["no_proxy"] = os.environ["NO_PROXY"] = "127.0.0.1,localhost"


def find_browser():
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


def find_driver():
    return shutil.which("chromedriver") or (os.path.exists("/usr/bin/chromedriver") and "/usr/bin/chromedriver") or None


class Check:
    """Counts checks; the first failure stops the test with what differed."""

    def __init__(self):
        self.count = 0

    def __call__(self, ok, what):
        self.count += 1
        if not ok:
            raise AssertionError(what)


check = Check()


def gonu_query(gonu, table, history, position=None):
    cmd = [gonu, "query", table] + ([position] if position else []) + ["--history", " ".join(history), "--json"]
    return json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)


def start_server(gonu, tables):
    proc = subprocess.Popen([gonu, "serve", *tables, "--host", "127.0.0.1", "--port", "0"],
                            stderr=subprocess.PIPE, text=True)
    line = proc.stderr.readline()
    m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    if not m:
        proc.kill()
        raise AssertionError("gonu serve did not say where it listens: " + line)
    return proc, int(m.group(1))


def rgb(css_colour):
    """(r, g, b) of 'rgb(1, 2, 3)' or 'rgba(1, 2, 3, 1)', as browsers and Selenium write them."""
    return tuple(int(x) for x in re.findall(r"\d+", css_colour)[:3])


def rank(move):
    v, d = move["value"], move["distance"]
    return (0, d) if v == "WIN" else (1, 0) if v == "DRAW" else (2, -d)


class Page:
    def __init__(self, driver, base):
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import WebDriverWait
        self.d, self.base, self.By, self.Wait = driver, base, By, WebDriverWait

    def css(self, sel):
        return self.d.find_element(self.By.CSS_SELECTOR, sel)

    def all(self, sel):
        return self.d.find_elements(self.By.CSS_SELECTOR, sel)

    def settled(self, ply=None):
        def ready(d):
            body = d.find_element(self.By.TAG_NAME, "body")
            if body.get_attribute("data-busy") != "0":
                return False
            return ply is None or body.get_attribute("data-ply") == str(ply)
        self.Wait(self.d, 10).until(ready)

    def ply(self):
        return int(self.css("body").get_attribute("data-ply"))

    def status(self):
        s = self.css("#status")
        return s.get_attribute("data-position"), s.get_attribute("data-value"), int(s.get_attribute("data-distance"))

    def colour_of_value(self, value):
        return rgb(self.css(f'#legend .swatch[data-value="{value}"]').value_of_css_property("background-color"))

    def click_square(self, sq):
        self.css(f'#board [data-square="{sq}"]').click()


def check_position(page, expected):
    """The page shows `expected` (a gonu-query/1 object): status, every move in list and on board."""
    pos, value, dist = page.status()
    check(pos == expected["position"], f"status shows {pos}, expected {expected['position']}")
    check((value, dist) == (expected["value"], expected["distance"]), f"status value {value} {dist} != {expected['value']} {expected['distance']}")
    want = {m["move"]: m for m in expected["moves"]}
    buttons = page.all("#moves button")
    check(len(buttons) == len(want), f"{len(buttons)} moves listed, {len(want)} legal")
    listed = []
    for b in buttons:
        name = b.get_attribute("data-move")
        m = want.get(name)
        check(m is not None, f"listed move {name} is not legal")
        listed.append(m)
        colour = rgb(b.value_of_css_property("color"))
        check(colour == page.colour_of_value(m["value"]), f"{name}: colour {colour}, but it is a {m['value']}")
        text = b.text
        want_text = "DRAW" if m["value"] == "DRAW" else f"{m['value']} in {m['distance']}"
        check(want_text in text, f"{name}: list says '{text}', expected '{want_text}'")
        check(("best" in text) == m["best"], f"{name}: best mark wrong in '{text}'")
        for sq in m["captures"]:
            check(sq in text, f"{name}: capture {sq} not shown in '{text}'")
    check([rank(m) for m in listed] == sorted(rank(m) for m in listed), "the list is not best first")
    arrows = page.all("#board line.arrow")
    check(len(arrows) == len(want), f"{len(arrows)} arrows on the board, {len(want)} legal moves")
    for a in arrows:
        m = want[a.get_attribute("data-move")]
        stroke = rgb(a.value_of_css_property("stroke"))
        check(stroke == page.colour_of_value(m["value"]), f"arrow {m['move']}: {stroke} for a {m['value']}")
    for tag in page.all("#board g.tag"):
        m = want[tag.get_attribute("data-move")]
        label = tag.find_element(page.By.TAG_NAME, "text").text
        want_label = "D" if m["value"] == "DRAW" else m["value"][0] + str(m["distance"])
        check(label.startswith(want_label), f"board tag {label} for {m['move']}, expected {want_label}")


def play_by_clicks(page, move, ply_after):
    frm, to = re.match(r"([a-zA-Z]\d+)-([a-zA-Z]\d+)", move).groups()
    page.click_square(frm)
    check("selected" in page.css(f'#board [data-square="{frm}"]').get_attribute("class"), f"{frm} not picked")
    page.click_square(to)
    page.settled(ply_after)


def run(args):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.keys import Keys

    tmp = tempfile.mkdtemp(prefix="gonu-browser-")
    f34, f33 = os.path.join(tmp, "f34.gonu"), os.path.join(tmp, "f33.gonu")
    for board, path in (("3x4", f34), ("3x3", f33)):
        subprocess.run([args.gonu, "solve", "--rules", "free", "--board", board, "--out", path, "--quiet"],
                       check=True, stdout=subprocess.DEVNULL)
    server, port = start_server(args.gonu, [f34, f33])
    opts = webdriver.ChromeOptions()
    opts.binary_location = find_browser()
    for a in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--no-proxy-server",
              "--window-size=1180,800", "--disable-gpu", "--hide-scrollbars"):
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(find_driver()), options=opts)
    try:
        base = f"http://127.0.0.1:{port}/"
        page = Page(driver, base)
        driver.get(base + "?table=f34")
        page.settled(0)
        history = []
        check_position(page, gonu_query(args.gonu, f34, history))
        # A line of varied moves: the k-th legal move in server order, k changing each ply.
        for step in range(6):
            expected = gonu_query(args.gonu, f34, history)
            if not expected["moves"]:
                break
            move = expected["moves"][(step * 5 + 1) % len(expected["moves"])]["move"]
            play_by_clicks(page, move, len(history) + 1)
            history.append(move)
            check_position(page, gonu_query(args.gonu, f34, history))
        plies = len(history)
        check(len(page.all("#chart circle")) == plies + 1, "the chart has no point for every ply")

        page.css("#undo").click()
        page.settled(plies - 1)
        check_position(page, gonu_query(args.gonu, f34, history[:-1]))
        url = driver.current_url
        check(f"ply={plies - 1}" in url and "history=" in url, "the address does not hold the record: " + url)

        driver.get(url)  # reload the shared address
        page.settled(plies - 1)
        check_position(page, gonu_query(args.gonu, f34, history[:-1]))
        check(len(page.all("#plies button")) == plies + 1, "the record was not restored")
        page.css("body").send_keys(Keys.ARROW_RIGHT)  # redo by key
        page.settled(plies)
        check_position(page, gonu_query(args.gonu, f34, history))

        # Perfect play answers for the side that does not move now.
        now = gonu_query(args.gonu, f34, history)
        if now["moves"]:
            other = "auto-white" if now["side_to_move"] == "black" else "auto-black"
            page.css("#" + other).click()
            mine = now["engine_move"]
            after = gonu_query(args.gonu, f34, history + [mine])
            answer = [after["engine_move"]] if after["engine_move"] else []
            play_by_clicks(page, mine, plies + 1 + len(answer))
            check_position(page, gonu_query(args.gonu, f34, history + [mine] + answer))
            page.css("#" + other).click()

        # A position typed in, then a bad one (refused, the board stays).
        box = page.css("#position")
        box.clear()
        box.send_keys("x2x/1x2/w1ww w\n")
        page.settled(0)
        check_position(page, gonu_query(args.gonu, f34, [], "x2x/1x2/w1ww w"))
        box = page.css("#position")
        box.clear()
        box.send_keys("x2x/1q2/w1ww w\n")
        page.Wait(driver, 10).until(lambda d: "unknown character" in page.css("#message").text)
        check(page.status()[0] == "x2x/1x2/w1ww w", "a refused position changed the board")

        # Another table.
        from selenium.webdriver.support.ui import Select
        Select(page.css("#table")).select_by_value("f33")
        page.Wait(driver, 10).until(lambda d: "table=f33" in d.current_url)
        page.settled(0)
        check_position(page, gonu_query(args.gonu, f33, []))

        # A move by keyboard: Enter on the piece, Enter on its target.
        best = gonu_query(args.gonu, f33, [])["engine_move"]
        frm, to = best.split("-")
        page.css(f'#board [data-square="{frm}"]').send_keys(Keys.ENTER)
        page.Wait(driver, 10).until(lambda d: "selected" in page.css(f'#board [data-square="{frm}"]').get_attribute("class"))
        page.css(f'#board [data-square="{to}"]').send_keys(Keys.ENTER)
        page.settled(1)
        check_position(page, gonu_query(args.gonu, f33, [best]))

        # The screenshot: the record played above, shown at the first position whose moves have the
        # most different values, with every move on the board.
        kinds = [len({m["value"] for m in gonu_query(args.gonu, f34, history[:k])["moves"]}) for k in range(len(history) + 1)]
        shown = kinds.index(max(kinds))
        driver.set_window_size(1040, 820)
        driver.get(base + "?table=f34&history=" + "+".join(history) + f"&ply={shown}")
        page.settled(shown)
        driver.save_screenshot(args.screenshot)

        # A narrow window: one column, nothing wider than the window.
        driver.set_window_size(400, 900)
        time.sleep(0.3)
        wide = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
        check(wide <= 0, f"the page is {wide} px wider than a 400 px window")
        # No script error anywhere (refused requests are answered, not thrown: those 4xx are expected).
        errors = [e["message"] for e in driver.get_log("browser")
                  if e["level"] == "SEVERE" and "the server responded with a status of 4" not in e["message"]]
        check(not errors, "errors in the browser console: " + "; ".join(errors))
    finally:
        driver.quit()
        server.send_signal(signal.SIGTERM)
        code = server.wait(timeout=10)
        shutil.rmtree(tmp, ignore_errors=True)
    check(code == 0, f"gonu serve exited with {code} on SIGTERM")
    print(f"browser test: {check.count} checks passed; screenshot {args.screenshot}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gonu", required=True)
    ap.add_argument("--screenshot", required=True)
    args = ap.parse_args()
    if not find_browser() or not find_driver():
        print("SKIP: chromium or chromedriver is not installed (scripts/setup.sh installs them)")
        return SKIP
    try:
        run(args)
    except AssertionError as e:
        print(f"FAILED after {check.count} checks: {e}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
