#!/usr/bin/env python3
"""The web explorer in a real browser: headless Chromium driven by Selenium (Debian's chromium,
chromium-driver, python3-selenium), against `gonu serve` on small tables made here, on loopback.

It plays a line by clicking pieces and their targets; after every move it checks each listed move
and each arrow on the board (colour by value for the mover, distance, the one star on the best
move) against `gonu query --json` of that position, and the list's order (best first). Then: undo,
redo by key, reload of the address (same position and record), perfect play answering, position
entry (good and bad: the error beside the Position box), the example position of each table, the
chart's labels clear of its axis, the board editor, the flip, a table switch, and a screenshot.
Against a superko proof (gonu serve --certificate): a whole game, the user's replies and the moves
superko bans listed as `gonu query --certificate --json` gives them, the strategy answering each
reply by itself, the game record, and the game's end.
Then a phone (390x844, Chromium's mobile emulation) and a tablet-sized window (800x1000): a whole
game played by taps, the page never scrolled (the board in view) after any move, and every tap
target at least 44 px each way; a screenshot at phone size. Exit 77 (ctest's skip) only when
Chromium or its driver is absent.

usage: test_explorer.py --gonu build/bin/gonu --screenshot OUT.png [--phone-screenshot OUT.png]
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


def gonu_proof_query(gonu, cert, history):
    cmd = [gonu, "query", "--certificate", cert, "--history", " ".join(history), "--json"]
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
        check(("★" in text) == (name == expected["engine_move"]), f"{name}: the star is wrong in '{text}'")
        for sq in m["captures"]:
            check(sq in text, f"{name}: capture {sq} not shown in '{text}'")
    check([rank(m) for m in listed] == sorted(rank(m) for m in listed), "the list is not best first")
    check([m["move"] for m in listed] == [m["move"] for m in expected["moves"]], "the list is not in the server's order")
    stars = sum("★" in b.text for b in buttons)
    check(stars == (1 if want else 0), f"{stars} moves carry the star")
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


def board_in_view(page, where):
    """The page is not scrolled and the whole board is inside the window."""
    top, bottom, height, scroll = page.d.execute_script(
        "const r = document.getElementById('board').getBoundingClientRect();"
        "return [r.top, r.bottom, window.innerHeight, window.scrollY];")
    check(scroll == 0, f"{where}: the page is scrolled by {scroll} px")
    check(top >= 0 and bottom <= height + 0.5, f"{where}: the board spans {top:.0f}..{bottom:.0f} px of a {height} px window")


TAP_TARGETS = """
const out = [];
const seen = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 ? r : null; };
for (const e of document.querySelectorAll('button, select, input[type=text], #engine label, #board .point .hit')) {
  const r = seen(e);
  if (r) out.push([e.id || e.textContent.trim().slice(0, 20) || e.parentNode.getAttribute('data-square') || e.tagName, r.width, r.height]);
}
return out;
"""


def check_tap_targets(page, where):
    targets = page.d.execute_script(TAP_TARGETS)
    check(len(targets) > 10, f"{where}: only {len(targets)} tap targets found")
    small = [t for t in targets if t[1] < 43.5 or t[2] < 43.5]
    check(not small, f"{where}: tap targets under 44 px: " + "; ".join(f"{n} {w:.0f}x{h:.0f}" for n, w, h in small[:8]))


def emulate(driver, width, height, mobile):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})


def play_game_by_taps(page, gonu, table, size):
    """From the table's start a losing first move, then the best moves of both sides to the end
    of the game, every one by two taps; the board stays in view all along."""
    where = f"{size[0]}x{size[1]}"
    page.d.get(page.base + "?table=f34")
    page.settled(0)
    board_in_view(page, where + " after loading")
    check_tap_targets(page, where)
    history = []
    while True:
        now = gonu_query(gonu, table, history)
        if not now["moves"]:
            break
        losing = [m["move"] for m in now["moves"] if m["value"] == "LOSS"]
        move = losing[0] if not history and losing else now["engine_move"]
        play_by_clicks(page, move, len(history) + 1)
        history.append(move)
        board_in_view(page, f"{where} after {' '.join(history)}")
        check(len(history) < 60, "the game does not end")
    check(gonu_query(gonu, table, history)["game_over"], "the game did not end")
    check(page.status()[0] == gonu_query(gonu, table, history)["position"], "the last position is not shown")
    check_tap_targets(page, where + " at the end of a game")
    return history


def check_chart_labels(page):
    """The band names end left of the axis; the ply labels sit under the plot, apart."""
    boxes = page.d.execute_script("""
      const svg = document.getElementById('chart'), axis = svg.querySelector('line.axis');
      const box = (e) => { const b = e.getBBox(); return [b.x, b.y, b.x + b.width, b.y + b.height]; };
      return { axis: Number(axis.getAttribute('x1')), bottom: Number(axis.getAttribute('y2')),
               side: [...svg.querySelectorAll('text.side')].map(box), plies: [...svg.querySelectorAll('text.plies')].map(box) };""")
    check(len(boxes["side"]) == 3 and len(boxes["plies"]) == 2, "the chart's labels are missing")
    for b in boxes["side"]:
        check(b[0] >= 0 and b[2] <= boxes["axis"] - 2, f"a band label spans x {b[0]:.1f}..{b[2]:.1f}, the axis is at {boxes['axis']}")
    for b in boxes["plies"]:
        check(b[1] >= boxes["bottom"], f"a ply label starts at y {b[1]:.1f}, above the plot's bottom {boxes['bottom']}")
    first, last = boxes["plies"]
    check(first[2] < last[0], "the ply labels overlap")


def play_by_clicks(page, move, ply_after):
    frm, to = re.match(r"([a-zA-Z]\d+)-([a-zA-Z]\d+)", move).groups()
    page.click_square(frm)
    check("selected" in page.css(f'#board [data-square="{frm}"]').get_attribute("class"), f"{frm} not picked")
    page.click_square(to)
    page.settled(ply_after)


def play_against_proof(page, driver, gonu, cert):
    """3x3 soldiers' proof (Black wins): the user, White, plays reply (ply // 2) % n of each list
    by clicking it; the strategy's move follows by itself. Every state is checked against
    gonu query --certificate --json; the game ends with the proof's winner named."""
    from selenium.webdriver.support.ui import Select
    Select(page.css("#table")).select_by_value("certificate:s33")
    page.Wait(driver, 10).until(lambda d: "certificate=s33" in d.current_url)
    page.settled(1)  # Black, the winner, moves first: the strategy's move is played at once
    check(page.css("#engine").get_attribute("hidden") is not None, "perfect play is offered against a proof")
    check(not page.css("#chart").is_displayed(), "the chart is shown for a proof")
    history = [gonu_proof_query(gonu, cert, [])["winner_move"]]
    while True:
        want = gonu_proof_query(gonu, cert, history)
        pos, value, _ = page.css("#status").get_attribute("data-position"), page.css("#status").get_attribute("data-value"), 0
        check(pos == want["position"] and value == want["value"], f"after {history}: the page shows {pos} {value}")
        listed = [b.get_attribute("data-move") for b in page.all("#moves button")]
        check(listed == [r["move"] for r in want["replies"]], f"after {history}: the list is {listed}")
        banned = [li.get_attribute("data-move") for li in page.all("#moves li.banned")]
        check(banned == [b["move"] for b in want["banned"]], f"after {history}: banned {banned}")
        record = [b.text for b in page.all("#plies button")][1:]
        check(record == [f"{i + 1}. {m}" for i, m in enumerate(history)], f"the record is {record}")
        if want["game_over"]:
            break
        reply = want["replies"][(len(history) // 2) % len(want["replies"])]
        page.css(f'#moves button[data-move="{reply["move"]}"]').click()
        history += [reply["move"]] + ([reply["answer"]] if reply["answer"] else [])
        page.settled(len(history))
    note = page.css("#pv").text
    check("Game over" in note and "Black (x) wins, as the proof says" in note, "the game's end: " + note)
    return len(history)


def run(args):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.keys import Keys

    tmp = tempfile.mkdtemp(prefix="gonu-browser-")
    f34, f33 = os.path.join(tmp, "f34.gonu"), os.path.join(tmp, "f33.gonu")
    for board, path in (("3x4", f34), ("3x3", f33)):
        subprocess.run([args.gonu, "solve", "--rules", "free", "--board", board, "--out", path, "--quiet"],
                       check=True, stdout=subprocess.DEVNULL)
    cert = os.path.join(tmp, "s33.cert")
    subprocess.run([args.gonu, "solve", "--rules", "soldiers", "--board", "3x3", "--certificate", cert, "--quiet"],
                   check=True, stdout=subprocess.DEVNULL)
    server, port = start_server(args.gonu, [f34, f33, "--certificate", cert])
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
        page.Wait(driver, 10).until(lambda d: "unknown character" in page.css("#position-error").text)
        check(page.status()[0] == "x2x/1x2/w1ww w", "a refused position changed the board")
        near = driver.execute_script(
            "const a = document.getElementById('position').getBoundingClientRect(),"
            " b = document.getElementById('position-error').getBoundingClientRect(); return b.top - a.bottom;")
        check(0 <= near < 60, f"the position's error is {near:.0f} px below the Position box")
        check(page.css("#message").text == "", "the position's error is also shown by the board")
        check(page.css("#position-example").text == "xxxx/4/wwww x", "the 3x4 table's example is not its start")
        check_chart_labels(page)

        # Another table.
        from selenium.webdriver.support.ui import Select
        Select(page.css("#table")).select_by_value("f33")
        page.Wait(driver, 10).until(lambda d: "table=f33" in d.current_url)
        page.settled(0)
        check_position(page, gonu_query(args.gonu, f33, []))
        check(page.css("#position-example").text == "xxx/3/www x", "the 3x3 table's example is not its start")
        check(page.css("#position-error").text == "", "the old error stays after a table switch")

        # The board editor: b3 tapped twice (Black, White, empty), b2 once (Black), White to move:
        # the position after b3-b2.
        page.css("#edit").click()
        for sq in ("b3", "b3", "b2"):
            page.click_square(sq)
        page.css("#edit-side").click()
        check(page.css("#position").get_attribute("value") == "x1x/1x1/www w", "the editor shows "
              + page.css("#position").get_attribute("value"))
        page.css("#edit-done").click()
        page.Wait(driver, 10).until(lambda d: page.status()[0] == "x1x/1x1/www w")
        page.settled(0)
        check(page.css("#editor").get_attribute("hidden") is not None, "the editor stays open after Done")
        check_position(page, gonu_query(args.gonu, f33, [], "x1x/1x1/www w"))
        # An empty board is refused beside the box, and the editor stays open.
        page.css("#edit").click()
        page.css("#edit-clear").click()
        page.css("#edit-done").click()
        page.Wait(driver, 10).until(lambda d: page.css("#position-error").text != "")
        check(page.css("#editor").get_attribute("hidden") is None, "the editor closed on a refused position")
        page.css("#edit-cancel").click()
        check(page.status()[0] == "x1x/1x1/www w", "cancel changed the position")
        page.css("#root").click()
        page.Wait(driver, 10).until(lambda d: page.status()[0] == "xxx/3/www x")
        page.settled(0)

        # The flip: rank 1 at the top, file a on the right; moves are still played by taps.
        def xy(sq):
            return driver.execute_script(
                f"const c = document.querySelector('#board [data-square=\"{sq}\"] .hit'); return [Number(c.getAttribute('cx')), Number(c.getAttribute('cy'))];")
        check(xy("a1")[1] > xy("a3")[1] and xy("a1")[0] < xy("c1")[0], "the board is not drawn rank 1 at the bottom")
        page.css("#flip").click()
        check(xy("a1")[1] < xy("a3")[1] and xy("a1")[0] > xy("c1")[0], "the flipped board is not turned round")
        check("flip=1" in driver.current_url, "the address does not hold the flip")
        move = gonu_query(args.gonu, f33, [])["moves"][-1]["move"]
        play_by_clicks(page, move, 1)
        check_position(page, gonu_query(args.gonu, f33, [move]))
        page.css("#flip").click()
        check(xy("a1")[1] > xy("a3")[1], "the second flip did not turn the board back")
        page.css("#root").click()
        page.settled(0)

        # A move by keyboard: Enter on the piece, Enter on its target.
        best = gonu_query(args.gonu, f33, [])["engine_move"]
        frm, to = best.split("-")
        page.css(f'#board [data-square="{frm}"]').send_keys(Keys.ENTER)
        page.Wait(driver, 10).until(lambda d: "selected" in page.css(f'#board [data-square="{frm}"]').get_attribute("class"))
        page.css(f'#board [data-square="{to}"]').send_keys(Keys.ENTER)
        page.settled(1)
        check_position(page, gonu_query(args.gonu, f33, [best]))

        proof_plies = play_against_proof(page, driver, args.gonu, cert)
        check(proof_plies > 4, f"the game against the proof ended after {proof_plies} plies")

        # The screenshot: the record played above, shown at the first position whose moves have the
        # most different values, with every move on the board.
        kinds = [len({m["value"] for m in gonu_query(args.gonu, f34, history[:k])["moves"]}) for k in range(len(history) + 1)]
        shown = kinds.index(max(kinds))
        driver.set_window_size(1040, 820)
        driver.get(base + "?table=f34&history=" + "+".join(history) + f"&ply={shown}")
        page.settled(shown)
        driver.save_screenshot(args.screenshot)

        # A phone and a tablet: a whole game by taps, the board in view after every move; nothing
        # wider than the window; a screenshot at phone size.
        for size, mobile in (((390, 844), True), ((800, 1000), False)):
            emulate(driver, *size, mobile)
            game = play_game_by_taps(page, args.gonu, f34, size)
            wide = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
            check(wide <= 0, f"the page is {wide} px wider than a {size[0]} px window")
            if mobile and args.phone_screenshot:
                shown = min(len(game), 6)
                driver.get(base + "?table=f34&history=" + "+".join(game) + f"&ply={shown}")
                page.settled(shown)
                board_in_view(page, "the phone screenshot")
                driver.save_screenshot(args.phone_screenshot)
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
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
    print(f"browser test: {check.count} checks passed; screenshots {args.screenshot}"
          + (f", {args.phone_screenshot}" if args.phone_screenshot else ""))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gonu", required=True)
    ap.add_argument("--screenshot", required=True)
    ap.add_argument("--phone-screenshot", help="where to save the page at phone size (390x844)")
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
