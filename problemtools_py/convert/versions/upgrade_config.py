"""problem.yaml of a legacy (or the seed's) or 2023-07 draft package, rewritten for
2025-09 in place (comments and key order kept): each legacy key mapped to its successor,
``problem_format_version``, ``name`` and ``uuid`` added, the time multipliers and time
limit written out so the limit stays what it was. What 2025-09 cannot say is a
:class:`Note` of kind ``unmappable``."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

from ruamel.yaml.comments import CommentedMap

from problemtools_py.convert.roundtrip import flow_seq, new_map, put, rename, seq, words

TARGET = "2025-09"
# problem.yaml keys both versions read the same way.
KEPT = frozenset({"problem_format_version", "type", "name", "uuid", "version", "credits",
                  "source", "license", "rights_owner", "embargo_until", "limits", "keywords",
                  "languages", "allow_file_writing", "constants"})  # fmt: skip
LIMITS_KEPT = frozenset({"time_limit", "time_resolution", "memory", "output", "code",
                         "compilation_time", "compilation_memory", "validation_time",
                         "validation_memory", "validation_output", "validation_passes",
                         "time_multipliers"})  # fmt: skip


@dataclass(frozen=True)
class Note:
    """One thing a conversion changed, dropped or cannot say, for its report."""

    kind: str  # "changed", "dropped" (nothing lost), "unmappable" (needs --force)
    path: str
    message: str


@dataclass
class ConfigResult:
    """problem.yaml upgraded: the new mapping, the validator arguments it moves to data/, notes."""

    data: CommentedMap
    output_validator_args: list[str] = field(default_factory=list)  # for data/test_group.yaml
    notes: list[Note] = field(default_factory=list)


class _Mapper:
    def __init__(self, data: CommentedMap, legacy: bool) -> None:
        self.data = data
        self.legacy = legacy
        self.result = ConfigResult(data)
        self.types: list[str] = [str(t) for t in words(data.get("type"))] or []

    def note(self, kind: str, message: str) -> None:
        self.result.notes.append(Note(kind, "problem.yaml", message))

    def run(self, names: dict[str, str], time_limit: float | None) -> ConfigResult:
        data = self.data
        if "problem_format_version" in data:
            data["problem_format_version"] = TARGET
        else:
            data.insert(0, "problem_format_version", TARGET)
        self._validation()
        self._credits()
        self._source()
        for key in list(data.keys()):
            self._other(str(key))
        self._type()
        self._name(names)
        if "uuid" not in data:
            put(data, "uuid", str(uuid.uuid4()), after="name")
            self.note("changed", "uuid: a new one (2025-09 requires it)")
        self._limits(time_limit)
        return self.result

    def _validation(self) -> None:
        data = self.data
        for key in ("validation", "validator", "validator_flags"):
            if key not in data:
                continue
            said = words(data[key])
            if key == "validation" and said[:1] == ["custom"]:
                self.types += [w for w in ("interactive",) if w in said[1:]]
                if "score" in said[1:]:
                    self.types.append("scoring")
            elif key == "validator" and said[:1] == ["custom"]:
                self.result.output_validator_args += said[1:]
            elif key != "validation":
                self.result.output_validator_args += said
            del data[key]
            self.note(
                "changed", f"{key}: now type and output_validator_args in data/test_group.yaml"
            )

    def _credits(self) -> None:
        data = self.data
        if "author" not in data:
            return
        value = data["author"]
        if isinstance(value, list):
            people = [str(v) for v in value]
        else:
            people = [p.strip() for p in str(value).replace(" and ", ",").split(",")]
            people = [p for p in people if p]
        authors: Any = people[0] if len(people) == 1 else seq(people)
        if "credits" in data:
            data.pop("author")
            self.note("unmappable", "both author and credits: merge them by hand")
            return
        rename(data, "author", "credits", new_map({"authors": authors}))
        self.note("changed", "author -> credits.authors")

    def _source(self) -> None:
        data = self.data
        for key in ("source_url", "source-url"):
            if key not in data:
                continue
            url = str(data.pop(key))
            name = data.get("source")
            if isinstance(name, str):
                data["source"] = new_map({"name": name, "url": url})
                self.note("changed", f"{key} -> source.url")
            else:
                self.note(
                    "unmappable",
                    f"{key} without a source name: 2025-09 needs source.name beside source.url",
                )

    def _other(self, key: str) -> None:
        data = self.data
        if key == "grading":
            grading = data.pop(key)
            objective = grading.get("objective") if isinstance(grading, dict) else None
            if objective not in (None, "max"):
                self.note("unmappable", "grading.objective: min has no 2025-09 counterpart")
            else:
                self.note("dropped", "grading: 2025-09 always maximises the score")
        elif key == "grader":
            grader = str(data.pop(key))
            if grader == "sum" and "scoring" not in self.types:
                self.types.append("scoring")
            if grader not in ("first_error", "sum"):
                self.note(
                    "unmappable",
                    f"grader: {grader}: 2025-09 has no custom graders "
                    "(score_aggregation sum or min in test_group.yaml)",
                )
            elif grader == "sum":
                self.note("changed", "grader: sum -> type: scoring")
            else:
                self.note("dropped", "grader: first_error is how 2025-09 judges anyway")
        elif key == "libraries":
            if words(data.pop(key)):
                self.note(
                    "unmappable",
                    "libraries: 2025-09 has no such key; say in the "
                    "statement which libraries a judge must offer",
                )
        elif key == "keywords" and isinstance(data[key], str):
            data[key] = flow_seq(words(data[key]))
            self.note("changed", "keywords: a list")
        elif key == "languages" and isinstance(data[key], str) and data[key] != "all":
            data[key] = flow_seq(words(data[key]))
            self.note("changed", "languages: a list")
        elif key not in KEPT:
            self.note("unmappable", f"{key}: no such key in 2025-09")

    def _type(self) -> None:
        types = list(
            dict.fromkeys(t for t in self.types if t != "pass-fail" or "scoring" not in self.types)
        )
        value: Any = types[0] if len(types) == 1 else flow_seq(types) if types else None
        if words(self.data.get("type")) == (types or ["pass-fail"]):
            return  # as it was
        if value is None or value == "pass-fail":
            self.data.pop("type", None)
        else:
            put(self.data, "type", value, after="problem_format_version")

    def _name(self, names: dict[str, str]) -> None:
        data = self.data
        current = data.get("name")
        if isinstance(current, dict) or not names:
            return
        made: dict[str, str] = dict(names)
        if isinstance(current, str):
            made = {lang: current if lang == "en" else title for lang, title in names.items()}
        value: Any = new_map(made)
        put(data, "name", value, after="type" if "type" in data else "problem_format_version")
        self.note("changed", "name: one per statement language")

    def _limits(self, time_limit: float | None) -> None:
        limits = self.data.get("limits")
        if not isinstance(limits, dict):
            limits = new_map()
        if self.legacy or "time_multiplier" in limits or "time_safety_margin" in limits:
            # (the legacy defaults differ from 2025-09's: write what the package meant)
            ac = limits.pop("time_multiplier", 5 if self.legacy else 2.0)
            tle = limits.pop("time_safety_margin", 2 if self.legacy else 1.5)
            multipliers = new_map({"ac_to_time_limit": ac, "time_limit_to_tle": tle})
            put(limits, "time_multipliers", multipliers)
            self.note(
                "changed", "limits.time_multiplier, time_safety_margin -> limits.time_multipliers"
            )
        if time_limit is not None and "time_limit" not in limits:
            value: Any = int(time_limit) if float(time_limit).is_integer() else time_limit
            put(limits, "time_limit", value)
            self.note("changed", f"limits.time_limit: {value} (the limit it had)")
            step = _resolution(float(time_limit))
            if step != 1 and "time_resolution" not in limits:
                put(limits, "time_resolution", step)
                self.note(
                    "changed",
                    f"limits.time_resolution: {step} (2025-09 wants the "
                    "time limit a multiple of it)",
                )
        for key in list(limits.keys()):
            if key not in LIMITS_KEPT:
                limits.pop(key)
                self.note("unmappable", f"limits.{key}: no such key in 2025-09")
        if limits:
            put(self.data, "limits", limits)


def _resolution(seconds: float) -> float:
    """The coarsest of 1, 0.5, 0.1, ... 0.001 s that ``seconds`` is a multiple of."""
    for step in (1, 0.5, 0.1, 0.05, 0.01, 0.005, 0.001):
        if abs(seconds / step - round(seconds / step)) < 1e-9:
            return step
    return 0.001


def upgrade_config(
    data: CommentedMap, legacy: bool, names: dict[str, str], time_limit: float | None
) -> ConfigResult:
    """``data`` (problem.yaml, edited in place) as 2025-09; ``names`` the statements'
    titles by language; ``time_limit`` the limit to write (None: leave it derived)."""
    return _Mapper(data, legacy).run(names, time_limit)
