"""Which file and directory names a package may use, by the text of its version (the
spec repository at b03c6a2):

- ``legacy`` (or none declared) and ``2025-09`` (``2023-07-draft`` became it): a name
  matches ``^[a-zA-Z0-9_][a-zA-Z0-9_.-]{0,254}$``; any other (a leading dot or dash, a
  space, another character) is an *auxiliary* file, and the package is read as if it
  were not there (``.gitkeep``, ``.envrc``);
- ``legacy-icpc``: every file name matches ``^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,253}[a-zA-Z0-9]$``
  (two characters at least, no leading or trailing ``.``, ``-`` or ``_``), and there is
  no auxiliary file: another name is an error.

(The seed's text, an early legacy one, gave the legacy-icpc pattern without its length;
the legacy text since accepts one-character names and leading underscores.)"""

from __future__ import annotations

import re
from dataclasses import dataclass

from problemtools_py.model.problem import FormatVersion


@dataclass(frozen=True)
class NameRule:
    """The names a version's text allows, and what becomes of the others."""

    pattern: re.Pattern[str]
    shown: str  # the regex as the text gives it, for messages
    auxiliary: bool  # others are auxiliary (read as absent) rather than errors
    files_only: bool  # the text speaks of file names only (directories are free)
    version: str  # whose text: "legacy", "legacy-icpc", "2025-09"

    def allows(self, name: str, is_dir: bool = False) -> bool:
        return (is_dir and self.files_only) or self.pattern.match(name) is not None


CURRENT = r"^[a-zA-Z0-9_][a-zA-Z0-9_.-]{0,254}$"
ICPC = r"^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,253}[a-zA-Z0-9]$"


_RULES = {
    "legacy-icpc": NameRule(re.compile(ICPC), ICPC, False, True, "legacy-icpc"),
    "legacy": NameRule(re.compile(CURRENT), CURRENT, True, False, "legacy"),
    "2025-09": NameRule(re.compile(CURRENT), CURRENT, True, False, "2025-09"),
}


def name_rule(fmt: FormatVersion, declared: str | None) -> NameRule:
    """The rule of the version a package declares (``problem_format_version``)."""
    if fmt is FormatVersion.LEGACY:
        return _RULES["legacy-icpc" if declared == "legacy-icpc" else "legacy"]
    return _RULES["2025-09"]
