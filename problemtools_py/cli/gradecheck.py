"""``gradecode --check FILE...``: a trainer's data files checked before training (see
grading.preflight): every row a reward call cannot grade, with its index and why."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from problemtools_py.errors import FatalError
from problemtools_py.findings import ExitCode

if TYPE_CHECKING:
    from problemtools_py.grading.preflight import BadRow, Tally

PROG = "gradecode --check"
SHOWN_REASONS = 10  # the commonest reasons in the summary


def add_check(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("checking a trainer's data (--check)")
    group.add_argument(
        "--check",
        nargs="+",
        type=Path,
        metavar="FILE",
        help="read these parquet or JSON-lines data files (verl's reward_model.ground_truth "
        "and extra_info, TRL's columns, the datasets' own rows) and name every row a reward "
        "call could not grade; nothing is run (exit 1 when one is found)",
    )
    group.add_argument(
        "--column",
        default="ground_truth",
        help="with --check: the column TRL's code_reward reads (default: ground_truth)",
    )
    group.add_argument(
        "--kwargs",
        default="{}",
        metavar="JSON",
        help="with --check: the reward's keyword arguments, as the trainer gives them "
        '(verl\'s reward_kwargs), e.g. \'{"mode": "pass-rate", "languages": ["cpp"]}\'',
    )
    group.add_argument(
        "--json",
        action="store_true",
        help="with --check: one JSON line per bad row, then one with the summary",
    )


def _kwargs(text: str) -> dict[str, Any]:
    try:
        found = json.loads(text)
    except ValueError as exc:
        raise FatalError(f"--kwargs is no JSON: {exc}") from None
    if not isinstance(found, dict):
        raise FatalError("--kwargs must be a JSON object of keyword arguments")
    return found


def check(args: argparse.Namespace, parser: argparse.ArgumentParser) -> ExitCode:
    """Check every file of ``--check``; exit 1 when a row cannot be graded."""
    from problemtools_py.grading.preflight import Preflight, check_files
    from problemtools_py.grading.rewardargs import RewardError

    if args.completions is not None:
        raise FatalError("--check takes data files, not COMPLETIONS.jsonl")
    for path in args.check:
        if not path.is_file():
            raise FatalError("no such file", path=path)
    try:
        preflight = Preflight(
            _kwargs(args.kwargs), args.column, str(args.dataset) if args.dataset else None
        )
    except RewardError as exc:
        raise FatalError(f"--kwargs: {exc}") from None
    start = time.perf_counter()

    def each(bad: BadRow) -> None:
        if args.json:
            print(json.dumps(bad.as_dict(), ensure_ascii=False))
        else:
            line = f", line {bad.line}" if bad.line is not None else ""
            print(f"{bad.path}: row {bad.index}{line}: {bad.reason}")

    tally = check_files(args.check, preflight, each)
    sys.stdout.flush()  # (the rows before the summary on a terminal)
    _summary(tally, time.perf_counter() - start, args.json)
    return ExitCode.FINDINGS if tally.bad else ExitCode.CLEAN


def _summary(tally: Tally, seconds: float, as_json: bool) -> None:
    common = sorted(tally.reasons.items(), key=lambda kv: (-kv[1], kv[0]))[:SHOWN_REASONS]
    if as_json:
        print(
            json.dumps(
                {
                    "summary": {
                        "rows": tally.total,
                        "bad": tally.bad,
                        "files": tally.rows,
                        "layouts": tally.layouts,
                        "reasons": dict(common),
                        "seconds": round(seconds, 3),
                    }
                },
                ensure_ascii=False,
            )
        )
        return
    layouts = ", ".join(f"{k} {v}" for k, v in sorted(tally.layouts.items()))
    files = f"{len(tally.rows)} file" + ("s" if len(tally.rows) != 1 else "")
    print(
        f"{PROG}: {tally.total} rows in {files} ({layouts or 'none read'}), "
        f"{tally.bad} cannot be graded, in {seconds:.1f} s",
        file=sys.stderr,
    )
    for reason, count in common:
        print(f"  {count} x {reason}", file=sys.stderr)
