"""Pieces of generators.yaml as its author wrote them."""

from __future__ import annotations


def block_text(text: str, line: int) -> str | None:
    """The block mapping under the key on 1-based ``line`` of ``text``, dedented, as its
    author wrote it (what BAPCtools' round-trip YAML writes for an inline ``yaml:`` or
    ``test_group.yaml:``); None when the value is not a block below that line."""
    lines = text.splitlines()
    if line > len(lines) or lines[line - 1].split(":", 1)[-1].strip():
        return None
    indent = len(lines[line - 1]) - len(lines[line - 1].lstrip())
    body: list[str] = []
    for row in lines[line:]:
        if row.strip() and len(row) - len(row.lstrip()) <= indent:
            break
        body.append(row)
    while body and not body[-1].strip():
        body.pop()
    if not body:
        return None
    cut = min(len(row) - len(row.lstrip()) for row in body if row.strip())
    return "".join(_dedent(row, cut) + "\n" for row in body)


def _dedent(row: str, cut: int) -> str:
    """``row`` without its first ``cut`` columns; an end-of-line comment keeps its column,
    as a round-trip YAML writer keeps it."""
    at = _comment_at(row)
    if at is None or not row[:at].strip():
        return row[cut:]
    return row[cut:at].rstrip().ljust(at - 1) + " " + row[at:]


def _comment_at(row: str) -> int | None:
    """Where an end-of-line ``#`` comment starts (outside quotes), or None."""
    quote = None
    for index, char in enumerate(row):
        if quote is not None:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and index > 0 and row[index - 1] in " \t":
            return index
    return None
