"""One verification's state over the package's workbench: what verifyproblem was asked
(options, progress), the submissions judged ahead, the cases open to idle threads, and
the signal that work ahead stops."""

from __future__ import annotations

import threading
from collections.abc import Collection
from concurrent.futures import Future
from dataclasses import dataclass, field

from problemtools_py.judge.compile import Executable
from problemtools_py.model.problem import Problem, Submission, TestCase
from problemtools_py.model.testdata import GroupKind, cases_in
from problemtools_py.sandbox.pool import SandboxPool
from problemtools_py.verify.options import Options, Progress
from problemtools_py.verify.sharing import Sharing
from problemtools_py.workbench.bench import Workbench
from problemtools_py.workbench.cache import MemoryVerdicts, VerdictCache, Verdicts

# Build-time ranks by language (see Context._build_weight); unknown languages rank as C.
_BUILD_WEIGHTS = {"java": 4, "kotlin": 4, "scala": 4, "rust": 3, "cpp": 2, "c": 1,
                  "python3": 0, "pypy3": 0}  # fmt: skip


@dataclass(kw_only=True)
class Context(Workbench):
    """One problem's verification: the workbench, the options, and the run's state."""

    options: Options
    progress: Progress | None = None
    # submissions judged ahead (see ahead.judge_ahead), by submission path
    ahead: dict[str, Future[None]] = field(default_factory=dict)
    closing: threading.Event = field(default_factory=threading.Event)  # work ahead stops
    # submissions' cases open to threads with nothing else to do (see sharing.py)
    sharing: Sharing = field(default_factory=Sharing)
    # where verdicts are kept by content: the user's cache file (None), or one of memory
    verdicts: MemoryVerdicts | None = None

    @classmethod
    def create(
        cls, problem: Problem, options: Options, pool: SandboxPool, progress: Progress | None = None
    ) -> Context:
        builder, languages = Workbench.parts(problem, pool, options.python, options.sanitizer)
        return cls(
            problem, pool, builder, languages, jobs=options.jobs, options=options, progress=progress
        )

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
        """Work ahead stops, idle threads wake, and this problem's new verdicts are
        committed together."""
        self.closing.set()
        self.sharing.wake()
        super().close()

    def verdict_cache(self) -> Verdicts:
        """Where this verification's parts keep verdicts by content."""
        return self.verdicts if self.verdicts is not None else VerdictCache()

    def selected(self, sub: Submission) -> bool:
        return self.options.takes_submission(sub.rel)

    def data_selected(self, case_name: str) -> bool:
        return self.options.takes_case(case_name)

    def cases(self, kinds: Collection[GroupKind], needs: Collection[str]) -> list[TestCase]:
        """The cases of the groups of ``kinds`` with every file in ``needs``, as --data
        selects: how every part picks the cases it runs programs on."""
        found = cases_in(self.problem.data, kinds, needs)
        return [case for case in found if self.data_selected(case.name)]


__all__ = ["Context", "Executable", "Options"]
