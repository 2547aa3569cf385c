"""``auditdata DIR...|DATASET``: how strong each package's (or dataset row's) tests are:
wrong programs (mutants of its accepted submissions, its own submissions that claim to
fail, ``--wrong`` programs) run on every test case; those no test rejects are named,
with an input of the package's generators they fail when there is one, and so are the
tests that reject nothing."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from problemtools_py.cli.errorhandler import run_cli
from problemtools_py.cli.options import (
    add_jobs,
    check_output,
    describe,
    nonnegative_int,
    packages_in,
)
from problemtools_py.errors import FatalError
from problemtools_py.findings import ExitCode

TYPE_CHECKING = False
if TYPE_CHECKING:
    from problemtools_py.audit.dataset import DatasetAudit, Plan
    from problemtools_py.audit.package import Audit
    from problemtools_py.sandbox.pool import SandboxPool

PROG = "auditdata"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=PROG, description=describe(__doc__))
    parser.add_argument("problems", nargs="+", type=Path, metavar="DIR")
    parser.add_argument(
        "--mutants",
        type=nonnegative_int,
        default=40,
        metavar="N",
        help="mutants per package, at most (default 40)",
    )
    parser.add_argument(
        "--wrong",
        type=Path,
        action="append",
        default=[],
        metavar="FILE",
        help="a wrong program of your own to count too (repeatable)",
    )
    parser.add_argument(
        "--random",
        type=nonnegative_int,
        default=8,
        metavar="K",
        help="random inputs a survivor is tried on (default 8)",
    )
    parser.add_argument(
        "--augment",
        type=nonnegative_int,
        default=0,
        metavar="K",
        help="add at most K tests per problem that kill survivors: a "
        "package's to generators.yaml (generated), a dataset's rows' "
        "to a copy in --out; then audit again",
    )
    parser.add_argument(
        "--out",
        type=Path,
        metavar="DIR",
        help="with --augment on a dataset: the new dataset directory",
    )
    add_jobs(parser, "programs run")
    parser.add_argument(
        "--report",
        type=Path,
        metavar="FILE",
        help="also write an HTML page: kill rates charted, survivors",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--json", action="store_true", help="one JSON document on stdout")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    def body(args: argparse.Namespace) -> ExitCode:
        if args.report is not None:
            check_output(args.report, "--report", directory=False)
        if len(args.problems) == 1 and any(args.problems[0].glob("*-*.parquet")):
            return _dataset(args)
        if args.out is not None:
            raise FatalError(
                "--out is for a dataset (a package's cases are added in place)",
                exit_code=ExitCode.USAGE,
            )
        args.problems = packages_in(args.problems, PROG)
        for root in args.problems:
            if any(root.glob("*-*.parquet")):
                raise FatalError(
                    "a dataset is audited alone: give it as the only path",
                    path=root,
                    exit_code=ExitCode.USAGE,
                )
            if not (root / "problem.yaml").is_file():
                raise FatalError(
                    "neither a problem package (no problem.yaml) nor a dataset "
                    "(no problems-<split>.parquet)",
                    path=root,
                )
        from problemtools_py.audit.package import Auditor
        from problemtools_py.judging.policy import Policy, RunUntil
        from problemtools_py.judging.session import Session
        from problemtools_py.model import load_problem
        from problemtools_py.sandbox.pool import SandboxPool

        audits = []
        with SandboxPool(args.jobs + 1) as pool:

            def audited(root: Path) -> tuple[Audit, dict[str, dict[str, bytes]]]:

                policy = Policy(jobs=args.jobs, run_until=RunUntil.EVERY_CASE)
                ctx = Session.start(load_problem(root), policy, pool)
                try:
                    with _counting(f"auditing {root.name}", args.quiet or args.json) as progress:
                        auditor = Auditor(ctx, args.wrong, args.mutants, args.random)
                        return auditor.run(progress), auditor.witness_files
                finally:
                    ctx.close()

            for root in args.problems:
                found, files = audited(root)
                if args.augment and _augment(root, found, files, args.augment, pool):
                    found, _ = audited(root)  # (the new cases among the tests)
                audits.append(found)
        return _report(audits, args.json, args.report)

    return run_cli(PROG, build_parser(), argv, body)


def _dataset(args: argparse.Namespace) -> ExitCode:
    """A dataset's rows audited; with --augment, a copy with the witnesses added, whose
    rows are audited again."""
    from problemtools_py.audit.dataset import plan

    for path in args.wrong:
        if not path.is_file():
            raise FatalError("no such file", path=path)
    if args.augment and args.out is None:
        raise FatalError(
            "--augment on a dataset needs --out DIR (the dataset is left as it is)",
            exit_code=ExitCode.USAGE,
        )
    if args.out is not None:
        check_output(args.out, "--out", directory=True)
        if args.out.exists():
            raise FatalError("already exists; choose a new output directory", path=args.out)
    how = plan(args.mutants, args.wrong, args.random, args.jobs)
    found = _rows(args.problems[0], how, args.quiet or args.json)
    extra: dict[str, object] = {}
    if args.augment and args.out is not None:
        from problemtools_py.dataset.amend import amend

        chosen = {pid: tests[: args.augment] for pid, tests in found.witnesses.items()}
        done = amend(args.problems[0], args.out, chosen)
        for pid, count in sorted(done.added.items()):
            over = done.left_out.get(pid, 0)
            more = f" ({over} left out: the card's caps)" if over else ""
            print(f"{pid}: {count} tests added{more}", file=sys.stderr)
        print(f"augmented dataset: {args.out}", file=sys.stderr)
        extra = {
            "augmented": {
                "out": str(args.out),
                "tests_added": done.added,
                "left_out_over_caps": done.left_out,
            }
        }
        found = _rows(args.out, how, args.quiet or args.json)
    return _report(found.audits, args.json, args.report, extra)


def _rows(root: Path, how: Plan, quiet: bool) -> DatasetAudit:
    from problemtools_py.audit.dataset import audit_dataset

    with _counting(f"auditing {root.name}", quiet) as progress:
        return audit_dataset(root, how, progress)


@contextmanager
def _counting(label: str, quiet: bool) -> Iterator[Callable[[int, int], None]]:
    """A progress bar, and what to tell it (done, total) as the work goes on."""
    from problemtools_py.cli.reporters import count_bar

    with count_bar(label, quiet) as bar:
        task = bar.add_task("audit", total=None)
        yield lambda done, total: bar.update(task, completed=done, total=total)


def _report(
    audits: list[Audit], as_json: bool, page: Path | None, extra: dict[str, object] | None = None
) -> ExitCode:
    if page is not None:
        from problemtools_py.cli.auditreport import write_report

        write_report(audits, page)
    if as_json:
        document = {
            "tool": "problemtools_py",
            **(extra or {}),
            "problems": [a.to_json() for a in audits],
        }
        json.dump(document, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        for audit in audits:
            _print(audit)
    surviving = [(a.problem, sum(p.status == "survived" for p in a.programs)) for a in audits]
    weak = [(name, n) for name, n in surviving if n]
    if weak and not as_json:
        print("weak: " + ", ".join(f"{name} ({n} surviving)" for name, n in weak))
    return ExitCode.FINDINGS if weak else ExitCode.CLEAN


def _augment(
    root: Path, audit: Audit, files: dict[str, dict[str, bytes]], most: int, pool: SandboxPool
) -> bool:
    """The survivors' witnesses as new secret cases (generated from generators.yaml, or
    written as files when their inputs were not a generator's); whether any was added."""
    from problemtools_py.convert.augment import add_secret_cases, add_secret_files
    from problemtools_py.generate.runner import generate_problem

    witnesses = list(
        dict.fromkeys(p.witness for p in audit.programs if p.status == "survived" and p.witness)
    )[:most]
    if not witnesses:
        return False
    if (root / "generators" / "generators.yaml").is_file():
        names = add_secret_cases(root, [files[w][".in"] if w in files else w for w in witnesses])
        report = generate_problem(root, pool)
        errors = [f.message for f in report.findings if f.severity.value == "error"]
        where = "generators.yaml" + (f"; generatedata: {'; '.join(errors)}" if errors else "")
    else:  # (no generators: every witness is an input, shaped after the test cases)
        names = add_secret_files(root, [files[w] for w in witnesses])
        where = "data/"
    added = ", ".join("secret/" + n for n in names)
    print(f"{audit.problem}: added {added} to {where}", file=sys.stderr)
    return True


def _print(audit: Audit) -> None:
    counted = audit.counted
    rejected = sum(p.status == "rejected" for p in counted)
    equivalent = sum(p.status == "equivalent" for p in audit.programs)
    score = f" ({audit.score:.0%})" if audit.score is not None else ""
    print(
        f"{audit.problem}: the tests reject {rejected} of {len(counted)} wrong programs"
        f"{score}; {equivalent} equivalent mutants left out"
    )
    for program in audit.programs:
        if program.status == "survived":
            change = f" ({program.change})" if program.change else ""
            witness = f": fails `{program.witness}`" if program.witness else ""
            print(f"  survives: {program.name}{change}{witness}")
        elif program.status == "not built":
            print(f"  not built: {program.name}: {program.witness}")
    if audit.grouped:
        shares = ", ".join(f"{g} {share:.0%}" for g, share in audit.groups().items())
        print(f"  rejected by group: {shares}")
    if audit.invalid_inputs:
        print(f"  inputs an input validator rejects: {', '.join(audit.invalid_inputs)}")
    idle = audit.idle()
    if idle:
        print(f"  tests that reject nothing: {', '.join(idle)}")
    for note in audit.notes:
        print(f"  note: {note}")


if __name__ == "__main__":
    raise SystemExit(main())
