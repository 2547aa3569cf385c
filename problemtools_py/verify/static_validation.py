"""Static validation test cases (2023-07 and later): the static validator reads a
submission's files, not its output. It runs in the sandbox with the submission's own
files as its working directory (read-only) and
``language entry_point feedback_dir [static_validator_args]``, and answers as an output
validator does (42 accepted, 43 rejected, score.txt or score_multiplier.txt)."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from problemtools_py.findings import Finding, error
from problemtools_py.judge.compile import Executable
from problemtools_py.judge.execute import run_program
from problemtools_py.judge.graders import CaseScore
from problemtools_py.judge.validators import CustomValidator, Validation, fresh_feedback_dir
from problemtools_py.model.groups import StaticCase
from problemtools_py.model.problem import Submission
from problemtools_py.model.testdata import is_judged
from problemtools_py.sandbox.protocol import Bind
from problemtools_py.sandbox.results import SandboxError
from problemtools_py.verdicts import Verdict
from problemtools_py.verify.context import Context

SUBMISSION_DIR = "/submission"
CLASS_LANGUAGES = frozenset({"java", "kotlin", "scala"})  # the entry point is a class


def static_cases(ctx: Context) -> list[StaticCase]:
    data = ctx.problem.data
    if data is None:
        return []
    found = (ctx.problem.static_validation(g) for g in data.walk())
    return [c for c in found if c is not None and is_judged(c.group)]


class StaticJudge:
    """The static validator, built once, and its verdicts on submissions."""

    def __init__(self, ctx: Context, work: Path) -> None:
        self.ctx = ctx
        self.work = work
        self.cases = static_cases(ctx)
        self.validator: CustomValidator | None = None
        self.findings: list[Finding] = []
        program = ctx.problem.static_validator
        if not self.cases or program is None:
            return
        build = ctx.build(program)
        if build.executable is None:
            message = f"static validator does not build: {build.message[:2000]}"
            self.findings.append(error("static-validation", message, program.rel))
            return
        scoring = ctx.problem.config.scoring
        self.validator = CustomValidator(
            build.executable, ctx.validation_limits, (), scoring, kind="static validator"
        )

    def grades(self, sub: Submission, exe: Executable) -> dict[str, CaseScore]:
        """The submission's static validation test cases, by name (empty without a
        static validator: the checks report that)."""
        if self.validator is None:
            return {}
        source = Path(tempfile.mkdtemp(prefix="static-", dir=self.work))
        try:
            self._copy_sources(sub, source)
            return {case.name: self._grade(exe, case, source) for case in self.cases}
        finally:
            shutil.rmtree(source, ignore_errors=True)

    def _copy_sources(self, sub: Submission, into: Path) -> None:
        root = self.ctx.problem.root
        base = root / sub.program.rel if sub.program.is_dir else (root / sub.program.rel).parent
        for rel in sub.program.files:
            target = into / (root / rel).relative_to(base)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(root / rel, target)
        for path in [into, *into.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)

    def _grade(self, exe: Executable, case: StaticCase, source: Path) -> CaseScore:
        assert self.validator is not None
        feedback = fresh_feedback_dir(Path(tempfile.mkdtemp(dir=self.work)) / "feedback")
        entry = exe.main.rsplit(".", 1)[0] if exe.language in CLASS_LANGUAGES else exe.main
        args = [exe.language, entry, "/judge/feedback/", *case.args]
        binds = [Bind(str(source), SUBMISSION_DIR), Bind(str(feedback), "/judge/feedback", True)]
        try:
            with self.ctx.pool.sandbox() as box:
                run = run_program(
                    box,
                    self.validator.executable,
                    args,
                    limits=self.validator.limits,
                    binds=binds,
                    cwd=SUBMISSION_DIR,
                )
        except SandboxError as exc:
            return _judge_error(Validation(Verdict.JE, error=f"could not run: {exc}"))
        validation = self.validator.interpret(run, feedback)
        if validation.verdict is Verdict.JE:
            return _judge_error(validation)
        return CaseScore(validation.verdict, validation.score, validation.multiplier)


def _judge_error(validation: Validation) -> CaseScore:
    return CaseScore(Verdict.JE, None, None, validation.error)
