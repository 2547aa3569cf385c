"""cli/reporters.py: the text reporter's results table (drawn by plaintable where it fits,
by rich where not: the same lines either way) and its progress bar, which appears only
once the work has taken BAR_DELAY seconds."""

from __future__ import annotations

import io
import threading
import time

import pytest
from rich.console import Console

from problemtools_py.cli import reporters
from problemtools_py.cli.reporters import TextReporter, results_table
from problemtools_py.findings import Cell, ProblemReport, SubmissionRow
from problemtools_py.verdicts import Verdict


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _report(groups: int) -> ProblemReport:
    cells = {f"secret/group-{i}": Cell(Verdict.AC, 0.01 * i, 3) for i in range(groups)}
    rows = [
        SubmissionRow("submissions/accepted/sol.py", None, None, Verdict.AC, None, 0.1, cells),
        SubmissionRow(
            "submissions/wrong_answer/w.c",
            None,
            None,
            Verdict.WA,
            30.0,
            0.1,
            {"sample": Cell(Verdict.WA, 0.0, 1)},
        ),
    ]
    return ProblemReport("hello", "hello", time_limit=1.0, time_limit_source="derived",
                         submissions=rows)  # fmt: skip


def _rich(report: ProblemReport) -> str:
    out = io.StringIO()
    Console(file=out, width=80, highlight=False, soft_wrap=True).print(results_table(report))
    return out.getvalue()


@pytest.mark.parametrize("groups", [1, 2, 8])  # (8 groups: wider than 80 columns)
def test_the_table_printed_is_richs(
    groups: int, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    report = _report(groups)
    reporter = TextReporter()
    reporter.problem(report)
    printed = capsys.readouterr().out
    assert printed.startswith(_rich(report)) and "hello: 0 errors, 0 warnings" in printed
    assert (reporter._console is None) is (groups < 8)  # (rich made a console: it drew)


def test_into_a_pipe_the_table_is_whole(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    TextReporter().problem(_report(8))  # (wider than 80 columns)
    printed = capsys.readouterr().out
    assert "submissions/accepted/sol.py" not in printed  # (shown without the prefix)
    assert "accepted/sol.py" in printed and "wrong_answer/w.c" in printed
    assert "…" not in printed and max(map(len, printed.splitlines())) > 80


def test_no_bar_on_a_short_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdout", Terminal())
    shown: list[object] = []
    monkeypatch.setattr(TextReporter, "_show_bar", lambda *args: shown.append(args))
    reporter = TextReporter()
    with reporter.progress() as step:
        assert step is not None
        step("run", 3)
    time.sleep(reporters.BAR_DELAY + 0.2)
    assert shown == [] and reporter._bar is None


def test_a_bar_once_the_work_takes_a_while(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdout", Terminal())
    monkeypatch.setattr(reporters, "BAR_DELAY", 0.0)
    console = Console(file=Terminal(), force_terminal=True)
    reporter = TextReporter(console=console)
    with reporter.progress() as step:
        assert step is not None
        step("run", 2)  # (perhaps before the bar: counted either way)
        deadline = time.monotonic() + 10
        while reporter._bar is None and time.monotonic() < deadline:
            time.sleep(0.01)
        bar = reporter._bar
        assert bar is not None
        step("run", 3)
        assert bar.tasks[0].completed == 5
    assert reporter._bar is None and not bar.live.is_started


def test_a_bar_made_after_the_work_ended_is_not_shown() -> None:
    reporter = TextReporter(console=Console(file=Terminal(), force_terminal=True))
    closed = threading.Event()
    closed.set()
    reporter._show_bar([0], closed)
    assert reporter._bar is None
