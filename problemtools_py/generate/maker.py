"""Making one test case's files in scratch space: its generator in the sandbox (in a
bounded tmpfs, reading and writing only ``testcase.<ext>``; standard output is the input
when it writes no ``testcase.in``), the files it copies, its inline text and links, and
its answer from the solution (empty for interactive and multi-pass problems)."""

from __future__ import annotations

import dataclasses
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from problemtools_py import jailfiles
from problemtools_py.generate import DEFAULT_SECONDS
from problemtools_py.generate.plan import CASE_EXTENSIONS, CaseRule, Command
from problemtools_py.generate.programs import GENERATORS, Programs
from problemtools_py.judge.buildfiles import bounded_dir
from problemtools_py.judge.compile import Executable
from problemtools_py.judge.execute import case_files, run_program
from problemtools_py.judge.transcript import run_transcript
from problemtools_py.judge.validators import CustomValidator
from problemtools_py.model.testdata import is_sample
from problemtools_py.once import OnceEach
from problemtools_py.sandbox.protocol import Bind
from problemtools_py.sandbox.results import Limits, Outcome, RunResult, SandboxError
from problemtools_py.verdicts import Verdict
from problemtools_py.workbench.bench import Workbench

WORK_DIR = "/gen"
FILE_CAP = 256 << 20  # bytes: the largest test case file a generator may write


def limits(seconds: float = DEFAULT_SECONDS) -> Limits:
    return Limits(
        cpu_seconds=seconds,
        memory_bytes=2 << 30,
        output_bytes=FILE_CAP,
        file_bytes=FILE_CAP,
        processes=64,
    )


@dataclass(frozen=True)
class Made:
    """A test case generated: its files, or why it could not be made."""

    files: dict[str, bytes]  # extension -> content
    problem: str | None = None  # why the case could not be made
    warning: str | None = None


OVER = {Outcome.TLE: "time", Outcome.MLE: "memory", Outcome.OLE: "output"}


def _failure(run: RunResult) -> str:
    said = run.stderr.decode("utf-8", "replace").strip()[-500:]
    what = (
        f"over its {OVER[run.outcome]} limit ({run.describe()})"
        if run.outcome in OVER
        else run.describe()
    )
    return what + (f": {said}" if said else "")


