"""``gradecode DATASET COMPLETIONS.jsonl``: the dataset's reward for every completion.

Each input line is a JSON object with ``problem_id`` and ``completion``; every other field
is echoed back. One JSON line comes out per input line, in input order, with ``reward``,
``status`` and the details; a summary goes to stderr."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, TextIO

from problemtools_py.atomicfile import Pending
from problemtools_py.cli.errorhandler import run_cli
from problemtools_py.cli.gradecheck import add_check
from problemtools_py.cli.options import (
    add_jobs,
    add_python,
    check_output,
    check_python,
    describe,
    positive_int,
)
from problemtools_py.cpus import usable_cores
from problemtools_py.dataset.arrow import without_numpy
from problemtools_py.errors import FatalError
from problemtools_py.findings import ExitCode

if TYPE_CHECKING:  # (the grader is imported when there is something to grade)
    from rich.progress import Progress

    from problemtools_py.cli.reporters import QuietBar
    from problemtools_py.grading.grader import Grader
    from problemtools_py.grading.problems import Fetched
    from problemtools_py.grading.results import GradeResult, Settings
    from problemtools_py.sandbox.pool import SandboxPool

PROG = "gradecode"
ON_BAD_ROW = ("score", "raise")


def build_parser() -> argparse.ArgumentParser:
    description = describe(__doc__)
    parser = argparse.ArgumentParser(prog=PROG, description=description)
    parser.add_argument(
        "dataset",
        type=Path,
        nargs="?",
        metavar="DATASET",
        help="a dataset directory, or a directory of problem packages (with --check: where "
        "rows naming a problem id are looked up)",
    )
    parser.add_argument(
        "completions",
        type=Path,
        nargs="?",
        metavar="COMPLETIONS.jsonl",
        help="one JSON object per line with problem_id and completion (- : standard input); "
        "a line may give its memory limit (memory_mb, memory_limit MB, memory_limit_bytes)",
    )
    parser.add_argument(
        "--on-bad-row",
        choices=ON_BAD_ROW,  # (rewardargs.ON_BAD_ROW: importing it loads the grader)
        default="score",
        help="a line that cannot be graded (no JSON, an unknown problem id...): written with "
        "status bad_row and graded no further, exit 1 (score, the default), or the error "
        "before anything is graded (raise)",
    )
    add_check(parser)
    parser.add_argument("-o", "--output", type=Path, help="write results here, not to stdout")
    add_jobs(parser, "programs run", cluster=True)
    parser.add_argument(
        "--languages",
        default="python3",
        metavar="CODES",
        help="comma-separated languages a completion may be in, its fence tag deciding "
        "(e.g. python3,cpp,java; default python3: the dataset's rule)",
    )
    parser.add_argument(
        "--raw",
        action="store_true",
        help="completions are bare programs, not text with a fenced code block",
    )
    parser.add_argument(
        "--memory-mb",
        type=positive_int,
        default=2048,
        metavar="MB",
        help="memory limit of every run (default: 2048)",
    )
    parser.add_argument(
        "--output-factor",
        type=positive_int,
        default=4,
        metavar="K",
        help="output limit: K x the expected output + 64 KiB",
    )
    parser.add_argument(
        "--ray",
        metavar="ADDRESS",
        help="grade on every node of a Ray cluster ('local' starts one here; 'auto', "
        "host:port or ray://host:port); nodes without the dataset get its tests from here",
    )
    parser.add_argument(
        "--no-pin",
        dest="pin",
        action="store_false",
        help="do not pin a worker's own thread to the core it leased (its programs stay there)",
    )
    parser.add_argument(
        "--fresh-python",
        action="store_true",
        help="run each test in a new python3 (a new hash() seed per run, as python3 gives) "
        "instead of a fork of a warm interpreter; about 5x slower",
    )
    add_python(parser, "Python completions")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    return parser


@dataclass(frozen=True)
class Line:
    """An input line: its number, the object it holds (if any), why it cannot be graded
    (None: it can), and the memory limit it gives (MiB; None: --memory-mb's)."""

    number: int
    item: dict[str, Any] | None
    why: str | None = None
    memory_mb: int | None = None


def read_lines(path: Path) -> Iterator[Line]:
    """Each non-blank line of ``path`` (``-``: standard input, for a pipeline) with its
    number, and the item it holds or why it cannot be graded: JSON, an object, a string
    problem_id and completion, UTF-8, a memory limit if it gives one."""
    if str(path) == "-":
        yield from _parse(sys.stdin.buffer)
        return
    try:
        handle = path.open("rb")
    except OSError as exc:
        raise FatalError(f"cannot read: {exc.strerror}", path=path) from exc
    with handle:
        yield from _parse(handle)


def _parse(handle: BinaryIO) -> Iterator[Line]:
    for number, raw in enumerate(handle, start=1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            yield Line(number, None, f"not UTF-8 (byte {exc.start + 1} of the line)")
            continue
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except (ValueError, RecursionError) as exc:
            yield Line(number, None, f"not a JSON object: {exc}")
            continue
        yield _line(number, item)


def _line(number: int, item: object) -> Line:
    """The line holding ``item``, checked (its memory limit read once, here)."""
    from problemtools_py.grading.shapes import memory_mb_of

    if not isinstance(item, dict):
        return Line(number, None, "each line needs a string problem_id and completion")
    if not isinstance(item.get("problem_id"), str) or not isinstance(item.get("completion"), str):
        return Line(number, item, "each line needs a string problem_id and completion")
    try:
        return Line(number, item, None, memory_mb_of(item))
    except ValueError as exc:
        return Line(number, item, str(exc))


def _screened(lines: list[Line], known: set[str], path: Path, strict: bool) -> list[Line]:
    """Each line, an id the source lacks a reason too; with ``strict`` (--on-bad-row
    raise) the first bad line is the error, before anything is graded."""
    out: list[Line] = []
    for line in lines:
        if line.why is None and line.item is not None and line.item["problem_id"] not in known:
            line = replace(line, why=f"no problem with id {line.item['problem_id']!r}")
        if strict and line.why is not None:
            raise FatalError(line.why, path=path, line=line.number)
        out.append(line)
    return out


def _bad_line(line: Line) -> dict[str, Any]:
    """The result of an input line that cannot be graded: flagged, never graded."""
    from problemtools_py.grading.results import GradeResult, Status

    echoed = {k: v for k, v in (line.item or {}).items() if k != "completion"}
    found = GradeResult(None, Status.BAD_ROW, message=line.why or "").as_dict()
    return {**echoed, **found, "line": line.number}


def _write(out: TextIO, item: dict[str, Any], result: GradeResult) -> None:
    out.write(json.dumps({**item, **result.as_dict()}, ensure_ascii=False) + "\n")


def _prestarted(jobs: int) -> SandboxPool:
    """The grader's sandboxes, starting (one per worker) while its modules import."""
    from problemtools_py.sandbox.pool import SandboxPool

    pool = SandboxPool(jobs + 1)
    pool.prestart(jobs)
    return pool


def _progress(quiet: bool) -> Progress | QuietBar:
    from problemtools_py.cli.reporters import count_bar

    return count_bar("grading", quiet, "{task.fields[rate]}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    own_process = argv is None

    def body(args: argparse.Namespace) -> ExitCode:
        if args.check is not None:
            from problemtools_py.cli.gradecheck import check

            return check(args, parser)
        if args.dataset is None or args.completions is None:
            raise FatalError("give DATASET and COMPLETIONS.jsonl (or --check FILE...)")
        if args.output is not None:
            check_output(args.output, "-o", directory=False)
        check_python(args.python)
        if not args.ray:  # (the first server starts while the lines are read, modules import)
            from problemtools_py.sandbox.launch import start_early

            start_early()
        lines = list(read_lines(args.completions))  # every line read before grading
        if own_process and not args.ray:  # (not a caller's: see dataset.arrow)
            without_numpy()
        return _grade(args, lines)

    return run_cli(PROG, parser, argv, body)


def _grade(args: argparse.Namespace, lines: list[Line]) -> ExitCode:
    from problemtools_py.grading.grader import Grader
    from problemtools_py.grading.results import Settings

    cluster_jobs, args.jobs = args.jobs, args.jobs or usable_cores()
    pool = _prestarted(args.jobs) if not args.ray else None
    settings = Settings(
        memory_mb=args.memory_mb,
        output_factor=args.output_factor,
        raw=args.raw,
        pin=args.pin,
        fresh_python=args.fresh_python,
        python=args.python,
        languages=tuple(c.strip() for c in args.languages.split(",") if c.strip()),
    )
    # (results go to a hidden file renamed to --output once every line is written;
    # should that fail, the file stays and the error says where: never hours lost)
    partial = Pending(args.output, suffix=".partial", keep=True) if args.output else None
    out = os.fdopen(partial.fd, "w", encoding="utf-8") if partial else sys.stdout
    tally = _Tally(time.perf_counter())
    try:
        with (
            Grader(args.dataset, settings, args.jobs, pool) as grader,
            _progress(args.quiet) as bar,  # (rich imported while the sandboxes start)
        ):
            strict = args.on_bad_row == "raise"
            lines = _screened(lines, grader.problems.ids(), args.completions, strict)
            task = bar.add_task("grade", total=len(lines), rate="")
            results = _results(args, grader, settings, lines, cluster_jobs, tally)
            for line in lines:
                if line.why is not None:
                    out.write(json.dumps(_bad_line(line), ensure_ascii=False) + "\n")
                    tally.statuses["bad_row"] += 1
                else:
                    assert line.item is not None
                    _write(out, line.item, tally.add(next(results)))
                bar.update(task, advance=1, rate=tally.rate(args.ray))
            if next(results, None) is not None:  # (run to its end: Ray's view, its errors)
                raise RuntimeError("more results than completions")
    except BaseException:
        if partial:
            out.close()
            partial.discard()  # never a half-written result file
        raise
    if partial:
        out.close()
        partial.commit()
    tally.report(args.ray)
    unusable = tally.statuses["bad_row"] + tally.statuses["unknown_problem"]
    return ExitCode.FINDINGS if unusable else ExitCode.CLEAN


def _results(
    args: argparse.Namespace,
    grader: Grader,
    settings: Settings,
    lines: list[Line],
    cluster_jobs: int | None,
    tally: _Tally,
) -> Iterator[GradeResult]:
    """The graded lines' results, in order: here, or on the Ray cluster."""
    from problemtools_py.grading.cluster.nodes import cluster_grade

    items = [
        (str(line.item["problem_id"]), str(line.item["completion"]), line.memory_mb)
        for line in lines
        if line.why is None and line.item is not None
    ]

    def fetch(pid: str) -> Fetched:
        found = grader.problems.fetch(pid)
        if found is None:
            raise FatalError(f"no problem with id {pid!r}")
        return found

    if args.ray:
        return cluster_grade(
            args.ray, args.dataset, settings, items, cluster_jobs, fetch, tally.view
        )
    return grader.grade_many(items)


class _Tally:
    """What was graded, for the progress bar and the summary."""

    def __init__(self, start: float) -> None:
        from problemtools_py.grading.cluster.nodes import View

        self.start = start
        self.statuses: Counter[str] = Counter()
        self.tests = self.retries = 0
        self.view = View()

    def add(self, result: GradeResult) -> GradeResult:
        self.statuses[result.status] += 1
        self.tests += result.tests_run
        self.retries += result.retries
        return result

    def rate(self, ray: str | None) -> str:
        elapsed = max(time.perf_counter() - self.start, 1e-9)
        return (
            f"{sum(self.statuses.values()) / elapsed:.1f} completions/s, "
            f"{self.tests / elapsed:.0f} tests/s" + (f", {self.view.nodes} nodes" if ray else "")
        )

    def report(self, ray: str | None) -> None:
        total = sum(self.statuses.values())
        passed = self.statuses.get("ok", 0)
        summary = ", ".join(f"{k} {v}" for k, v in sorted(self.statuses.items()))
        bad = self.statuses.get("bad_row", 0)
        print(
            f"{PROG}: {total} completions, pass rate {passed / max(total, 1):.3f} ({summary}); "
            f"{self.tests} tests in {time.perf_counter() - self.start:.1f} s, {self.retries} "
            "run again (starved by the machine)"
            + (f"; {bad} lines not graded (status bad_row: see their message)" if bad else ""),
            file=sys.stderr,
        )
        if ray:
            parts = ", ".join(
                f"{node} ({'dataset here' if here else 'tests sent'}) {count}"
                for node, here, count in self.view.parts
            )
            print(f"{PROG}: graded on {len(self.view.parts)} Ray nodes: {parts}", file=sys.stderr)


if __name__ == "__main__":
    raise SystemExit(main())
