"""Programs composed of the fragments the corpus is made of (output in every form, atexit
handlers, finalizers, threads, files never closed, unfinished generators, deep recursion)
and every way of ending, found by Hypothesis: under python3 and in each way the sandbox
runs a Python program, the same stdout and exit status."""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from helpers.fidelity import PYTHON_WAYS, PythonWay, reference_python
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the sandbox isolates fully as root")

HEADER = "import atexit, os, sys, threading\n"
# A fragment of program text from its index (names and output made unique by it).
FRAGMENTS: dict[str, Callable[[int], str]] = {
    "print": lambda i: f"print({i})\n",
    "no-newline": lambda i: f"print({i}, end='')\n",
    "write": lambda i: f"sys.stdout.write('w{i} ')\n",
    "flush": lambda i: f"print({i}, flush=True)\n",
    "bytes": lambda i: f"sys.stdout.buffer.write(b'b{i} ')\n",
    "os-write": lambda i: f"os.write(1, b'o{i} ')\n",
    "stderr": lambda i: f"sys.stderr.write('e{i}\\n')\n",
    "non-ascii": lambda i: f"print('é{i}✓')\n",
    "atexit": lambda i: f"atexit.register(print, 'atexit {i}')\n",
    "atexit-write": lambda i: f"atexit.register(lambda: sys.stdout.write('aw{i}'))\n",
    "del": lambda i: (f"class _D{i}:\n    def __del__(self):\n        print('del {i}')\n"
                      f"_d{i} = _D{i}()\n"),
    "cycle-del": lambda i: (f"class _C{i}:\n    def __del__(self):\n        print('cdel {i}')\n"
                            f"_c{i} = _C{i}()\n_c{i}.me = _c{i}\ndel _c{i}\n"),
    "unclosed": lambda i: f"_f{i} = open(1, 'w', closefd=False)\n_f{i}.write('f{i} ')\n",
    "generator": lambda i: (f"def _g{i}():\n    try:\n        yield\n    finally:\n"
                            f"        print('gen {i}')\n_it{i} = _g{i}()\nnext(_it{i})\n"),
    "thread-joined": lambda i: (f"_t{i} = threading.Thread(target=print, args=('t{i}',))\n"
                                f"_t{i}.start()\n_t{i}.join()\n"),
    "caught": lambda i: f"try:\n    1 / 0\nexcept ZeroDivisionError:\n    print('caught {i}')\n",
    "recursion": lambda i: (f"sys.setrecursionlimit(300 + {i})\ndef _r{i}(n):\n"
                            f"    return n if n == 0 else 1 + _r{i}(n - 1)\n"
                            f"print(_r{i}(290 + {i} - 3))\n"),
    "exit-caught": lambda i: f"try:\n    exit({i})\nexcept SystemExit as e:\n    print('se', e.code)\n",
}
ENDINGS = ["", "exit()\n", "exit(3)\n", "quit(0)\n", "sys.exit(4)\n", "sys.exit('done')\n",
           "raise SystemExit(2)\n", "raise ValueError('end')\n", "os._exit(5)\n",
           "sys.stdout.flush()\nos._exit(0)\n",
           "threading.Thread(target=print, args=('last thread',)).start()\n",
           "raise KeyboardInterrupt\n"]  # fmt: skip

programs = st.tuples(
    st.lists(st.sampled_from(sorted(FRAGMENTS)), min_size=1, max_size=6),
    st.sampled_from(ENDINGS),
)


def compose(fragments: list[str], ending: str) -> str:
    return HEADER + "".join(FRAGMENTS[name](i) for i, name in enumerate(fragments)) + ending


@pytest.fixture(scope="module")
def ways(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, list[PythonWay]]]:
    """Every way, open once, on one directory the composed programs are written to."""
    directory = tmp_path_factory.mktemp("composed")
    directory.chmod(0o755)
    with ExitStack() as stack:
        yield directory, [stack.enter_context(PythonWay(way, directory)) for way in PYTHON_WAYS]


_names = itertools.count()


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])  # fmt: skip
@given(program=programs)
def test_a_composed_program_ends_as_under_python3(
    ways: tuple[Path, list[PythonWay]], program: tuple[list[str], str]
) -> None:
    directory, runners = ways
    source = compose(*program)
    path = directory / f"p{next(_names)}.py"
    path.write_text(source, encoding="utf-8")
    path.chmod(0o644)
    want = reference_python(path, b"")
    for runner in runners:
        got = runner.run(path.name, b"")
        assert got.same(want), f"{runner.way}: {got.brief()}\npython3: {want.brief()}\n{source}"
