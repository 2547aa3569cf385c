"""generatedata's work, apart from its command line: read generators.yaml, make what is
stale (in parallel), write it into data/ file by file (each file whole or not at all),
write the directories' test_group.yaml and included cases, and report (or, with
``clean``, remove) what in data/ generators.yaml did not make."""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from problemtools_py.atomicfile import write_bytes
from problemtools_py.checks.schema import validate
from problemtools_py.findings import Finding, ProblemReport, error, warning
from problemtools_py.generate import DEFAULT_SECONDS
from problemtools_py.generate.cleanup import extraneous
from problemtools_py.generate.maker import CaseMaker
from problemtools_py.generate.parse import parse_plan
from problemtools_py.generate.plan import CaseRule, Plan
from problemtools_py.generate.programs import Programs
from problemtools_py.generate.records import Records, case_key
from problemtools_py.model import Problem, load_problem
from problemtools_py.model.testdata import is_sample
from problemtools_py.sandbox.pool import SandboxPool
from problemtools_py.workbench.bench import Workbench
from problemtools_py.yamlfile import load_yaml

YAML_REL = "generators/generators.yaml"
Progress = Callable[[str, int], None]


@dataclass(frozen=True)
class GenerateOptions:
    """How generatedata runs: jobs, checks, what to redo, where its records are."""

    jobs: int = 1
    check_deterministic: bool = False
    clean: bool = False
    force: bool = False  # regenerate even what is up to date
    cache: Path | None = None  # where the records are (default: the user's cache)
    seconds: float = DEFAULT_SECONDS  # CPU time per generator or solution run


def has_generators(root: Path) -> bool:
    return (root / YAML_REL).is_file()


def stale_data(root: Path, pool: SandboxPool, jobs: int = 1) -> list[Finding]:
    """The package's stale test data written from its generators.yaml (none without
    one), and what generating found."""
    if not has_generators(root):
        return []
    return generate_problem(root, pool, GenerateOptions(jobs=jobs)).findings


def read_plan(problem: Problem) -> tuple[Plan, list[Finding]]:
    """The plan of the package's generators.yaml, and the findings of reading it."""
    doc = load_yaml(problem.root / YAML_REL, YAML_REL)
    findings = [error("generators", f"{p.message}", YAML_REL, p.line) for p in doc.duplicates]
    if doc.syntax_error is None and isinstance(doc.data, dict):
        findings += validate(doc, "generators", "generators")
    config = problem.config
    plan = parse_plan(doc, problem.constants, config.interactive or config.multi_pass)
    findings += [error("generators", e.message, YAML_REL, e.line) for e in plan.errors]
    findings += [warning("generators", w.message, YAML_REL, w.line) for w in plan.warnings]
    return plan, findings


