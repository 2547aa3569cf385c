"""Reporters: text for people (rich draws the bars, and the tables plaintable cannot),
JSON for machines (shape: schemas/report.schema.json)."""

from __future__ import annotations

import json
import os
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from problemtools_py import __version__
from problemtools_py.cli.plaintable import Cell, draw, paint, table_width
from problemtools_py.findings import Finding, ProblemReport, RunReport, Severity, count
from problemtools_py.verdicts import Verdict

TYPE_CHECKING = False  # (not typing's: importing typing costs every command ~3 ms)
if TYPE_CHECKING:  # (imported where used: a run that shows no bar or table needs neither)
    from typing import Any

    from rich.console import Console
    from rich.progress import Progress
    from rich.table import Table

STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "yellow"}
BAR_DELAY = 0.3  # seconds of work before a progress bar appears


def _where(report: ProblemReport, finding: Finding) -> str:
    if finding.path is None:
        return report.path
    base = Path(report.path) / finding.path
    return str(base) + (f":{finding.line}" if finding.line is not None else "")


class TextReporter:
    """``file:line: error: message`` lines and a ``NAME: N errors, M warnings`` summary."""

    def __init__(
        self, quiet: bool = False, verbose: bool = False, console: Console | None = None
    ) -> None:
        self.quiet = quiet
        self.verbose = verbose
        self._console = console
        self._bar: Progress | None = None
        self._task: Any = None
        self._task_name = "verifying"
        self._bar_lock = threading.Lock()

    @property
    def console(self) -> Console:
        """rich's console, made when a table or a bar needs it (it costs start-up time)."""
        if self._console is None:
            from rich.console import Console

            self._console = Console(highlight=False, soft_wrap=True)
        return self._console

    def _emit(self, *pieces: tuple[str, str]) -> None:
        """One line of (text, style) pieces: through rich while a bar is live (it keeps
        the bar below), else straight to stdout, in ANSI colours on a terminal."""
        if self._bar is not None or self._console is not None:
            from rich.text import Text

            text = Text()
            for piece, style in pieces:
                text.append(piece, style=style)
            self.console.print(text)
            return
        color = _color()
        sys.stdout.write("".join(paint(piece, style, color) for piece, style in pieces) + "\n")

    def part(self, problem: str, part: str) -> None:
        self._task_name = f"{problem}: {part}"
        with self._bar_lock:
            if self._bar is not None:
                self._bar.update(self._task, description=self._task_name)
        if self.verbose:
            self._emit((f"{problem}: checking {part}", "dim"))

    @contextmanager
    def progress(self) -> Iterator[Callable[[str, int], None] | None]:
        """A progress bar (on a terminal) counting judged test cases, shown once the work
        has taken BAR_DELAY seconds: a verification whose results are cached is over
        sooner, and imports no rich for a bar it would only flash."""
        if self.quiet or not sys.stdout.isatty():
            yield None
            return
        done = [0]
        closed = threading.Event()
        timer = threading.Timer(BAR_DELAY, self._show_bar, (done, closed))
        timer.daemon = True
        timer.start()

        def step(what: str, count: int) -> None:
            with self._bar_lock:
                done[0] += count
                if self._bar is not None:
                    self._bar.advance(self._task, count)

        try:
            yield step
        finally:
            timer.cancel()
            with self._bar_lock:
                closed.set()
                bar, self._bar, self._task = self._bar, None, None
            if bar is not None:
                bar.stop()

    def _show_bar(self, done: list[int], closed: threading.Event) -> None:
        from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

        bar = Progress(
            SpinnerColumn(),
            TextColumn("{task.description}"),
            BarColumn(),
            TextColumn("{task.completed} runs"),
            TimeElapsedColumn(),
            console=self.console,
            transient=True,
        )
        with self._bar_lock:
            if closed.is_set():  # (the work ended while rich was being imported)
                return
            self._task = bar.add_task(self._task_name, total=None, completed=done[0])
            bar.start()
            self._bar = bar

    def problem(self, report: ProblemReport) -> None:
        for finding in report.findings:
            self._emit(
                (_where(report, finding) + ": ", ""),
                (finding.severity.value, STYLE[finding.severity]),
                (f": {finding.message}", ""),
                (f" [{finding.check}]" if self.verbose else "", "dim"),
            )
        if report.submissions and not self.quiet:
            self._table(report)
        if self.quiet and not report.findings:
            return
        self._emit(
            (f"{report.name}: ", "bold"),
            (count(report.errors, "error"), "bold red" if report.errors else "green"),
            (", ", ""),
            (count(report.warnings, "warning"), "yellow" if report.warnings else "green"),
            (f" ({report.format_version}, {report.seconds:.2f} s)" if self.verbose else "", "dim"),
            (" (interrupted: what had finished)" if report.interrupted else "", "yellow"),
        )

    def _table(self, report: ProblemReport) -> None:
        """The results table: drawn here when that gives what rich would (see plaintable),
        and no bar is live (rich keeps it below what is printed); at table_width, so
        whole into a pipe or a file."""
        if self._console is None:
            title, header, rows = table_cells(report)
            text = draw(title, header, rows, table_width(), _color())
            if text is not None:
                sys.stdout.write(text)
                return
        self.console.print(results_table(report))

    def interrupted(self, run: RunReport) -> None:
        """Ctrl-C: each problem's findings so far were printed as it was reported."""

    def finish(self, run: RunReport) -> None:
        if len(run.problems) > 1 and not self.quiet:
            total = f"total: {count(run.errors, 'error')}, {count(run.warnings, 'warning')}"
            self._emit((total, "bold"))


