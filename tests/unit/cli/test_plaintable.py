"""cli/plaintable.py: the results table drawn without rich is, character for character,
what rich draws; where it would not be (too wide, other characters), it declines."""

from __future__ import annotations

import io
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from rich.table import Table
from rich.text import Text

from problemtools_py.cli.plaintable import ANSI, Cell, console_width, draw

STYLES = ["", *ANSI]
ascii_text = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=30)


def rich_draws(title: str, header: list[str], rows: list[list[Cell]], width: int) -> str:
    out = io.StringIO()
    console = Console(file=out, width=width, highlight=False, soft_wrap=True, color_system=None)
    table = Table(title=Text(title), title_justify="left")  # (as reporters.results_table)
    for name in header:
        table.add_column(Text(name))
    for row in rows:
        table.add_row(*(Text(text, style=style) for text, style in row))
    console.print(table)
    return out.getvalue()


@st.composite
def tables(draw_: st.DrawFn) -> tuple[str, list[str], list[list[Cell]]]:
    columns = draw_(st.integers(1, 6))
    header = draw_(st.lists(ascii_text, min_size=columns, max_size=columns))
    cell = st.tuples(ascii_text, st.sampled_from(STYLES))
    rows = draw_(st.lists(st.lists(cell, min_size=columns, max_size=columns), min_size=1,
                          max_size=5))  # fmt: skip
    return draw_(ascii_text), header, rows


@settings(max_examples=300, deadline=None)
@given(tables(), st.integers(20, 140))
def test_what_it_draws_is_what_rich_draws(
    table: tuple[str, list[str], list[list[Cell]]], width: int
) -> None:
    title, header, rows = table
    ours = draw(title, header, rows, width)
    widths = [max(len(h), *(len(r[i][0]) for r in rows)) for i, h in enumerate(header)]
    fits = sum(widths) + 3 * len(widths) + 1 <= width
    assert (ours is not None) is fits
    if ours is not None:
        assert ours == rich_draws(title, header, rows, width)


def test_in_colour_the_same_characters_with_the_cells_styles() -> None:
    rows = [[("a.py", ""), ("AC 0.00s", "green")], [("b.c", ""), ("WA 0.00s", "bold red")]]
    plain = draw("t", ["submission", "sample"], rows, 80)
    coloured = draw("t", ["submission", "sample"], rows, 80, color=True)
    assert plain is not None and coloured is not None
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == plain
    assert "\x1b[32mAC 0.00s\x1b[0m" in coloured and "\x1b[1;31mWA 0.00s\x1b[0m" in coloured
    assert "\x1b[1msample  \x1b[0m" in coloured and coloured.startswith("\x1b[3mt\x1b[0m\n")


@pytest.mark.parametrize(
    ("header", "rows"),
    [
        (["submission"], [[("crème.py", "")]]),  # (rich measures it, not len)
        (["submission"], [[("漢字.py", "")]]),  # (two columns a character)
        (["sub\tmission"], [[("a.py", "")]]),  # (a control character)
        (["submission"], []),  # (no rows)
        (["submission", "result"], [[("a.py", "")]]),  # (a short row)
        (["submission"], [[("a.py", "blink")]]),  # (a style it has no ANSI code for)
    ],
)
def test_it_declines_what_rich_may_draw_otherwise(
    header: list[str], rows: list[list[Cell]]
) -> None:
    assert draw("title", header, rows, 80) is None


def test_the_console_width_is_richs(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_terminal(fd: int) -> object:
        raise OSError("not a terminal")

    monkeypatch.setattr("os.get_terminal_size", no_terminal)
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert console_width() == Console(file=io.StringIO()).width == 80
    monkeypatch.setenv("COLUMNS", "132")
    assert console_width() == 132
    monkeypatch.setenv("COLUMNS", "wide")  # (not digits: ignored)
    assert console_width() == 80
    monkeypatch.setenv("COLUMNS", "132")
    monkeypatch.setenv("TERM", "dumb")
    assert console_width() == 80
