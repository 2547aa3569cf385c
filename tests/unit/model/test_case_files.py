"""Which files of a test case a statement shows and offers for download, and which groups
a group's require_pass names (the model decides; statements and scoring ask)."""

from __future__ import annotations

import pytest

from problemtools_py.model import problem as model
from problemtools_py.model.groups import required_group

BASE = {".in": "a.in", ".ans": "a.ans"}


@pytest.mark.parametrize(
    ("extra", "shown", "downloaded"),
    [
        ({}, ("a.in", "a.ans"), ("a.in", "a.ans")),
        ({".out": "a.out"}, ("a.in", "a.out"), ("a.in", "a.out")),
        (
            {".in.statement": "a.in.statement", ".in.download": "a.in.download"},
            ("a.in.statement", "a.ans"),
            ("a.in.download", "a.ans"),
        ),
        (
            {".ans.statement": "a.ans.statement", ".ans.download": "a.ans.download"},
            ("a.in", "a.ans.statement"),
            ("a.in", "a.ans.download"),
        ),
        (
            {".interaction": "a.interaction", ".in.download": "d.in", ".ans.download": "d.ans"},
            ("a.interaction", "a.interaction"),
            ("d.in", "d.ans"),
        ),
    ],
    ids=["plain", "out", "input-overridden", "output-overridden", "interaction"],
)
def test_shown_and_downloaded(
    extra: dict[str, str],
    shown: tuple[str, str],
    downloaded: tuple[str, str],
) -> None:
    case = model.TestCase("sample/a", "sample", {**BASE, **extra})
    assert case.shown() == shown
    assert case.downloaded() == downloaded


def test_legacy_shows_and_offers_in_and_ans_only() -> None:
    case = model.TestCase("sample/a", "sample", {**BASE, ".out": "a.out", ".in.statement": "x"})
    assert case.shown(modern=False) == ("a.in", "a.ans")
    assert case.downloaded(modern=False) == ("a.in", "a.ans")


def test_interaction_can_be_left_to_the_page() -> None:
    case = model.TestCase("sample/a", "sample", {**BASE, ".interaction": "a.interaction"})
    assert case.shown(interaction=False) == ("a.in", "a.ans")


@pytest.mark.parametrize(
    ("name", "group"),
    [("sample", "sample"), ("1-small", "secret/1-small"), ("secret/2", "secret/2")],
)
def test_require_pass_names(name: str, group: str) -> None:
    assert required_group(name) == group
