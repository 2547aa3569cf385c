"""Small helpers to break a copied sample package in one precise way."""

from __future__ import annotations

import os
import shutil
from pathlib import Path


def write(root: Path, rel: str, text: str | bytes) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")


def append(root: Path, rel: str, text: str) -> None:
    with (root / rel).open("a", encoding="utf-8") as handle:
        handle.write(text)


def remove(root: Path, rel: str) -> None:
    path = root / rel
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink()


def move(root: Path, src: str, dst: str) -> None:
    (root / dst).parent.mkdir(parents=True, exist_ok=True)
    (root / src).rename(root / dst)


def replace(root: Path, rel: str, old: str, new: str) -> None:
    path = root / rel
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {rel}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def symlink(root: Path, rel: str, target: str) -> None:
    os.symlink(target, root / rel)


def case(root: Path, rel: str, text: str = "1\n") -> None:
    """Add a test case ``rel`` (without extension): an .in and an .ans file."""
    write(root, rel + ".in", text)
    write(root, rel + ".ans", text)
