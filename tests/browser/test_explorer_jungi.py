#!/usr/bin/env python3
"""The web explorer on Jungi tables, in headless Chromium (the harness of test_explorer.py), at a
desktop window (1280x900) and a phone (390x844, mobile emulation), against `gonu serve DIR` on
the KRvK closure solved here (a second or so). At each size:

- the 9x9 board, the pieces as the position says, the promotion zones shaded, the pieces' legend
  (from GET /api/rules) naming the pieces on the board;
- a line of best moves played by clicks: a piece, then its target (the targets coloured by the
  value of the best move there, as the list says), a choice asked where a target has several
  moves; after each move the status and the list equal `gonu query DIR POSITION --json`, the last
  move is marked, and the chart's points all say the same side wins (South's side: no zig-zag);
- the chart's labels (South wins, draw, North wins);
- perfect play answering for one side only (the side not to move);
- the board editor: a position built from the palette (both sides, promoted or not, the side to
  move, mirror), accepted, then one gonu refuses (its error beside the Position box);
- the material browser: one row a table of the directory, each a link that opens its endgame;
- a position of a material not served: the error names the command that makes it;
- no horizontal overflow (scrollWidth <= innerWidth) and no script error.

With --screenshot-dir it also saves explorer-jungi-desktop.png and explorer-jungi-phone.png
there. Exit 77 (ctest's skip) only when Chromium or its driver is absent.

usage: test_explorer_jungi.py --gonu build/bin/gonu [--screenshot-dir results/figures]
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
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_explorer import SKIP, Page, check, emulate, find_browser, find_driver, rgb, start_server  # noqa: E402

SQUARE = re.compile(r"[a-i][1-9]")


def cli_query(gonu, directory, position, history=()):
    """gonu query DIR POSITION --json after `history` (the positions' own table found by material)."""
    cmd = [gonu, "query", directory, position, "--history", " ".join(history), "--json"]
    return json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)


def api(port, path):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as r:
        return json.loads(r.read())


def listed_moves(answer):
    return [(m["move"], m["value"], m["distance"]) for m in answer["moves"]]


def check_shown(page, want, where):
    """The status, the list (order, values, colours) and the board's pieces are those of `want`."""
    position, value, distance = page.status()
    check(position == want["position"], f"{where}: the status shows {position}, gonu query {want['position']}")
    check((value, distance) == (want["value"], want["distance"]), f"{where}: status {value} {distance}")
    buttons = page.all("#moves button")
    shown = [(b.get_attribute("data-move"), b.get_attribute("data-value"), b.get_attribute("data-distance")) for b in buttons]
    expected = [(m, v, str(d) if d is not None else "null") for m, v, d in listed_moves(want)]
    check(shown == expected, f"{where}: the list is not gonu query's (best first)")
    for b, m in zip(buttons, want["moves"]):
        check(rgb(b.value_of_css_property("color")) == page.colour_of_value(m["value"]) or m["value"] == "UNKNOWN",
              f"{where}: {m['move']} is not in the colour of {m['value']}")
        if m.get("san"):
            check(m["san"] in b.text, f"{where}: the list does not show the SAN {m['san']}")
    pieces = sorted(t.text for t in page.all("#board .jungi-piece"))
    letters = sorted(re.findall(r"\+?[A-Za-z]", want["position"].split(" ")[0]))
    check(pieces == letters, f"{where}: the board shows {pieces}, the position has {letters}")


def play_by_clicks(page, move, ply_after):
    """The move's piece, then its target (its colour the value of the best move there), then the
    move itself where the target asks which."""
    squares = SQUARE.findall(move)
    frm, to = squares[0], squares[-1]
    page.click_square(frm)
    check("selected" in page.css(f'#board [data-square="{frm}"]').get_attribute("class"), f"{frm} not picked")
    target = page.css(f'#board [data-square="{to}"] rect.jungi-square')
    check("target" in target.get_attribute("class"), f"{to} is not shown as a target of {frm}")
    page.click_square(to)
    if page.css("#choice").is_displayed():
        page.css(f'#choice button[data-move="{move}"]').click()
    page.settled(ply_after)


def check_targets(page, answer, frm):
    """After a tap on `frm`: one coloured target a square its moves reach, in the best one's colour."""
    page.click_square(frm)
    best = {}
    for m in answer["moves"]:
        s = SQUARE.findall(m["move"])
        if s[0] == frm and s[-1] not in best:
            best[s[-1]] = m["value"]
    shown = page.all("#board rect.jungi-square.target")
    check(len(shown) == len(best), f"{len(shown)} targets shown for {frm}, its moves reach {len(best)}")
    for sq, value in best.items():
        cls = page.css(f'#board [data-square="{sq}"] rect.jungi-square').get_attribute("class")
        check(value.lower() in cls.split(), f"target {sq} of {frm} is '{cls}', the best move there a {value}")
    page.click_square(frm)  # dropped again


