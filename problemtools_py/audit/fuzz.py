"""``generatedata --fuzz``: the package's random generators (the commands of
``generators.yaml``'s own ``fuzz:`` entry, else every command of its cases with
``{seed}``) run with fresh seeds, for a while; each input checked by the
input validators, answered by the solution, and judged with every accepted submission
(as ``verifyproblem`` judges, at the package's fixed limit or the least its rules allow,
with the margin). A case where they do not all accept, where a validator rejects the
generator's input, or where the solution fails, is kept: shrunk first when the command
has number arguments (each halved while the case still fails), then written to
``data/fuzz/`` with the command that makes it again, its seed written out (BAPCtools'
``bt fuzz`` did the same; see convert.fuzzcases for ``--add``). A run stops at
MAX_FOUND cases."""

from __future__ import annotations

import random
import re
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from problemtools_py.errors import FatalError
from problemtools_py.findings import ExitCode
from problemtools_py.generate.maker import CaseMaker
from problemtools_py.generate.plan import SEED, CaseRule, Command, parse_command
from problemtools_py.generate.programs import Programs
from problemtools_py.generate.runner import read_plan
from problemtools_py.judge.execute import case_files
from problemtools_py.judge.judging import CaseJudge
from problemtools_py.judging.answers import AnswerChecker
from problemtools_py.judging.rounds import RoundLimits
from problemtools_py.judging.session import Session
from problemtools_py.judging.validators import run_validator, validators
from problemtools_py.model.testdata import GroupKind
from problemtools_py.sandbox.results import Limits
from problemtools_py.verdicts import Verdict
from problemtools_py.workbench.cache import MemoryVerdicts

NUMBER = re.compile(r"[1-9][0-9]*\Z")
SHRINK_TRIES = 24  # generator runs a case's shrinking may take
MAX_FOUND = 10  # cases kept per run: more are most often the same fault again


@dataclass(frozen=True)
class Failure:
    """A generated case the package's programs do not all agree on."""

    command: str  # the generator's command, its seed written out
    why: str  # which program failed how
    shrunk_from: str | None = None
    files: tuple[tuple[str, bytes], ...] = ()


