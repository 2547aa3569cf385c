"""problem.yaml: present, parseable, valid against the version's JSON Schema, and the
cross-field rules a schema cannot express."""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterator

from problemtools_py.checks.registry import check
from problemtools_py.checks.schema import unknown_keys_warnings, validate
from problemtools_py.findings import Finding, error, warning
from problemtools_py.model.config import (
    LEGACY_RENAMED_KEYS,
    LEGACY_VERSIONS,
    V2023_VERSIONS,
    V2025_VERSIONS,
    spaced_types,
)
from problemtools_py.model.conventions import DOMJUDGE_VALIDATION_WORDS, extension
from problemtools_py.model.language_codes import KNOWN_LANGUAGES
from problemtools_py.model.problem import Problem
from problemtools_py.model.settings import TIMELIMIT_FILE
from problemtools_py.model.timelimit import first_limit
from problemtools_py.rulesets import Ruleset
from problemtools_py.yamlfile import YamlDoc

FILE = "problem.yaml"
EMBARGO_FORM = re.compile(r"^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}Z)?$")
# The longest run per test case a package should ask for: a judge's usual cap on compiling
# and on validating (the format's "typical system default" for both is 60 s).
LONG_RUN_SECONDS = 60.0
MARGIN_KEYS = {True: ("limits", "time_safety_margin"),
               False: ("limits", "time_multipliers", "time_limit_to_tle")}  # fmt: skip
INCOMPATIBLE_TYPES = (
    ("pass-fail", "scoring"),
    ("multi-pass", "submit-answer"),
    ("interactive", "submit-answer"),
)

TYPE_CHECKING = False  # (not typing's: importing typing costs every command ~3 ms)
if TYPE_CHECKING:
    from typing import Any


def yaml_doc_findings(doc: YamlDoc, check_id: str) -> Iterator[Finding]:
    """Syntax errors, duplicate keys and a non-mapping top level of any YAML file."""
    if doc.syntax_error is not None:
        yield error(check_id, doc.syntax_error.message, doc.rel, doc.syntax_error.line)
        return
    for dup in doc.duplicates:
        yield error(check_id, dup.message, doc.rel, dup.line)
    if doc.data is not None and not isinstance(doc.data, dict):
        yield error(check_id, "must be a mapping of keys to values", doc.rel, 1)


def _data(problem: Problem) -> dict[str, Any]:
    return problem.yaml.data if isinstance(problem.yaml.data, dict) else {}


@check("config")
def problem_yaml(problem: Problem) -> Iterator[Finding]:
    doc = problem.yaml
    if not doc.exists:
        yield error("problem-yaml", "problem.yaml is missing", FILE)
        return
    yield from yaml_doc_findings(doc, "problem-yaml")
    if doc.unreadable:
        return
    declared = problem.format_declared
    if declared is not None and declared not in LEGACY_VERSIONS | V2023_VERSIONS | V2025_VERSIONS:
        yield error(
            "problem-yaml",
            f"problem_format_version: unknown version '{declared}' "
            "(known: legacy, legacy-icpc, 2023-07-draft, 2023-07, 2025-09); read as legacy",
            FILE,
            doc.line_of(("problem_format_version",)),
        )
        return
    if problem.legacy:
        yield from _domjudge_validation(doc, validate(doc, "problem-legacy", "problem-yaml"))
        passes = problem.config.multi_pass  # (DOMjudge's multi-pass reads validation_passes)
        for finding in unknown_keys_warnings(doc, "problem-legacy", "problem-yaml"):
            if not (passes and finding.message.startswith("limits.validation_passes:")):
                yield finding
    else:
        schema = f"problem-{problem.format.schema_suffix}"
        found = validate(doc, schema, "problem-yaml", LEGACY_RENAMED_KEYS)
        yield from _spaced_types_explained(doc, found)


def _domjudge_validation(doc: YamlDoc, found: list[Finding]) -> Iterator[Finding]:
    """The schema's finding for ``validation: custom multi-pass``, named as the DOMjudge
    extension it is (the package is judged as multi-pass, see model/config.py)."""
    data = doc.data if isinstance(doc.data, dict) else {}
    words = str(data.get("validation", "")).split()
    line = doc.line_of(("validation",))
    extended = words[:1] == ["custom"] and DOMJUDGE_VALIDATION_WORDS & set(words[1:])
    for finding in found:
        if extended and finding.message.startswith("validation: ") and finding.line == line:
            finding = extension(
                Ruleset.DOMJUDGE,
                finding.check,
                f"validation: '{data['validation']}': legacy's validation words are custom, "
                "score and interactive; multi-pass is DOMjudge's (judged as multi-pass, "
                "with limits.validation_passes)",
                finding.path,
                finding.line,
            )
        yield finding


