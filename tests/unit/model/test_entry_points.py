"""DOMjudge's submissions.json (model/entrypoints.py): read bounded, never followed
through a link, a bad file kept with its reason; entry points by submission path."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from problemtools_py.model import entrypoints
from problemtools_py.model.entrypoints import read_entry_points


def test_entry_points_by_submission_path(tmp_path: Path) -> None:
    (tmp_path / "submissions.json").write_text(
        '{"submissions/accepted/multi-sh/": {"entry_point": "main.sh"},'
        ' "submissions/accepted/x/": {"langid": "cpp"}, "odd": 3}'
    )
    read = read_entry_points(tmp_path)
    assert read is not None and read.problem is None
    assert read.of("submissions/accepted/multi-sh") == "main.sh"
    assert read.of("submissions/accepted/multi-sh/") == "main.sh"
    assert read.of("submissions/accepted/x") is None and read.of("odd") is None


@pytest.mark.parametrize(("text", "why"), [
    ("{nope", "is not JSON"),
    ("[1, 2]", "must map submission paths"),
    ("[" * 100_000 + "]" * 100_000, "is not JSON"),
])  # fmt: skip
def test_a_bad_file_is_kept_with_its_reason(tmp_path: Path, text: str, why: str) -> None:
    (tmp_path / "submissions.json").write_text(text)
    read = read_entry_points(tmp_path)
    assert read is not None and why in (read.problem or "") and not read.by_path


def test_a_huge_file_is_not_read_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(entrypoints, "MAX_BYTES", 64)
    (tmp_path / "submissions.json").write_text('{"a": {"entry_point": "' + "x" * 100 + '"}}')
    read = read_entry_points(tmp_path)
    assert read is not None and "is over" in (read.problem or "")


def test_a_link_or_no_file_is_none(tmp_path: Path) -> None:
    assert read_entry_points(tmp_path) is None
    (tmp_path / "elsewhere.json").write_text('{"a": {"entry_point": "b"}}')
    os.symlink(tmp_path / "elsewhere.json", tmp_path / "submissions.json")
    assert read_entry_points(tmp_path) is None
