"""Hints that ask "did you mean": the known word closest to a misspelt one. difflib is
imported at the first misspelling, not by every command that might meet one (-p config
starts faster)."""

from __future__ import annotations

from collections.abc import Iterable


def closest(word: str, known: Iterable[str], cutoff: float = 0.6) -> str | None:
    import difflib

    found = difflib.get_close_matches(word, sorted(known), n=1, cutoff=cutoff)
    return found[0] if found else None
