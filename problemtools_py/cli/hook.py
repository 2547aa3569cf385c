"""``verifyproblem-hook [--static] FILE...``: the pre-commit hook. Maps the changed files
to their problem packages (the nearest directory above each holding a problem.yaml),
verifies each package once, and fails when any has errors."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from problemtools_py.checks import PARTS
from problemtools_py.cli.errorhandler import run_cli
from problemtools_py.cli.options import describe
from problemtools_py.findings import ExitCode
from problemtools_py.verify.options import CHECK_PARTS, Options

PROG = "verifyproblem-hook"


def package_roots(files: Sequence[str], top: Path) -> list[Path]:
    """The distinct package directories holding ``files`` (relative to ``top``), in order."""
    roots: list[Path] = []
    top = top.resolve()
    for name in files:
        path = (top / name).resolve()
        for folder in [path, *path.parents] if path.is_dir() else path.parents:
            if folder != top and top not in folder.parents:
                break
            if (folder / "problem.yaml").is_file():
                if folder not in roots:
                    roots.append(folder)
                break
    return roots


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=PROG, description=describe(__doc__))
    parser.add_argument("files", nargs="*", help="changed files (pre-commit passes them)")
    parser.add_argument(
        "--static",
        action="store_true",
        help="config, statement and data checks only: nothing is run",
    )
    parser.add_argument("-e", "--werror", action="store_true", help="warnings fail too")

    def body(args: argparse.Namespace) -> ExitCode:
        roots = package_roots(args.files, Path.cwd())
        if not roots:
            return ExitCode.CLEAN
        parts = list(CHECK_PARTS) if args.static else list(PARTS)
        cwd = Path.cwd().resolve()
        shown = [r.relative_to(cwd) if cwd in r.parents else r for r in roots]
        from problemtools_py.cli.reporters import TextReporter
        from problemtools_py.verify.verifier import verify_all

        reporter = TextReporter(quiet=True)
        run = verify_all(
            shown,
            parts,
            werror=args.werror,
            run_programs=not args.static,
            options=Options(),
            on_report=reporter.problem,
        )
        return run.exit_code

    return run_cli(PROG, parser, argv, body)


if __name__ == "__main__":
    raise SystemExit(main())
