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
        context = []
        for follow in lines[index + 1 : index + 1 + _CONTEXT_LINES]:
            if not follow.strip() or follow.startswith("Here is how much"):
                break
            context.append(follow.rstrip())
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


def missing_file(log: str) -> list[str]:
    return re.findall(r"File `([^']+)' not found", log)
