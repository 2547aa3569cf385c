"""What the judging engine is given: a package's workbench, a frozen :class:`Policy`
(how its programs are judged) and a judging's shared state (the case queue idle threads
take from, where verdicts are kept by content, the signal that work ahead stops)."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Self

from problemtools_py.judge.compile import entry_point
from problemtools_py.judge.languages import Language
from problemtools_py.judging.policy import Policy, Progress
from problemtools_py.judging.sharing import Sharing
from problemtools_py.model.problem import Problem, Submission, TestCase
from problemtools_py.model.testdata import GroupKind, cases_in
from problemtools_py.rulesets import Ruleset
from problemtools_py.sandbox.pool import SandboxPool
from problemtools_py.sandbox.results import Limits
from problemtools_py.workbench.bench import Workbench
from problemtools_py.workbench.cache import MemoryVerdicts, VerdictCache, Verdicts


@dataclass(kw_only=True)
class Session(Workbench):
    """One judging of a package: the workbench, the policy, and the shared state."""

    policy: Policy
    progress: Progress | None = None
    closing: threading.Event = field(default_factory=threading.Event)  # work ahead stops
    # submissions' cases open to threads with nothing else to do (see sharing.py)
    sharing: Sharing = field(default_factory=Sharing)
    # where verdicts are kept by content: the user's cache file (None), or one of memory
    verdicts: MemoryVerdicts | None = None

    @classmethod
    def start(
        cls, problem: Problem, policy: Policy, pool: SandboxPool, progress: Progress | None = None
    ) -> Self:
        builder, languages = Workbench.parts(
            problem, pool, policy.python, policy.sanitizer, judge=policy.ruleset.value
        )
        return cls(
            problem, pool, builder, languages, jobs=policy.jobs, policy=policy, progress=progress
        )

    def close(self) -> None:
        """Work ahead stops, idle threads wake, and this problem's new verdicts are
        committed together."""
        self.closing.set()
        self.sharing.wake()
        super().close()

    def submission_limits(self, cpu_seconds: float) -> Limits:
        """The workbench's limits; by every judge's rules output past the limit is dropped
        and the run goes on: problemtools sets no limit on a run's output and compares its
        size once the run is over (TLE and RTE first), bt run sets none at all (a program
        flooding stdout is TLE by both), DOMjudge's runguard truncates it (and a run that
        ends in time is then OLE)."""
        limits = dataclasses.replace(super().submission_limits(cpu_seconds), truncate_output=True)
        if self.policy.ruleset is Ruleset.DOMJUDGE:  # (runguard: no stack limit either)
            return dataclasses.replace(limits, unlimited_stack=True)
        return limits

    def submission_constants(self) -> bool:
        """bt run builds a submission from its files as written (BAPCtools' constants
        problem has wrong_answer/constant_in_submission.py printing "{{FIVE.STRING}}")."""
        return self.policy.ruleset is not Ruleset.BAPCTOOLS

    def named_entrypoint(self, sub: Submission) -> str | None:
        """submissions.yaml's, else (by DOMjudge's rules) its submissions.json's."""
        named = super().named_entrypoint(sub)
        read = self.problem.domjudge_entry_points
        if named is None and self.policy.ruleset is Ruleset.DOMJUDGE and read is not None:
            return read.of(sub.rel)
        return named

    def fallback_entrypoint(
        self, language: Language, files: dict[str, bytes], own: frozenset[str]
    ) -> str | None:
        """Where ours cannot tell (two Java classes with ``main``, JavaScript files none
        named main.js): by BAPCtools' rules the first source whose name starts with
        "main", any case, else the first source, in sorted order, as bt run takes it; by
        DOMjudge's the first source (its build scripts' ``$1``; sorted here, where
        DOMjudge has its zip's order)."""
        if self.policy.ruleset not in (Ruleset.BAPCTOOLS, Ruleset.DOMJUDGE):
            return None
        texts = {n: c.decode("utf-8", "replace") for n, c in files.items()}
        sources = sorted(n for n in files if language.matches(n.rsplit("/", 1)[-1]))
        if not sources or entry_point(language, sorted(files), texts, own) is not None:
            return None
        if self.policy.ruleset is Ruleset.DOMJUDGE:
            return sources[0]
        named = [n for n in sources if n.rsplit("/", 1)[-1].lower().startswith("main")]
        return (named or sources)[0]

    def verdict_cache(self) -> Verdicts:
        """Where this judging's parts keep verdicts by content."""
        return self.verdicts if self.verdicts is not None else VerdictCache()

    def data_selected(self, case_name: str) -> bool:
        return self.policy.takes_case(case_name)

    def cases(self, kinds: Collection[GroupKind], needs: Collection[str]) -> list[TestCase]:
        """The cases of the groups of ``kinds`` with every file in ``needs``, as the
        policy selects: how every part picks the cases it runs programs on."""
        found = cases_in(self.problem.data, kinds, needs)
        return [case for case in found if self.data_selected(case.name)]


__all__ = ["Policy", "Progress", "Session"]
