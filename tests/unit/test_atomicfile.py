"""atomicfile.py: files written whole or not at all."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from problemtools_py.atomicfile import Pending, write_bytes
from problemtools_py.errors import FatalError


def test_a_file_that_cannot_be_replaced_is_named_in_the_error(tmp_path: Path) -> None:
    """A file is written whole or not at all (a temporary file renamed over it); when
    that fails, the error names the file asked for, never the temporary one."""
    target = tmp_path / "page.html"
    target.mkdir()
    with pytest.raises(FatalError) as raised:
        write_bytes(target, b"x")
    assert str(raised.value) == f"{target}: cannot write: Is a directory"
    assert [p.name for p in tmp_path.iterdir()] == ["page.html"]  # (no temporary file left)


def test_a_pending_file_appears_whole_or_not_at_all(tmp_path: Path) -> None:
    from problemtools_py.atomicfile import Pending

    target = tmp_path / "out.bin"
    target.write_bytes(b"old")
    with pytest.raises(RuntimeError), Pending(target) as pending:
        os.write(pending.fd, b"half")
        raise RuntimeError("stopped half-way")
    assert target.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.bin"]
    with Pending(target, 0o640) as pending, os.fdopen(pending.fd, "wb") as handle:
        handle.write(b"new")
    assert target.read_bytes() == b"new" and (target.stat().st_mode & 0o777) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.bin"]


def test_a_pending_file_that_cannot_be_made_names_the_file_meant(tmp_path: Path) -> None:
    from problemtools_py.atomicfile import Pending

    with pytest.raises(FatalError) as raised:
        Pending(tmp_path / "missing" / "out.bin")
    assert raised.value.path == str(tmp_path / "missing" / "out.bin")


def test_a_file_can_be_staged_elsewhere_and_kept_when_the_rename_fails(tmp_path: Path) -> None:
    """``beside``: the temporary in a directory that exists now, the destination's made
    before the commit (an upgraded package's new folders); ``keep``: a failed commit leaves
    the temporary and names it (gradecode's hours of results)."""
    target = tmp_path / "new" / "dir" / "file.txt"
    pending = Pending(target, beside=tmp_path)
    assert pending.tmp.parent == tmp_path
    os.write(pending.fd, b"made\n")
    os.close(pending.fd)
    target.parent.mkdir(parents=True)
    pending.commit()
    assert target.read_bytes() == b"made\n" and not pending.tmp.exists()
    kept = Pending(tmp_path / "taken", keep=True)
    os.close(kept.fd)
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "x").write_text("")
    with pytest.raises(FatalError, match=f"everything is in {kept.tmp}"):
        kept.commit()
    assert kept.tmp.exists()
