"""Test data of a 2025-09 (or 2023-07) package as legacy has it: each ``test_group.yaml``
as a ``testdata.yaml`` (``*_args`` lists as ``*_flags`` strings, ``score_aggregation``
and ``max_score`` as the default grader's flags and per-case scores), the output
validator's arguments in problem.yaml when every group has the same, a case's
``description``/``hint`` as ``.desc``/``.hint``, and the display and download overrides
legacy does not read left out."""

from __future__ import annotations

from dataclasses import dataclass, field
from math import isfinite
from typing import Any

from problemtools_py.convert.roundtrip import dump, load_map, new_map, words
from problemtools_py.convert.versions.upgrade_config import Note
from problemtools_py.model.problem import Problem, TestGroup
from problemtools_py.model.testdata import JUDGED_GROUPS

OVERRIDES = (".in.statement", ".ans.statement", ".out", ".in.download", ".ans.download")
UNSAID = ("args", "static_validation_score", "static_validator_args", "require_pass")
VISUALIZER_ARGS = ("input_visualizer_args", "output_visualizer_args")  # left out with them


@dataclass
class DowngradedData:
    """What downgrading data/ to legacy writes, removes and says."""

    written: dict[str, str] = field(default_factory=dict)
    removed: set[str] = field(default_factory=set)
    validator_flags: list[str] = field(default_factory=list)  # for problem.yaml
    notes: list[Note] = field(default_factory=list)


class _Data:
    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        self.scoring = "scoring" in problem.config.types
        self.result = DowngradedData()

    def note(self, kind: str, path: str, message: str) -> None:
        self.result.notes.append(Note(kind, path, message))

    def run(self) -> DowngradedData:
        data = self.problem.data
        if data is None:
            return self.result
        kept = [g for g in data.walk() if g.name in JUDGED_GROUPS or g.name.startswith("secret/")]
        secret = data.child("secret")
        groups = [g for g in kept if g.name in JUDGED_GROUPS] + list(
            self.problem.subgroups(secret) if secret is not None else ()
        )  # (the groups of the package's own version: the other directories only organise)
        flags = {
            tuple(words(self.problem.settings(g.name).get("output_validator_args"))) for g in kept
        }
        common = len(flags) == 1
        if common:
            self.result.validator_flags = list(next(iter(flags)))
        for group in data.walk():
            for name in ("test_group.yaml", "testdata.yaml"):
                if self.problem.file(f"{group.rel}/{name}") is not None:
                    self.result.removed.add(f"{group.rel}/{name}")
            if group in groups or group.name == "":
                self._write(group, common)
            for case in group.cases if group in kept else ():
                self._case(case.name, case.files)
        return self.result

    def _write(self, group: TestGroup, common: bool) -> None:
        own = group.own_settings
        out = new_map()
        for key, value in own.items():
            if key == "input_validator_args":
                out["input_validator_flags"] = self._input_flags(value, group.rel)
            elif key == "output_validator_args" and not common:
                out["output_validator_flags"] = " ".join(words(value))
            elif key in UNSAID:
                self.note("unmappable", f"{group.rel}/test_group.yaml", f"{key}: legacy has none")
            elif key in VISUALIZER_ARGS:
                self.note("dropped", f"{group.rel}/test_group.yaml", f"{key}: no visualizers")
        if self.scoring:
            self._scores(group, own, out)
        if out:
            self.result.written[f"{group.rel}/testdata.yaml"] = dump(out)

    def _input_flags(self, value: Any, where: str) -> Any:
        if not isinstance(value, dict):
            return " ".join(words(value))
        if len(value) != 1:
            self.note(
                "unmappable", where, "input_validator_args for several validators: legacy names one"
            )
        name, args = next(iter(value.items()))
        return new_map({"name": str(name), "flags": " ".join(words(args))})

    def _scores(self, group: TestGroup, own: Any, out: Any) -> None:
        """Legacy's default grader scores like 2025-09 when every case runs (on_reject:
        continue), a case is worth its share of the group's max_score (sum) or all of it
        (min), and samples are worth nothing."""
        if group.name == "":
            child = group.child("secret")
            secret = child.own_settings if child is not None else {}
            top = _number(secret.get("max_score", 100))  # (secret's own write notes a bad one)
            out.update(
                {
                    "on_reject": "continue",
                    "grader_flags": "first_error sum",
                    "range": f"0 {'+inf' if top is None else top}",
                }
            )
            return
        if group.name == "sample":
            out.update({"accept_score": 0, "reject_score": 0, "range": "0 0"})
            return
        aggregation = str(self.problem.settings(group.name).get("score_aggregation", "sum"))
        out["on_reject"] = "continue"
        out["grader_flags"] = f"first_error {aggregation}"
        cases = len(self.problem.group_cases(group))
        top = own.get("max_score", 100 if group.name == "secret" else None)
        if top is not None:
            top = self._top(group, top)
            out["range"] = f"0 {'+inf' if top is None else top}"
        if cases and top is not None and not self.problem.subgroups(group):
            share = float(top) / cases if aggregation == "sum" else float(top)
            out["accept_score"] = int(share) if share.is_integer() else share

    def _top(self, group: TestGroup, value: object) -> int | float | None:
        """A group's max_score as legacy's range bound: a number, or None for unbounded
        (range 0 +inf: every accepted case's score is its validator's score.txt, as
        2025-09 asks of an unbounded group) and for a value that is no number (noted)."""
        number = _number(value)
        if number is None and value != "unbounded":
            self.note(
                "unmappable",
                f"{group.rel}/test_group.yaml",
                f"max_score: {str(value)[:60]!r} is not a number",
            )
        return number

    def _case(self, name: str, files: dict[str, str]) -> None:
        rel = f"data/{name}"
        for ext in OVERRIDES:
            if ext in files:
                self.result.removed.add(files[ext])
                self.note("dropped", files[ext], "legacy shows and offers .in/.ans")
        if ".yaml" not in files:
            return
        self.result.removed.add(files[".yaml"])
        doc = load_map(
            (self.problem.root / files[".yaml"]).read_text(encoding="utf-8"), files[".yaml"]
        )
        for key, value in doc.items():
            if key in ("description", "hint"):
                self.result.written[f"{rel}.{'desc' if key == 'description' else 'hint'}"] = (
                    f"{value}\n")  # fmt: skip
            elif key != "full_feedback":
                self.note("unmappable", files[".yaml"], f"{key}: legacy has no per-case {key}")


def downgrade_data(problem: Problem) -> DowngradedData:
    return _Data(problem).run()


def _number(value: object) -> int | float | None:
    """A finite number (not true/false) as it is, else None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return value if isfinite(value) else None
