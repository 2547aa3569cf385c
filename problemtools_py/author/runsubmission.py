"""``runsubmission``: one program, built and run in the sandbox on test cases of a package
(or on a file, or on standard input), each judged as ``verifyproblem`` judges it: the
package's output validator with the case's arguments, interactively or in passes as the
package says, at the time limit (``-t``, else the package's, else the smallest its rules
allow). A target without an answer (a file with no ``.ans`` beside it, standard input)
is run and shown, not judged."""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from problemtools_py.errors import FatalError
from problemtools_py.findings import ExitCode
from problemtools_py.judge.compile import Executable
from problemtools_py.judge.execute import run_program
from problemtools_py.judge.judging import CaseJudge, run_limits
from problemtools_py.judge.transcript import run_transcript
from problemtools_py.judge.validators import CustomValidator, DefaultValidator
from problemtools_py.judging.answers import AnswerChecker
from problemtools_py.judging.policy import Policy
from problemtools_py.judging.session import Session
from problemtools_py.model import load_problem
from problemtools_py.model.problem import TestCase
from problemtools_py.model.testdata import GroupKind, is_sample
from problemtools_py.model.timelimit import TimeLimit, first_limit
from problemtools_py.sandbox.pool import SandboxPool
from problemtools_py.sandbox.results import Limits
from problemtools_py.verdicts import Verdict

SHOWN = 1 << 16  # bytes of a run's output kept to show


@dataclass(frozen=True)
class Target:
    """What to run on: a test case of the package, or a file (or standard input)."""

    name: str
    input: Path
    answer: Path | None
    case: TestCase | None = None


@dataclass(frozen=True)
class OneRun:
    """One run, as runsubmission shows it."""

    target: str
    verdict: Verdict | None  # None: nothing to judge against
    cpu_seconds: float
    wall_seconds: float
    memory_bytes: int
    ended: str  # "exit code 0", "signal SIGSEGV", "CPU 1.20 s"
    stdout: bytes  # the last pass's (cut to SHOWN; empty for an interactive run)
    stderr: bytes
    message: str  # the validator's, or why it failed
    answer: bytes | None  # to compare the output with (None: none, or interactive)
    passes: int = 1
    transcript: str | None = None  # --interaction: what passed between it and the judge


def in_package(problem: Path, given: Path) -> Path | None:
    """A path as the user typed it: from the current directory, else from the package's
    (``submissions/accepted/x.py``, as authors write it); None when neither holds it."""
    if given.exists():
        return given
    inside = problem / given
    return inside if not given.is_absolute() and inside.exists() else None


def targets(ctx: Session, asked: list[str], stdin: Path | None) -> list[Target]:
    """The targets asked for: ``-`` (standard input, read into ``stdin``), a case's name
    (``secret/03``) or a group's (``secret``: its cases), a file (an input, its ``.ans``
    beside it when there is one); none: the samples."""
    cases = ctx.cases({GroupKind.JUDGED}, (".in",))
    root = ctx.problem.root
    if not asked:
        return [_of(root, c) for c in cases if is_sample(c.name)]
    found: list[Target] = []
    for name in asked:
        if name == "-":
            assert stdin is not None
            found.append(Target("stdin", stdin, None))
            continue
        chosen = [c for c in cases if c.name == name or c.name.startswith(name.rstrip("/") + "/")]
        if chosen:
            found += [_of(root, c) for c in chosen]
        elif (path := in_package(root, Path(name))) is not None and path.is_file():
            answer = path.with_suffix(".ans")
            found.append(Target(name, path, answer if answer.is_file() else None))
        else:
            some = ", ".join(c.name for c in cases[:6])
            raise FatalError(
                f"{name!r} is no test case of the package, nor a file (cases: "
                f"{some}{', ...' if len(cases) > 6 else ''})",
                exit_code=ExitCode.USAGE,
            )
    return found


def _of(root: Path, case: TestCase) -> Target:
    answer = case.files.get(".ans")
    return Target(case.name, root / case.files[".in"], root / answer if answer else None, case)


