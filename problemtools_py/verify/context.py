"""One verification's state: a judging session (judging.session: the workbench, the
policy, the shared queue, the stop signal) whose policy is what verifyproblem was asked
(its Options), and the submissions judged ahead."""

from __future__ import annotations

from concurrent.futures import Future
from dataclasses import dataclass, field

from problemtools_py.judge.compile import Executable
from problemtools_py.judging.session import Session
from problemtools_py.model.problem import Problem, Submission
from problemtools_py.sandbox.pool import SandboxPool
from problemtools_py.verify.options import Options, Progress

# Build-time ranks by language (see Context._build_weight); unknown languages rank as C.
_BUILD_WEIGHTS = {"java": 4, "kotlin": 4, "scala": 4, "rust": 3, "cpp": 2, "c": 1,
                  "python3": 0, "pypy3": 0}  # fmt: skip


@dataclass(kw_only=True)
class Context(Session):
    """One problem's verification: a judging session (see judging) whose policy is
    verifyproblem's Options, and the submissions judged ahead."""

    # submissions judged ahead (see ahead.judge_ahead), by submission path
    ahead: dict[str, Future[None]] = field(default_factory=dict)

    @classmethod
    def create(
        cls, problem: Problem, options: Options, pool: SandboxPool, progress: Progress | None = None
    ) -> Context:
        return cls.start(problem, options, pool, progress)

    @property
    def options(self) -> Options:
        """What verifyproblem was asked (the session's policy)."""
        policy = self.policy
        if not isinstance(policy, Options):  # (create() makes it so)
            raise TypeError("a verification's policy is verifyproblem's Options")
        return policy

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

    def selected(self, sub: Submission) -> bool:
        return self.options.takes_submission(sub.rel)


__all__ = ["Context", "Executable", "Options"]
