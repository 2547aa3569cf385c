"""Typed view of ``problem.yaml``, built leniently: a value of the wrong type falls back
to its default here and is reported by the config checks (which validate the schema)."""

from __future__ import annotations

from dataclasses import dataclass, field
from math import isfinite

from problemtools_py.model.conventions import DOMJUDGE_VALIDATION_WORDS
from problemtools_py.yamlfile import YamlDoc

TYPE_CHECKING = False  # (not typing's: importing typing costs every command ~3 ms)
if TYPE_CHECKING:
    from typing import Any

LEGACY_VERSIONS = frozenset({"legacy", "legacy-icpc"})
V2023_VERSIONS = frozenset({"2023-07-draft", "2023-07"})
V2025_VERSIONS = frozenset({"2025-09", "2025-09-draft"})

# problem.yaml keys of the legacy format that 2023-07 and later renamed or moved: in a
# later package each is ignored with a warning naming its successor (as BAPCtools does;
# the format's own example packages still carry source_url).
LEGACY_RENAMED_KEYS: dict[tuple[str | int, ...], str] = {
    ("author",): "credits.authors",
    ("source_url",): "source.url",
    ("validation",): "type (and output_validator/)",
    ("validator_flags",): "output_validator_args in test_group.yaml",
    ("grading",): "score_aggregation and max_score in test_group.yaml",
    ("limits", "time_multiplier"): "limits.time_multipliers.ac_to_time_limit",
    ("limits", "time_safety_margin"): "limits.time_multipliers.time_limit_to_tle",
}


@dataclass(frozen=True)
class ProblemLimits:
    """The limits of problem.yaml, with the seed's defaults; each field names its unit (the
    YAML keys do not: ``memory`` is ``memory_mib``, ``compilation_time`` is
    ``compilation_seconds``, and so on)."""

    time_multiplier: float = 5.0  # legacy; 2023-07 ac_to_time_limit
    time_safety_margin: float = 2.0  # legacy; 2023-07 time_limit_to_tle
    time_limit: float | None = None
    time_resolution: float = 1.0
    memory_mib: int = 2048
    output_mib: int = 8
    code_kib: int = 128
    compilation_seconds: int = 60
    compilation_memory_mib: int = 2048
    validation_seconds: int = 60
    validation_memory_mib: int = 2048
    validation_output_mib: int = 8
    validation_passes: int = 2


@dataclass(frozen=True)
class ProblemConfig:
    """problem.yaml read into the rules the judge applies, in every format version."""

    names: dict[str, str] = field(default_factory=dict)
    types: frozenset[str] = frozenset({"pass-fail"})
    uuid: str | None = None
    license: str = "unknown"
    rights_owner: str | None = None
    authors: tuple[str, ...] = ()
    source: str | None = None
    source_url: str | None = None
    custom_validation: bool = False
    validator_score: bool = False  # legacy "validation: custom score": score.txt is the score
    validator_flags: tuple[str, ...] = ()
    grader: str = "first_error"  # the seed's key: first_error, sum or custom
    languages: tuple[str, ...] | None = None  # None: all
    libraries: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    limits: ProblemLimits = ProblemLimits()
    constants: dict[str, object] = field(default_factory=dict)

    @property
    def scoring(self) -> bool:
        return "scoring" in self.types or self.grader == "sum"

    @property
    def interactive(self) -> bool:
        return "interactive" in self.types

    @property
    def multi_pass(self) -> bool:
        return "multi-pass" in self.types

    @property
    def implied_rights_owner(self) -> str | None:
        if self.rights_owner:
            return self.rights_owner
        if self.authors:
            return ", ".join(self.authors)
        return self.source


def _str(data: dict[str, Any], key: str) -> str | None:
    value = data.get(key)
    return value if isinstance(value, str) else None


PROBLEM_TYPES = ("pass-fail", "scoring", "multi-pass", "interactive", "submit-answer")


def spaced_types(value: object) -> tuple[str, ...] | None:
    """The types of a ``type`` written as one string of several, space-separated (as the
    2025-09 format's examples write them, though its text wants a single value or a
    sequence), when each is a type; else None. The model reads them as those types."""
    words = _words(value) if isinstance(value, str) else ()
    return words if len(words) > 1 and all(w in PROBLEM_TYPES for w in words) else None


def _words(value: object) -> tuple[str, ...]:
    if isinstance(value, str):
        return tuple(value.split())
    if isinstance(value, list):
        return tuple(str(v) for v in value if isinstance(v, str | int | float))
    return ()


def _number(value: object, default: float, least: float = 0.0, strict: bool = True) -> float:
    """A limit as a number when it is one the format allows (finite, over ``least``, or
    at least it when not ``strict``), else its default: the schema reports the value."""
    if not isinstance(value, int | float) or isinstance(value, bool) or not isfinite(value):
        return default
    return float(value) if value > least or (not strict and value == least) else default