class SingleRunner:
    """A package opened to run programs on its cases, one at a time."""

    def __init__(self, root: Path, pool: SandboxPool, seconds: float | None) -> None:
        self.ctx = Session.start(load_problem(root), Policy(jobs=1), pool)
        self.checker = AnswerChecker(self.ctx)
        if self.checker.error:
            raise FatalError(self.checker.error, path=root, exit_code=ExitCode.FINDINGS)
        self.limit: TimeLimit = first_limit(self.ctx.problem, seconds)
        self.work = Path(tempfile.mkdtemp(prefix="ptpy-run-"))
        self.work.chmod(0o711)  # (a validator finds its feedback directory in it)

    def close(self) -> None:
        self.ctx.close()
        shutil.rmtree(self.work, ignore_errors=True)

    def build(self, program: Path) -> Executable | str:
        """The program built (a file, or a directory of files), or its compile error."""
        paths = (
            sorted(p for p in program.rglob("*") if p.is_file()) if program.is_dir() else [program]
        )
        base = program if program.is_dir() else program.parent
        build = self.ctx.build_files(paths, base)
        return build.executable if build.executable is not None else build.message

    def run(self, exe: Executable, target: Target, index: int) -> OneRun:
        config = self.ctx.problem.config
        limits = self.ctx.submission_limits(self.limit.seconds)
        work = self.work / str(index)
        if target.answer is None and not config.interactive:
            return self._plain(exe, target, run_limits(limits, exe), work)
        answer = target.answer
        if answer is None:  # (an interactive validator needs a file there)
            answer = work / "empty.ans"
            work.mkdir(parents=True)
            answer.write_bytes(b"")
        checker = self._checker(target)
        passes = config.limits.validation_passes if config.multi_pass else 1
        judge = CaseJudge(self.ctx.pool, checker, limits, config.interactive, passes)
        result = judge.judge(exe, target.input, answer, work)
        run = result.run
        output = work / "team.out"
        shown = output.read_bytes()[:SHOWN] if output.is_file() else b""
        verdict = result.verdict if target.answer is not None or config.interactive else None
        return OneRun(
            target.name,
            verdict,
            result.cpu_seconds,
            run.wall_seconds if run else 0.0,
            run.peak_memory_bytes if run else 0,
            run.describe() if run else "",
            shown,
            run.stderr if run else b"",
            result.message,
            None if config.interactive or target.answer is None else target.answer.read_bytes(),
            result.passes,
        )

    def _checker(self, target: Target) -> DefaultValidator | CustomValidator:
        """A case's validator with its arguments; a file's with the problem's flags."""
        if target.case is not None:
            return self.checker.for_case(target.case)
        return self.checker.with_args(self.ctx.problem.config.validator_flags)

    def transcript(self, exe: Executable, target: Target, index: int) -> OneRun:
        """An interactive or multi-pass run with what passed between the program and the
        judge (judge.transcript), in BAPCtools' .interaction form."""
        config = self.ctx.problem.config
        checker = self._checker(target)
        if not isinstance(checker, CustomValidator) or not (
            config.interactive or config.multi_pass
        ):
            raise FatalError(
                "--interaction is for interactive and multi-pass problems", exit_code=ExitCode.USAGE
            )
        work = self.work / str(index)
        work.mkdir(parents=True)
        answer = target.answer or work / "empty.ans"
        if target.answer is None:
            answer.write_bytes(b"")
        passes = config.limits.validation_passes if config.multi_pass else 1
        limits = self.ctx.submission_limits(self.limit.seconds)
        found = run_transcript(
            self.ctx.pool,
            exe,
            limits,
            checker,
            (target.input, answer),
            work / "run",
            config.interactive,
            passes,
        )
        return OneRun(
            target.name,
            found.verdict,
            0.0,
            0.0,
            0,
            "",
            b"",
            b"",
            found.message,
            None,
            found.passes,
            found.text,
        )

    def _plain(self, exe: Executable, target: Target, limits: Limits, work: Path) -> OneRun:
        work.mkdir(parents=True)
        output = work / "team.out"
        with self.ctx.pool.sandbox() as box:
            run = run_program(box, exe, limits=limits, stdin=target.input, stdout=output)
        return OneRun(
            target.name,
            None,
            run.cpu_seconds,
            run.wall_seconds,
            run.peak_memory_bytes,
            run.describe(),
            output.read_bytes()[:SHOWN],
            run.stderr,
            "",
            None,
        )
