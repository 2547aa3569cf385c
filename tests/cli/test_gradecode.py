"""cli/gradecode.py: the result file is whole or absent, and never lost."""

from __future__ import annotations

from pathlib import Path

import pytest

from problemtools_py.cli.gradecode import _finish, _partial_name
from problemtools_py.errors import FatalError


def test_results_that_cannot_be_renamed_stay_and_are_named(tmp_path: Path) -> None:
    """The results of a long grading run go to a hidden partial file, renamed at the end;
    when the rename fails (the output became a directory meanwhile), they are kept there
    and the error says where."""
    target = tmp_path / "results.jsonl"
    partial = _partial_name(target)
    partial.write_text('{"ok": true}\n')
    target.mkdir()
    (target / "x").write_text("")
    with pytest.raises(FatalError) as raised:
        _finish(partial, target)
    assert f"every result is in {partial}" in str(raised.value)
    assert str(raised.value).startswith(f"{target}: cannot write: ")
    assert partial.read_text() == '{"ok": true}\n'


def test_the_rename_puts_the_results_in_place(tmp_path: Path) -> None:
    target = tmp_path / "results.jsonl"
    partial = _partial_name(target)
    partial.write_text("{}\n")
    _finish(partial, target)
    assert target.read_text() == "{}\n" and not partial.exists()
