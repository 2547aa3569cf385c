"""``generatedata --fuzz``'s run and report: each package fuzzed for ``--time`` seconds
(audit.fuzz) under a progress bar (cases, cases per second, found), what it found
printed and written to ``data/fuzz/``, and with ``--add`` recorded in generators.yaml
(convert.fuzzcases)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from problemtools_py.findings import ExitCode


def fuzz_all(args: argparse.Namespace) -> ExitCode:
    from problemtools_py.cli.reporters import count_bar
    from problemtools_py.judging.policy import Policy
    from problemtools_py.judging.session import Session
    from problemtools_py.model import load_problem
    from problemtools_py.sandbox.pool import SandboxPool

    found_any = False
    report: list[dict[str, Any]] = []
    with SandboxPool(args.jobs + 1) as pool:
        for root in args.problems:
            ctx = Session.start(load_problem(root), Policy(jobs=args.jobs), pool)
            try:
                done = _fuzz_one(ctx, root, args, count_bar)
            finally:
                ctx.close()
            found_any |= bool(done["found"])
            report.append(done)
    if args.json:
        json.dump({"tool": "problemtools_py", "fuzzed": report}, sys.stdout, indent=2)
        sys.stdout.write("\n")
    return ExitCode.FINDINGS if found_any else ExitCode.CLEAN


def _fuzz_one(ctx: Any, root: Path, args: argparse.Namespace, count_bar: Any) -> dict[str, Any]:
    from problemtools_py.audit.fuzz import Failure, Fuzzer, write_failures

    fuzzer = Fuzzer(ctx, args.seed)
    start = time.monotonic()
    columns = ("{task.fields[cases]} cases", "{task.fields[rate]:.1f}/s",
               "{task.fields[found]} found")  # fmt: skip
    with count_bar(f"fuzzing {root.name}", args.quiet or args.json, *columns) as bar:
        task = bar.add_task("fuzz", total=args.time, cases=0, rate=0.0, found=0)
        found: list[Failure] = []

        def on_case(failure: Failure | None) -> None:
            found.extend([failure] if failure is not None else [])
            spent = time.monotonic() - start
            bar.update(
                task,
                completed=min(spent, args.time),
                cases=fuzzer.tried,
                rate=fuzzer.tried / max(spent, 1e-9),
                found=len(found),
            )

        failures = fuzzer.run(args.time, on_case)
    names = write_failures(root, failures)
    added: list[str] = []
    if args.add and failures:
        from problemtools_py.convert.fuzzcases import add_fuzz_cases

        add_fuzz_cases(
            root,
            [(n.removeprefix("fuzz/"), f.command) for n, f in zip(names, failures, strict=True)],
        )
        added = names
    spent = time.monotonic() - start
    if not args.json:
        for name, failure in zip(names, failures, strict=True):
            shrunk = f" (shrunk from `{failure.shrunk_from}`)" if failure.shrunk_from else ""
            print(
                f"{root.name}: data/{name}: `{failure.command}`{shrunk}: {failure.why}",
                file=sys.stderr,
            )
        print(
            f"{root.name}: {fuzzer.tried} cases in {spent:.1f} s, {len(failures)} found"
            + (f", recorded in generators.yaml as {', '.join(added)}" if added else ""),
            file=sys.stderr,
        )
    return {
        "problem": str(root),
        "cases": fuzzer.tried,
        "seconds": round(spent, 2),
        "found": [
            {"case": n, "command": f.command, "why": f.why, "shrunk_from": f.shrunk_from}
            for n, f in zip(names, failures, strict=True)
        ],
        "added": added,
    }
