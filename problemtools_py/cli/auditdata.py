"""``auditdata DIR...``: how strong each package's tests are: wrong programs (mutants of
its accepted Python submissions, its own submissions that claim to fail, ``--wrong``
programs) run on every test case; those no test rejects are named, with an input of the
package's generators they fail when there is one, and so are the tests that reject
nothing."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from problemtools_py.cli.errorhandler import run_cli
from problemtools_py.cli.options import add_jobs, describe, nonnegative_int, packages_in
from problemtools_py.findings import ExitCode

TYPE_CHECKING = False
if TYPE_CHECKING:
    from problemtools_py.verify.audit import Audit

PROG = "auditdata"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=PROG, description=describe(__doc__))
    parser.add_argument("problems", nargs="+", type=Path, metavar="DIR")
    parser.add_argument("--mutants", type=nonnegative_int, default=40, metavar="N",
                        help="mutants per package, at most (default 40)")  # fmt: skip
    parser.add_argument("--wrong", type=Path, action="append", default=[], metavar="FILE",
                        help="a wrong program of your own to count too (repeatable)")  # fmt: skip
    parser.add_argument("--random", type=nonnegative_int, default=8, metavar="K",
                        help="random inputs a survivor is tried on (default 8)")  # fmt: skip
    add_jobs(parser, "programs run")
    parser.add_argument("--json", action="store_true", help="one JSON document on stdout")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    def body(args: argparse.Namespace) -> ExitCode:
        args.problems = packages_in(args.problems, PROG)
        from problemtools_py.model import load_problem
        from problemtools_py.sandbox.pool import SandboxPool
        from problemtools_py.verify.audit import Auditor
        from problemtools_py.verify.context import Context
        from problemtools_py.verify.options import Options

        audits = []
        with SandboxPool(args.jobs + 1) as pool:
            for root in args.problems:
                options = Options(jobs=args.jobs, all_cases=True)
                ctx = Context.create(load_problem(root), options, pool)
                try:
                    audits.append(Auditor(ctx, args.wrong, args.mutants, args.random).run())
                finally:
                    ctx.close()
        if args.json:
            json.dump({"tool": "problemtools_py", "problems": [a.to_json() for a in audits]},
                      sys.stdout, indent=2)  # fmt: skip
            sys.stdout.write("\n")
        else:
            for audit in audits:
                _print(audit)
        weak = any(p.status == "survived" for a in audits for p in a.programs)
        return ExitCode.FINDINGS if weak else ExitCode.CLEAN

    return run_cli(PROG, build_parser(), argv, body)


def _print(audit: Audit) -> None:
    counted = audit.counted
    rejected = sum(p.status == "rejected" for p in counted)
    equivalent = sum(p.status == "equivalent" for p in audit.programs)
    score = f" ({audit.score:.0%})" if audit.score is not None else ""
    print(f"{audit.problem}: the tests reject {rejected} of {len(counted)} wrong programs"
          f"{score}; {equivalent} equivalent mutants left out")  # fmt: skip
    for program in audit.programs:
        if program.status == "survived":
            change = f" ({program.change})" if program.change else ""
            witness = f": fails `{program.witness}`" if program.witness else ""
            print(f"  survives: {program.name}{change}{witness}")
        elif program.status == "not built":
            print(f"  not built: {program.name}: {program.witness}")
    shares = ", ".join(f"{g} {share:.0%}" for g, share in audit.groups().items())
    print(f"  rejected by group: {shares}")
    idle = audit.idle()
    if idle:
        print(f"  tests that reject nothing: {', '.join(idle)}")
    for note in audit.notes:
        print(f"  note: {note}")


if __name__ == "__main__":
    raise SystemExit(main())
