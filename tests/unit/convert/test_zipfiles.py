"""Reproducible zips: order, timestamps, modes; written whole or not at all."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from problemtools_py.convert.zips.zipfiles import FIXED_TIME, Entry, write_zip


def test_sorted_fixed_and_reproducible(tmp_path: Path) -> None:
    entries = [Entry("b/run", b"#!/bin/sh\n", True), Entry("a.txt", b"x")]
    write_zip(tmp_path / "one.zip", entries)
    write_zip(tmp_path / "two.zip", list(reversed(entries)))
    assert (tmp_path / "one.zip").read_bytes() == (tmp_path / "two.zip").read_bytes()
    with zipfile.ZipFile(tmp_path / "one.zip") as archive:
        infos = archive.infolist()
    assert [i.filename for i in infos] == ["a.txt", "b/run"]
    assert all(i.date_time == FIXED_TIME for i in infos)
    assert [i.external_attr >> 16 for i in infos] == [0o100644, 0o100755]


def test_a_failed_write_leaves_nothing(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="share a name"):
        write_zip(tmp_path / "x.zip", [Entry("a", b"1"), Entry("a", b"2")])
    assert list(tmp_path.iterdir()) == []
