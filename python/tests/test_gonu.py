# Tests of the Python module gonu against the gonu program: Table.probe gives the object of
# `gonu query --json`, solve() that of `gonu solve --json`, moves() the list of `gonu moves`, each
# compared field for field; every kind of bad input raises (gonu.Error, OSError, TypeError) and
# never crashes. Run by ctest (tests/CMakeLists.txt) with PYTHONPATH=build/python and GONU_BIN set;
# by pytest when it is installed, else by the small runner at the end of this file.
import contextlib
import json
import os
import random
import re
import shutil
import subprocess
import tempfile

import gonu

GONU = os.environ.get("GONU_BIN") or os.path.join(os.path.dirname(__file__), "..", "..", "build", "bin", "gonu")
WORK = tempfile.mkdtemp(prefix="gonu-pytest-")
_tables = {}


def run_gonu(*args):
    return subprocess.run([GONU, *args], check=True, capture_output=True, text=True).stdout


def gonu_json(*args):
    return json.loads(run_gonu(*args))


def table_file(rules, board="3x3"):
    """A table written by the gonu program (once per rule set and board)."""
    key = (rules, board)
    if key not in _tables:
        path = os.path.join(WORK, f"{board}-{rules}.gonu")
        run_gonu("solve", "--rules", rules, "--board", board, "--quiet", "--out", path)
        _tables[key] = path
    return _tables[key]


@contextlib.contextmanager
def raises(kind, match=None):
    """pytest.raises without pytest: the block must raise `kind` with a message matching `match`."""
    try:
        yield
    except kind as e:
        assert match is None or re.search(match, str(e)), f"message {str(e)!r} does not match {match!r}"
        return
    raise AssertionError(f"{kind.__name__} not raised")


def without_run_fields(report):
    """A solve report without the fields that depend on the run (its time and memory), which must be there."""
    rest = dict(report)
    seconds, peak, per_state = rest.pop("seconds"), rest.pop("peak_bytes"), rest.pop("bytes_per_state")
    assert isinstance(seconds, float) and seconds >= 0, seconds
    assert isinstance(peak, int) and peak > 0, peak
    assert isinstance(per_state, (int, float)) and per_state > 0, per_state
    return rest


def query_json(path, position=None, history=None):
    args = ["query", path] + ([position] if position else []) + (["--history", history] if history else [])
    return gonu_json(*args, "--json")


def random_walk(table, plies, seed):
    """The histories of one random game from the table's root, as move lists, ply by ply."""
    rng = random.Random(seed)
    history = []
    yield []
    for _ in range(plies):
        moves = table.probe(history=history).moves
        if not moves:
            return
        history.append(rng.choice(moves).move)
        yield list(history)


# --- Table.probe: the same object as gonu query --json ---

def test_probe_of_the_root_is_gonu_query_json():
    path = table_file("free")
    assert gonu.Table(path).probe().to_dict() == query_json(path)


def test_probe_along_random_games_is_gonu_query_json():
    for rules in ("free", "undo"):  # undo: a tagged rule set, where the history decides the state
        path = table_file(rules)
        t = gonu.Table(path)
        for seed in range(3):
            for history in random_walk(t, 12, seed):
                text = " ".join(history)
                assert t.probe(history=history).to_dict() == query_json(path, history=text or None), (rules, text)
                assert t.probe(history=text).to_dict() == t.probe(history=history).to_dict()


def test_probe_of_a_position_is_gonu_query_json():
    path = table_file("free")
    t = gonu.Table(path)
    for history in random_walk(t, 8, 7):
        position = t.probe(history=history).position
        got = t.probe(position)
        assert got.to_dict() == query_json(path, position), position
        assert got.position == position and got.history == []


def best_first_key(m):
    """The order of every move list: the fastest win, then draws, then the slowest loss."""
    return (0, m.distance) if m.value == "WIN" else (1, 0) if m.value == "DRAW" else (2, -m.distance)