class Fuzzer:
    """The package's random generators, run with fresh seeds (see the module's text)."""

    def __init__(self, ctx: Session, seed: int | None = None) -> None:
        self.ctx = ctx
        ctx.verdicts = MemoryVerdicts()
        plan, findings = read_plan(ctx.problem)
        errors = [f for f in findings if f.severity.value == "error"]
        if errors:
            raise FatalError(
                f"generators.yaml: {errors[0].message}",
                path=ctx.problem.root,
                exit_code=ExitCode.FINDINGS,
            )
        seeded = [r for r in plan.cases if r.generate is not None and r.generate.uses_seed]
        self.rules = _fuzz_entry(ctx) or seeded
        if not self.rules:
            why = "no generator command of generators.yaml takes {seed}: nothing to fuzz"
            raise FatalError(why, path=ctx.problem.root, exit_code=ExitCode.FINDINGS)
        programs = Programs(ctx, plan.generators)
        self.maker = CaseMaker(ctx, programs, programs.default_solution())
        self.checker = AnswerChecker(ctx)
        self.built, _ = validators(ctx)
        self.accepted = [
            s
            for s in ctx.problem.submissions
            if s.expectation is not None and s.expectation.accepted and ctx.runnable(s)
        ]
        self.limits = ctx.submission_limits(RoundLimits.of(ctx).first.hard)
        self.random = random.Random(seed)
        self.tried = 0

    def run(self, seconds: float, on_case: Callable[[Failure | None], None]) -> list[Failure]:
        """Cases, one after another, for ``seconds``; ``on_case`` hears of each."""
        end = time.monotonic() + seconds
        found: list[Failure] = []
        for rule in self._rules():
            if time.monotonic() >= end or len(found) >= MAX_FOUND:
                break
            assert rule.generate is not None
            command = replace(rule.generate, seed=self.random.randrange(2**31))
            failure = self.attempt(rule, command)
            self.tried += 1
            if failure is not None:
                failure = self.shrink(rule, command, failure)
                found.append(failure)
            on_case(failure)
        return found

    def _rules(self) -> Iterator[CaseRule]:
        while True:
            yield from self.rules

    def fresh(self) -> tuple[CaseRule, Command]:
        """A random rule, and its command with a fresh seed."""
        rule = self.random.choice(self.rules)
        assert rule.generate is not None
        return rule, replace(rule.generate, seed=self.random.randrange(2**31))

    def make(self, rule: CaseRule, command: Command) -> tuple[str, dict[str, bytes] | str]:
        """The command with its seed written out, and the case it makes (.in, .ans from
        the solution), or why it could not be made."""
        fixed = _written_out(command)
        made = self.maker.make(replace(rule, generate=fixed, path=f"secret/{Path(rule.path).name}"))
        return fixed.text, made.problem if made.problem is not None else dict(made.files)

    def attempt(self, rule: CaseRule, command: Command) -> Failure | None:
        """The case this command makes, judged; None when all agree."""
        text, files = self.make(rule, command)
        if isinstance(files, str):
            return Failure(text, files)
        fixed = replace(command, text=text)
        with tempfile.TemporaryDirectory(prefix="ptpy-fuzz-") as tmp:
            case, answer = case_files(Path(tmp), files[".in"], files.get(".ans", b""))
            why = self._rejected(case) or self._disagreement(rule, case, answer, Path(tmp))
        kept = tuple(sorted(files.items()))
        return Failure(fixed.text, why, files=kept) if why else None

    def _rejected(self, case: Path) -> str:
        for program, exe in self.built:
            verdict = run_validator(self.ctx, exe, [], case, self.ctx.verdict_cache())
            if not verdict.valid:
                return f"input validator {program.rel} rejects it: {verdict.message}"
        return ""

    def judge_for(self, rule: CaseRule, limits: Limits | None = None) -> CaseJudge:
        """How a case of ``rule`` is judged: the checker of its case in the package (with
        its arguments), else the problem's own validator without arguments."""
        cases = self.ctx.cases({GroupKind.JUDGED}, (".in",))
        known = next((c for c in cases if c.name == rule.path), None)
        config = self.ctx.problem.config
        passes = config.limits.validation_passes if config.multi_pass else 1
        # (a case not generated yet: the problem's own validator, without arguments)
        checker = self.checker.for_case(known) if known is not None else self.checker.with_args(())
        return CaseJudge(self.ctx.pool, checker, limits or self.limits, config.interactive, passes)

    def _disagreement(self, rule: CaseRule, case: Path, answer: Path, work: Path) -> str:
        judge = self.judge_for(rule)
        for index, sub in enumerate(self.accepted):
            exe = self.ctx.submission(sub).executable
            if exe is None:
                continue
            result = judge.judge(exe, case, answer, work / f"run{index}")
            if result.verdict is not Verdict.AC:
                against = rule.solution or self.maker.default_solution
                source = f" (the answer from {against.lstrip('/')})" if against else ""
                return f"{sub.rel} got {result.verdict.value}{source}: {result.message[:200]}"
        return ""

    def shrink(self, rule: CaseRule, command: Command, failure: Failure) -> Failure:
        """Each number argument (not the seed) halved while the case still fails."""
        best, tries = failure, 0
        args = list(command.args)
        for index, word in enumerate(args):
            if SEED.search(word) or not NUMBER.match(word):
                continue
            value = int(word)
            while value > 1 and tries < SHRINK_TRIES:
                trial = [*args[:index], str(value // 2), *args[index + 1 :]]
                smaller = replace(command, args=tuple(trial), text=_text(command, trial))
                tries += 1
                found = self.attempt(rule, smaller)
                if found is None:
                    break
                args, value, best = trial, value // 2, found
        if best is not failure:
            return replace(best, shrunk_from=failure.command)
        return failure


def _fuzz_entry(ctx: Session) -> list[CaseRule]:
    """The commands of generators.yaml's own ``fuzz:`` entry (a command or a list of
    them, each with ``{seed}``): when there is one, only those are fuzzed."""
    import yaml

    path = ctx.problem.root / "generators" / "generators.yaml"
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError):
        return []  # (read_plan reported it)
    found = data.get("fuzz") if isinstance(data, dict) else None
    texts = [found] if isinstance(found, str) else found if isinstance(found, list) else []
    rules = []
    for index, text in enumerate(texts, 1):
        try:
            command = parse_command(str(text), "fuzz", index)
        except ValueError as exc:
            raise FatalError(
                f"generators.yaml: fuzz: {text!r}: {exc}", path=path, exit_code=ExitCode.FINDINGS
            ) from None
        if not command.uses_seed:
            raise FatalError(
                f"generators.yaml: fuzz: {text!r} takes no {{seed}}",
                path=path,
                exit_code=ExitCode.FINDINGS,
            )
        rules.append(CaseRule(f"fuzz/{index}", None, command))
    return rules


def _written_out(command: Command) -> Command:
    """The command with its seed written in: it makes the same case ever after."""
    args = command.argv()
    return replace(command, args=tuple(args), text=_text(command, args))


def _text(command: Command, args: list[str]) -> str:
    return " ".join([command.program, *args])


def write_failures(root: Path, failures: list[Failure]) -> list[str]:
    """The failing cases as data/fuzz/<n>.in and .ans (numbered after those there); their
    names."""
    folder = root / "data" / "fuzz"
    if failures:
        folder.mkdir(parents=True, exist_ok=True)
    taken = {p.stem for p in folder.glob("*.in")}
    names = []
    number = 1
    for failure in failures:
        while str(number) in taken:
            number += 1
        taken.add(str(number))
        for ext, data in failure.files:
            if ext in (".in", ".ans"):
                (folder / f"{number}{ext}").write_bytes(data)
        names.append(f"fuzz/{number}")
    return names
