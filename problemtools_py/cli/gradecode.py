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
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, TextIO

from problemtools_py.atomicfile import Pending
from problemtools_py.cli.errorhandler import run_cli
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
    from problemtools_py.grading.problems import Fetched
    from problemtools_py.grading.results import GradeResult
    from problemtools_py.sandbox.pool import SandboxPool

PROG = "gradecode"


def build_parser() -> argparse.ArgumentParser:
    description = describe(__doc__)
    parser = argparse.ArgumentParser(prog=PROG, description=description)
    parser.add_argument(
        "dataset",
        type=Path,
        metavar="DATASET",
        help="a dataset directory, or a directory of problem packages",
    )
    parser.add_argument(
        "completions",
        type=Path,
        metavar="COMPLETIONS.jsonl",
        help="one JSON object per line with problem_id and completion (- : standard input)",
    )
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


def read_lines(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """Each non-blank line of ``path`` (``-``: standard input, for a pipeline) with its
    number, checked: JSON, an object, a string problem_id and completion, UTF-8."""
    if str(path) == "-":
        yield from _parse(sys.stdin.buffer, path)
        return
    try:
        handle = path.open("rb")
    except OSError as exc:
        raise FatalError(f"cannot read: {exc.strerror}", path=path) from exc
    with handle:
        yield from _parse(handle, path)


def _parse(handle: BinaryIO, path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    for number, raw in enumerate(handle, start=1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise FatalError(f"not UTF-8 (byte {exc.start + 1} of the line)", path=path,
                             line=number) from None  # fmt: skip
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except ValueError as exc:
            raise FatalError(f"not a JSON object: {exc}", path=path, line=number) from None
        if (
            not isinstance(item, dict)
            or not isinstance(item.get("problem_id"), str)
            or not isinstance(item.get("completion"), str)
        ):
            raise FatalError(
                "each line needs a string problem_id and completion", path=path, line=number
            )
        yield number, item


def _check_ids(path: Path, items: list[tuple[int, dict[str, Any]]], known: set[str]) -> None:
    """Every problem_id must be graded against something: say which line names none."""
    for number, item in items:
        if item["problem_id"] not in known:
            raise FatalError(f"no problem with id {item['problem_id']!r}", path=path, line=number)


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
        if args.output is not None:
            check_output(args.output, "-o", directory=False)
        check_python(args.python)
        items = list(read_lines(args.completions))  # validates every line before grading
        if own_process and not args.ray:  # (not a caller's: see dataset.arrow)
            without_numpy()
        cluster_jobs, args.jobs = args.jobs, args.jobs or usable_cores()
        pool = _prestarted(args.jobs) if not args.ray else None
        from problemtools_py.grading.cluster import View, cluster_grade
        from problemtools_py.grading.grader import Grader
        from problemtools_py.grading.results import Settings, Status

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
        statuses: Counter[str] = Counter()
        tests = retries = 0
        start = time.perf_counter()
        try:
            with (
                Grader(args.dataset, settings, args.jobs, pool) as grader,
                _progress(args.quiet) as bar,  # (rich imported while the sandboxes start)
            ):
                _check_ids(args.completions, items, grader.problems.ids())
                task = bar.add_task("grade", total=len(items), rate="")
                pairs = [(i["problem_id"], i["completion"]) for _, i in items]
                view = View()

                def fetch(pid: str) -> Fetched:
                    found = grader.problems.fetch(pid)
                    if found is None:
                        raise FatalError(f"no problem with id {pid!r}")
                    return found

                results = (
                    cluster_grade(
                        args.ray,
                        args.dataset,
                        settings,
                        pairs,
                        cluster_jobs,
                        fetch,
                        view,
                    )
                    if args.ray
                    else grader.grade_many(pairs)
                )
                for (_, item), result in zip(items, results, strict=True):
                    _write(out, item, result)
                    statuses[result.status] += 1
                    tests += result.tests_run
                    retries += result.retries
                    elapsed = max(time.perf_counter() - start, 1e-9)
                    bar.update(
                        task,
                        advance=1,
                        rate=f"{sum(statuses.values()) / elapsed:.1f}"
                        f" completions/s, {tests / elapsed:.0f} tests/s"
                        + (f", {view.nodes} nodes" if args.ray else ""),
                    )
        except BaseException:
            if partial:
                out.close()
                partial.discard()  # never a half-written result file
            raise
        if partial:
            out.close()
            partial.commit()
        total = sum(statuses.values())
        passed = statuses.get(Status.OK, 0)
        summary = ", ".join(f"{k} {v}" for k, v in sorted(statuses.items()))
        print(
            f"{PROG}: {total} completions, pass rate {passed / max(total, 1):.3f} ({summary}); "
            f"{tests} tests in {time.perf_counter() - start:.1f} s, {retries} run again "
            "(starved by the machine)",
            file=sys.stderr,
        )
        if args.ray:
            parts = ", ".join(f"{node} ({'dataset here' if here else 'tests sent'}) {count}"
                              for node, here, count in view.parts)  # fmt: skip
            print(f"{PROG}: graded on {len(view.parts)} Ray nodes: {parts}", file=sys.stderr)
        return ExitCode.CLEAN

    return run_cli(PROG, parser, argv, body)


if __name__ == "__main__":
    raise SystemExit(main())