def test_probe_moves_are_best_first():
    t = gonu.Table(table_file("free"))
    seen = set()
    for history in random_walk(t, 12, 8):
        moves = t.probe(history=history).moves
        keys = [best_first_key(m) for m in moves]
        assert keys == sorted(keys), history
        assert [m.rank for m in moves] == list(range(1, len(moves) + 1))
        seen |= {m.value for m in moves}
    assert len(seen) >= 2  # the walk met more than one kind of value


def test_probe_of_a_position_without_history_under_tagged_rules():
    """Under undo the table does not hold a typed position's empty-history state; it is searched."""
    for rules in ("undo", "encyclopedia"):
        path = table_file(rules)
        t = gonu.Table(path)
        position = "x.x/.w./w.w x"
        got = t.probe(position)
        assert got.to_dict() == query_json(path, position)
        solved = gonu_json("solve", "--rules", rules, "--from", position, "--json")
        assert (got.value, got.distance) == (solved["value"], solved["distance"])
        assert got.stored is False and got.searched_plies >= 1
        assert got.histories["count"] == len(got.histories["tags"]) > 0
    assert gonu.Table(table_file("free")).probe("xxx/3/www x").histories is None  # no tag: no histories


def test_probe_attributes_and_repr():
    t = gonu.Table(table_file("free"))
    p = t.probe("xxx/3/www x")
    assert p.value in ("WIN", "LOSS", "DRAW") and p.side_to_move == "black"
    # Jungi's keys for moves as people write them read Jul-gonu's one notation.
    assert [m.san for m in p.moves] == [m.move for m in p.moves]
    assert (p.best_san, p.engine_move_san, p.pv_san) == (p.best, p.engine_move, p.pv)
    assert [m.move for m in p.moves] == [m["move"] for m in p.to_dict()["moves"]]
    assert [m.move for m in p.moves if m.best] == p.best
    assert p.engine_move == p.best[0]
    assert [m.rank for m in p.moves] == list(range(1, len(p.moves) + 1))  # best first, ranked in order
    assert [m.rank for m in p.moves] == [m["rank"] for m in p.to_dict()["moves"]]
    assert next(m.move for m in p.moves if m.rank == 1) == p.engine_move
    assert p.value != "WIN" or any(m.value == "WIN" and m.distance == p.distance for m in p.moves)
    text = repr(p)
    assert text.startswith("<Probe xxx/3/www x: ") and p.value in text and "best " + p.engine_move in text
    assert "3x3" in repr(t) and len(t) == t.info["states"]


def test_table_info_is_the_header():
    path = table_file("free")
    info = gonu.Table(path).info
    solved = gonu_json("solve", "--rules", "free", "--board", "3x3", "--json", "--quiet")
    for field in ("states", "edges", "wins", "losses", "draws", "max_distance"):
        assert info[field] == solved[field], field
    assert info["board"] == "3x3" and info["rules"]["id"] == "3x3/line/nocorner/none/black"
    assert info["root"] == solved["root"] and info["file_size"] == os.path.getsize(path)


def test_table_accepts_a_path_object():
    import pathlib
    assert gonu.Table(pathlib.Path(table_file("free"))).probe().position == "xxx/3/www x"


# --- solve(): the same object as gonu solve --json ---

def solve_cases():
    yield dict(rules="free", board="3x3"), ["--rules", "free", "--board", "3x3"]
    yield dict(rules="undo", board="3x3"), ["--rules", "undo", "--board", "3x3"]
    yield dict(rules="encyclopedia", board="3x3", engine="graph"), ["--rules", "encyclopedia", "--board", "3x3",
                                                                   "--engine", "graph"]
    yield dict(board="3x4", threads=1), ["--board", "3x4", "--threads", "1"]
    yield dict(capture="single", board="3x3"), ["--capture", "single", "--board", "3x3"]
    yield dict(corner=True, first="white", board="3x3"), ["--corner", "on", "--first", "white", "--board", "3x3"]
    yield (dict(position="xxxx/4/wwww x", history=["b3-b2"], verify=True),
           ["--from", "xxxx/4/wwww x", "--history", "b3-b2", "--verify"])
    yield dict(board="3x4", engine="compact"), ["--board", "3x4", "--engine", "compact"]
    yield dict(board="3x3", max_memory=1 << 30), ["--board", "3x3", "--max-memory", "1G"]
    out = os.path.join(WORK, "solved.gonu")
    yield dict(board="3x3", out=out), ["--board", "3x3", "--out", out]


