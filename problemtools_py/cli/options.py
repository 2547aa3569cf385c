"""Option types and options every command shares, so each says the same about bad values."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from problemtools_py.cpus import usable_cores
from problemtools_py.errors import FatalError


def _whole_number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None


def positive_int(text: str) -> int:
    value = _whole_number(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def nonnegative_int(text: str) -> int:
    value = _whole_number(text)
    if value < 0:
        raise argparse.ArgumentTypeError("must not be negative")
    return value


def positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 < value < float("inf"):  # (nan, inf: a limit never reached, a run never ended)
        raise argparse.ArgumentTypeError("must be a positive number")
    return value


def describe(doc: str | None) -> str:
    """A command's ``--help`` description: its module text's first paragraph, without
    the reST quoting."""
    first = (doc or "").strip().split("\n\n")[0]
    return " ".join(first.split()).replace("``", "")


def add_jobs(parser: argparse.ArgumentParser, what: str, cluster: bool = False) -> None:
    """``-j N``: how many of ``what`` run at once, all cores by default (with
    ``cluster``, None when not given: every CPU of a Ray cluster, else every core)."""
    where = "; with --ray, every CPU of the cluster" if cluster else ""
    parser.add_argument(
        "-j",
        "--jobs",
        type=positive_int,
        default=None if cluster else usable_cores(),
        metavar="N",
        help=f"{what} at once (default: every core this process may use{where})",
    )


def add_python(parser: argparse.ArgumentParser, what: str) -> None:
    """``--python PATH``: the interpreter (or virtual environment) ``what`` run with."""
    parser.add_argument(
        "--python",
        metavar="PATH",
        help=f"run {what} with this interpreter, or a virtual environment's (its "
        "site-packages: numpy, say), afresh each time; default: python3, the standard "
        "library only",
    )


def check_python(path: str | None) -> None:
    """``--python``'s interpreter refused before any work when it is none (a usage error
    saying why)."""
    if path is not None:
        from problemtools_py.judge.interpreter import find

        find(path)


def check_output(path: Path, option: str, *, directory: bool, example: str | None = None) -> None:
    """Where a command will write (a ``directory``, or a file), refused before any work
    when it cannot be there: a usage error saying why, not an error at the end of a long
    run naming a temporary file. (A missing directory on the way is made, as before.) A
    file's ``example`` name is suggested inside a directory given for it."""
    if directory and path.exists() and not path.is_dir():
        raise FatalError(f"{option} {path}: not a directory")
    if not directory and path.is_dir():
        such = f", such as {path / example}" if example is not None else " name"
        raise FatalError(f"{option} {path}: is a directory; give a file{such}")
    for parent in path.parents:
        if parent.exists():
            if not parent.is_dir():
                raise FatalError(f"{option} {path}: {parent} is not a directory")
            return


def packages_in(paths: list[Path], prog: str, having: str | None = None) -> list[Path]:
    """The packages named on the command line: each path itself, or, for a directory that
    has no ``problem.yaml`` (every version requires one) but subdirectories that do (a
    contest's, a collection's), those subdirectories in name order, said on stderr. With
    ``having`` (a path inside a package), only the inner packages that have it: one
    named on its own is taken as given (and the command says what it lacks)."""
    found: list[Path] = []
    for path in paths:
        inner = _packages_inside(path)
        if not inner:
            found.append(path)
            continue
        kept = [p for p in inner if having is None or (p / having).exists()]
        which = f"{len(inner)}" if having is None else f"{len(kept)} of {len(inner)} with {having}"
        names = ", ".join(p.name for p in kept) or "none"
        print(
            f"{prog}: {path} is no package (no problem.yaml); taking the {which} in it: {names}",
            file=sys.stderr,
        )
        found.extend(kept)
    return found


def _packages_inside(path: Path) -> list[Path]:
    try:
        if not path.is_dir() or (path / "problem.yaml").exists():
            return []
        return sorted(p for p in path.iterdir() if (p / "problem.yaml").is_file())
    except OSError:  # (unreadable: the command says so where it reads it)
        return []
