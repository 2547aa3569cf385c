"""What a forked interpreter makes ready before a program's first line (sandbox/pystart):
which programs' ends need the shutdown's collections, where the recursion depth is kept,
site's builtins. (That programs then behave as under python3 is tests/fidelity's.)"""

from __future__ import annotations

import ctypes
import sys

import pytest

from problemtools_py.sandbox import pystart


@pytest.mark.parametrize(
    ("source", "needed"),
    [
        ("a, b = map(int, input().split())\nprint(a + b)\n", False),
        ("import sys\nfor line in sys.stdin:\n    print(sum(int(x) for x in line.split()))\n", False),
        ("def gen():\n    yield 1\nprint(list(gen()))\n", False),  # (closing it prints nothing)
        ("out = open(1, 'w')\nout.write('x')\n", True),  # (flushed when collected)
        ("import os\nw = os.fdopen(1, 'w')\n", True),
        ("class D:\n    def __del__(self):\n        print('bye')\nd = D()\n", True),
        ("def gen():\n    try:\n        yield 1\n    finally:\n        print('closed')\n", True),
        ("def gen():\n    with open(0) as f:\n        yield f\n", True),
        ("import weakref\nclass A: pass\na = A()\nweakref.finalize(a, print, 'x')\n", True),
        ("f = getattr(__builtins__, 'op' + 'en')\n", True),  # (reaches a name unnamed)
        ("exec('x = 1')\n", True),
    ],
)
def test_a_programs_end_needs_the_collections_only_where_they_can_show(
    source: str, needed: bool
) -> None:
    assert pystart.needs_teardown(compile(source, "main.py", "exec")) is needed


def test_the_recursion_counter_is_found_and_exec_measured() -> None:
    """In this process (ctypes loaded): the counter follows the limit; with the remaining
    depth calibrated, code exec()'d from that frame runs at python3's main-module depth."""
    pystart.COUNTER.clear()
    pystart.calibrate()
    assert pystart.COUNTER, "no recursion counter found"
    pair, remaining = pystart.COUNTER
    assert isinstance(pair, ctypes.Array) and pair[1] == sys.getrecursionlimit()
    saved = sys.getrecursionlimit()
    try:
        sys.setrecursionlimit(4321)
        assert pair[1] == 4321 and 0 < pair[1] - pair[0] < 200
    finally:
        sys.setrecursionlimit(saved)
    seen: list[int] = []
    before = pair[0]
    pair[0] = remaining  # (this frame's depth now such that...)
    exec("seen.append(pair[1] - pair[0])", {"seen": seen, "pair": pair})
    pair[0] = before  # (this frame's own depth back, as it is the same frame)
    assert seen == [pystart.MODULE_DEPTH]  # (...the module's is python3's)


def test_a_failed_search_leaves_the_counter_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pystart, "COUNTER", [])
    monkeypatch.setattr(pystart, "_limit_word", lambda words: None)
    pystart.calibrate()
    assert pystart.COUNTER == []


def test_freezing_moves_what_there_is_out_of_the_collectors_sight() -> None:
    import gc

    try:
        pystart.freeze()
        assert gc.get_freeze_count() > 0 and gc.get_count()[0] < 100
        assert pystart.OLDER_COLLECTED[0] == pystart.older_collections()
    finally:
        gc.unfreeze()