def test_solve_is_gonu_solve_json():
    for kwargs, args in solve_cases():
        got = gonu.solve(**kwargs).to_dict()
        expected = gonu_json("solve", *args, "--json", "--quiet")
        assert got["schema"] == "gonu-solve/1" and list(got) == list(expected), args
        assert without_run_fields(got) == without_run_fields(expected), args


def test_solve_attributes_and_distance_counts():
    s = gonu.solve(board="3x4")
    d = s.to_dict()
    assert (s.states, s.wins, s.losses, s.draws, s.value) == (d["states"], d["wins"], d["losses"], d["draws"], d["value"])
    assert (s.seconds, s.peak_bytes, s.moves, s.rules) == (d["seconds"], d["peak_bytes"], d["moves"], d["rules"])
    assert s.history is None and s.verified is None  # fields the report leaves out
    assert s.states == s.wins + s.losses + s.draws
    assert sum(s.wins_by_distance) == s.wins and sum(s.losses_by_distance) == s.losses
    assert len(s.wins_by_distance) == s.max_distance + 1
    assert s.wins_by_distance[s.max_distance] + s.losses_by_distance[s.max_distance] > 0
    assert "267707 states" in repr(s) or str(s.states) in repr(s)


def test_solve_table_can_be_probed():
    out = os.path.join(WORK, "from-module.gonu")
    s = gonu.solve(board="3x3", out=out)
    p = gonu.Table(out).probe()
    assert (p.value, p.distance) == (s.value, s.distance)
    assert [(m.move, m.value, m.distance) for m in p.moves] == [(m["move"], m["value"], m["distance"]) for m in s.moves]


# --- moves(): the list of gonu moves ---

def gonu_moves(position, rules="free", history=None):
    args = ["moves", position, "--rules", rules] + (["--history", history] if history else [])
    found = []
    for line in run_gonu(*args).splitlines():
        m = re.fullmatch(r"  (\S+)(?:  captures (.*))?", line)
        if m:
            found.append((m.group(1), m.group(2).split() if m.group(2) else []))
    return found


def test_moves_are_gonu_moves():
    t = gonu.Table(table_file("free", "3x4"))
    captures_seen = 0
    for seed in range(4):
        for history in random_walk(t, 20, seed):
            position = t.probe(history=history).position
            got = [(m.move, m.captures) for m in gonu.moves(position)]
            assert got == gonu_moves(position), position
            captures_seen += sum(1 for _, c in got if c)
    assert captures_seen > 0  # the walks reached captures, so those were compared too


def test_moves_apply_the_repetition_rule():
    start = "xxx/3/www x"
    history = "a3-a2 b1-b2"  # under undo Black may not move a2 straight back to a3
    got = [m.move for m in gonu.moves(start, rules="undo", history=history)]
    assert got == [m for m, _ in gonu_moves(start, "undo", history)]
    assert "a2-a3" not in got and "a2-a3" in [m.move for m in gonu.moves(start, history=history)]
    assert repr(gonu.moves(start)[0]) == "Move('a3-a2', captures=[])"


def test_moves_of_a_finished_game_are_none():
    assert gonu.moves("x3/4/4/wwww x") == []


def test_rule_sets_are_gonu_rules():
    listed = run_gonu("rules")
    names = gonu.rule_sets()
    assert {"free", "encyclopedia", "undo"} <= set(names)
    for name in names:
        assert name in listed


# --- bad input: an exception, never a crash ---

def test_error_is_a_value_error():
    assert issubclass(gonu.Error, ValueError)


