"""Reading a LaTeX log: the errors (with ``-file-line-error`` they start ``file:line:``),
each with the few lines of context TeX prints after it, never the whole log."""

from __future__ import annotations

import re
from dataclasses import dataclass

_FILE_LINE = re.compile(r"^(?:\./)?(?P<file>[^:\n]+\.(?:tex|cls|sty)):(?P<line>\d+): (?P<msg>.*)$")
_BANG = re.compile(r"^! (?P<msg>.*)$")
_CONTEXT_LINES = 4


@dataclass(frozen=True)
class LatexError:
    """One error from a TeX log, with where and what TeX printed after it."""

    file: str | None  # as TeX names it, relative to the build directory
    line: int | None
    message: str
    context: str  # the lines TeX printed after the message (l.NN ... and so on)


def errors(log: str, limit: int = 5) -> list[LatexError]:
    lines = log.splitlines()
    found: list[LatexError] = []
    for index, text in enumerate(lines):
        match = _FILE_LINE.match(text) or _BANG.match(text)
        if match is None:
            continue
        groups = match.groupdict()
        message = groups["msg"].strip()
        if message.startswith(("==> Fatal error", "Emergency stop")):
            continue
        context = _context(lines[index + 1 : index + 1 + _CONTEXT_LINES * 2])
        found.append(
            LatexError(
                groups.get("file"),
                int(groups["line"]) if groups.get("line") else None,
                message,
                "\n".join(context),
            )
        )
        if len(found) >= limit:
            break
    return found


def _context(following: list[str]) -> list[str]:
    """What TeX printed after an error, up to and including the ``l.NN`` source line and
    its continuation (blank lines skipped)."""
    context: list[str] = []
    for index, line in enumerate(following):
        if line.startswith(("Here is how much", "!")) or _FILE_LINE.match(line):
            break
        if not line.strip():
            continue
        context.append(line.rstrip())
        if re.match(r"^l\.\d+", line):
            rest = following[index + 1 : index + 2]
            context += [r.rstrip() for r in rest if r.strip()]
            break
    return context[:_CONTEXT_LINES]


def class_warnings(log: str) -> list[tuple[str, int | None]]:
    """The messages of ``\\PackageWarning{problemset}``, with the input line when given."""
    found = []
    for match in re.finditer(
        r"^Package problemset Warning: (.*?)(?: on input line (\d+))?\.$", log, re.MULTILINE
    ):
        found.append((match.group(1).strip(), int(match.group(2)) if match.group(2) else None))
    return found
