"""sandbox/protocol.py: the lean request's spec (argv, environment, main file) read back
as written, and a lean init that loads neither json nor re to read it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from problemtools_py.sandbox.protocol import LeanRequest, lean_spec, read_lean_spec

# Words execve can take: any text but NUL (and no lone surrogate, which has no bytes).
WORD = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\0"))


@given(st.lists(WORD), st.dictionaries(WORD, WORD), st.one_of(st.none(), WORD))
def test_a_spec_reads_back_as_written(argv: list[str], env: dict[str, str],
                                      main: str | None) -> None:  # fmt: skip
    spec = lean_spec(LeanRequest(tuple(argv), env, 1.0, 2.0, main or None, None))
    assert read_lean_spec(spec) == (argv, env, main or None)


def test_bytes_that_are_not_utf8_come_back_whole() -> None:
    """An argument made of bytes (surrogate-escaped, as Python reads argv) is kept."""
    odd = b"caf\xe9".decode("utf-8", "surrogateescape")
    spec = lean_spec(LeanRequest(("prog", odd), {"X": odd}, 1.0, 2.0, None, None))
    assert read_lean_spec(spec) == (["prog", odd], {"X": odd}, None)


def test_a_lean_init_loads_neither_json_nor_re() -> None:
    root = Path(__file__).resolve().parents[2]
    code = ("import sys; sys.path.insert(0, sys.argv[1]); "
            "from problemtools_py.sandbox import zygote; "
            "print(sorted(m for m in ('json', 're', 'typing') if m in sys.modules))")  # fmt: skip
    done = subprocess.run([sys.executable, "-S", "-I", "-c", code, str(root)],
                          capture_output=True, text=True, check=True)  # fmt: skip
    assert done.stdout.strip() == "[]"