# problem.yaml's integer limit keys -> the ProblemLimits fields that hold them
LIMIT_FIELDS = {
    "memory": "memory_mib",
    "output": "output_mib",
    "code": "code_kib",
    "compilation_time": "compilation_seconds",
    "compilation_memory": "compilation_memory_mib",
    "validation_time": "validation_seconds",
    "validation_memory": "validation_memory_mib",
    "validation_output": "validation_output_mib",
}


def _limits(raw: object, modern: bool) -> ProblemLimits:
    if not isinstance(raw, dict):
        raw = {}
    base = ProblemLimits()
    if modern:
        mult = raw.get("time_multipliers")
        mult = mult if isinstance(mult, dict) else {}
        tm = _number(mult.get("ac_to_time_limit"), 2.0, 1.0, strict=False)
        ts = _number(mult.get("time_limit_to_tle"), 1.5, 1.0, strict=False)
    else:
        tm = _number(raw.get("time_multiplier"), base.time_multiplier)
        ts = _number(raw.get("time_safety_margin"), base.time_safety_margin)
    time_limit = raw.get("time_limit")
    ints = {
        field: int(_number(raw.get(key), getattr(base, field), 1, False))
        for key, field in LIMIT_FIELDS.items()
    }
    passes = int(_number(raw.get("validation_passes"), base.validation_passes, 2, False))
    ints["validation_passes"] = passes
    return ProblemLimits(
        time_multiplier=tm,
        time_safety_margin=ts,
        time_limit=_number(time_limit, 0.0) or None,
        time_resolution=_number(raw.get("time_resolution"), 1.0),
        **ints,
    )


def _authors(data: dict[str, Any], modern: bool) -> tuple[str, ...]:
    if not modern:
        value = data.get("author")
        if isinstance(value, list):
            return tuple(str(v) for v in value)
        if isinstance(value, str):
            parts = value.replace(" and ", ",").replace("&", ",").split(",")
            return tuple(p.strip() for p in parts if p.strip())
        return ()
    credits = data.get("credits")
    if isinstance(credits, str):
        return (credits,)
    if isinstance(credits, dict):
        people = credits.get("authors")
        people = people if isinstance(people, list) else [people] if people else []
        return tuple(
            p if isinstance(p, str) else str(p.get("name", ""))
            for p in people
            if isinstance(p, str | dict)
        )
    return ()


def _source(data: dict[str, Any]) -> str | None:
    value = data.get("source")
    if isinstance(value, dict):
        value = value.get("name")
    elif isinstance(value, list) and value:
        first = value[0]
        value = first.get("name") if isinstance(first, dict) else first
    return value if isinstance(value, str) else None


LEGACY_TYPES = frozenset({"pass-fail", "scoring"})


def _names(data: dict[str, Any]) -> dict[str, str]:
    value = data.get("name")
    if isinstance(value, str):
        return {"en": value}
    if isinstance(value, dict):
        return {str(k): v for k, v in value.items() if isinstance(v, str)}
    return {}


def _legacy_validation(data: dict[str, Any]) -> tuple[bool, frozenset[str], tuple[str, ...]]:
    """``validation: custom interactive score`` and the seed's ``validator: custom flags``."""
    custom = False
    types: set[str] = set()
    validation = _words(data.get("validation"))
    if validation and validation[0] == "custom":
        custom = True
        types |= {"interactive", *DOMJUDGE_VALIDATION_WORDS} & set(validation[1:])
        if "score" in validation[1:]:
            types.add("scoring")
    flags = _words(data.get("validator_flags"))
    seed = _words(data.get("validator"))
    if seed and seed[0] == "custom":
        custom, seed = True, seed[1:]
    return custom, frozenset(types), seed + flags


def build_config(doc: YamlDoc, modern: bool) -> ProblemConfig:
    data = doc.data if isinstance(doc.data, dict) else {}
    raw_type = data.get("type", "pass-fail")
    types = set(_words(raw_type))
    if not modern:  # (legacy's type is one of these; validation says the rest)
        types &= LEGACY_TYPES
    types = types or {"pass-fail"}
    custom, extra_types, flags = (
        (False, frozenset[str](), ()) if modern else _legacy_validation(data)
    )
    types |= extra_types
    validator_score = not modern and "score" in _words(data.get("validation"))[1:]
    if "scoring" in types:
        types.discard("pass-fail")
    if modern:
        custom = bool(types & {"interactive", "multi-pass"})
    languages = data.get("languages")
    constants = data.get("constants")
    return ProblemConfig(
        names=_names(data),
        types=frozenset(types),
        uuid=_str(data, "uuid"),
        license=_str(data, "license") or "unknown",
        rights_owner=_str(data, "rights_owner"),
        authors=_authors(data, modern),
        source=_source(data),
        source_url=_str(data, "source_url") or _str(data, "source-url"),
        custom_validation=custom,
        validator_score=validator_score,
        validator_flags=flags,
        grader=_str(data, "grader") or "first_error",
        languages=None if languages in (None, "all") else _words(languages),
        libraries=_words(data.get("libraries")),
        keywords=_words(data.get("keywords")),
        limits=_limits(data.get("limits"), modern),
        constants=dict(constants) if isinstance(constants, dict) else {},
    )