def test_malformed_positions_raise():
    t = gonu.Table(table_file("free"))
    for bad in ("", "xxx/3/www", "xxx/3/www q", "xxy/3/www x", "xxx/33/www x", "xx/3/www x", "9/9/9/9/9/9/9/9/9 x"):
        with raises(gonu.Error):
            t.probe(bad)
        with raises(gonu.Error):
            gonu.moves(bad)
        with raises(gonu.Error):
            gonu.solve(position=bad)


def test_positions_the_table_does_not_hold_raise():
    t = gonu.Table(table_file("free"))
    with raises(gonu.Error, "4x4"):
        t.probe("xxxx/4/4/wwww x")  # another board size
    with raises(gonu.Error):
        t.probe("xxx/xxx/w2 x")  # not reachable from the start (more pieces than it had)


def test_illegal_histories_raise():
    t = gonu.Table(table_file("free"))
    for bad in ("a1-a3", "a3-a2 a3-a2", "z9-z8", "b3-b2 b1-b2", "nonsense"):
        with raises(gonu.Error, "illegal history"):
            t.probe(history=bad)
        with raises(gonu.Error):
            gonu.moves("xxx/3/www x", history=bad)
        with raises(gonu.Error):
            gonu.solve(board="3x3", history=bad)
    with raises(TypeError):
        t.probe(history=[1, 2])
    with raises(TypeError):
        t.probe(42)


def test_missing_and_unreadable_files_raise_os_errors():
    missing = os.path.join(WORK, "no-such.gonu")
    for path in (missing, os.fsencode(missing)):
        with raises(FileNotFoundError, re.escape(repr(missing))):  # the path as text, not b'...'
            gonu.Table(path)
        try:
            gonu.Table(path)
        except FileNotFoundError as e:
            assert e.filename == missing
    with raises(IsADirectoryError):
        gonu.Table(WORK)


def corrupted_copy(name, change):
    data = bytearray(open(table_file("free"), "rb").read())
    change(data)
    path = os.path.join(WORK, name)
    with open(path, "wb") as f:
        f.write(data)
    return path


def flip_at(offset):
    def change(d):
        d[offset] ^= 0x40
    return change


