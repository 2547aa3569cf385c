"""Which text of a completion is the program: the last fenced code block tagged as Python
(or untagged). A block in another language after it does not hide it; an unterminated or
empty block, or no fence at all, is no code (unless completions are bare programs)."""

from __future__ import annotations

import re

PYTHON_TAGS = frozenset({"", "python", "python3", "py"})
_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})[ \t]*([^\s`]*)[^\n]*$", re.MULTILINE)


def extract_code(completion: str, raw: bool = False) -> str | None:
    """The program, or None when there is none."""
    if raw:
        return completion if completion.strip() else None
    blocks: list[tuple[str, str | None]] = []  # (tag, body or None when unterminated)
    position = 0
    while True:
        opening = _FENCE.search(completion, position)
        if opening is None:
            break
        fence, tag = opening.group(1), opening.group(2).lower()
        start = opening.end() + 1
        closing = re.compile(rf"^[ \t]*{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$", re.MULTILINE)
        end = closing.search(completion, start)
        if end is None:
            blocks.append((tag, None))
            break
        blocks.append((tag, completion[start : end.start()]))
        position = end.end()
    python = [(tag, body) for tag, body in blocks if tag in PYTHON_TAGS]
    if not python:
        return None
    body = python[-1][1]
    if body is None or not body.strip():
        return None
    return body
