"""verifyproblem's filters (``-s``, ``-d``) against one package: a pattern that matches
nothing there is said, or a mistyped one leaves the package green with nothing run (its
submissions' rows all AC on no test case)."""

from __future__ import annotations

from collections.abc import Sequence

from problemtools_py.findings import Finding, warning
from problemtools_py.model import Problem
from problemtools_py.verify.options import Options


def unmatched(problem: Problem, options: Options, parts: Sequence[str]) -> list[Finding]:
    """A warning per filter given that matches nothing in ``problem`` and that the chosen
    ``parts`` would have used."""
    found: list[Finding] = []
    if options.submissions is not None and "submissions" in parts:
        names = [sub.rel for sub in problem.submissions]
        if not any(options.takes_submission(name) for name in names):
            found.append(
                warning(
                    "filter",
                    f"-s {options.submissions.pattern!r} matches no submission here"
                    f"{_such_as('paths', names)}: none was judged",
                    "submissions",
                )
            )
    if options.data is not None and ("submissions" in parts or "validators" in parts):
        data = problem.data
        names = [case.name for case in data.all_cases()] if data is not None else []
        if not any(options.takes_case(name) for name in names):
            found.append(
                warning(
                    "filter",
                    f"-d {options.data.pattern!r} matches no test case here"
                    f"{_such_as('names', names)}: no program ran on test data",
                    "data",
                )
            )
    return found


def _such_as(what: str, names: list[str]) -> str:
    return f" ({what} such as {', '.join(names[:2])})" if names else ""