def test_corrupted_tables_raise():
    cases = {
        "magic.gonu": flip_at(0),
        "header.gonu": flip_at(40),
        "truncated.gonu": lambda d: d.__delitem__(slice(len(d) // 2, None)),
        "empty.gonu": lambda d: d.clear(),
    }
    for name, change in cases.items():
        with raises(gonu.Error):
            gonu.Table(corrupted_copy(name, change))
    text = os.path.join(WORK, "text.gonu")
    with open(text, "w") as f:
        f.write("not a table\n")
    with raises(gonu.Error):
        gonu.Table(text)


def every_position(table):
    """Every position reachable from the table's root (rules without a tag), breadth first."""
    seen, todo = {table.probe().position}, [table.probe().position]
    while todo:
        position = todo.pop()
        for m in table.probe(position).moves:
            after = table.probe(position, history=[m.move]).position
            if after not in seen:
                seen.add(after)
                todo.append(after)
    return seen


def test_a_damaged_block_raises_when_read():
    good = gonu.Table(table_file("free"))
    size = os.path.getsize(good.path)
    damaged = gonu.Table(corrupted_copy("payload.gonu", flip_at(size - size // 4)))
    # The header and index are intact, so it opens: the damage shows when its block is read.
    failures = 0
    positions = every_position(good)
    assert len(positions) == good.info["states"]
    for position in positions:
        try:
            assert damaged.probe(position).to_dict()["value"] == good.probe(position).value
        except gonu.Error as e:
            assert "payload.gonu" in str(e) or "verify" in str(e), str(e)
            failures += 1
    assert failures > 0


def test_bad_rule_choices_raise():
    with raises(gonu.Error, "unknown rule set"):
        gonu.solve(rules="nope")
    with raises(gonu.Error, "unknown rule set"):
        gonu.moves("xxx/3/www x", rules="nope")
    for kwargs in (dict(capture="sideways"), dict(repetition="never"), dict(first="red"), dict(board="9x9"),
                   dict(board="4by4"), dict(board="3x3", position="xxxx/4/4/wwww x"), dict(engine="fast"),
                   dict(threads=-1), dict(rules="soldiers", board="3x3"), dict(board="3x3", max_states=10),
                   dict(board="3x3", out=WORK)):
        with raises(gonu.Error):
            gonu.solve(**kwargs)
    # A solve whose estimated peak passes max_memory is refused before it starts.
    with raises(gonu.Error, "more than the limit of .* max_memory=BYTES sets the limit"):
        gonu.solve(board="3x3", max_memory=1000)


def test_text_that_is_not_ascii_is_quoted_whole_in_the_error():
    with raises(gonu.Error, "unknown character 'é' at column 2"):
        gonu.moves("xéx/3/www x")
    with raises(gonu.Error, "unknown character '\u200b' at column 1"):
        gonu.Table(table_file("free")).probe("\u200bxx/3/www x")
    # A lone surrogate (as os.fsdecode makes of a stray byte) is named by its bytes.
    with raises(gonu.Error, r"unknown character '\\xED' at column 2"):
        gonu.moves("x\udcffx/3/www x")
    with raises(gonu.Error, r"move '\\xED\\xB3\\xBF'"):
        gonu.moves("xxx/3/www x", history="\udcff")
    with raises(gonu.Error, r"move '\\xED\\xB3\\xBF'"):
        gonu.Table(table_file("free")).probe(history=["\udcff"])
    with raises(gonu.Error):
        gonu.solve(board="3x3", position="\udcff")


def test_a_fifo_is_refused_without_waiting():
    fifo = os.path.join(WORK, "fifo")
    os.mkfifo(fifo)
    with raises(gonu.Error, "not a regular file \\(a FIFO\\)"):
        gonu.Table(fifo)


def test_a_table_truncated_while_open_raises():
    path = os.path.join(WORK, "truncated.gonu")
    shutil.copy(table_file("free", "3x4"), path)
    t = gonu.Table(path)
    assert t.probe().value == "DRAW"
    os.truncate(path, 400)
    for _ in range(2):
        with raises(gonu.Error, "the table file changed while open"):
            t.probe(history="a3-a2")
    assert gonu.Table(table_file("free")).probe().position == "xxx/3/www x"


def test_threads_far_past_the_cores_are_refused():
    with raises(gonu.Error, "threads=100000000 is more than 16 times the"):
        gonu.solve(board="3x3", threads=100000000)


def test_the_module_survives_its_errors():
    # After every error above the module still answers.
    assert gonu.Table(table_file("free")).probe().position == "xxx/3/www x"


def teardown_module(module=None):
    shutil.rmtree(WORK, ignore_errors=True)


if __name__ == "__main__":  # without pytest: run every test_ function in order
    import sys
    import traceback
    failed = 0
    tests = [(n, f) for n, f in list(globals().items()) if n.startswith("test_") and callable(f)]
    for name, test in tests:
        try:
            test()
            print(f"ok   {name}")
        except Exception:
            failed += 1
            print(f"FAIL {name}")
            traceback.print_exc()
    teardown_module()
    print(f"{len(tests) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


# --- Jungi tables: gonu.Table of a Jungi file, probe as gonu query --json ---

def jungi_tables():
    """Kv+K and +Kv+K (its King's promotion) written by gonu solve --game jungi --dir, once."""
    if "jungi" not in _tables:
        d = os.path.join(WORK, "jungi")
        os.mkdir(d)
        run_gonu("solve", "--game", "jungi", "--material", "Kv+K", "--quiet", "--dir", d)
        _tables["jungi"] = os.path.join(d, "Kv+K.nohobble-compulsory-stalemate-loss-lancer-standard.gonu")
    return _tables["jungi"]


JUNGI_POSITION = "9/9/9/4K4/9/9/9/9/+k8 s -"


def test_jungi_probe_is_gonu_query_json():
    path = jungi_tables()
    t = gonu.Table(path)
    assert t.game == "jungi"
    p = t.probe(JUNGI_POSITION)
    assert p.to_dict() == gonu_json("query", path, JUNGI_POSITION, "--json")
    assert p.material == "Kv+K"
    assert p.side_to_move == "south"
    assert all(m.san == "K" + m.move or m.san == "K" + m.move + "=+K" for m in p.moves)
    assert p.best_san and p.engine_move_san == p.moves[0].san and len(p.pv_san) == len(p.pv)
    assert p.value in ("WIN", "LOSS", "DRAW")
    assert len(p.moves) == 8
    scores = [(m.value == "WIN") * (10**6 - m.distance) - (m.value == "LOSS") * (10**6 - m.distance) for m in p.moves]
    assert scores == sorted(scores, reverse=True)  # best first
    assert [m.rank for m in p.moves] == list(range(1, 9))


def test_jungi_probe_after_history_and_bad_input():
    t = gonu.Table(jungi_tables())
    after = t.probe(JUNGI_POSITION, history=["e6-e5"])
    assert after.position == "9/9/9/9/4K4/9/9/9/+k8 n -"
    assert after.side_to_move == "north"  # lower case, as Jul-gonu's "black" and "white"
    with raises(gonu.Error, "needs a position"):
        t.probe()
    with raises(gonu.Error, "the position is of"):
        t.probe("4+k4/9/9/9/9/9/9/9/4+K4 s -")
    with raises(gonu.Error, "history move 1"):
        t.probe(JUNGI_POSITION, history="e6-e9")


def test_jungi_table_of_position_in_a_directory():
    path = jungi_tables()
    d = os.path.dirname(path)
    t = gonu.Table.of_position(d, JUNGI_POSITION)
    assert t.path == path
    assert t.probe(JUNGI_POSITION).to_dict() == gonu.Table(path).probe(JUNGI_POSITION).to_dict()
    flipped = "+K8/9/9/9/9/4k4/9/9/9 n -"  # +KvK, kept as Kv+K
    assert gonu.Table.of_position(d, flipped).path == path
    with raises(gonu.Error, re.escape("holds no table of Kv+KP (kept as +KPvK)")):
        gonu.Table.of_position(d, "9/9/9/4K4/4p4/9/9/9/+k8 s -")
    with raises(gonu.Error, "with no Jungi table in it"):
        gonu.Table.of_position(WORK, JUNGI_POSITION)


def test_jungi_table_info_and_unknown_moves():
    path = jungi_tables()
    t = gonu.Table(path)
    info = t.info
    assert info["material"] == "Kv+K" and info["game"] == "jungi"
    assert info["positions"] == len(t) == 8640  # the whole board: 54 squares for South's King x 80 for the Emperor, 2 sides
    # One name for both games' largest distance (Jul-gonu's header "largest distance"): gonu info's
    # longest win and longest loss, the larger.
    shown = run_gonu("info", path)
    win = re.search(r"longest win: +(\d+) plies", shown)
    loss = int(re.search(r"longest loss: +(\d+) plies", shown).group(1))
    assert info["max_distance"] == max(int(win.group(1)) if win else -1, loss)
    assert "longest_win" not in info
    assert "max_distance" in gonu.Table(table_file("free")).info
    d = os.path.join(WORK, "jungi-alone")
    os.mkdir(d)
    alone = os.path.join(d, os.path.basename(path))
    shutil.copy(path, alone)
    moves = gonu.Table(alone).probe(JUNGI_POSITION).moves
    unknown = [m for m in moves if m.value == "UNKNOWN"]
    assert unknown and all(m.distance is None for m in unknown)
    assert [m.value for m in moves[-len(unknown):]] == ["UNKNOWN"] * len(unknown)  # unknown moves last


def test_jungi_tables_set_opened_once():
    path = jungi_tables()
    tables = gonu.Tables(os.path.dirname(path), max_memory=1 << 20)
    assert len(tables) == 2 and tables.readings == ["jungi/nohobble/compulsory/stalemate-loss/lancer-standard"]
    assert sorted(m["material"] for m in tables.materials) == ["+Kv+K", "Kv+K"]
    # The same answer as the table file's own probe, and the value alone agrees with it.
    answer = tables.probe(JUNGI_POSITION)
    assert answer.to_dict() == gonu.Table(path).probe(JUNGI_POSITION).to_dict()
    assert tables.value(JUNGI_POSITION) == (answer.value, answer.distance)
    # Every position one move away (the promotions' in +Kv+K) valued as the move's value says.
    for m in answer.moves:
        after = tables.value(tables.probe(JUNGI_POSITION, history=[m.move]).position)
        mover = {"WIN": "LOSS", "LOSS": "WIN", "DRAW": "DRAW"}[after[0]]
        assert (mover, 0 if mover == "DRAW" else after[1] + 1) == (m.value, m.distance)
    assert tables.held_bytes <= 1 << 20
    with raises(gonu.Error, "no table of"):
        tables.value("9/9/9/4K4/4p4/9/9/9/+k8 s -")
    missing = os.path.join(WORK, "no-such-dir")
    try:
        gonu.Tables(missing)
        assert False, "a missing directory was opened"
    except FileNotFoundError as e:
        assert e.filename == missing and missing in str(e)


# --- moves(game="jungi"): Jungi's legal moves, from-to and as people write them ---

def gonu_jungi_moves(position, *options):
    """The moves `gonu moves --game jungi` lists, as (san, from-to)."""
    out = run_gonu("moves", "--game", "jungi", position, *options)
    return [(m.group(1), m.group(2)) for m in re.finditer(r"^  (\S+) \((\S+)\)", out, re.M)]


def test_jungi_moves_are_gonu_moves_with_san():
    position = "4k4/9/9/Q8/9/3p5/3R5/9/4K4 s -"
    moves = gonu.moves(position, game="jungi")
    assert [(m.san, m.move) for m in moves] == gonu_jungi_moves(position)
    by_move = {m.move: m for m in moves}
    assert by_move["a6-a7"].san == "Qa6-a7=+Q" and by_move["a6-a7"].captures == []
    assert by_move["d3xd4"].san == "Rd3xd4" and by_move["d3xd4"].captures == ["d4"]
    assert by_move["d3xd4"].to_dict() == {"move": "d3xd4", "san": "Rd3xd4", "captures": ["d4"]}
    assert repr(by_move["d3xd4"]) == "Move('d3xd4', san='Rd3xd4', captures=['d4'])"
    # Both notations play the same move; the keys are Jul-gonu's too.
    assert [m.move for m in gonu.moves(position, game="jungi", history="Qa6-a7=+Q")] == \
        [m.move for m in gonu.moves(position, game="jungi", history=["a6-a7"])]
    assert set(gonu.moves("xxx/3/www x")[0].to_dict()) == {"move", "san", "captures"}
    # The reading's options, as gonu's flags.
    optional = gonu.moves(position, game="jungi", promotion="optional")
    assert [(m.san, m.move) for m in optional] == gonu_jungi_moves(position, "--promotion", "optional")
    assert {"Qa6-a7", "Qa6-a7=+Q"} <= {m.san for m in optional}
    with raises(gonu.Error, "the piece on a6 is Q"):
        gonu.moves(position, game="jungi", history="Ra6-a7")
    with raises(gonu.Error, "Jul-gonu's"):
        gonu.moves(position, game="jungi", rules="undo")
    with raises(gonu.Error, "Jungi's"):
        gonu.moves("xxx/3/www x", lancer="queen")
    with raises(gonu.Error, "'julgonu' or 'jungi'"):
        gonu.moves(position, game="chess")
    assert gonu.moves("4k4/9/9/9/4+R4/9/9/9/4K4 s -", game="jungi", history="e5xe9") == []
