"""Images a statement refers to: resolved inside the statement directory, never outside
it, never fetched from a URL."""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath

HTML_EXTENSIONS = (".png", ".jpg", ".jpeg", ".svg")
_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def is_url(name: str) -> bool:
    return bool(_URL.match(name)) or name.startswith("//")


def resolve(directory: Path, name: str, extensions: tuple[str, ...]) -> str | None:
    """The file name (relative to ``directory``) that ``name`` refers to, trying the
    extensions when it has none of them; None when missing or outside the directory."""
    pure = PurePosixPath(name.strip())
    if pure.is_absolute() or ".." in pure.parts or not pure.parts:
        return None
    candidates = [str(pure)]
    if pure.suffix.lower() not in extensions:
        candidates += [str(pure) + ext for ext in extensions]
    for candidate in candidates:
        path = directory / candidate
        if path.is_file() and path.resolve().is_relative_to(directory.resolve()):
            return candidate
    return None


_SVG_ACTIVE = re.compile(rb"<script|\son[a-z]+\s*=|<foreignObject", re.IGNORECASE)
_SVG_EXTERNAL = re.compile(rb"""(?:href|src)\s*=\s*["'](?:[a-z][a-z0-9+.-]*:|//)""", re.IGNORECASE)


def unsafe_svg(path: Path) -> str | None:
    """Why an SVG may not be shown (scripts or external resources), or None."""
    if path.suffix.lower() != ".svg":
        return None
    try:
        data = path.read_bytes()
    except OSError as exc:
        return f"cannot be read: {exc.strerror}"
    if _SVG_ACTIVE.search(data):
        return "the SVG contains scripts or event handlers, which statements may not use"
    if _SVG_EXTERNAL.search(data.replace(b"http://www.w3.org/", b"")):
        return "the SVG refers to an external resource, which statements may not use"
    return None
