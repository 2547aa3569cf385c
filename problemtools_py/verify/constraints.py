"""Constraint coverage (``verifyproblem --constraints``): input validators that accept
``--constraints_file PATH`` (BAPCtools' convention; its validation.h writes it) report,
per value they read, ``name name reached-min reached-max seen-min seen-max min max``.
Over all test cases, a bound no case reaches is a warning, and so is a bound in the
statement (``1 \\le n \\le 1000``, constants substituted) that is not the validator's."""

from __future__ import annotations

import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from problemtools_py.findings import ConstraintRow, Finding, warning
from problemtools_py.judge.compile import Executable
from problemtools_py.judge.execute import run_program
from problemtools_py.model.bounds import normalise, number, stated_ranges
from problemtools_py.model.constants import substitute, substitute_latex
from problemtools_py.model.problem import Program, TestCase
from problemtools_py.model.testdata import is_judged
from problemtools_py.sandbox.protocol import Bind
from problemtools_py.sandbox.results import SandboxError
from problemtools_py.verify.context import Context

FLAG = "constraints_file"
OUT_DIR = "/judge/constraints"


@dataclass
class Bound:
    """What one validator said of one value over every test case."""

    validator: str
    name: str
    low: float
    high: float
    seen_low: float = float("inf")
    seen_high: float = float("-inf")
    reached_low: bool = False
    reached_high: bool = False
    cases: int = 0

    def row(self) -> ConstraintRow:
        seen = self.cases > 0
        return ConstraintRow(
            self.validator,
            self.name,
            self.low,
            self.high,
            self.seen_low if seen else None,
            self.seen_high if seen else None,
            self.reached_low,
            self.reached_high,
        )

    def merge(self, fields: list[str]) -> None:
        self.reached_low |= fields[2] == "1"
        self.reached_high |= fields[3] == "1"
        self.seen_low = min(self.seen_low, float(fields[4]))
        self.seen_high = max(self.seen_high, float(fields[5]))
        self.cases += 1


@dataclass
class Coverage:
    """The bounds input validators report (--constraints), gathered over the cases."""

    bounds: dict[tuple[str, str], Bound] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)

    def add(self, validator: str, text: str) -> None:
        for line in text.splitlines():
            fields = line.split()
            if len(fields) != 8:
                continue
            try:
                low, high = float(fields[6]), float(fields[7])
                key = (validator, fields[0])
                self.bounds.setdefault(key, Bound(validator, fields[0], low, high)).merge(fields)
            except ValueError:
                continue


def reports_constraints(ctx: Context, program: Program) -> bool:
    root = ctx.problem.root
    return any(FLAG in (root / rel).read_text(errors="replace") for rel in program.files)


def _run(ctx: Context, exe: Executable, args: list[str], case: TestCase) -> str:
    with tempfile.TemporaryDirectory(prefix="ptpy-constraints-") as tmp:
        out = Path(tmp)
        out.chmod(0o777)
        try:
            with ctx.pool.sandbox() as box:
                run_program(
                    box,
                    exe,
                    [*args, f"--{FLAG}", f"{OUT_DIR}/constraints.txt"],
                    limits=ctx.validation_limits,
                    stdin=ctx.problem.root / case.files[".in"],
                    binds=[Bind(str(out), OUT_DIR, True)],
                )
        except SandboxError:
            return ""
        file = out / "constraints.txt"
        return file.read_text(errors="replace")[: 1 << 20] if file.is_file() else ""


def coverage(ctx: Context, built: list[tuple[Program, Executable]]) -> Coverage:
    """Run every input validator that reports constraints on every valid test input."""
    found = Coverage()
    cases = [
        c
        for g in (ctx.problem.data.walk() if ctx.problem.data is not None else ())
        if is_judged(g.name)
        for c in g.cases
        if ".in" in c.files and ctx.data_selected(c.name)
    ]
    tasks = [
        (program, exe, case)
        for program, exe in built
        if reports_constraints(ctx, program)
        for case in cases
    ]
    with ThreadPoolExecutor(ctx.options.jobs) as pool:
        texts = list(
            pool.map(
                lambda t: _run(ctx, t[1], ctx.problem.input_validator_args(t[2], t[0].name), t[2]),
                tasks,
            )
        )
    for (program, _exe, _case), text in zip(tasks, texts, strict=True):
        found.add(program.name, text)
    found.findings = _unreached(found, built) + _statement_mismatches(ctx, found)
    return found


def _unreached(found: Coverage, built: list[tuple[Program, Executable]]) -> list[Finding]:
    where = {program.name: program.rel for program, _exe in built}
    findings = []
    for bound in found.bounds.values():
        for side, reached, value in (
            ("minimum", bound.reached_low, bound.low),
            ("maximum", bound.reached_high, bound.high),
        ):
            if not reached:
                findings.append(
                    warning(
                        "constraints",
                        f"no test case reaches the {side} {value:g} of {bound.name} "
                        f"(the data spans {bound.seen_low:g} to {bound.seen_high:g})",
                        where.get(bound.validator),
                    )
                )
    return findings


def statement_bounds(text: str) -> dict[str, set[float]]:
    """Numbers the statement bounds each name by (``1 \\le n \\le 10^5``; see
    model.bounds, which reads them)."""
    found: dict[str, set[float]] = {}
    for name, said in stated_ranges(text):
        if not name.startswith("|"):
            found.setdefault(name, set()).update(e for e in (said.low, said.high) if e is not None)
    return found


def parse_number(text: str) -> float:
    """``1,000``, ``2 \\cdot 10^4``, ``10^{12}`` as numbers (NaN when not one)."""
    found = number(normalise(text))
    return float("nan") if found is None else found


def _statement_mismatches(ctx: Context, found: Coverage) -> list[Finding]:
    findings = []
    for statement in ctx.problem.statements:
        text = statement.text
        if text is None:
            continue
        table = ctx.problem.constants
        text = substitute_latex(substitute(text, table), table)
        said = statement_bounds(text)
        for bound in found.bounds.values():
            numbers = said.get(bound.name)
            if numbers and not _agrees(bound, numbers):
                shown = ", ".join(f"{n:g}" for n in sorted(numbers))
                findings.append(
                    warning(
                        "constraints",
                        f"the statement bounds {bound.name} by {shown}, the validator "
                        f"{bound.validator} by {bound.low:g} and {bound.high:g}",
                        statement.rel,
                    )
                )
    return findings


def _agrees(bound: Bound, numbers: set[float]) -> bool:
    """Whether the statement's numbers for a value are the validator's bounds: both, when
    the statement gives two; one of them, when it gives one."""
    if len(numbers) >= 2:
        return {bound.low, bound.high} <= numbers
    return bool({bound.low, bound.high} & numbers)
