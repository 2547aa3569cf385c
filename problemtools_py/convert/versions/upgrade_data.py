"""Test data of a legacy or 2023-07 package as 2025-09 has it: each ``testdata.yaml``
replaced by ``test_group.yaml`` files (only in ``sample``, ``secret`` and its groups,
where 2025-09 reads them) holding the settings that applied there, ``*_flags`` strings
as ``*_args`` lists, legacy scoring keys as ``score_aggregation``/``max_score``, and
``.desc``/``.hint`` files as the case's ``<case>.yaml``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ruamel.yaml.comments import CommentedMap

from problemtools_py.convert.roundtrip import dump, flow_seq, load_map, new_map, rename, words
from problemtools_py.convert.versions.upgrade_config import Note
from problemtools_py.model.problem import Problem, TestGroup
from problemtools_py.model.settings import as_number
from problemtools_py.model.testdata import is_sample

ARGS = {  # legacy/earlier-draft key -> 2025-09 key (a string of words becomes a list)
    "input_validator_flags": "input_validator_args",
    "output_validator_flags": "output_validator_args",
    "input_validator_args": "input_validator_args",
    "output_validator_args": "output_validator_args",
    "args": "args",
    "static_validator_args": "static_validator_args",
    "input_visualizer_args": "input_visualizer_args",
    "output_visualizer_args": "output_visualizer_args",
}
UNBOUNDED = "unbounded"  # (a 2025-09 max_score with no bound)
KEPT = ("full_feedback", "static_validation_score", "require_pass")
SCORING = ("grading", "grader_flags", "accept_score", "reject_score", "range", "on_reject",
           "score_aggregation", "max_score")  # fmt: skip


@dataclass
class DataResult:
    """data/ upgraded: the files written, copied and removed, and notes."""

    written: dict[str, str] = field(default_factory=dict)  # rel -> new text
    copies: dict[str, str] = field(default_factory=dict)  # new rel -> the file it copies
    removed: set[str] = field(default_factory=set)
    notes: list[Note] = field(default_factory=list)


class _Data:
    def __init__(self, problem: Problem, root_args: list[str]) -> None:
        self.problem = problem
        self.root_args = root_args  # problem.yaml's validator flags
        self.scoring = "scoring" in problem.config.types
        self.result = DataResult()

    def note(self, kind: str, path: str, message: str) -> None:
        self.result.notes.append(Note(kind, path, message))

    def run(self) -> DataResult:
        data = self.problem.data
        if data is None:
            return self.result
        for group in data.walk():
            for name in ("testdata.yaml", "test_group.yaml"):  # (either, rewritten below)
                if self.problem.file(f"{group.rel}/{name}") is not None:
                    self.result.removed.add(f"{group.rel}/{name}")
        for group in data.groups:
            if group.name == "sample":
                self._write(group, sample=True)
            elif group.name == "secret":
                self._secret(group)
        for case in (c for g in data.walk() for c in g.cases):
            self._case(case.name, case.files)
        return self.result

    def _secret(self, secret: TestGroup) -> None:
        groups = [g for g in secret.groups if any(True for _ in _cases(g))]
        settings = self.problem.settings(secret.name)
        # (a scoring problem's directories, or ones with settings of their own, are groups)
        grouped = bool(groups) and (
            self.scoring or any(self._nested_differ(g, settings) for g in groups)
        )
        if grouped and secret.cases:
            self.note(
                "unmappable",
                secret.rel,
                "cases beside groups: 2025-09 has a secret of test cases or of groups, not both",
            )
        self._write(secret, top=True)
        for group in groups:
            if grouped:
                self._write(group)
            self._check_nested(group)

    def _nested_differ(self, group: TestGroup, settings: Mapping[str, Any]) -> bool:
        return any(self.problem.settings(g.name) != settings for g in group.walk())

    def _check_nested(self, group: TestGroup) -> None:
        """Directories below a 2025-09 group are no groups: their settings must be its."""
        mine = self.problem.settings(group.name)
        for inner in list(group.walk())[1:]:
            if self.problem.settings(inner.name) != mine:
                self.note(
                    "unmappable",
                    inner.rel,
                    "settings of a nested group: 2025-09 "
                    "groups do not nest; this directory takes its group's",
                )

    def _write(self, group: TestGroup, sample: bool = False, top: bool = False) -> None:
        """The group's test_group.yaml: its own file edited in place (comments kept), with
        the keys it inherited from the directories above, which 2025-09 does not read."""
        settings = self.problem.settings(group.name)
        out = self._own(group)
        for key in [k for k in out if k in ARGS or k in SCORING]:
            value = out[key]
            if key in SCORING:
                out.pop(key)  # (see _scores)
            elif isinstance(value, list | dict):
                rename(out, key, ARGS[key])
            else:
                rename(out, key, ARGS[key], flow_seq(words(value)))
        for key, value in settings.items():
            target = ARGS.get(key)
            if target is not None and target != "output_validator_args" and target not in out:
                out[target] = value if isinstance(value, dict) else flow_seq(words(value))
            elif key in KEPT and key not in out:
                out[key] = value
        validator_args = self.root_args + [
            w
            for k in ("output_validator_flags", "output_validator_args")
            for w in words(settings.get(k))
        ]
        if validator_args and words(out.get("output_validator_args")) != validator_args:
            out["output_validator_args"] = flow_seq(validator_args)
        if self.scoring and not sample:
            self._scores(group, settings, out)
        elif self.problem.legacy and not sample and any(k in settings for k in SCORING):
            self.note("dropped", group.rel, "scoring keys of a pass-fail problem")
        rel = f"{group.rel}/test_group.yaml"
        if out or not (top or sample):
            self.result.written[rel] = dump(out) if out else "{}\n"

    def _own(self, group: TestGroup) -> CommentedMap:
        for name in ("test_group.yaml", "testdata.yaml"):
            rel = f"{group.rel}/{name}"
            if self.problem.file(rel) is not None:
                text = (self.problem.root / rel).read_text(encoding="utf-8")
                return load_map(text, rel)
        return new_map()

    def _scores(self, group: TestGroup, settings: Mapping[str, Any], out: Any) -> None:
        where = group.rel
        flags = words(settings.get("grader_flags"))
        if str(settings.get("grading", "default")) == "custom":
            self.note(
                "unmappable",
                where,
                "grading: custom (a custom grader): 2025-09 "
                "aggregates with score_aggregation sum or min only",
            )
        aggregation = next((f for f in flags if f in ("sum", "min")), None)
        if "score_aggregation" in settings:
            aggregation = str(settings["score_aggregation"])
        if aggregation:
            out["score_aggregation"] = aggregation
        for flag in (f for f in flags if f not in ("sum", "min", "first_error")):
            self.note("unmappable", where, f"grader flag {flag}: no 2025-09 counterpart")
        if self._number(where, "reject_score", settings.get("reject_score", 0)) not in (0, None):
            self.note(
                "unmappable",
                where,
                "reject_score other than 0: 2025-09 gives a rejected case no score",
            )
        top_score = self._max_score(group, settings, aggregation)
        if top_score is not None:
            out["max_score"] = top_score

    def _max_score(
        self, group: TestGroup, settings: Mapping[str, Any], aggregation: str | None
    ) -> int | str | None:
        where = group.rel
        if "max_score" in settings:
            if settings["max_score"] == UNBOUNDED:
                return UNBOUNDED
            top = self._number(where, "max_score", settings["max_score"])
            return None if top is None else int(top)
        if "range" in settings:
            return self._range_top(where, settings["range"])
        if "accept_score" in settings and group.name != "secret":
            each = self._number(where, "accept_score", settings["accept_score"])
            count = sum(1 for _ in _cases(group))
            return None if each is None else int(each * (count if aggregation != "min" else 1))
        return None

    def _range_top(self, where: str, value: object) -> int | str | None:
        """A legacy ``range: "low high"`` as a 2025-09 max_score (+inf: unbounded)."""
        bounds = words(value)
        low, high = (as_number(b) for b in bounds) if len(bounds) == 2 else (None, None)
        if low is None or high is None:
            self.note("unmappable", where, f"range {str(value)[:60]!r}: not two numbers")
            return None
        if low != 0:
            self.note(
                "unmappable", where, f"range {bounds[0]} {bounds[1]}: a 2025-09 score starts at 0"
            )
        return UNBOUNDED if high == float("inf") else int(high)

    def _number(self, where: str, key: str, value: object) -> float | None:
        """The number a scoring key says, or None with a note that it says none."""
        number = as_number(value)
        if number is None or abs(number) == float("inf"):
            self.note("unmappable", where, f"{key}: {str(value)[:60]!r} is not a finite number")
            return None
        return number

    def _downloads(self, name: str, files: Mapping[str, str]) -> None:
        """2025-09: a case shown by its ``.interaction`` must name its downloads too;
        they stay the ``.in``/``.ans`` the older versions offered."""
        if ".interaction" not in files or not is_sample(name):
            return
        if ".in" not in files:  # (legacy's extra transcripts)
            self.result.removed.add(files[".interaction"])
            why = "an interaction without .in: a 2025-09 sample is a test case (show it in "
            self.note("unmappable", files[".interaction"], why + "the statement instead)")
            return
        for ext, override in ((".in", ".in.download"), (".ans", ".ans.download")):
            if ext in files and override not in files and not (ext == ".ans" and ".out" in files):
                self.result.copies[f"data/{name}{override}"] = files[ext]
                self.note(
                    "changed",
                    files[ext],
                    f"copied as {name}{override}: 2025-09 "
                    "downloads what it shows by .interaction from its own files",
                )

    def _case(self, name: str, files: Mapping[str, str]) -> None:
        self._downloads(name, files)
        extra = {".desc": "description", ".hint": "hint"}
        found = {key: files[ext] for ext, key in extra.items() if ext in files}
        if not found:
            return
        rel = f"data/{name}.yaml"
        root = self.problem.root
        doc = (
            load_map((root / rel).read_text(encoding="utf-8"), rel)
            if ".yaml" in files
            else new_map()
        )
        for key, source in found.items():
            text = (root / source).read_text(encoding="utf-8").strip()
            if key in doc and doc[key] != text:
                self.note("unmappable", source, f"{rel} has another {key}")
                continue
            doc[key] = text
            self.result.removed.add(source)
        self.result.written[rel] = dump(doc)


def _cases(group: TestGroup) -> Any:
    return (case for g in group.walk() for case in g.cases)


def upgrade_data(problem: Problem, root_args: list[str]) -> DataResult:
    return _Data(problem, root_args).run()
