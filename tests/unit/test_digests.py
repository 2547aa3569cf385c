"""digests.py: every sha256 the package keys by, decided once."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from problemtools_py import digests
from problemtools_py.digests import data_digest, digest, file_digest, sha256_hex


def test_the_plain_digest_is_sha256sums(tmp_path: Path) -> None:
    path = tmp_path / "f"
    path.write_bytes(b"abc\n" * 100_000)
    want = hashlib.sha256(path.read_bytes()).hexdigest()
    assert sha256_hex(path.read_bytes()) == file_digest(path) == want


def test_parts_are_framed_by_their_lengths() -> None:
    assert digest("ab", "c") != digest("a", "bc")
    assert digest("ab", "c") != digest("abc")
    assert digest("x") == digest(b"x")


def test_a_data_file_is_hashed_once_until_it_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hashed: list[Path] = []
    monkeypatch.setattr(digests, "file_digest", lambda p: hashed.append(p) or file_digest(p))
    root = tmp_path / "problem"
    (root / "data").mkdir(parents=True)
    case, outside = root / "data/1.in", tmp_path / "team.out"
    case.write_text("1\n")
    outside.write_text("1\n")
    first = data_digest(case, root)
    assert data_digest(case, root) == first and hashed == [case]  # (kept)
    case.write_text("2\n")  # (same size; its times and so its key change)
    os.utime(case, ns=(1, 1))
    assert data_digest(case, root) == file_digest(case) != first
    data_digest(outside, root)
    data_digest(outside, root)
    assert hashed.count(outside) == 2  # (not the package's: hashed every time)


