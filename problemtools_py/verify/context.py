"""What the running checks share for one problem: options, the sandbox pool, the
builder, and every program of the package built once."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from problemtools_py.cachedir import used_before
from problemtools_py.judge.compile import Build, Builder, Executable, read_program, scripts_language
from problemtools_py.judge.languages import Language, Languages
from problemtools_py.model.constants import substitute_bytes
from problemtools_py.model.problem import Problem, Program, Submission
from problemtools_py.once import OnceEach
from problemtools_py.sandbox.pool import SandboxPool
from problemtools_py.sandbox.results import Limits
from problemtools_py.verify.options import Options, Progress
from problemtools_py.verify.sharing import Sharing

MIB = 1 << 20
T = TypeVar("T")
R = TypeVar("R")


# Build-time ranks by language (see Context._build_weight); unknown languages rank as C.
_BUILD_WEIGHTS = {"java": 4, "kotlin": 4, "scala": 4, "rust": 3, "cpp": 2, "c": 1,
                  "python3": 0, "pypy3": 0}  # fmt: skip


@dataclass
class Context:
    """One problem's verification: options, sandbox pool, builder, the builds made."""

    problem: Problem
    options: Options
    pool: SandboxPool
    builder: Builder
    languages: Languages
    progress: Progress | None = None
    _builds: OnceEach[str, Build] = field(default_factory=OnceEach)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _prefetch: ThreadPoolExecutor | None = None
    # submissions judged ahead (see ahead.judge_ahead), by submission path
    ahead: dict[str, Future[None]] = field(default_factory=dict)
    closing: threading.Event = field(default_factory=threading.Event)  # work ahead stops
    # submissions' cases open to threads with nothing else to do (see sharing.py)
    sharing: Sharing = field(default_factory=Sharing)

    @classmethod
    def create(
        cls, problem: Problem, options: Options, pool: SandboxPool, progress: Progress | None = None
    ) -> Context:
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
        return cls(
            problem,
            options,
            pool,
            # (g++'s and javac's own caches made only on a machine that keeps its cache:
            # one verification's few compilations do not pay for them; see pch.py)
            Builder(pool, compile_limits, warm_compilers=used_before()),
            _languages(problem, options),
            progress,
        )

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

    def map(self, func: Callable[[T], R], items: Iterable[T]) -> list[R]:
        """``func`` on every item, ``jobs`` at a time, the results in the items' order
        (runs in the sandbox are independent; one thread would leave the other cores idle)."""
        todo = list(items)
        if len(todo) <= 1 or self.options.jobs <= 1:
            return [func(item) for item in todo]
        with ThreadPoolExecutor(min(self.options.jobs, len(todo))) as pool:
            return list(pool.map(func, todo))

    def background(self) -> ThreadPoolExecutor:
        """The threads that build and run ahead of the parts that need the results."""
        with self._lock:
            if self._prefetch is None:
                self._prefetch = ThreadPoolExecutor(max(1, self.options.jobs))
            return self._prefetch

    def scratch_room(self, mib_per_run: int) -> int:
        """The most a part keeps in its scratch directory at once (see scratch.py): per
        concurrent run, a file of up to ``mib_per_run`` MiB and a validator's feedback."""
        return 2 * max(1, self.options.jobs) * mib_per_run * MIB

    def prefetch_submissions(self) -> None:
        """Start building every selected submission in the background, so compilation
        overlaps with the checks that run before the submissions are judged."""
        pool = self.background()
        subs = [s for s in self.problem.submissions if self.selected(s) and self.runnable(s)]
        for sub in sorted(subs, key=self._build_weight, reverse=True):  # (longest first)
            pool.submit(self.submission, sub)

    def _build_weight(self, sub: Submission) -> int:
        """How long a submission's build may take, roughly, to start the longest first
        (a JVM compiler ~0.3-0.5 s, g++ 0.1-1 s, gcc ~0.1 s, Python's in-process step
        ~20 ms): an order only, never a limit."""
        language = self.submission_language(sub)
        code = language.code if language is not None else ""
        return _BUILD_WEIGHTS.get(code, 1)

    def close(self) -> None:
        from problemtools_py.workbench.cache import flush_all

        self.closing.set()
        self.sharing.wake()
        if self._prefetch is not None:
            self._prefetch.shutdown(wait=True, cancel_futures=True)
        flush_all()  # (this problem's new verdicts, committed together)

    def language(self, program: Program) -> Language | None:
        """How the judge builds and runs ``program`` (build/run scripts, or the language
        its files name), or None when no language of the judge's claims them."""
        if program.has_build or program.has_run:
            return scripts_language(program.has_build)
        base = self._base(program)
        names = [(self.problem.root / rel).relative_to(base).as_posix() for rel in program.files]
        return self.languages.detect(names, {n: _first_line(base / n) for n in names})

    def _base(self, program: Program) -> Path:
        root = self.problem.root
        return root / program.rel if program.is_dir else (root / program.rel).parent

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

    def _build(self, program: Program, includes: bool, sub: Submission | None = None) -> Build:
        root = self.problem.root
        paths = [root / rel for rel in program.files]
        base = self._base(program)
        language = self.submission_language(sub) if sub is not None else self.language(program)
        if language is None:
            return Build(None, "cannot tell the language of this program", 0.0, False)
        entrypoint = sub.expectation.entrypoint if sub and sub.expectation else None
        include_dir = self._include_dir(language.code) if includes else None
        files = read_program(paths, base, include_dir)
        if not self.problem.legacy:  # {{name}} in validators, submissions, included files
            files = {n: substitute_bytes(c, self.problem.constants) for n, c in files.items()}
        own = frozenset(p.relative_to(base).as_posix() for p in paths)
        return self.builder.build(language, files, own, entrypoint)

    def build_files(self, paths: list[Path], base: Path, entrypoint: str | None = None) -> Build:
        """Build a program made of ``paths`` (named relative to ``base``) that is no
        program of the model's: a generator of generators.yaml's ``generators:`` map."""
        names = [p.relative_to(base).as_posix() for p in paths]
        language = self.languages.detect(names, {n: _first_line(base / n) for n in names})
        if language is None:
            return Build(None, "cannot tell the language of this program", 0.0, False)
        files = read_program(paths, base)
        if not self.problem.legacy:
            files = {n: substitute_bytes(c, self.problem.constants) for n, c in files.items()}
        return self.builder.build(language, files, frozenset(names), entrypoint)

    def _include_dir(self, code: str) -> Path | None:
        for name in (code, "default" if not self.problem.legacy else None):
            if name and (self.problem.root / "include" / name).is_dir():
                return self.problem.root / "include" / name
        return None

    def submission(self, sub: Submission) -> Build:
        return self.build(sub.program, includes=True, sub=sub)

    def selected(self, sub: Submission) -> bool:
        return self.options.takes_submission(sub.rel)

    def data_selected(self, case_name: str) -> bool:
        return self.options.takes_case(case_name)


def _first_line(path: Path) -> str:
    try:
        with path.open("rb") as handle:
            return handle.readline(256).decode("utf-8", "replace")
    except OSError:
        return ""


__all__ = ["Context", "Executable", "Options"]


def _languages(problem: Problem, options: Options) -> Languages:
    """The package's languages; its Python run by ``--python``'s interpreter if given."""
    languages = Languages.load((problem.root,))
    if options.python is None:
        return languages
    from problemtools_py.judge.interpreter import find

    return languages.with_python(find(options.python))
