"""Grading one submission's test-case results over the test-group tree.

Legacy: every group is graded from its items (test cases and subgroups, in name order,
up to the first one rejected under ``on_reject: break``) by the default grader or the
custom one (``grading: custom``), with ``grader_flags``,
``accept_score``/``reject_score`` and a ``range`` check, settings inherited key by key.
2023-07: pass-fail is all-AC; scoring problems aggregate with ``score_aggregation`` and
``max_score``."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from problemtools_py.digests import digest
from problemtools_py.judge.graders import (
    CaseScore,
    CustomGrader,
    Grade,
    aggregate,
    default_grader,
    parse_range,
)
from problemtools_py.judge.held import HeldJails
from problemtools_py.judging.domjudge_scoring import domjudge_grade
from problemtools_py.judging.session import Session
from problemtools_py.model.groups import required_groups
from problemtools_py.model.problem import TestGroup
from problemtools_py.model.settings import breaks, number_setting
from problemtools_py.model.testdata import legacy_items
from problemtools_py.once import OnceEach
from problemtools_py.rulesets import Ruleset
from problemtools_py.verdicts import Verdict


class Scorer:
    """Grades submissions, several threads at a time: a custom grader runs in held jails
    (one per thread at once), once per distinct input."""

    def __init__(self, ctx: Session, work: Path) -> None:
        self.ctx = ctx
        self.work = work
        self.errors: list[str] = []  # of the grader itself, not of one submission's grading
        self.cache = ctx.verdict_cache()
        self.custom: CustomGrader | None = None
        self._jails = HeldJails(ctx.pool, ctx.validation_limits)
        self._graded: OnceEach[str, Grade] = OnceEach()
        if ctx.problem.legacy and ctx.problem.graders:
            build = ctx.build(ctx.problem.graders[0])
            if build.executable is not None:
                self.custom = CustomGrader(build.executable, ctx.validation_limits)
            else:
                self.errors.append(f"the grader does not build: {build.message[:500]}")

    def grade(self, results: dict[str, CaseScore]) -> tuple[Grade, list[str]]:
        """The submission's final verdict and score from its judged cases, and what went
        wrong grading it."""
        data = self.ctx.problem.data
        errors: list[str] = []
        if data is None:
            return Grade(Verdict.AC, 0.0), errors
        if self.ctx.policy.ruleset is Ruleset.DOMJUDGE and self.ctx.problem.config.scoring:
            return domjudge_grade(data, results) or Grade(Verdict.AC, 0.0), errors
        if self.ctx.problem.legacy:
            return self._legacy(data, results, errors) or Grade(Verdict.AC, 0.0), errors
        return self._modern(data, results, errors), errors

    def close(self) -> None:
        self._jails.close()

    def __enter__(self) -> Scorer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- legacy ---------------------------------------------------------------------
    def _legacy(
        self, group: TestGroup, results: dict[str, CaseScore], errors: list[str]
    ) -> Grade | None:
        settings = self.ctx.problem.settings(group.name)
        subresults: list[tuple[Verdict, float]] = []
        for item in legacy_items(group):
            if isinstance(item, TestGroup):
                graded = self._legacy(item, results, errors)
                if graded is None:
                    continue
                subresults.append((graded.verdict, graded.score))
            elif item.name in results:
                subresults.append(_case_item(results[item.name], settings))
            else:
                continue
            if subresults[-1][0] is not Verdict.AC and breaks(settings):
                break  # on_reject: break: the rest is never judged
        if not subresults:
            return None
        grade = self._run_grader(group, settings, subresults, errors)
        return self._in_range(group, settings, grade, errors)

    def _run_grader(
        self,
        group: TestGroup,
        settings: Mapping[str, Any],
        subresults: list[tuple[Verdict, float]],
        errors: list[str],
    ) -> Grade:
        flags = str(settings.get("grader_flags", "")).split()
        if settings.get("grading") == "custom" or self.ctx.problem.config.grader == "custom":
            if self.custom is None:
                return Grade(Verdict.JE, 0.0, "custom grading without a grader")
            grade = self._custom(group, subresults, flags)
        else:
            grade = default_grader(subresults, flags)
        if grade.error:
            errors.append(f"grading {group.rel}: {grade.error}")
        return grade

    def _custom(
        self, group: TestGroup, subresults: list[tuple[Verdict, float]], flags: list[str]
    ) -> Grade:
        """A custom grader's grade; cached by content (grader, flags, subresults), and run
        once per content in this process however many threads ask at a time."""
        assert self.custom is not None
        key = digest(
            "grade-v2",  # v2: Python programs live as under python3 (exit(), threads)
            self.custom.executable.directory.name,
            *flags,
            repr([(v.value, s) for v, s in subresults]),
        )
        return self._graded.get(key, lambda: self._run_custom(key, subresults, flags))

    def _run_custom(
        self, key: str, subresults: list[tuple[Verdict, float]], flags: list[str]
    ) -> Grade:
        assert self.custom is not None
        cached = self.cache.get(key)
        if cached is not None:
            return Grade(Verdict(cached["verdict"]), float(cached["score"]), str(cached["error"]))
        with self._jails.take(self.custom.executable) as jail:
            grade = self.custom.grade(jail, subresults, flags, self.work / f"grader-{key}.in")
        self.cache.put(
            key, {"verdict": grade.verdict.value, "score": grade.score, "error": grade.error}
        )
        return grade

    def _in_range(
        self, group: TestGroup, settings: Mapping[str, Any], grade: Grade, errors: list[str]
    ) -> Grade:
        text = settings.get("range")
        if not isinstance(text, str) or grade.verdict != Verdict.AC:
            return grade
        try:
            low, high = parse_range(text)
        except ValueError:
            return grade
        if not low <= grade.score <= high:
            message = f"score {grade.score:g} of {group.rel} is outside its range {text}"
            errors.append(message)
            return Grade(Verdict.JE, grade.score, message)
        return grade

    # -- 2023-07 ----------------------------------------------------------------------
    def _modern(self, data: TestGroup, results: dict[str, CaseScore], errors: list[str]) -> Grade:
        problem = self.ctx.problem
        statics = [problem.static_validation(g) for g in data.walk()]
        names = [c.name for c in data.all_cases()] + [s.name for s in statics if s is not None]
        if not problem.config.scoring:
            bad = next((results[n].verdict for n in names if _failed(results.get(n))), None)
            return Grade(bad or Verdict.AC, 0.0)
        sample = data.child("sample")
        sample_names = [c.name for c in sample.cases] if sample is not None else []
        sample_static = problem.static_validation(sample) if sample is not None else None
        sample_names += [sample_static.name] if sample_static is not None else []
        sample_bad = next(
            (results[n].verdict for n in sample_names if _failed(results.get(n))), None
        )
        secret = data.child("secret")
        if secret is None:
            return Grade(sample_bad or Verdict.AC, 0.0)
        grade = self._modern_group(secret, results, True, errors)
        if grade.error:
            errors.append(grade.error)
        return Grade(
            grade.verdict if grade.verdict != Verdict.AC else (sample_bad or Verdict.AC),
            grade.score,
            grade.error,
        )

    def _modern_group(
        self, group: TestGroup, results: dict[str, CaseScore], top: bool, errors: list[str]
    ) -> Grade:
        config = group.own_settings
        aggregation = str(config.get("score_aggregation", "sum" if top else "pass-fail"))
        raw_max = config.get("max_score", 100 if top else None)
        max_score = (
            None
            if raw_max == "unbounded"
            else float(raw_max)
            if isinstance(raw_max, int | float)
            else None
        )
        grade = self._aggregate_group(group, results, aggregation, max_score, errors)
        if grade.score and not self._passed(required_groups(group.own_settings), results):
            return Grade(grade.verdict, 0.0, grade.error)  # require_pass: not scored
        return grade

    def _passed(self, groups: list[str], results: dict[str, CaseScore]) -> bool:
        """Whether every judged case of ``groups`` (their static cases too) is accepted."""
        data = self.ctx.problem.data
        named = {g.name: g for g in data.walk()} if data is not None else {}
        for name in groups:
            group = named.get(name)
            for sub in group.walk() if group is not None else ():
                static = self.ctx.problem.static_validation(sub)
                names = [c.name for c in sub.cases] + ([static.name] if static else [])
                if any(_failed(results.get(n)) for n in names):
                    return False
        return True

    def _aggregate_group(
        self,
        group: TestGroup,
        results: dict[str, CaseScore],
        aggregation: str,
        max_score: float | None,
        errors: list[str],
    ) -> Grade:
        case = self.ctx.problem.static_validation(group)
        found = results.get(case.name) if case is not None else None
        static = (found, case.max_score) if case is not None and found is not None else None
        subgroups = self.ctx.problem.subgroups(group)
        if subgroups:
            parts = [self._modern_group(g, results, False, errors) for g in subgroups]
            errors.extend(p.error for p in parts if p.error)
            scores = [CaseScore(p.verdict, p.score) for p in parts]
            return (
                aggregate(scores, aggregation, None, static)
                if aggregation != "pass-fail"
                else aggregate(scores, "pass-fail", max_score, static)
            )
        cases = [results[c.name] for c in self.ctx.problem.group_cases(group) if c.name in results]
        return aggregate(cases, aggregation, max_score, static)


def _case_item(result: CaseScore, settings: Mapping[str, Any]) -> tuple[Verdict, float]:
    """A judged case as its group's grader sees it: its verdict, and its own score or the
    group's accept_score / reject_score."""
    if result.score is not None:
        return result.verdict, result.score
    if result.verdict == Verdict.AC:
        return result.verdict, number_setting(settings, "accept_score", 1)
    return result.verdict, number_setting(settings, "reject_score", 0)


def _failed(grade: CaseScore | None) -> bool:
    return grade is not None and grade.verdict is not Verdict.AC
