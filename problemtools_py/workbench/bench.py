"""The workbench for one package: its sandbox pool, the builder, the judge's languages
(with ``--python``'s interpreter), every program of the package built once, the limits
its runs get, and a thread pool for work done ahead. Verification, generation, dataset
builds and statement checks each open one; none of them imports another for it."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TypeVar

from problemtools_py.cachedir import used_before
from problemtools_py.judge import python2
from problemtools_py.judge.compile import Build, Builder, read_program, scripts_language
from problemtools_py.judge.languages import (
    SANITIZER_HEADER,
    SANITIZER_HEADER_NAME,
    Language,
    Languages,
)
from problemtools_py.model.constants import substitute_bytes
from problemtools_py.model.problem import Problem, Program, Submission
from problemtools_py.model.programs import validator_format
from problemtools_py.once import OnceEach
from problemtools_py.sandbox.pool import SandboxPool
from problemtools_py.sandbox.results import Limits

MIB = 1 << 20
T = TypeVar("T")
R = TypeVar("R")
UNKNOWN_LANGUAGE = "cannot tell the language of this program"


@dataclass
class Workbench:
    """One package's programs, built once in its sandbox pool, and their runs' limits."""

    problem: Problem
    pool: SandboxPool
    builder: Builder
    languages: Languages
    jobs: int = 1
    _builds: OnceEach[str, Build] = field(default_factory=OnceEach)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _ahead: ThreadPoolExecutor | None = None

    @staticmethod
    def parts(
        problem: Problem,
        pool: SandboxPool,
        python: str | None = None,
        sanitize: bool = False,
        judge: str | None = None,
    ) -> tuple[Builder, Languages]:
        """The builder (the package's compilation limits) and the languages
        (the package's ``languages.yaml`` over ours; Python run by ``python``'s; C and C++
        with sanitizers when ``sanitize``)."""
        limits = problem.config.limits
        compile_limits = Limits(
            cpu_seconds=float(limits.compilation_seconds),
            memory_bytes=limits.compilation_memory_mib * MIB,
            output_bytes=1 * MIB,
            processes=256,
            # a binary may be large (a static table), but no larger than the compiler's
            # memory: the build's tmpfs is charged to it
            file_bytes=limits.compilation_memory_mib * MIB,
        )
        # (g++'s and javac's own caches made only on a machine that keeps its cache:
        # one verification's few compilations do not pay for them; see judge/pch.py)
        builder = Builder(pool, compile_limits, warm_compilers=used_before())
        languages = _languages(problem, python, judge)
        return builder, languages.with_sanitizers() if sanitize else languages

    @classmethod
    def open(
        cls, problem: Problem, pool: SandboxPool, *, jobs: int = 1, python: str | None = None
    ) -> Workbench:
        """A workbench for ``problem``: ``jobs`` runs at a time, Python run by ``python``."""
        return cls(problem, pool, *cls.parts(problem, pool, python), jobs=jobs)

    @property
    def validation_limits(self) -> Limits:
        limits = self.problem.config.limits
        return Limits(
            cpu_seconds=float(limits.validation_seconds),
            memory_bytes=limits.validation_memory_mib * MIB,
            output_bytes=limits.validation_output_mib * MIB,
        )

    def submission_limits(self, cpu_seconds: float) -> Limits:
        limits = self.problem.config.limits
        return Limits(
            cpu_seconds=cpu_seconds,
            memory_bytes=limits.memory_mib * MIB,
            output_bytes=limits.output_mib * MIB,
        )

    def build(
        self, program: Program, includes: bool = False, sub: Submission | None = None
    ) -> Build:
        """Build a program of the package (once; later calls wait for that build); a
        submission's with what submissions.yaml says of its language and entry point."""
        return self._builds.get(program.rel, lambda: self._build(program, includes, sub))

    def submission(self, sub: Submission) -> Build:
        return self.build(sub.program, includes=True, sub=sub)

    def build_validator(self, program: Program) -> Build | str:
        """A validator built: a program of a language, or a checktestdata one (run by
        the checktestdata package); a string says why it cannot be run here (a VIVA
        file, checktestdata not installed), which is no fault of the package's."""
        written_in = validator_format(program)
        if written_in == "viva":
            return "VIVA validators are not run by problemtools_py; this one was skipped"
        if written_in == "checktestdata":
            from problemtools_py.workbench.ctd import build_ctd

            return build_ctd(
                program, self.problem.root, self.builder, self.languages, self._constants()
            )
        return self.build(program)

    def map(self, func: Callable[[T], R], items: Iterable[T]) -> list[R]:
        """``func`` on every item, ``jobs`` at a time, the results in the items' order
        (runs in the sandbox are independent; one thread would leave the other cores idle)."""
        todo = list(items)
        if len(todo) <= 1 or self.jobs <= 1:
            return [func(item) for item in todo]
        with ThreadPoolExecutor(min(self.jobs, len(todo))) as pool:
            return list(pool.map(func, todo))

    def background(self) -> ThreadPoolExecutor:
        """The threads that build and run ahead of the work that needs the results."""
        with self._lock:
            if self._ahead is None:
                self._ahead = ThreadPoolExecutor(max(1, self.jobs))
            return self._ahead

    def scratch_room(self, mib_per_run: int) -> int:
        """The most a part keeps in its scratch directory at once (see scratch.py): per
        concurrent run, a file of up to ``mib_per_run`` MiB and a validator's feedback."""
        return 2 * max(1, self.jobs) * mib_per_run * MIB

    def close(self) -> None:
        """Stop the work ahead and commit the verdicts this package's runs made."""
        from problemtools_py.workbench.cache import flush_all

        if self._ahead is not None:
            self._ahead.shutdown(wait=True, cancel_futures=True)
        flush_all()

    def language(self, program: Program) -> Language | None:
        """How the judge builds and runs ``program`` (build/run scripts, or the language
        its files name), or None when no language of the judge's claims them."""
        if program.has_build or program.has_run:
            return scripts_language(program.has_build)
        base = self._base(program)
        names = [(self.problem.root / rel).relative_to(base).as_posix() for rel in program.files]
        return self.languages.detect(names, {n: _first_line(base / n) for n in names})

    def submission_language(self, sub: Submission) -> Language | None:
        """A submission's language: submissions.yaml's ``language`` when it names one,
        else what its files say."""
        code = sub.expectation.language if sub.expectation is not None else None
        return self.languages.get(code) if code else self.language(sub.program)

    def runnable(self, sub: Submission) -> bool:
        """Whether the judge can build ``sub`` here: a known language whose compiler is
        installed (see verify.submissions, which reports the others)."""
        language = self.submission_language(sub)
        return language is not None and language.missing_tool() is None

    def build_files(self, paths: list[Path], base: Path, entrypoint: str | None = None) -> Build:
        """Build a program made of ``paths`` (named relative to ``base``) that is no
        program of the model's: a generator of generators.yaml's ``generators:`` map."""
        names = [p.relative_to(base).as_posix() for p in paths]
        language = self.languages.detect(names, {n: _first_line(base / n) for n in names})
        if language is None:
            return Build(None, UNKNOWN_LANGUAGE, 0.0, False)
        return self.builder.build(language, self._files(paths, base), frozenset(names), entrypoint)

    def _build(self, program: Program, includes: bool, sub: Submission | None = None) -> Build:
        paths = [self.problem.root / rel for rel in program.files]
        base = self._base(program)
        language = self.submission_language(sub) if sub is not None else self.language(program)
        if language is None:
            return Build(None, UNKNOWN_LANGUAGE, 0.0, False)
        entrypoint = self.named_entrypoint(sub) if sub is not None else None
        include_dir = self._include_dir(language.code) if includes else None
        if sub is not None and not self.submission_constants():
            files = read_program(paths, base, include_dir)
        else:
            files = self._files(paths, base, include_dir)
        if language.sanitized:
            files[SANITIZER_HEADER_NAME] = SANITIZER_HEADER
        own = frozenset(p.relative_to(base).as_posix() for p in paths)
        entrypoint = entrypoint or self.fallback_entrypoint(language, files, own)
        build = self.builder.build(language, files, own, entrypoint)
        if build.executable is None:  # (a Python 2 program's compile error named so)
            return replace(build, message=python2.named_for(language.code, build.message))
        return build

    def named_entrypoint(self, sub: Submission) -> str | None:
        """The main file (or class) the package names for ``sub``: submissions.yaml's
        ``entrypoint`` (a judging session by DOMjudge's rules reads its own file too)."""
        return sub.expectation.entrypoint if sub.expectation is not None else None

    def submission_constants(self) -> bool:
        """Whether submissions' sources get the constants substituted (the text says so;
        a judging session by BAPCtools' rules says no, as bt run reads them as written)."""
        return True

    def fallback_entrypoint(
        self, language: Language, files: dict[str, bytes], own: frozenset[str]
    ) -> str | None:
        """The main file where the judge's rules cannot tell it: none here (a judging
        session by another judge's rules may name one, see judging.session.Session)."""
        return None

    def _files(
        self, paths: list[Path], base: Path, include: Path | None = None
    ) -> dict[str, bytes]:
        """A program's files by name; ``{{name}}`` substituted where the version says so."""
        files = read_program(paths, base, include)
        constants = self._constants()
        if not constants:
            return files
        return {n: substitute_bytes(c, constants) for n, c in files.items()}

    def _constants(self) -> dict[str, str]:
        """The constants programs' sources are substituted with: none in legacy (2023-07
        and later substitute them in validators, submissions and included files)."""
        return {} if self.problem.legacy else self.problem.constants

    def _base(self, program: Program) -> Path:
        root = self.problem.root
        return root / program.rel if program.is_dir else (root / program.rel).parent

    def _include_dir(self, code: str) -> Path | None:
        for name in (code, "default" if not self.problem.legacy else None):
            if name and (self.problem.root / "include" / name).is_dir():
                return self.problem.root / "include" / name
        return None


def _first_line(path: Path) -> str:
    try:
        with path.open("rb") as handle:
            return handle.readline(256).decode("utf-8", "replace")
    except OSError:
        return ""


def _languages(problem: Problem, python: str | None, judge: str | None) -> Languages:
    """The package's languages (``judge``'s where it has its own); its Python run by
    ``python``'s interpreter if given."""
    languages = Languages.load((problem.root,), judge)
    if python is None:
        return languages
    from problemtools_py.judge.interpreter import find

    return languages.with_python(find(python))