def check_chart(page, start_answer):
    """The labels name South and North; every point of the best line says the same side wins."""
    labels = [t.text for t in page.all("#chart text.side")]
    check(labels == ["South wins", "draw", "North wins"], f"the chart's labels are {labels}")
    classes = {c.get_attribute("class") for c in page.all("#chart circle")}
    south_wins = (start_answer["value"] == "WIN") == (start_answer["side_to_move"] == "south")
    want = "top-wins" if south_wins else "bottom-wins"
    check(classes == {want}, f"the chart's points along a won line are {classes}, expected {want} only")


def no_overflow(page, where):
    wide = page.d.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
    check(wide <= 0, f"{where}: the page is {wide} px wider than the window")


def use_editor(page, gonu, directory):
    """A position built from the palette, accepted; its mirror; then one without North's King."""
    page.css("#edit").click()
    page.css("#edit-clear").click()

    def pen(letter, south, promoted):
        if (page.css("#edit-pen-side").text == "South piece") != south:
            page.css("#edit-pen-side").click()
        if (page.css("#edit-pen-promoted").get_attribute("aria-pressed") == "true") != promoted:
            page.css("#edit-pen-promoted").click()
        page.css(f'#edit-tools button[data-pen="{letter}"]').click()

    pen("K", True, False)
    page.click_square("e1")
    pen("R", True, False)
    page.click_square("a2")
    pen("K", False, True)
    page.click_square("e5")
    text = "9/9/9/9/4+k4/9/9/R8/4K4 s -"
    check(page.css("#position").get_attribute("value") == text, "the editor shows " + page.css("#position").get_attribute("value"))
    page.css("#edit-mirror").click()
    mirrored = "4k4/r8/9/9/4+K4/9/9/9/9 n -"
    check(page.css("#position").get_attribute("value") == mirrored, "the mirror shows " + page.css("#position").get_attribute("value"))
    page.css("#edit-mirror").click()
    page.css("#edit-done").click()
    page.Wait(page.d, 10).until(lambda d: page.status()[0] == text)
    page.settled(0)
    check(page.css("#editor").get_attribute("hidden") is not None, "the editor stays open after Done")
    check_shown(page, cli_query(gonu, directory, text), "the edited position")
    # North's royal taken away: refused with gonu's one-line error, the editor open.
    page.css("#edit").click()
    pen("", True, False)
    page.click_square("e5")
    page.css("#edit-done").click()
    page.Wait(page.d, 10).until(lambda d: page.css("#position-error").text != "")
    error = page.css("#position-error").text
    cli = subprocess.run([gonu, "query", directory, "9/9/9/9/9/9/9/R8/4K4 s -"], capture_output=True, text=True)
    check(cli.returncode != 0, "gonu query accepts a position without North's royal")
    check("royal" in error.lower() or "king" in error.lower(), f"the refusal does not name the royal: {error}")
    check(page.css("#editor").get_attribute("hidden") is None, "the editor closed on a refused position")
    page.css("#edit-cancel").click()
    check(page.status()[0] == text, "cancel changed the position")


def check_materials(page, port, directory):
    listing = api(port, "/api/materials?table=jungi")
    files = [f for f in os.listdir(directory) if f.endswith(".gonu")]
    check(len(listing["materials"]) == len(files), f"{len(listing['materials'])} materials listed, {len(files)} tables")
    page.Wait(page.d, 10).until(lambda d: len(page.all("#materials tbody tr")) == len(files))
    row = page.css('#materials tr[data-material="KRvK"]')
    krvk = next(m for m in listing["materials"] if m["material"] == "KRvK")
    check(f"{krvk['longest_win']} plies" in row.text, f"the KRvK row says {row.text}")
    row.find_element(page.By.TAG_NAME, "a").click()
    page.Wait(page.d, 10).until(lambda d: page.status()[0] == krvk["example"])
    page.settled(0)


