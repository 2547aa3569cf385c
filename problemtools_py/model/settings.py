"""Rules of the format decided once, when a package is loaded: each test group's effective
settings (inherited through testdata.yaml / test_group.yaml), and the time limit a file
in the package fixes (``.timelimit``)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType

from problemtools_py.model.problem import DeclaredLimit, TestGroup

TYPE_CHECKING = False  # (not typing's: importing typing costs every command ~3 ms)
if TYPE_CHECKING:
    from typing import Any

TIMELIMIT_FILE = ".timelimit"


# legacy problem.yaml ``grading:`` keys that override every group's testdata.yaml (as
# problemtools applies them); on_reject's words there map to testdata.yaml's
PROBLEM_GRADING_KEYS = ("accept_score", "reject_score", "range")
PROBLEM_ON_REJECT = {"first_error": "break", "grade": "continue"}


def problem_grading(yaml_data: object) -> Mapping[str, Any]:
    """What a legacy problem.yaml's ``grading:`` sets in every test group."""
    grading = yaml_data.get("grading") if isinstance(yaml_data, dict) else None
    if not isinstance(grading, dict):
        return {}
    found = {key: grading[key] for key in PROBLEM_GRADING_KEYS if key in grading}
    on_reject = PROBLEM_ON_REJECT.get(str(grading.get("on_reject")))
    return {**found, "on_reject": on_reject} if on_reject is not None else found


def group_settings(
    data: TestGroup | None, overrides: Mapping[str, Any] | None = None
) -> Mapping[str, Mapping[str, Any]]:
    """Group name -> its effective settings: its own file's keys over its parent's, key by
    key, down from ``data/`` (legacy testdata.yaml and 2023-07 test_group.yaml alike), and
    ``overrides`` (legacy problem.yaml's grading keys) over both."""
    found: dict[str, Mapping[str, Any]] = {}
    over = dict(overrides or {})

    def walk(group: TestGroup, parent: Mapping[str, Any]) -> None:
        settings = MappingProxyType({**parent, **group.own_settings, **over})
        found[group.name] = settings
        for child in group.groups:
            walk(child, settings)

    if data is not None:
        walk(data, {})
    return MappingProxyType(found)


def read_timelimit(root: Path) -> DeclaredLimit | None:
    """The ``.timelimit`` file: its first word in seconds. A file that is there but says
    no positive number is kept with the reason, for the checks to report."""
    path = root / TIMELIMIT_FILE
    if not path.is_file():
        return None
    try:
        words = path.read_text(encoding="utf-8").split()
    except UnicodeDecodeError:
        return DeclaredLimit(None, TIMELIMIT_FILE, "is not UTF-8 text")
    if not words:
        return DeclaredLimit(None, TIMELIMIT_FILE, "is empty")
    try:
        seconds = float(words[0])
    except ValueError:
        return DeclaredLimit(None, TIMELIMIT_FILE, f"{words[0][:40]!r} is not a number")
    if not 0 < seconds < float("inf"):
        return DeclaredLimit(None, TIMELIMIT_FILE, f"{words[0][:40]} is not a positive time")
    return DeclaredLimit(seconds, TIMELIMIT_FILE)


def as_number(value: object) -> float | None:
    """The number a YAML value says: an int or float (not true/false), or a string of one
    ("7", "-inf"); None for anything else, and for NaN."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        number = float(value)
    except ValueError:
        return None
    return number if number == number else None


def number_setting(settings: Mapping[str, Any], key: str, default: float) -> float:
    """A group setting that is a number (legacy ``accept_score``, ``reject_score``): its
    value, or ``default`` when it is absent or not a number (true/false, a list, a word,
    NaN); the test group checks report such a value."""
    number = as_number(settings.get(key))
    return float(default) if number is None else number


def breaks(settings: Mapping[str, Any]) -> bool:
    """Whether a legacy group stops judging its items at the first one not accepted
    (``on_reject: break``, the default): the rest are never run nor graded."""
    return str(settings.get("on_reject", "break")) == "break"


def rejects_on_any(settings: Mapping[str, Any]) -> bool:
    """Whether a legacy group is surely not accepted once one of its items is not: the
    default grader without ``accept_if_any_accepted`` or ``always_accept`` (a custom
    grader may accept it)."""
    if str(settings.get("grading", "default")) == "custom":
        return False
    flags = str(settings.get("grader_flags", "")).split()
    return not {"accept_if_any_accepted", "always_accept"} & set(flags)
