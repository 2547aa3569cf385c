"""``importdataset SOURCE FILE... -o OUT_DIR``: rows of a source the dataset card names
(DeepCoder-Preview's configs, TACO), read from local parquet or JSON lines files as the
source publishes them, curated step by step as the card does, into a
competitive-code-curated dataset directory (problems-<split>.parquet, references.parquet,
build_report.json with the card's steps and counts, drops.jsonl) and, with --packages, a
Kattis package per curated row. A run killed mid-way, started again the same way, goes
on where it stopped."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from problemtools_py.cli.errorhandler import run_cli
from problemtools_py.cli.options import (
    add_jobs,
    check_output,
    describe,
    nonnegative_int,
    positive_float,
    positive_int,
)
from problemtools_py.dataset.splits import SPLITS
from problemtools_py.errors import FatalError
from problemtools_py.findings import ExitCode, count

if TYPE_CHECKING:
    from problemtools_py.upstream.importer import Tally

PROG = "importdataset"
SOURCES = (
    "deepcoder-taco",
    "deepcoder-primeintellect",
    "deepcoder-lcbv5",
    "deepcoder-codeforces",
    "taco",
    "primeintellect",
    "codeforces",
    "code-contests-plus",
    "livecodebench",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=PROG, description=describe(__doc__))
    parser.add_argument(
        "source", choices=SOURCES, metavar="SOURCE", help=f"the rows' layout: {', '.join(SOURCES)}"
    )
    parser.add_argument(
        "files",
        nargs="+",
        type=Path,
        metavar="FILE",
        help="the source's parquet or JSON lines files, read in order",
    )
    parser.add_argument(
        "-o",
        "--out",
        type=Path,
        required=True,
        metavar="OUT_DIR",
        help="the dataset directory to create (must not exist)",
    )
    parser.add_argument(
        "--packages",
        type=Path,
        metavar="DIR",
        help="also write a Kattis package per curated row into DIR",
    )
    parser.add_argument(
        "--livecodebench",
        type=Path,
        action="append",
        default=[],
        metavar="FILE",
        help="drop rows that overlap a problem of this "
        "LiveCodeBench file (question_content; parquet, JSON lines)",
    )
    parser.add_argument(
        "--dedup-against",
        type=Path,
        action="append",
        default=[],
        metavar="DATASET",
        help="drop rows that duplicate a problem of this "
        "dataset (or parquet / JSONL file with a statement per row)",
    )
    parser.add_argument("--split", choices=SPLITS, default="train")
    parser.add_argument("--max-tests", type=positive_int, default=32, metavar="N")
    parser.add_argument("--max-test-bytes", type=positive_int, default=4 << 20, metavar="BYTES")
    parser.add_argument("--min-tests", type=nonnegative_int, default=5, metavar="N")
    parser.add_argument(
        "--max-reference-seconds",
        type=positive_float,
        default=2.0,
        metavar="S",
        help="drop a row whose fastest passing reference "
        "takes longer on a test (CPU seconds; default 2)",
    )
    parser.add_argument(
        "--references",
        type=positive_int,
        default=3,
        metavar="N",
        help="Python 3 references run per row (default 3)",
    )
    parser.add_argument(
        "--allow-no-reference",
        action="store_true",
        help="keep a row no reference passes on its upstream tests alone (reference_kind "
        "upstream_tests_only, as the card's v1.1 rows), unless one answers a test wrong",
    )
    parser.add_argument(
        "--append-to",
        type=Path,
        metavar="DATASET",
        help="write DATASET with the curated rows appended to its train split, after its "
        "rows, which keep their index and content (the card's v1.1 rule); the rows are "
        "deduplicated against it",
    )
    parser.add_argument(
        "--keep-judges",
        action="store_true",
        help="keep a row whose testlib checker the comparator does not reproduce, with the "
        "checker as its judge, in judged-<split>.parquet beside the card's files",
    )
    parser.add_argument(
        "--convert-python2",
        action="store_true",
        help="when no Python 3 reference passes, run the Python 2 ones converted with 2to3 "
        "(reference_kind py2to3, as the card's v1.1 rows)",
    )
    parser.add_argument(
        "--submissions",
        type=Path,
        action="append",
        default=[],
        metavar="FILE",
        help="codeforces: open-r1/codeforces-submissions files (selected_accepted): the "
        "rows' Python 3 references",
    )
    parser.add_argument(
        "--incorrect",
        type=Path,
        action="append",
        default=[],
        metavar="FILE",
        help="codeforces: codeforces-submissions' selected_incorrect files: known-wrong "
        "programs for the packages (--wrong)",
    )
    parser.add_argument(
        "--generated-tests",
        type=Path,
        metavar="DIR",
        help="codeforces: the directory of open-r1's test_cases_<contest>.parquet files",
    )
    parser.add_argument(
        "--wrong",
        type=nonnegative_int,
        default=2,
        metavar="N",
        help="with --packages: run a curated row's first N known-wrong programs (Python, "
        "C++, Java) and put those its tests reject in its package (default 2)",
    )
    add_jobs(parser, "references run")
    parser.add_argument(
        "--ray",
        metavar="ADDRESS",
        help="run the references on a Ray cluster ('local' starts one here; 'auto', or "
        "ray://host:port); rows travel with their tests, no shared file system needed",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    parser.add_argument(
        "--json", action="store_true", help="print the build's steps and counts as JSON on stdout"
    )
    return parser


def _options(args: argparse.Namespace) -> Any:
    from problemtools_py.upstream.curate import Caps
    from problemtools_py.upstream.importer import ImportOptions
    from problemtools_py.upstream.references import RowOptions

    rows = RowOptions(
        args.split,
        args.min_tests,
        args.max_reference_seconds,
        args.references,
        args.allow_no_reference,
        args.convert_python2,
        args.wrong if args.packages is not None else 0,
    )
    return ImportOptions(
        args.source,
        rows,
        Caps(args.max_tests, args.max_test_bytes),
        tuple(args.livecodebench),
        tuple(args.dedup_against),
        args.jobs,
        args.append_to,
        tuple(args.submissions),
        tuple(args.incorrect),
        args.generated_tests,
        args.ray,
        args.keep_judges,
    )


def _rate(tally: Tally, total: int | None, started: float) -> str:
    """The bar's text: rows kept, rows a second (those done afresh: a resumed run's
    journal answers the rest at once), and the time left at that rate."""
    kept = sum(tally.curated.values())
    fresh = tally.done - tally.resumed
    seconds = max(1e-9, time.monotonic() - started)
    rate = fresh / seconds
    text = f"{kept} kept, {rate:.1f} rows/s"
    if total is not None and rate > 0 and fresh > 0:
        left = max(0, total - tally.done) / rate
        text += f", {int(left // 3600)}:{int(left % 3600 // 60):02d}:{int(left % 60):02d} left"
    return text


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()

    def body(args: argparse.Namespace) -> ExitCode:
        check_output(args.out, "-o", directory=True)
        if args.out.exists():
            raise FatalError("already exists; choose a new output directory", path=args.out)
        if args.append_to is not None:
            if not (args.append_to / "build_report.json").is_file():
                raise FatalError(
                    "not a dataset directory (no build_report.json)", path=args.append_to
                )
            if args.split != "train":
                raise FatalError("--append-to appends to train only (the card's v1.1 rule)")
        if args.generated_tests is not None and not args.generated_tests.is_dir():
            raise FatalError("no such directory", path=args.generated_tests)
        for path in [*args.files, *args.submissions, *args.incorrect]:
            if not path.is_file():
                raise FatalError("no such file", path=path)
        from problemtools_py.cli.reporters import count_bar
        from problemtools_py.upstream.importer import run_import, total_rows

        total = total_rows(args.files)
        started = time.monotonic()
        with count_bar("importing", args.quiet, "{task.fields[rate]}") as bar:
            task = bar.add_task("import", total=total, rate="")

            def progress(tally: Tally) -> None:
                bar.update(task, completed=tally.done, rate=_rate(tally, total, started))

            out, tally = run_import(args.files, args.out, _options(args), args.packages, progress)
        if args.json:
            report = {"tool": "problemtools_py", "out": str(out), "build": tally.steps()}
            json.dump(report, sys.stdout, indent=2, ensure_ascii=False)
            sys.stdout.write("\n")
        kept = sum(tally.curated.values())
        print(
            f"{PROG}: {tally.loaded} rows, {count(kept, 'problem')} curated, "
            f"{sum(tally.dropped.values())} dropped -> {out}",
            file=sys.stderr,
        )
        return ExitCode.CLEAN

    return run_cli(PROG, parser, argv, body)


if __name__ == "__main__":
    raise SystemExit(main())
