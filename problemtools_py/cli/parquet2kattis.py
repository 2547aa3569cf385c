"""``parquet2kattis DATASET_DIR OUT_DIR``: one Kattis problem package per dataset row."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

from problemtools_py.cli.errorhandler import run_cli
from problemtools_py.cli.options import add_jobs, check_output, describe
from problemtools_py.dataset.arrow import import_without_numpy
from problemtools_py.dataset.splits import SPLITS
from problemtools_py.errors import FatalError
from problemtools_py.findings import ExitCode, count

if TYPE_CHECKING:  # (imported in main: --help needs neither pyarrow nor rich)
    from rich.progress import Progress

    from problemtools_py.cli.reporters import QuietBar
    from problemtools_py.dataset.reader import Dataset, DatasetProblem

PROG = "parquet2kattis"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=PROG, description=describe(__doc__))
    parser.add_argument("dataset", type=Path, metavar="DATASET_DIR")
    parser.add_argument("out", type=Path, metavar="OUT_DIR")
    parser.add_argument(
        "--split",
        action="append",
        choices=SPLITS,
        help="splits to convert (repeatable; default: all present)",
    )
    parser.add_argument("--ids", help="comma-separated problem ids: only these")
    parser.add_argument("--share", choices=("sft", "rl"), help="only this share of the rows")
    parser.add_argument(
        "--format",
        choices=("legacy", "2023-07"),
        default="2023-07",
        help="package format (default: 2023-07)",
    )
    add_jobs(parser, "packages written")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    parser.add_argument(
        "--json",
        action="store_true",
        help="print what was written as one JSON document on stdout (each package's "
        "problem_id and path, and any --ids not found)",
    )
    return parser


def _selected(
    data: Dataset, splits: list[str], ids: set[str] | None, share: str | None, seen: set[str]
) -> Iterator[DatasetProblem]:
    """The rows asked for; the ids of those found by ``--ids`` go into ``seen``."""
    for split in splits:
        if ids is not None:  # by id: only the row groups that hold them are read
            for pid in sorted(ids):
                found = data.problem(split, pid)
                if found is not None:
                    seen.add(pid)
                    yield found
            continue
        for problem in data.iter_problems(split):
            if share is None or problem.share == share:
                yield problem


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()

    own_process = argv is None

    def body(args: argparse.Namespace) -> ExitCode:
        check_output(args.out, "OUT_DIR", directory=True)
        if own_process:  # (not a caller's: see import_without_numpy)
            import_without_numpy()
        from problemtools_py.dataset.reader import Dataset

        data = Dataset(args.dataset)
        splits = args.split or data.splits
        if not splits:
            raise FatalError("no problems-<split>.parquet files", path=args.dataset)
        ids = {i.strip() for i in args.ids.split(",") if i.strip()} if args.ids else None
        created = not args.out.exists()
        args.out.mkdir(parents=True, exist_ok=True)
        made: list[str] = []  # (the packages written, to take back if a later one fails)
        seen: set[str] = set()
        try:
            written = _write_all(args, data, splits, (ids, seen), made)
        except BaseException:
            import shutil

            for name in made:
                shutil.rmtree(args.out / name, ignore_errors=True)
            if created:
                shutil.rmtree(args.out, ignore_errors=True)
            raise
        if created and not made:  # (nothing selected: no empty directory left either)
            args.out.rmdir()
        missing = sorted(ids - seen) if ids is not None else []
        return _report(args, made, written, missing, splits)

    return run_cli(PROG, parser, argv, body)


def _report(
    args: argparse.Namespace,
    made: list[str],
    written: int,
    missing: list[str],
    splits: list[str],
) -> ExitCode:
    """What was written (and, exit 1, any ``--ids`` no split holds: a mistyped id)."""
    if args.json:
        import json

        packages = [{"problem_id": n, "path": str(args.out / n)} for n in sorted(made)]
        json.dump(
            {
                "tool": "problemtools_py",
                "out": str(args.out),
                "packages": packages,
                "missing_ids": missing,
            },
            sys.stdout,
            indent=2,
        )
        sys.stdout.write("\n")
    print(f"{PROG}: wrote {count(written, 'package')} to {args.out}", file=sys.stderr)
    if missing:
        print(
            f"{PROG}: error: {args.dataset}: no problem with id {', '.join(missing)} in "
            f"{'split' if len(splits) == 1 else 'splits'} {', '.join(splits)}",
            file=sys.stderr,
        )
        return ExitCode.FINDINGS
    return ExitCode.CLEAN


def _write_all(
    args: argparse.Namespace,
    data: Dataset,
    splits: list[str],
    wanted: tuple[set[str] | None, set[str]],
    made: list[str],
) -> int:
    """Every selected package into ``args.out``, each named in ``made`` once written;
    ``wanted``: the ids asked for (None: all) and the set of those found."""
    from problemtools_py.cli.reporters import count_bar
    from problemtools_py.dataset.export import package

    def one(problem: DatasetProblem, reference: str | None) -> None:
        made.append(package(problem, reference, args.out, args.format == "2023-07").name)

    written = 0
    with (
        count_bar("writing packages", args.quiet) as bar,
        ThreadPoolExecutor(args.jobs) as pool,
    ):
        task = bar.add_task("write", total=None)
        pending: list[Future[Any]] = []
        for problem in _selected(data, splits, wanted[0], args.share, wanted[1]):
            reference = data.reference(problem.problem_id) if _has_refs(data) else None
            pending.append(pool.submit(one, problem, reference))
            if len(pending) >= 4 * args.jobs:  # bounded memory
                written += _drain(pending, bar, task)
        written += _drain(pending, bar, task)
    return written


def _has_refs(data: Dataset) -> bool:
    return (data.root / "references.parquet").is_file()


def _drain(pending: list[Future[Any]], bar: Progress | QuietBar, task: Any) -> int:
    done = 0
    for future in pending:
        future.result()
        done += 1
        bar.advance(task)
    pending.clear()
    return done


if __name__ == "__main__":
    raise SystemExit(main())