def _spaced_types_explained(doc: YamlDoc, found: list[Finding]) -> Iterator[Finding]:
    """The schema's finding for ``type: pass-fail interactive``, said plainly."""
    data = doc.data if isinstance(doc.data, dict) else {}
    types = spaced_types(data.get("type"))
    line = doc.line_of(("type",))
    for finding in found:
        if types is not None and finding.message.startswith("type: ") and finding.line == line:
            sequence = ", ".join(types)
            finding = error(
                finding.check,
                f"type: '{data['type']}' is one string, not {len(types)} types: several are "
                f"a sequence, [{sequence}] (the format's examples write them with spaces; "
                "its text allows a single value or a sequence; read as those types)",
                finding.path,
                finding.line,
            )
        yield finding


@check("config")
def license_and_rights(problem: Problem) -> Iterator[Finding]:
    data = _data(problem)
    lic = data.get("license", "unknown")
    if not isinstance(lic, str):
        return
    line = problem.yaml.line_of(("license",))
    owner = data.get("rights_owner")
    if lic == "public domain" and owner:
        yield error(
            "license",
            "rights_owner must not be given for a public domain license",
            FILE,
            problem.yaml.line_of(("rights_owner",)),
        )
    elif lic not in ("unknown", "public domain") and not problem.config.implied_rights_owner:
        who = "author or source" if problem.legacy else "credits.authors or source"
        yield error(
            "license",
            f"license '{lic}' needs a rights owner: give rights_owner (or {who}, which imply it)",
            FILE,
            line,
        )


@check("config")
def legacy_cross_fields(problem: Problem) -> Iterator[Finding]:
    if not problem.legacy:
        return
    data = _data(problem)
    doc = problem.yaml
    if ("source_url" in data or "source-url" in data) and "source" not in data:
        key = "source_url" if "source_url" in data else "source-url"
        yield error("problem-yaml", f"{key} is given without source", FILE, doc.line_of((key,)))
    if "source_url" in data and "source-url" in data:
        yield warning(
            "problem-yaml",
            "both source_url and source-url are given; source_url wins",
            FILE,
            doc.line_of(("source-url",)),
        )
    validation = str(data.get("validation", "")).split()
    if "score" in validation[1:] and data.get("type") != "scoring":
        yield error(
            "problem-yaml",
            "validation 'custom score' needs type: scoring",
            FILE,
            doc.line_of(("validation",)),
        )
    if "grading" in data and not problem.config.scoring:
        yield warning(
            "problem-yaml",
            "grading only applies to scoring problems; ignored",
            FILE,
            doc.line_of(("grading",)),
        )
    if "validator" in data and "validation" in data:
        yield warning(
            "problem-yaml",
            "both the seed's 'validator' and 'validation' are given",
            FILE,
            doc.line_of(("validator",)),
        )
    yield from _seed_validator_flags(problem)
    yield from _languages(problem)


def _seed_validator_flags(problem: Problem) -> Iterator[Finding]:
    """The seed's ``validator: [custom] flags``: custom only first; known flags for default."""
    words = str(_data(problem).get("validator", "")).split()
    line = problem.yaml.line_of(("validator",))
    if "custom" in words[1:]:
        yield error("problem-yaml", "validator: 'custom' must be the first value", FILE, line)
    if words and words[0] == "custom":
        return
    yield from default_validator_flags(words, FILE, line, "validator")


def default_validator_flags(
    words: list[str], rel: str, line: int | None, key: str
) -> Iterator[Finding]:
    """Flags the default output validator understands, each tolerance with a number."""
    i = 0
    while i < len(words):
        flag = words[i]
        if flag in ("case_sensitive", "space_change_sensitive"):
            i += 1
            continue
        if flag in ("float_tolerance", "float_relative_tolerance", "float_absolute_tolerance"):
            value = words[i + 1] if i + 1 < len(words) else None
            if value is None or not _is_nonneg_float(value):
                yield error("problem-yaml", f"{key}: {flag} needs a non-negative number", rel, line)
            i += 2
            continue
        yield error(
            "problem-yaml",
            f"{key}: unknown flag '{flag}' for the default output validator",
            rel,
            line,
        )
        i += 1


def _is_nonneg_float(text: str) -> bool:
    try:
        value = float(text)
    except ValueError:
        return False
    return value >= 0 and value == value and value != float("inf")


def _languages(problem: Problem) -> Iterator[Finding]:
    langs = problem.config.languages or ()
    for lang in langs:
        if lang not in KNOWN_LANGUAGES:
            yield error(
                "problem-yaml",
                f"languages: unknown language code '{lang}'",
                FILE,
                problem.yaml.line_of(("languages",)),
            )


