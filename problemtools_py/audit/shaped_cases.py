"""Random test cases for a package without random generators (auditdata tells its
surviving wrong programs from equivalent ones on them): inputs shaped as its test cases'
inputs, within the bounds its statement states (generate.shaped), kept only when every
input validator accepts them (within the validator's bounds, then), answered by its
solution as generatedata answers a case, and judged as a case of data/secret is."""

from __future__ import annotations

import tempfile
from pathlib import Path

from problemtools_py.errors import FatalError
from problemtools_py.findings import ExitCode
from problemtools_py.generate.maker import CaseMaker
from problemtools_py.generate.plan import CaseRule
from problemtools_py.generate.programs import Programs
from problemtools_py.generate.shaped import ShapedFuzzer
from problemtools_py.judge.judging import CaseJudge
from problemtools_py.judging.answers import AnswerChecker
from problemtools_py.judging.session import Session
from problemtools_py.judging.validators import run_validator, validators
from problemtools_py.model.constants import substitute, substitute_latex
from problemtools_py.model.testdata import GroupKind
from problemtools_py.sandbox.results import Limits

TRIES = 4  # inputs drawn per case wanted, at most (a validator may reject many)


class ShapedCases:
    """See the module's text."""

    def __init__(self, ctx: Session, seed: int = 0) -> None:
        self.ctx = ctx
        cases = ctx.cases({GroupKind.JUDGED}, (".in",))
        root = ctx.problem.root
        inputs = [(root / c.files[".in"]).read_text("utf-8", "replace") for c in cases]
        if not inputs:
            raise FatalError(
                "no test case inputs to shape random inputs after",
                path=root,
                exit_code=ExitCode.FINDINGS,
            )
        table = ctx.problem.constants
        statement = " ".join(
            substitute_latex(substitute(s.text, table), table)
            for s in ctx.problem.statements
            if s.text
        )
        self.fuzzer = ShapedFuzzer(inputs, statement, seed)
        programs = Programs(ctx, {})
        solution = programs.default_solution()
        if solution is None:
            raise FatalError(
                "no accepted submission to answer random inputs",
                path=root,
                exit_code=ExitCode.FINDINGS,
            )
        self.maker = CaseMaker(ctx, programs, solution)
        self.built, _ = validators(ctx)
        self.checker = AnswerChecker(ctx)

    def make(self, count: int) -> list[tuple[str, dict[str, bytes]]]:
        """Up to ``count`` cases: (the input as a report shows it, the case's files)."""
        found: list[tuple[str, dict[str, bytes]]] = []
        for _ in range(count * TRIES):
            if len(found) >= count:
                break
            text = self.fuzzer.fresh()
            if not self._valid(text.encode()):
                continue
            made = self.maker.make(CaseRule("secret/audit", None, inline={".in": text}))
            if made.problem is None:
                found.append((shown(text), dict(made.files)))
        return found

    def _valid(self, data: bytes) -> bool:
        with tempfile.TemporaryDirectory(prefix="ptpy-shaped-") as tmp:
            case = Path(tmp) / "case.in"
            case.write_bytes(data)
            case.chmod(0o644)
            return all(
                run_validator(self.ctx, exe, [], case, self.ctx.verdict_cache()).valid
                for _program, exe in self.built
            )

    def judge(self, limits: Limits) -> CaseJudge:
        """How such a case is judged: the problem's own validator, without arguments."""
        config = self.ctx.problem.config
        passes = config.limits.validation_passes if config.multi_pass else 1
        return CaseJudge(
            self.ctx.pool, self.checker.with_args(()), limits, config.interactive, passes
        )


def shown(stdin: str) -> str:
    """An input as a report shows it: whole when short."""
    flat = stdin.strip().replace("\n", " / ")
    return flat if len(flat) <= 120 else f"{flat[:117]}... ({len(stdin.encode())} bytes)"