class CaseMaker:
    def __init__(
        self,
        ctx: Workbench,
        programs: Programs,
        default_solution: str | None,
        seconds: float = DEFAULT_SECONDS,
        validator_args: Callable[[str], tuple[str, ...]] | None = None,
    ) -> None:
        """``validator_args``: the output validator's arguments in a group (those
        generators.yaml gives it), for a sample's .interaction."""
        self.ctx = ctx
        self.limits = limits(seconds)
        self.programs = programs
        self.default_solution = default_solution
        config = ctx.problem.config
        self.no_answer = config.interactive or config.multi_pass
        self._validator: OnceEach[str, CustomValidator | str] = OnceEach()
        self.validator_args = validator_args or (lambda group: ())

    def make(self, rule: CaseRule) -> Made:
        files: dict[str, bytes] = {}
        if rule.generate is not None:
            made = self.run_generator(rule.generate, rule.retries)
            if isinstance(made, str):
                return Made({}, made)
            files.update(made)
        if rule.copy is not None:
            found = self._copied(rule.copy)
            if not found:
                return Made({}, f"copy: no file generators/{rule.copy}.<ext> to copy")
            files.update(found)
        files.update({ext: text.encode() for ext, text in rule.inline.items()})
        files.update({ext: files[src] for ext, src in rule.links.items() if src in files})
        if ".in" not in files and not is_sample(rule.path):
            return Made(files, "the generator made no input")
        invalid_input = rule.path.startswith("invalid_input/")
        if ".ans" not in files and ".in" in files and not invalid_input:
            answer = self._answer(rule, files[".in"])
            if isinstance(answer, str):
                return Made(files, answer)
            files[".ans"] = answer
        if self._wants_interaction(rule, files):
            transcript = self._interaction(rule, files[".in"], files[".ans"])
            if isinstance(transcript, str):
                return Made(files, transcript)
            files[".interaction"] = transcript
        return Made(files, None, self._mismatch(rule, files))

    def _wants_interaction(self, rule: CaseRule, files: dict[str, bytes]) -> bool:
        """A sample of an interactive or multi-pass problem with no transcript, nor
        another file shown in its place, gets one from the solution (as bt generate)."""
        shown = (".interaction", ".out", ".in.statement", ".ans.statement")
        return (
            self.no_answer
            and is_sample(rule.path)
            and ".in" in files
            and ".ans" in files
            and not any(ext in files for ext in shown)
            and (rule.solution or self.default_solution) is not None
        )

    def _interaction(self, rule: CaseRule, given: bytes, answer: bytes) -> bytes | str:
        """The sample's .interaction: the solution run against the output validator."""
        solution = rule.solution or self.default_solution
        assert solution is not None
        exe = self.programs.solution(solution)
        if isinstance(exe, str):
            return f"solution {solution} does not build: {exe}"
        checker = self.validator()
        if isinstance(checker, str):
            return checker
        checker = dataclasses.replace(checker, args=self.validator_args(rule.group))
        config = self.ctx.problem.config
        passes = config.limits.validation_passes if config.multi_pass else 1
        with tempfile.TemporaryDirectory(prefix="ptpy-interaction-") as tmp:
            case = case_files(Path(tmp), given, answer)
            found = run_transcript(
                self.ctx.pool,
                exe,
                self.limits,
                checker,
                case,
                Path(tmp) / "work",
                config.interactive,
                passes,
            )
        if found.verdict is not Verdict.AC:
            return (
                f"no .interaction: solution {solution} got {found.verdict.value} "
                f"against the output validator: {found.message}"
            )
        return found.text.encode()

    def validator(self) -> CustomValidator | str:
        """The output validator an interactive or multi-pass problem's transcripts are
        made with, built once; or why there is none."""
        return self._validator.get("", self._build_validator)

    def _build_validator(self) -> CustomValidator | str:
        program = self.ctx.problem.output_validator
        if program is None:
            return "no output validator to make the sample's .interaction with"
        build = self.ctx.build(program)
        if build.executable is None:
            return f"the output validator does not build: {build.message[:500]}"
        return CustomValidator(build.executable, self.ctx.validation_limits, (), False)

    def _copied(self, base: str) -> dict[str, bytes]:
        found: dict[str, bytes] = {}
        root = self.ctx.problem.root / GENERATORS
        for ext in CASE_EXTENSIONS:
            path = root / (base + ext)
            if path.is_file() and not path.is_symlink():
                found[ext] = path.read_bytes()
        return found

    def _answer(self, rule: CaseRule, given: bytes) -> bytes | str:
        if self.no_answer:
            return b""
        solution = rule.solution or self.default_solution
        if solution is None:
            return "no .ans, and no solution to make it (give solution: in generators.yaml)"
        exe = self.programs.solution(solution)
        if isinstance(exe, str):
            return f"solution {solution} does not build: {exe}"
        with tempfile.TemporaryDirectory(prefix="ptpy-sol-") as tmp:
            stdin, stdout = Path(tmp) / "in", Path(tmp) / "out"
            stdin.write_bytes(given)
            stdin.chmod(0o644)
            try:
                with self.ctx.pool.sandbox() as box:
                    run = run_program(box, exe, limits=self.limits, stdin=stdin, stdout=stdout)
            except SandboxError as exc:
                return f"solution {solution} could not run: {exc}"
            if not run.ok:
                return f"solution {solution} failed: {_failure(run)}"
            return stdout.read_bytes()

    def run_generator(self, command: Command, retries: int) -> dict[str, bytes] | str:
        """The files the generator writes (attempt after attempt, the seed one higher each
        time, until one succeeds), or why none did."""
        exe = self.programs.generator(command.program)
        if isinstance(exe, str):
            return f"generator {command.program}: {exe}"
        why = ""
        for retry in range(retries):
            made = self._attempt(exe, command.argv(retry))
            if not isinstance(made, str):
                return made
            why = made
        tries = f" ({retries} attempts)" if retries > 1 else ""
        return f"generator `{command.text.strip()}` failed{tries}: {why}"

    def _attempt(self, exe: Executable, argv: list[str]) -> dict[str, bytes] | str:
        with tempfile.TemporaryDirectory(prefix="ptpy-gen-") as tmp:
            scratch, stdout = Path(tmp) / "work", Path(tmp) / "stdout"
            scratch.mkdir()
            with bounded_dir(scratch, FILE_CAP):
                scratch.chmod(0o777)
                try:
                    with self.ctx.pool.sandbox() as box:
                        run = run_program(
                            box,
                            exe,
                            argv,
                            limits=self.limits,
                            binds=[Bind(str(scratch), WORK_DIR, True)],
                            cwd=WORK_DIR,
                            stdout=stdout,
                        )
                except SandboxError as exc:
                    return f"could not run: {exc}"
                if not run.ok:
                    return _failure(run)
                files = {
                    ext: data
                    for ext in CASE_EXTENSIONS
                    if (data := jailfiles.read(scratch, f"testcase{ext}", FILE_CAP)) is not None
                }
            if ".in" not in files:
                files[".in"] = stdout.read_bytes()
            return files

    @staticmethod
    def _mismatch(rule: CaseRule, files: dict[str, bytes]) -> str | None:
        for ext, pattern in rule.match:
            text = files.get(ext, b"").decode("utf-8", "replace")
            if not re.search(pattern, text, re.MULTILINE | re.DOTALL):
                return f"its {ext} does not match '{pattern}'"
        return None
