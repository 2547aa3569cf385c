"""``auditdata``: how strong a package's tests are. A population of wrong programs (the
mutants of each accepted Python, C or C++ submission of one file, see audit.mutants and
audit.mutants_c; the package's own
submissions that claim to fail; the programs given with ``--wrong``) is run on every test
case, judged as verifyproblem judges (all cases, no stop at the first failure). A
program no test rejects survives; run then on random inputs from the package's
generators (fresh seeds, answered by its solution), it either fails one (a witness: the
tests miss what it gets wrong) or agrees on all (likely an *equivalent* mutant: not
counted). The score is the share of the other wrong programs the tests reject; each test
group's share, and the tests that reject nothing, are named.

The time limit is the package's fixed one, else the least its rules allow with the
margin, and never below three times the slowest reference run (a mutant that runs far
longer is rejected as too slow, as it would be)."""

from __future__ import annotations

import shutil
import tempfile
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from problemtools_py.audit.mutants import mutants
from problemtools_py.audit.mutants_c import c_mutants
from problemtools_py.errors import FatalError
from problemtools_py.judge.compile import Executable
from problemtools_py.judge.execute import case_files
from problemtools_py.judge.judging import CaseJudge
from problemtools_py.judging.rounds import RoundLimits
from problemtools_py.judging.session import Session
from problemtools_py.judging.submission_judge import SubmissionJudge
from problemtools_py.model.problem import Submission
from problemtools_py.verdicts import Verdict
from problemtools_py.workbench.cache import MemoryVerdicts

SMALL_INPUT = 1 << 10  # bytes: a package whose inputs are all smaller has no large case


@dataclass
class Wrong:
    """One wrong program and what became of it."""

    name: str
    kind: str  # "mutant", "submission" (the package's, claimed to fail), "given"
    change: str = ""  # a mutant's
    rejected_by: list[str] = field(default_factory=list)  # test cases
    status: str = "rejected"  # rejected, survived, equivalent, not built
    witness: str = ""  # a survivor: the generator command of an input it fails


@dataclass
class Audit:
    """One package's tests, audited."""

    problem: str
    path: str
    reference: str | None  # the first accepted submission mutated
    cases: list[str]
    programs: list[Wrong] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    largest_input: int = 0  # bytes, of the test cases'
    invalid_inputs: list[str] = field(default_factory=list)  # cases a validator rejects
    runs: int = 0  # test runs of wrong programs (on the tests and on random inputs)
    timeouts: int = 0  # ... of them stopped by the time limit

    @property
    def counted(self) -> list[Wrong]:
        return [p for p in self.programs if p.status in ("rejected", "survived")]

    @property
    def score(self) -> float | None:
        counted = self.counted
        return sum(p.status == "rejected" for p in counted) / len(counted) if counted else None

    def groups(self) -> dict[str, float]:
        """Each test group's share of the counted wrong programs it rejects."""
        counted = self.counted
        shares = {}
        for group in sorted({_group(c) for c in self.cases}):
            hit = sum(any(_group(c) == group for c in p.rejected_by) for p in counted)
            shares[group] = hit / len(counted) if counted else 0.0
        return shares

    @property
    def grouped(self) -> bool:
        """Whether its tests are in groups (a dataset row's tests are not)."""
        return set(self.groups()) != set(self.cases)

    def idle(self) -> list[str]:
        """The test cases that reject no wrong program."""
        used = {c for p in self.programs for c in p.rejected_by}
        return [c for c in self.cases if c not in used]

    def to_json(self) -> dict[str, Any]:
        return {
            **asdict(self),
            "score": self.score,
            "groups": self.groups(),
            "idle_tests": self.idle(),
        }


def _group(case: str) -> str:
    parts = case.split("/")
    return "/".join(parts[:2]) if len(parts) > 2 else parts[0]