@check("config")
def modern_cross_fields(problem: Problem) -> Iterator[Finding]:
    if problem.legacy:
        return
    data = _data(problem)
    doc = problem.yaml
    types = problem.config.types
    raw = data.get("type")
    listed = raw if isinstance(raw, list) else [raw]  # (the schema reports other values)
    raw_types = {t for t in listed if isinstance(t, str)}
    for a, b in INCOMPATIBLE_TYPES:
        if a in raw_types and b in raw_types:
            yield error(
                "problem-yaml",
                f"type: '{a}' and '{b}' cannot be combined",
                FILE,
                doc.line_of(("type",)),
            )
    limits = data.get("limits")
    limits = limits if isinstance(limits, dict) else {}
    if "validation_passes" in limits and "multi-pass" not in types:
        yield error(
            "problem-yaml",
            "limits.validation_passes is only for multi-pass problems",
            FILE,
            doc.line_of(("limits", "validation_passes")),
        )
    yield from _time_resolution(problem, limits)
    embargo = data.get("embargo_until")
    if isinstance(embargo, str) and EMBARGO_FORM.match(embargo):
        try:
            datetime.datetime.fromisoformat(embargo.replace("Z", "+00:00"))
        except ValueError:
            yield error(
                "problem-yaml",
                f"embargo_until: '{embargo}' is not a real date",
                FILE,
                doc.line_of(("embargo_until",)),
            )
    for lang, name in problem.config.names.items():
        if "\\" in name or "$" in name:
            yield error(
                "problem-yaml",
                f"name ({lang}): LaTeX is not allowed in the name",
                FILE,
                doc.line_of(("name",)),
            )
    yield from _languages(problem)


def _positive(value: object) -> bool:
    if not isinstance(value, int | float) or isinstance(value, bool):
        return False
    return 0 < value < float("inf")


def _time_resolution(problem: Problem, limits: dict[str, Any]) -> Iterator[Finding]:
    """2025-09: an explicit time_limit must be a whole multiple of time_resolution (1 s
    unless given)."""
    if not problem.released:
        return
    limit, step = limits.get("time_limit"), limits.get("time_resolution", 1.0)
    if not (_positive(limit) and _positive(step)):
        return  # (the schema says why)
    steps = limit / step
    if abs(steps - round(steps)) > 1e-9 * max(1.0, steps):
        yield error(
            "problem-yaml",
            f"limits.time_limit {limit:g} is not a multiple of limits.time_resolution {step:g}",
            FILE,
            problem.yaml.line_of(("limits", "time_limit")),
        )


@check("config")
def timelimit_file(problem: Problem) -> Iterator[Finding]:
    """A ``.timelimit`` file fixes the time limit; one that says no time is ignored."""
    found = problem.timelimit_file
    if found is not None and found.problem is not None:
        yield warning(
            "timelimit",
            f"{found.problem}; it should hold the time limit in seconds, so it is ignored",
            found.source,
        )


@check("config")
def long_runs(problem: Problem) -> Iterator[Finding]:
    """Limits under which an expected-TLE submission runs for over a minute per test case
    even when every accepted one is instant: most likely milliseconds written where the
    format wants seconds, or a mistyped margin. The format sets no maximum, so this is a
    warning; a judge may refuse such a package, and verification burns that long."""
    least = first_limit(problem, None)
    if least.hard <= LONG_RUN_SECONDS:
        return
    margin = MARGIN_KEYS[problem.legacy]
    message = (
        f"every expected-TLE submission runs up to {least.hard:.10g} s per test case "
        f"(a time limit of {least.seconds:.10g} s x {'.'.join(margin)} {least.margin:.10g})"
    )
    declared = problem.declared_time_limit
    if least.seconds <= LONG_RUN_SECONDS:  # (the margin's doing)
        yield warning("problem-yaml", message, FILE, problem.yaml.line_of(margin))
    elif declared is None or declared.seconds is None:  # (2025-09's time_resolution)
        where = problem.yaml.line_of(("limits", "time_resolution"))
        yield warning("problem-yaml", message, FILE, where)
    else:
        if declared.seconds >= 100:
            message += f"; times are in seconds: {declared.seconds:.10g} ms would be "
            message += f"{declared.seconds / 1000:.10g} s"
        if declared.source == TIMELIMIT_FILE:
            yield warning("timelimit", message, TIMELIMIT_FILE)
        else:
            where = problem.yaml.line_of(("limits", "time_limit"))
            yield warning("problem-yaml", message, FILE, where)
