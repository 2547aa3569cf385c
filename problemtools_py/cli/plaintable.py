"""verifyproblem's results table drawn without rich, when that gives exactly what rich
would print: importing rich costs ~45 ms of CPU, a fifth of a verification whose results
are cached. The lines are those of rich's ``Table(title=..., title_justify="left")``
printed on a ``Console(soft_wrap=True)``: its default box (heavy head), one space of
padding, each column as wide as its widest cell. Where rich would lay the table out
otherwise (wider than its console, so it shrinks columns) or measure a cell differently
(anything but printable ASCII), ``draw`` returns None and rich draws it."""

from __future__ import annotations

import os
import sys

Cell = tuple[str, str]  # (text, style): a style name of ANSI ("" for none)
UNBOUNDED = 1 << 20  # (columns: a table drawn whole)

ANSI = {
    "bold": "1",
    "bold red": "1;31",
    "dim": "2",
    "italic": "3",
    "red": "31",
    "green": "32",
    "yellow": "33",
    "magenta": "35",
}


def console_width() -> int:
    """The width rich's Console takes: the first standard stream that is a terminal, or
    80 columns; ``COLUMNS`` (digits) over both; 80 on a dumb terminal."""
    width = 0
    for fd in (0, 1, 2):
        try:
            width = os.get_terminal_size(fd).columns
        except (OSError, ValueError):
            continue
        break
    columns = _columns()
    width = (width if columns is None else columns) or 80
    if os.environ.get("TERM", "") in ("dumb", "unknown"):
        width = min(width, 80)  # (rich's rule there, when the stream is a terminal)
    return width


def table_width() -> int:
    """The width to draw a table at: into a pipe or a file (a CI log) no bound unless
    ``COLUMNS`` sets one, where rich would cut the table to 80 columns; on a terminal,
    rich's (console_width)."""
    if not sys.stdout.isatty() and _columns() is None:
        return UNBOUNDED
    return console_width()


def _columns() -> int | None:
    columns = os.environ.get("COLUMNS", "")
    return int(columns) if columns.isdigit() else None


def paint(text: str, style: str, color: bool) -> str:
    if not color or not style:
        return text
    return f"\x1b[{ANSI[style]}m{text}\x1b[0m"


def _plain(text: str) -> bool:
    return text.isascii() and text.isprintable()


def draw(
    title: str, header: list[str], rows: list[list[Cell]], width: int, color: bool = False
) -> str | None:
    """The table's lines (each ending in a newline), or None when rich must draw it."""
    if not rows or any(len(row) != len(header) for row in rows):
        return None
    texts = [title, *header, *(text for row in rows for text, _ in row)]
    styles = {style for row in rows for _, style in row if style}
    if not all(map(_plain, texts)) or not styles <= ANSI.keys():
        return None
    widths = [max(len(h), *(len(row[i][0]) for row in rows)) for i, h in enumerate(header)]
    if sum(widths) + 3 * len(widths) + 1 > width:
        return None

    def edge(left: str, fill: str, cross: str, right: str) -> str:
        return left + cross.join(fill * (w + 2) for w in widths) + right

    def line(bar: str, row: list[Cell]) -> str:
        return (
            bar
            + bar.join(
                " " + paint(text.ljust(w), style, color) + " "
                for (text, style), w in zip(row, widths, strict=True)
            )
            + bar
        )

    lines = [
        paint(title, "italic", color) if title else None,
        edge("┏", "━", "┳", "┓"),
        line("┃", [(h, "bold") for h in header]),
        edge("┡", "━", "╇", "┩"),
        *(line("│", row) for row in rows),
        edge("└", "─", "┴", "┘"),
    ]
    return "".join(f"{text}\n" for text in lines if text is not None)
