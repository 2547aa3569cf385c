"""``runsubmission DIR SUBMISSION [TARGET...]``: build one program and run it in the
sandbox on test cases of the package (a case's name like ``secret/03``, a group's like
``secret``, an input file, or ``-`` for standard input; default: the samples), each
judged as verifyproblem judges it, showing its verdict, time and memory, what it wrote
and, when the answer differs, where."""

from __future__ import annotations

import argparse
import difflib
import json
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from problemtools_py.cli.errorhandler import run_cli
from problemtools_py.cli.options import describe, positive_float
from problemtools_py.errors import FatalError
from problemtools_py.findings import ExitCode

TYPE_CHECKING = False
if TYPE_CHECKING:
    from problemtools_py.author.runsubmission import OneRun

PROG = "runsubmission"
LINES = 20  # lines of output shown (all of it with --diff's unified diff, up to DIFF_LINES)
DIFF_LINES = 60


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=PROG, description=describe(__doc__))
    parser.add_argument("problem", type=Path, metavar="DIR")
    parser.add_argument(
        "submission",
        type=Path,
        metavar="SUBMISSION",
        help="a program's file, or a directory of its files",
    )
    parser.add_argument(
        "targets",
        nargs="*",
        metavar="TARGET",
        help="cases, groups, input files or - (default: the samples)",
    )
    parser.add_argument(
        "-t",
        "--time-limit",
        type=positive_float,
        metavar="SECONDS",
        help="CPU seconds (default: the package's, else the least its rules allow)",
    )
    parser.add_argument(
        "--diff", action="store_true", help="show a unified diff of the output against the answer"
    )
    parser.add_argument(
        "--interaction",
        action="store_true",
        help="interactive and multi-pass problems: what passed between the "
        "program and the judge, in order (as a sample's .interaction)",
    )
    parser.add_argument("--json", action="store_true", help="one JSON document on stdout")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    def body(args: argparse.Namespace) -> ExitCode:
        if not (args.problem / "problem.yaml").is_file():
            raise FatalError("not a problem package (no problem.yaml)", path=args.problem)
        from problemtools_py.author.runsubmission import SingleRunner, in_package, targets

        submission = in_package(args.problem, args.submission)
        if submission is None:
            raise FatalError(
                f"no such file or directory here, nor in {args.problem}", path=args.submission
            )
        from problemtools_py.sandbox.pool import SandboxPool

        with tempfile.TemporaryDirectory(prefix="ptpy-stdin-") as tmp, SandboxPool(3) as pool:
            stdin = Path(tmp) / "stdin.in"
            if "-" in args.targets:
                stdin.write_bytes(sys.stdin.buffer.read())
            runner = SingleRunner(args.problem, pool, args.time_limit)
            try:
                chosen = targets(runner.ctx, args.targets, stdin)
                exe = runner.build(submission)
                if isinstance(exe, str):
                    return _compile_error(args, exe)
                run = runner.transcript if args.interaction else runner.run
                runs = [run(exe, target, i) for i, target in enumerate(chosen)]
            finally:
                runner.close()
        _report(runs, runner.limit.seconds, args)
        bad = any(r.verdict is not None and r.verdict.value != "AC" for r in runs)
        return ExitCode.FINDINGS if bad else ExitCode.CLEAN

    return run_cli(PROG, build_parser(), argv, body)


def _compile_error(args: argparse.Namespace, message: str) -> ExitCode:
    if args.json:
        json.dump({"tool": "problemtools_py", "compile_error": message, "runs": []}, sys.stdout)
        sys.stdout.write("\n")
    else:
        print(f"{args.submission}: compile error\n{message}", file=sys.stderr)
    return ExitCode.FINDINGS


def _report(runs: list[OneRun], seconds: float, args: argparse.Namespace) -> None:
    if args.json:
        shown = [
            {
                "target": r.target,
                "verdict": r.verdict.value if r.verdict else None,
                "cpu_seconds": r.cpu_seconds,
                "wall_seconds": r.wall_seconds,
                "memory_bytes": r.memory_bytes,
                "ended": r.ended,
                "passes": r.passes,
                "stdout": r.stdout.decode("utf-8", "replace"),
                "stderr": r.stderr.decode("utf-8", "replace"),
                "message": r.message,
                **({"interaction": r.transcript} if r.transcript is not None else {}),
            }
            for r in runs
        ]
        json.dump(
            {"tool": "problemtools_py", "time_limit": seconds, "runs": shown}, sys.stdout, indent=2
        )
        sys.stdout.write("\n")
        return
    for run in runs:
        for line in _lines(run, args.diff):
            print(line)
    print(f"{PROG}: {len(runs)} run(s) at a time limit of {seconds:g} s", file=sys.stderr)


def _lines(run: OneRun, diff: bool) -> list[str]:
    verdict = run.verdict.value if run.verdict else "ran"
    if run.transcript is not None:  # (--interaction)
        shown = [f"  {line}" for line in run.transcript.splitlines()]
        return [f"{run.target}: {verdict}", *shown, f"  judge: {run.message}"]
    lines = [
        f"{run.target}: {verdict}  CPU {run.cpu_seconds:.3f} s  wall "
        f"{run.wall_seconds:.3f} s  memory {run.memory_bytes / (1 << 20):.1f} MiB  "
        f"({run.ended}{', passes ' + str(run.passes) if run.passes > 1 else ''})"
    ]
    out = run.stdout.decode("utf-8", "replace").splitlines()
    if out:
        lines.append(f"  stdout ({len(out)} lines):")
        lines += [f"  | {line}" for line in out[:LINES]]
        lines += [f"  | ... {len(out) - LINES} more"] if len(out) > LINES else []
    err = run.stderr.decode("utf-8", "replace").splitlines()
    if err:
        lines.append("  stderr:")
        lines += [f"  ! {line}" for line in err[-LINES:]]
    if run.message:
        message = run.message.splitlines()
        lines += [f"  judge: {message[0]}", *(f"         {line}" for line in message[1:])]
    if run.answer is not None and run.verdict is not None and (diff or run.verdict.value == "WA"):
        lines += _difference(run.stdout, run.answer, diff)
    return lines


def _difference(got: bytes, answer: bytes, unified: bool) -> list[str]:
    """Where the output first differs from the answer (line and column, both lines), or
    with ``unified`` the whole unified diff (cut to DIFF_LINES)."""
    ours = got.decode("utf-8", "replace").splitlines()
    theirs = answer.decode("utf-8", "replace").splitlines()
    if unified:
        diff = list(difflib.unified_diff(theirs, ours, "answer", "output", lineterm=""))
        return [f"  {line}" for line in diff[:DIFF_LINES]] or ["  (no difference in the text)"]
    for number, (a, b) in enumerate(zip(theirs, ours, strict=False), 1):
        if a.split() != b.split():
            column = next(
                (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y),
                min(len(a), len(b)),
            )
            return [
                f"  first difference: line {number}, column {column + 1}",
                f"    answer: {a[:120]}",
                f"    output: {b[:120]}",
                f"            {' ' * min(column, 120)}^",
            ]
    if len(theirs) != len(ours):
        return [f"  the answer has {len(theirs)} lines, the output {len(ours)}"]
    return ["  (the lines match as tokens: the validator's rule decides)"]


if __name__ == "__main__":
    raise SystemExit(main())
