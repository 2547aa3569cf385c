"""``kattis2parquet DIR... -o OUT_DIR``: problem packages to a competitive-code-curated
dataset directory (problems-<split>.parquet, references.parquet, build_report.json,
drops.jsonl)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from problemtools_py.cli.errorhandler import run_cli
from problemtools_py.cli.options import (
    add_jobs,
    check_output,
    describe,
    nonnegative_int,
    packages_in,
    positive_int,
)
from problemtools_py.dataset.splits import SPLITS
from problemtools_py.errors import FatalError
from problemtools_py.findings import ExitCode, count
from problemtools_py.window import ordered_window

if TYPE_CHECKING:  # (imported in main: --help needs none of the converter)
    from problemtools_py.dataset.build import BuildOptions, Conversion
    from problemtools_py.sandbox.pool import SandboxPool

PROG = "kattis2parquet"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=PROG, description=describe(__doc__))
    parser.add_argument("packages", nargs="+", type=Path, metavar="DIR")
    parser.add_argument(
        "-o",
        "--out",
        type=Path,
        required=True,
        metavar="OUT_DIR",
        help="the dataset directory to create (must not exist)",
    )
    parser.add_argument(
        "--split",
        choices=SPLITS,
        default="train",
        help="split of packages that do not carry one (default: train)",
    )
    add_jobs(parser, "packages converted")
    parser.add_argument("--max-tests", type=positive_int, default=32, metavar="N")
    parser.add_argument("--max-test-bytes", type=positive_int, default=4 << 20, metavar="BYTES")
    parser.add_argument("--min-tests", type=nonnegative_int, default=5, metavar="N")
    parser.add_argument(
        "--allow-no-reference",
        action="store_true",
        help="keep problems without a passing Python 3 reference "
        "(reference_kind: upstream_tests_only)",
    )
    parser.add_argument(
        "--keep-judges",
        action="store_true",
        help="keep problems the dataset's comparator cannot judge (a custom output "
        "validator, validator flags, interactive, multi-pass, scoring), each with its own "
        "judge, in judged-<split>.parquet beside the card's files",
    )
    parser.add_argument(
        "--dedup-against",
        type=Path,
        action="append",
        default=[],
        metavar="DATASET",
        help="drop problems that duplicate one of this dataset",
    )
    parser.add_argument(
        "--decontaminate-against",
        type=Path,
        action="append",
        default=[],
        metavar="FILE",
        help="drop problems that duplicate a statement of this "
        'parquet file or JSONL (a "statement" per line)',
    )
    parser.add_argument(
        "--ray",
        metavar="ADDRESS",
        help="convert on a Ray cluster ('local' starts one here; 'auto', or "
        "ray://host:port); packages must be on a shared file system",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    parser.add_argument(
        "--json",
        action="store_true",
        help="print what was built as one JSON document on stdout: each row's problem_id, "
        "package and split, and each dropped package with why",
    )
    return parser


def _converted(
    workers: ThreadPoolExecutor,
    pool: SandboxPool,
    options: BuildOptions,
    packages: list[Path],
    jobs: int,
) -> Iterator[tuple[Path, Conversion]]:
    """Outcomes in input order, with at most a few packages converted ahead (bounded
    memory, whatever the number of packages)."""
    from problemtools_py.dataset.build import convert

    return ordered_window(
        packages,
        lambda path: workers.submit(convert, path, pool, options),
        Future.result,
        4 * max(1, jobs),
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()

    def body(args: argparse.Namespace) -> ExitCode:
        args.packages = packages_in(args.packages, PROG)
        check_output(args.out, "-o", directory=True)
        for path in args.packages:
            if not (path / "problem.yaml").is_file():
                raise FatalError("not a problem package (no problem.yaml)", path=path)
        from problemtools_py.cli.reporters import count_bar
        from problemtools_py.dataset.assemble import Assembler
        from problemtools_py.dataset.build import BuildOptions
        from problemtools_py.dataset.distributed import ray_outcomes
        from problemtools_py.dataset.filters import Filters
        from problemtools_py.sandbox.pool import SandboxPool

        options = BuildOptions(
            args.split, args.max_tests, args.max_test_bytes, args.min_tests, args.allow_no_reference
        )
        if args.keep_judges:
            options = replace(options, keep_judges=True)
        assembler = Assembler(args.out)
        try:
            with (
                SandboxPool(args.jobs + 1) as pool,
                ThreadPoolExecutor(args.jobs) as workers,
                count_bar("converting", args.quiet) as bar,
            ):
                task = bar.add_task("convert", total=len(args.packages))
                filters = Filters(args.dedup_against, args.decontaminate_against)
                converted = (
                    ray_outcomes(args.ray, args.packages, options)
                    if args.ray
                    else _converted(workers, pool, options, args.packages, args.jobs)
                )
                for path, outcome in converted:
                    filters.apply(assembler, path, outcome)
                    bar.advance(task)
            out = assembler.finish()
        except BaseException:
            assembler.abort()
            raise
        if args.json:
            json.dump(assembler.summary(), sys.stdout, indent=2, ensure_ascii=False)
            sys.stdout.write("\n")
        rows = sum(assembler.splits.values())
        print(
            f"{PROG}: {count(rows, 'problem')}, {sum(assembler.drops.values())} dropped -> {out}",
            file=sys.stderr,
        )
        return ExitCode.CLEAN

    return run_cli(PROG, parser, argv, body)


if __name__ == "__main__":
    raise SystemExit(main())