class _Run:
    def __init__(
        self, ctx: Workbench, plan: Plan, options: GenerateOptions, progress: Progress | None
    ) -> None:
        self.ctx, self.plan, self.options, self.progress = ctx, plan, options, progress
        self.data = ctx.problem.root / "data"
        self.records = Records(ctx.problem.root, options.cache)
        self.programs = Programs(ctx, plan.generators)
        self.default = self.programs.default_solution()
        self.maker = CaseMaker(
            ctx, self.programs, self.default, options.seconds, plan.validator_args
        )
        self.findings: list[Finding] = []
        self.made = 0

    def key(self, rule: CaseRule) -> str:
        parts: list[object] = [rule.recipe(), self.ctx.problem.config.interactive]
        parts.append(self.plan.validator_args(rule.group))  # (a sample's .interaction's)
        if rule.generate is not None:
            exe = self.programs.generator(rule.generate.program)
            parts.append(exe if isinstance(exe, str) else exe.directory.name)
        solution = rule.solution or self.default
        if solution is not None and ".ans" not in rule.inline:
            exe = self.programs.solution(solution)
            parts.append(exe if isinstance(exe, str) else exe.directory.name)
        if self.maker.no_answer and is_sample(rule.path):  # (its .interaction)
            found = self.maker.validator()
            parts.append(found if isinstance(found, str) else found.executable.directory.name)
        if rule.copy is not None:
            base = self.ctx.problem.root / "generators"
            parts += sorted(
                (p.name, p.read_bytes()) for p in base.glob(f"{rule.copy}.*") if p.is_file()
            )
        return case_key(*parts)

    def case(self, rule: CaseRule) -> None:
        key = self.key(rule)
        if not self.options.force and self.records.fresh(self.data, rule.path, key):
            self._tick()
            return
        made = self.maker.make(rule)
        where = f"data/{rule.path}"
        if made.problem is not None:
            self.findings.append(error("generators", made.problem, where, None))
        else:
            self._write(rule.path, made.files)
            self.records.put(rule.path, key, made.files)
            self.made += 1
            if self.options.check_deterministic and rule.generate is not None:
                self._check_again(rule, made.files)
        if made.warning is not None:
            self.findings.append(warning("generators", made.warning, where, rule.line))
        self._tick()

    def _check_again(self, rule: CaseRule, first: dict[str, bytes]) -> None:
        assert rule.generate is not None
        again = self.maker.run_generator(rule.generate, rule.retries)
        if isinstance(again, str):
            self.findings.append(error("generators", f"second run: {again}", f"data/{rule.path}"))
            return
        differ = sorted(e for e in again if again[e] != first.get(e))
        if differ:
            self.findings.append(
                error(
                    "generators",
                    f"not deterministic: a second run wrote different {', '.join(differ)}",
                    f"data/{rule.path}",
                )
            )

    def _write(self, path: str, files: dict[str, bytes]) -> None:
        target = self.data / path
        target.parent.mkdir(parents=True, exist_ok=True)
        for ext, content in files.items():
            file = target.parent / f"{target.name}{ext}"
            if file.is_symlink() or not file.is_file() or file.read_bytes() != content:
                write_bytes(file, content)
        for ext in self.records.written(path):
            if ext not in files:
                (target.parent / f"{target.name}{ext}").unlink(missing_ok=True)

    def directories(self) -> None:
        for rule in self.plan.dirs:
            folder = self.data / rule.path if rule.path else self.data
            folder.mkdir(parents=True, exist_ok=True)
            if rule.test_group is not None:
                text = rule.test_group
                file = folder / "test_group.yaml"
                if not file.is_file() or file.read_text(encoding="utf-8") != text:
                    write_bytes(file, text.encode())
            for source in rule.includes:
                self._include(source, rule.path)

    def _include(self, source: str, into: str) -> None:
        name = source.rsplit("/", 1)[-1]
        files = {}
        for ext in self.records.written(source):
            file = self.data / f"{source}{ext}"
            if file.is_file():
                files[ext] = file.read_bytes()
        if files:
            path = f"{into}/{name}" if into else name
            self._write(path, files)
            self.records.put(path, f"include:{source}", files)

    def _tick(self) -> None:
        if self.progress is not None:
            self.progress("generating", 1)


def generate_problem(
    root: Path,
    pool: SandboxPool,
    options: GenerateOptions | None = None,
    progress: Progress | None = None,
) -> ProblemReport:
    """Generate the test data of the package at ``root`` from its generators.yaml."""
    options = options or GenerateOptions()
    start = time.perf_counter()
    problem = load_problem(root)
    report = ProblemReport(problem.short_name, str(root), problem.format.value, ["generate"])
    if not has_generators(problem.root):
        report.findings.append(error("generators", "there is no generators.yaml", YAML_REL))
        return report
    plan, findings = read_plan(problem)
    report.findings += findings
    if plan.errors or any(
        f.check == "generators" and f.severity.value == "error" for f in findings
    ):
        return report  # nothing is written from a plan with errors
    ctx = Workbench.open(problem, pool, jobs=options.jobs)
    run = _Run(ctx, plan, options, progress)
    try:
        with ThreadPoolExecutor(options.jobs) as workers:
            list(workers.map(run.case, plan.cases))
        run.directories()
    finally:
        run.records.save()
        ctx.close()
    report.findings += run.findings
    report.findings += extraneous(problem.root, plan, run.records, options.clean)
    report.seconds = time.perf_counter() - start
    return report
