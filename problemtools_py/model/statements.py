"""Finding statement files and reading ``\\problemname`` from LaTeX statements."""

from __future__ import annotations

import re
from pathlib import Path

from problemtools_py.model.files import FileEntry
from problemtools_py.model.problem import Statement

STATEMENT_RE = re.compile(r"^problem(?:\.([a-z]{2,3}(?:-[A-Z]{2})?))?\.(tex|md|pdf)$")
_PLAIN_RE = re.compile(r"^%%\s*plainproblemname:\s*(.+?)\s*$", re.MULTILINE)
_NAME_RE = re.compile(r"\\problemname\s*(?:\[[^\]]*\])?\s*\{")


def strip_comments(text: str) -> str:
    """Blank out LaTeX comments, keeping line structure (and escaped ``\\%``)."""
    return re.sub(r"(?<!\\)%.*", "", text)


def _braced(text: str, start: int) -> str | None:
    """The contents of the brace group opening just before ``start``."""
    depth = 1
    pos = start
    while pos < len(text):
        char = text[pos]
        if char == "\\":
            pos += 2
            continue
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return text[start:pos]
        pos += 1
    return None


def problemname(text: str) -> tuple[str | None, int | None]:
    """The argument of the first ``\\problemname{...}`` and its line, ignoring comments."""
    clean = strip_comments(text)
    match = _NAME_RE.search(clean)
    if not match:
        return None, None
    line = clean[: match.start()].count("\n") + 1
    value = _braced(clean, match.end())
    return (value.strip() if value is not None else None), line


def load_statements(root: Path, entries: list[FileEntry]) -> tuple[Statement, ...]:
    statements = []
    for entry in entries:
        match = STATEMENT_RE.match(entry.name)
        if not entry.readable or not match:
            continue
        lang, kind = match.group(1), match.group(2)
        text: str | None = None
        name = line = plain = None
        if kind != "pdf":
            raw = (root / entry.rel).read_bytes()
            try:
                text = raw.removeprefix(b"\xef\xbb\xbf").decode("utf-8")
            except UnicodeDecodeError:
                text = None
        if text is not None and kind == "tex":
            name, line = problemname(text)
            found = _PLAIN_RE.search(text)
            plain = found.group(1) if found else None
        statements.append(
            Statement(lang or "en", entry.rel, kind, lang is not None, text, name, line, plain)
        )
    return tuple(statements)