class Auditor:
    """A package opened for auditing (its context's options judge every case)."""

    def __init__(self, ctx: Session, given: list[Path], count: int, random_inputs: int) -> None:
        self.ctx = ctx
        ctx.verdicts = MemoryVerdicts()
        self.judge = SubmissionJudge(ctx)
        self.given, self.count, self.random_inputs = given, count, random_inputs
        self.audit = Audit(
            ctx.problem.short_name, str(ctx.problem.root), None, [c.name for c in self.judge.cases]
        )
        self.limit = RoundLimits.of(ctx).first.hard
        self._exes: dict[str, Executable] = {}
        # a witness that is an input (shaped, not a generator's command) -> its files
        self.witness_files: dict[str, dict[str, bytes]] = {}
        self._lock = threading.Lock()

    def run(self, progress: Callable[[int, int], None] | None = None) -> Audit:
        """The audit; ``progress(done, total)`` hears of each wrong program judged. The
        judge's directory of team outputs goes with it (in /dev/shm, memory, where that
        is a tmpfs: one was left per package audited)."""
        try:
            return self._run(progress)
        finally:
            shutil.rmtree(self.judge.work, ignore_errors=True)

    def _run(self, progress: Callable[[int, int], None] | None) -> Audit:
        accepted = [
            s
            for s in self.ctx.problem.submissions
            if s.expectation is not None and s.expectation.accepted and self.ctx.runnable(s)
        ]
        references = [s for s in accepted if self._mutable(s)]
        self._time(accepted)
        pending: list[tuple[Wrong, Executable | str]] = []
        if references and self.count > 0:
            self.audit.reference = references[0].rel
            pending += self._mutants(references)
        elif not references:
            self.audit.notes.append(
                "no accepted Python 3, C or C++ submission of one file: no mutants"
            )
        for sub in self.ctx.problem.submissions:
            if sub.expectation is not None and not sub.expectation.accepted:
                build = self.ctx.submission(sub)
                pending.append((Wrong(sub.rel, "submission"), build.executable or build.message))
        pending += [(Wrong(str(path), "given"), self._build_file(path)) for path in self.given]
        self._judge_all(pending, progress)
        self._equivalence()
        self._bounds()
        return self.audit

    def _judge_all(
        self,
        pending: list[tuple[Wrong, Executable | str]],
        progress: Callable[[int, int], None] | None,
    ) -> None:
        """Every wrong program judged, ``jobs`` at a time, kept in their order."""
        lock, done = threading.Lock(), [0]

        def judge(item: tuple[Wrong, Executable | str]) -> Wrong:
            found = self._judge(*item)
            with lock:
                done[0] += 1
                if progress is not None:
                    progress(done[0], len(pending))
            return found

        with ThreadPoolExecutor(max(1, self.ctx.policy.jobs)) as pool:
            self.audit.programs = list(pool.map(judge, pending))

    def _bounds(self) -> None:
        """The test inputs an input validator rejects, and whether any is large."""
        from problemtools_py.judging.validators import run_validator, validators

        built, _ = validators(self.ctx)
        root = self.ctx.problem.root
        for case in self.judge.cases:
            given = root / case.files[".in"]
            self.audit.largest_input = max(self.audit.largest_input, given.stat().st_size)
            for program, exe in built:
                args = self.ctx.problem.input_validator_args(case, program.name)
                if not run_validator(self.ctx, exe, args, given, self.ctx.verdict_cache()).valid:
                    self.audit.invalid_inputs.append(case.name)
                    break
        if self.judge.cases and self.audit.largest_input < SMALL_INPUT:
            self.audit.notes.append(
                f"no large case: every input is under {SMALL_INPUT} bytes (a slow program passes)"
            )

    def _language(self, sub: Submission) -> str:
        language = self.ctx.submission_language(sub)
        return language.code if language is not None else ""

    def _mutable(self, sub: Submission) -> bool:
        """A program of one file in a language mutants are made of."""
        return self._language(sub) in ("python3", "c", "cpp") and len(sub.program.files) == 1

    def _time(self, accepted: list[Submission]) -> None:
        """The limit: never below three times the slowest accepted run (+0.2 s)."""
        slowest = 0.0
        for sub in accepted:
            exe = self.ctx.submission(sub).executable
            if exe is None:
                continue
            runs = self.judge.run(exe, max(self.limit, 10.0), None)
            if any(r.verdict is not Verdict.AC for r in runs):
                self.audit.notes.append(f"{sub.rel} is not accepted on every test")
            slowest = max([slowest, *(r.cpu for r in runs)])
        self.limit = max(self.limit, 3 * slowest + 0.2)

    def _mutants(self, references: list[Submission]) -> list[tuple[Wrong, Executable | str]]:
        share = max(1, self.count // len(references))
        found: list[tuple[Wrong, Executable | str]] = []
        for sub in references:
            path = self.ctx.problem.root / sub.program.files[0]
            code = path.read_text(encoding="utf-8", errors="replace")
            python = self._language(sub) == "python3"
            for mutant in mutants(code, share) if python else c_mutants(code, share):
                wrong = Wrong(f"{sub.rel}:{mutant.name}", "mutant", mutant.change)
                found.append((wrong, self._build_text(mutant.code, path.name)))
        return found

    def _build_file(self, path: Path) -> Executable | str:
        if not path.is_file():
            raise FatalError("no such file", path=path)
        build = self.ctx.build_files([path], path.parent)
        return build.executable if build.executable is not None else build.message

    def _build_text(self, code: str, name: str) -> Executable | str:
        with tempfile.TemporaryDirectory(prefix="ptpy-mutant-") as tmp:
            path = Path(tmp) / name
            path.write_text(code, encoding="utf-8")
            return self._build_file(path)

    def _judge(self, wrong: Wrong, exe: Executable | str) -> Wrong:
        if isinstance(exe, str):
            return replace(wrong, status="not built", witness=exe[:200])
        runs = self.judge.run(exe, self.limit, self.limit)
        wrong.rejected_by = [r.case.name for r in runs if r.verdict is not Verdict.AC]
        with self._lock:
            self.audit.runs += len(runs)
            self.audit.timeouts += sum(r.verdict is Verdict.TLE for r in runs)
        wrong.status = "rejected" if wrong.rejected_by else "survived"
        with self._lock:
            self._exes[wrong.name] = exe
        return wrong

    def _equivalence(self) -> None:
        """Each survivor on random cases: one it fails is its witness; none, and it is
        (most likely) equivalent."""
        survivors = [p for p in self.audit.programs if p.status == "survived"]
        if not survivors or self.random_inputs <= 0:
            return
        made = self._random_cases()
        if made is None:
            return
        cases, shaped = made
        for wrong in survivors:
            wrong.status = "equivalent" if wrong.kind == "mutant" else "survived"
            for text, files, judge in cases:
                if self._fails(judge, files, self._exes[wrong.name]):
                    wrong.status, wrong.witness = "survived", text
                    if shaped:
                        self.witness_files.setdefault(text, files)
                    break

    def _random_cases(self) -> tuple[list[tuple[str, dict[str, bytes], CaseJudge]], bool] | None:
        """Random cases with the judge of their kind, and whether they are shaped: from
        the package's generators (the witness is the command, its seed written out), else
        shaped after its test cases (audit.shaped_cases: the witness is the input);
        None, with a note, when there can be none."""
        from problemtools_py.audit.fuzz import Fuzzer
        from problemtools_py.audit.shaped_cases import ShapedCases

        limits = self.ctx.submission_limits(self.limit)
        try:
            fuzzer = Fuzzer(self.ctx, seed=0)
        except FatalError:
            try:
                shaped = ShapedCases(self.ctx, seed=0)
            except FatalError as exc:
                self.audit.notes.append(f"survivors not told from equivalent programs: {exc}")
                return None
            self.audit.notes.append(
                "no random generator: random inputs shaped as the test "
                "cases', within the statement's bounds, that the input "
                "validators accept"
            )
            judge = shaped.judge(limits)
            return [(text, files, judge) for text, files in shaped.make(self.random_inputs)], True
        cases = []
        for rule, command in [fuzzer.fresh() for _ in range(self.random_inputs)]:
            text, files = fuzzer.make(rule, command)
            if not isinstance(files, str):
                cases.append((text, files, fuzzer.judge_for(rule, limits)))
        return cases, False

    def _fails(self, judge: CaseJudge, files: dict[str, bytes], exe: Executable) -> bool:
        """Whether ``exe`` is not accepted on the case ``files``."""
        with tempfile.TemporaryDirectory(prefix="ptpy-audit-") as tmp:
            case, answer = case_files(Path(tmp), files[".in"], files.get(".ans", b""))
            result = judge.judge(exe, case, answer, Path(tmp) / "work")
        with self._lock:
            self.audit.runs += 1
            self.audit.timeouts += result.verdict is Verdict.TLE
        return bool(result.verdict is not Verdict.AC)