def run_size(page, gonu, directory, port, size, mobile, shots):
    where = f"{size[0]}x{size[1]}"
    emulate(page.d, *size, mobile)
    page.d.get(page.base + "?table=jungi")
    page.settled(0)
    no_overflow(page, where + " after loading")
    start = page.status()[0]
    first = cli_query(gonu, directory, start)
    check_shown(page, first, where + " at the start")
    check(len(page.all("#board rect.jungi-square")) == 81, "the board is not 9x9 squares")
    check(len(page.all("#board .zone-south")) == 27 and len(page.all("#board .zone-north")) == 27, "the zones are not shaded")
    legend = page.css("#piece-legend").text
    check("King" in legend and "Emperor" in legend and "ranks 7–9" in legend, "the legend does not name the King: " + legend)
    check(not page.css("#root").is_displayed(), "a Jungi set shows a \"Table's start\" button")
    check_targets(page, first, SQUARE.findall(first["engine_move"])[0])

    history = []
    for _ in range(6):
        now = cli_query(gonu, directory, start, history)
        if not now["engine_move"]:
            break
        play_by_clicks(page, now["engine_move"], len(history) + 1)
        history.append(now["engine_move"])
        entry = page.css("#plies button.current").text
        check(entry == f"{len(history)}. {now['engine_move_san']}", f"the record shows {entry}, the move is {now['engine_move_san']}")
        check_shown(page, cli_query(gonu, directory, start, history), f"{where} after {' '.join(history)}")
        for sq in SQUARE.findall(history[-1])[-1:]:
            check(page.all(f'#board [data-square="{sq}"] rect.last'), f"the last move's square {sq} is not marked")
        no_overflow(page, f"{where} after {len(history)} moves")
    check_chart(page, first)
    if shots:  # the position after the line, the best move's piece picked: its targets coloured
        page.settled(len(history))
        now = cli_query(gonu, directory, start, history)
        if now["engine_move"]:
            page.click_square(SQUARE.findall(now["engine_move"])[0])
        page.d.save_screenshot(os.path.join(shots, f"explorer-jungi-{'phone' if mobile else 'desktop'}.png"))
        if now["engine_move"]:
            page.click_square(SQUARE.findall(now["engine_move"])[0])

    # Perfect play for the side not to move only: the mover's move by clicks, the answer by itself.
    now = cli_query(gonu, directory, start, history)
    if now["engine_move"]:
        other = "auto-" + ("north" if now["side_to_move"] == "south" else "south")
        page.css("#" + other).click()
        mine = now["engine_move"]
        after = cli_query(gonu, directory, start, history + [mine])
        answer = [after["engine_move"]] if after["engine_move"] else []
        play_by_clicks(page, mine, len(history) + 1 + len(answer))
        check(page.status()[0] == cli_query(gonu, directory, start, history + [mine] + answer)["position"],
              f"perfect play for {other} did not answer {mine}")
        page.css("#" + other).click()

    use_editor(page, gonu, directory)
    check_materials(page, port, directory)
    no_overflow(page, where + " at the end")


def run(gonu, shots):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    tmp = tempfile.mkdtemp(prefix="gonu-browser-jungi-")
    directory = os.path.join(tmp, "jungi")
    taken = os.path.join(tmp, "shots") if shots else None  # moved to `shots` once every check passed
    if taken:
        os.mkdir(taken)
    subprocess.run([gonu, "solve", "--game", "jungi", "--material", "KRvK", "--dir", directory, "--quiet"],
                   check=True, stdout=subprocess.DEVNULL)
    server, port = start_server(gonu, [directory])
    opts = webdriver.ChromeOptions()
    opts.binary_location = find_browser()
    for a in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--no-proxy-server",
              "--window-size=1280,900", "--disable-gpu", "--hide-scrollbars"):
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(find_driver()), options=opts)
    try:
        page = Page(driver, f"http://127.0.0.1:{port}/")
        for size, mobile in (((1280, 900), False), ((390, 844), True)):
            run_size(page, gonu, directory, port, size, mobile, taken)
        # A material not served: the error names the command that makes it.
        driver.get(page.base + "?table=jungi&position=" + "4k4/9/9/9/9/9/9/9/Q3K4%20s%20-")
        page.Wait(driver, 10).until(lambda d: "gonu solve --game jungi --material KQvK" in page.css("#position-error").text)
        check("--dir DIR" in page.css("#position-error").text, "the missing table's command does not say --dir DIR")
        check(tmp not in page.css("#position-error").text, "an error shows the server's directory")
        errors = [e["message"] for e in driver.get_log("browser")
                  if e["level"] == "SEVERE" and "the server responded with a status of 4" not in e["message"]]
        check(not errors, "errors in the browser console: " + "; ".join(errors))
        for name in os.listdir(taken) if taken else []:
            shutil.move(os.path.join(taken, name), os.path.join(shots, name))
    finally:
        driver.quit()
        server.send_signal(signal.SIGTERM)
        code = server.wait(timeout=10)
        shutil.rmtree(tmp, ignore_errors=True)
    check(code == 0, f"gonu serve exited with {code} on SIGTERM")
    print(f"browser test (Jungi): {check.count} checks passed" + (f"; screenshots in {shots}" if shots else ""))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gonu", required=True)
    ap.add_argument("--screenshot-dir", help="save explorer-jungi-desktop.png and explorer-jungi-phone.png here")
    args = ap.parse_args()
    if not find_browser() or not find_driver():
        print("SKIP: chromium or chromedriver is not installed (scripts/setup.sh installs them)")
        return SKIP
    try:
        run(args.gonu, args.screenshot_dir)
    except AssertionError as e:
        print(f"FAILED after {check.count} checks: {e}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
