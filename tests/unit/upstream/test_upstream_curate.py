"""The card's steps before any program runs, in its order, decided in input order."""

from __future__ import annotations

from pathlib import Path

from helpers.upstream_rows import statement, sum_tests, write_jsonl

from problemtools_py.upstream.curate import (
    CALL_BASED,
    CONTRADICTS,
    DUPLICATE,
    LIVECODEBENCH,
    SEVERAL,
    Caps,
    Dropped,
    Screen,
    Screened,
    capped,
)
from problemtools_py.upstream.problem import Upstream


def up(text: str, key: str = "k", tests: list[tuple[str, str]] | None = None,
       call: str | None = None) -> Upstream:  # fmt: skip
    return Upstream("taco", key, text, tuple(tests or sum_tests()), call)


def reason(outcome: Screened | Dropped) -> str | None:
    return outcome.reason if isinstance(outcome, Dropped) else None


def test_each_step_and_the_first_that_applies(tmp_path: Path) -> None:
    lcb = write_jsonl(tmp_path / "lcb.jsonl", [{"question_id": "abc1", "question_content":
                                                statement("lcb")}])  # fmt: skip
    screen = Screen([lcb], [])
    assert reason(screen.decide(up("x", call="f"))) == CALL_BASED
    several = statement("s", extra=" If there are multiple answers, print any of them.")
    assert reason(screen.decide(up(several, tests=[("1 2\n", "4\n")]))) == SEVERAL  # (first)
    assert reason(screen.decide(up(statement("c"), tests=[("1 2\n", "4\n")]))) == CONTRADICTS
    got = screen.decide(up(statement("lcb")))
    assert reason(got) == LIVECODEBENCH and "lcb.jsonl:abc1" in got.detail  # type: ignore[union-attr]
    assert reason(screen.decide(up(statement("a"), "first"))) is None
    exact = screen.decide(up(statement("a").upper(), "second"))  # (the same once normalised)
    assert reason(exact) == DUPLICATE and "first (1.00)" in exact.detail  # type: ignore[union-attr]
    near = statement("a").replace("Print their sum", "Output the sum of both")
    assert reason(screen.decide(up(near, "third"))) == DUPLICATE
    assert reason(screen.decide(up(statement("b"), "fourth"))) is None


def test_a_dropped_row_is_no_duplicate_of_a_later_one(tmp_path: Path) -> None:
    screen = Screen([], [])
    contradicting = up(statement("d"), "one", tests=[("1 2\n", "5\n")])
    assert reason(screen.decide(contradicting)) == CONTRADICTS
    assert reason(screen.decide(up(statement("d"), "two"))) is None


def test_duplicates_against_another_dataset(tmp_path: Path) -> None:
    other = write_jsonl(tmp_path / "v1.jsonl", [{"statement": statement("old")}])
    screen = Screen([], [other])
    assert reason(screen.decide(up(statement("old")))) == DUPLICATE
    assert reason(screen.decide(up(statement("new")))) is None


def test_the_caps_keep_the_first_tests_within_both() -> None:
    tests = tuple((f"{i}\n", "x" * 100) for i in range(50))
    assert len(capped(tests, Caps())) == 32
    assert capped(tests, Caps(32, 250)) == tests[:2]
    assert capped(tests, Caps(1, 1 << 20)) == tests[:1]


def test_short_statements_compare_exactly() -> None:
    screen = Screen([], [])
    assert reason(screen.decide(up("Add two numbers.", "a"))) is None
    assert reason(screen.decide(up("Add two numbers!", "b"))) == DUPLICATE
    assert reason(screen.decide(up("Add three numbers.", "c"))) is None


def test_statements_that_show_a_figure() -> None:
    from problemtools_py.upstream.references import shows_a_figure

    def said(text: str, **origin: object) -> str | None:
        return shows_a_figure(Upstream("t", "k", text, (), origin=dict(origin)))

    assert said("The grid looks like this: <image>") == "the statement has '<image>'"
    assert said('See <img src="a.png">') == "the statement has '<img'"
    assert said("Look: ![the grid](grid.png)") == "the statement has '![the grid]('"
    assert said("\\includegraphics{tree}") is not None
    assert said("A tree", picture_num="2") == "2 pictures (picture_num)"
    assert said("Print the image of f under g.", picture_num="0") is None
