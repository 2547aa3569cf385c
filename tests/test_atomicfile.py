"""atomicfile.py: files written whole or not at all."""

from __future__ import annotations

from pathlib import Path

import pytest

from problemtools_py.atomicfile import write_bytes
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
