"""The judges whose rules ``verifyproblem --judge`` can verify by (a module of its own, so
that the command line names them without loading the model): the format's text as Kattis
reads it, or DOMjudge's (model/conventions.py says how a finding names its extensions)."""

from __future__ import annotations

import enum


class Judge(enum.StrEnum):
    KATTIS = "kattis"  # the format's text, as Kattis problemtools reads it
    DOMJUDGE = "domjudge"

    @property
    def display(self) -> str:
        return {"kattis": "Kattis", "domjudge": "DOMjudge"}[self.value]
