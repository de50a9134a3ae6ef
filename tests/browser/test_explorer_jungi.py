#!/usr/bin/env python3
"""The web explorer on a Jungi table, in headless Chromium (the harness of test_explorer.py): the
9x9 board drawn with the pieces' letters, the moves listed best first in the server's order, each
in its value's colour, a move played by clicking it in the list (the status then says the
position after it, as gonu query --json does), and no script error. Exit 77 (ctest's skip) only
when Chromium or its driver is absent.

usage: test_explorer_jungi.py --gonu build/bin/gonu
"""
import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_explorer import SKIP, Page, check, find_browser, find_driver, gonu_query, rgb, start_server  # noqa: E402

NAME = "Kv+K.nohobble-compulsory-stalemate-loss-lancer-standard.gonu"


def run(gonu):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    tmp = tempfile.mkdtemp(prefix="gonu-browser-jungi-")
    subprocess.run([gonu, "solve", "--game", "jungi", "--material", "Kv+K", "--dir", tmp, "--quiet"],
                   check=True, stdout=subprocess.DEVNULL)
    table = os.path.join(tmp, NAME)
    server, port = start_server(gonu, [table])
    opts = webdriver.ChromeOptions()
    opts.binary_location = find_browser()
    for a in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--no-proxy-server",
              "--window-size=1180,800", "--disable-gpu"):
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(find_driver()), options=opts)
    try:
        page = Page(driver, f"http://127.0.0.1:{port}/")
        driver.get(page.base)
        page.settled(0)
        position, value, distance = page.status()
        want = gonu_query(gonu, table, [], position)
        check((value, distance) == (want["value"], want["distance"]), f"status {value} {distance}, gonu query {want['value']}")
        check(len(page.all("#board .jungi-square")) == 81, "the board is not 9x9 squares")
        letters = sorted(t.text for t in page.all("#board .jungi-piece"))
        check(letters == ["+k", "K"], f"the pieces drawn are {letters}")
        listed = page.all("#moves button")
        check([b.get_attribute("data-move") for b in listed] == [m["move"] for m in want["moves"]],
              "the move list is not in the server's (best first) order")
        for b, m in zip(listed, want["moves"]):
            colour = rgb(b.value_of_css_property("color"))
            check(colour == page.colour_of_value(m["value"]), f"{m['move']} is not in the colour of {m['value']}")
        first = want["moves"][0]["move"]
        listed[0].click()
        page.settled(1)
        after = gonu_query(gonu, table, [first], position)
        check(page.status()[0] == after["position"], "the status does not show the position after the move")
        errors = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        check(not errors, "errors in the browser console: " + "; ".join(errors))
    finally:
        driver.quit()
        server.send_signal(signal.SIGTERM)
        code = server.wait(timeout=10)
        shutil.rmtree(tmp, ignore_errors=True)
    check(code == 0, f"gonu serve exited with {code} on SIGTERM")
    print(f"browser test (Jungi): {check.count} checks passed")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gonu", required=True)
    args = ap.parse_args()
    if not find_browser() or not find_driver():
        print("SKIP: chromium or chromedriver is not installed (scripts/setup.sh installs them)")
        return SKIP
    try:
        run(args.gonu)
    except AssertionError as e:
        print(f"FAILED after {check.count} checks: {e}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
