"""Test-group rules the model answers with: require_pass names, static validation test
cases, and argument lists as packages write them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

TYPE_CHECKING = False  # (not typing's: importing typing costs every command ~3 ms)
if TYPE_CHECKING:
    from typing import Any


def required_group(name: str) -> str:
    """The group a ``require_pass`` entry names: ``sample``, or a group of secret given
    with or without its ``secret/`` prefix."""
    return name if name == "sample" or name.startswith("secret/") else f"secret/{name}"


def required_groups(own: Mapping[str, Any]) -> list[str]:
    """The groups whose every case must be accepted before the group with its own
    settings ``own`` is scored."""
    value = own.get("require_pass")
    names = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    return [required_group(n) for n in names if isinstance(n, str)]


@dataclass(frozen=True)
class StaticCase:
    """A test group's static validation test case: its maximum score (None: pass-fail)
    and the static validator's arguments."""

    group: str
    max_score: float | None
    args: list[str]

    @property
    def name(self) -> str:
        return f"{self.group}/<static validation>" if self.group else "<static validation>"


def words(value: object) -> list[str]:
    if isinstance(value, str):
        return value.split()
    if isinstance(value, list):
        return [str(v) for v in value]
    return []