VERDICT_STYLE = {
    Verdict.AC: "green",
    Verdict.WA: "red",
    Verdict.TLE: "yellow",
    Verdict.MLE: "magenta",
    Verdict.OLE: "magenta",
    Verdict.RTE: "red",
    Verdict.CE: "red",
    Verdict.JE: "bold red",
}


def _color() -> bool:
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def table_cells(report: ProblemReport) -> tuple[str, list[str], list[list[Cell]]]:
    """Submission x test group: the verdict and the largest CPU time; the title, the
    header and the rows of (text, style) cells."""
    groups = sorted({g for row in report.submissions for g in row.groups})
    limit = (
        f", time limit {report.time_limit:g} s ({report.time_limit_source})"
        if report.time_limit
        else ""
    )
    rows: list[list[Cell]] = []
    for row in report.submissions:
        cells: list[Cell] = [(row.submission.removeprefix("submissions/"), "")]
        for group in groups:
            cell = row.groups.get(group)
            cells.append(
                (f"{cell.verdict.value} {cell.cpu:.2f}s", VERDICT_STYLE[cell.verdict])
                if cell
                else ("-", "")
            )
        verdict = row.verdict.value if row.verdict is not None else "-"
        shown = row.score is not None and row.verdict is not Verdict.CE
        score = f" {row.score:g}" if shown and row.score is not None else ""
        style = VERDICT_STYLE[row.verdict] if row.verdict is not None else ""
        cells.append((verdict + score, style))
        rows.append(cells)
    return f"{report.name}: submissions{limit}", ["submission", *groups, "result"], rows


def results_table(report: ProblemReport) -> Table:
    """table_cells as rich's table."""
    from rich.table import Table
    from rich.text import Text

    title, header, rows = table_cells(report)
    # (Text, not str: rich would read "[...]" in a problem's or group's name as markup)
    table = Table(title=Text(title, style="italic"), title_justify="left")
    for name in header:
        table.add_column(Text(name))
    for row in rows:
        table.add_row(*(Text(text, style=style) for text, style in row))
    return table


def run_to_json(run: RunReport) -> dict[str, Any]:
    return {
        "tool": "problemtools_py",
        "version": __version__,
        "exit_code": int(run.exit_code),
        "errors": run.errors,
        "warnings": run.warnings,
        "interrupted": run.interrupted,
        "problems": [
            {
                "name": p.name,
                "path": p.path,
                "format_version": p.format_version,
                "parts": p.parts,
                "errors": p.errors,
                "warnings": p.warnings,
                "seconds": round(p.seconds, 4),
                "runs_cpu_seconds": round(p.runs_cpu, 4),
                "time_limit": p.time_limit,
                "time_limit_source": p.time_limit_source,
                "submissions": [row.to_json() for row in p.submissions],
                "constraints": [row.to_json() for row in p.constraints],
                "findings": [f.to_json() for f in p.findings],
                "interrupted": p.interrupted,
            }
            for p in run.problems
        ],
    }


class JsonReporter:
    """Prints the whole run as one JSON document on stdout when it ends; at Ctrl-C, the
    problems reported so far (the last one marked interrupted when it was cut short)."""

    def part(self, problem: str, part: str) -> None:
        pass

    @contextmanager
    def progress(self) -> Iterator[None]:
        yield None

    def problem(self, report: ProblemReport) -> None:
        pass

    def finish(self, run: RunReport) -> None:
        json.dump(run_to_json(run), sys.stdout, indent=2)
        sys.stdout.write("\n")

    def interrupted(self, run: RunReport) -> None:
        self.finish(run)


class QuietBar:
    """count_bar's stand-in when nothing is shown (rich is then not even imported)."""

    def __enter__(self) -> QuietBar:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def add_task(self, *args: Any, **kwargs: Any) -> Any:
        return 0

    def update(self, *args: Any, **kwargs: Any) -> None:
        return None

    def advance(self, *args: Any, **kwargs: Any) -> None:
        return None


def count_bar(label: str, quiet: bool, *extra: str) -> Progress | QuietBar:
    """A transient bar on stderr counting items done of a known total, with ``extra`` text
    columns (templates of rich's TextColumn) before the elapsed time; hidden with ``quiet``
    or when stderr is no terminal (and then rich is not even imported: 40 ms)."""
    if quiet or not sys.stderr.isatty():
        return QuietBar()
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    console = Console(stderr=True)
    return Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        *(TextColumn(template) for template in extra),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    )
