"""The judges whose rules ``verifyproblem --judge`` can verify by (a module of its own, so
that the command line names them without loading the model): the format's text as Kattis
reads it, DOMjudge's (model/conventions.py says how a finding names its extensions), or
BAPCtools' where the text leaves the judging open."""

from __future__ import annotations

import enum


class Ruleset(enum.StrEnum):
    """Whose rules judge (``--judge``): the format's text as Kattis reads it, DOMjudge's,
    or BAPCtools'."""

    KATTIS = "kattis"  # the format's text, as Kattis problemtools reads it
    DOMJUDGE = "domjudge"
    BAPCTOOLS = "bapctools"  # bt run's judging where the text leaves it open

    @property
    def display(self) -> str:
        return {"kattis": "Kattis", "domjudge": "DOMjudge", "bapctools": "BAPCtools"}[self.value]

    @property
    def possessive(self) -> str:
        """``display`` as an owner: DOMjudge's, BAPCtools'."""
        return self.display + ("'" if self.display.endswith("s") else "'s")
