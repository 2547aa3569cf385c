"""Which test cases a legacy judge never reaches once one fails: a group with
``on_reject: break`` (legacy's default) stops at its first item not accepted, and so does
its parent when that group is then surely not accepted (the default grader). Those cases
are not run; the scorer (see scoring.py) grades only the items the judge reached."""

from __future__ import annotations

from problemtools_py.model.problem import Problem, TestCase, TestGroup
from problemtools_py.model.settings import breaks, rejects_on_any
from problemtools_py.model.testdata import legacy_items


class Breaks:
    def __init__(self, problem: Problem, cases: list[TestCase]) -> None:
        self.problem = problem
        self.cases = cases
        self.index = {case.name: i for i, case in enumerate(cases)}
        data = problem.data
        self.groups = {g.name: g for g in data.walk()} if data is not None else {}

    def after(self, failed: int) -> set[int]:
        """The cases never reached when case ``failed`` is not accepted."""
        skipped: set[int] = set()
        item = self.cases[failed].name
        while True:
            parent = item.rsplit("/", 1)[0] if "/" in item else ""
            group = self.groups.get(parent)
            if group is None:
                return skipped
            settings = self.problem.settings(parent)
            if breaks(settings):
                skipped.update(self._later(group, item))
            if not parent or not rejects_on_any(settings):
                return skipped
            item = parent

    def _later(self, group: TestGroup, item: str) -> list[int]:
        items = legacy_items(group)
        at = next(i for i, found in enumerate(items) if found.name == item)
        later: list[int] = []
        for found in items[at + 1 :]:
            cases = found.all_cases() if isinstance(found, TestGroup) else [found]
            later.extend(self.index[c.name] for c in cases if c.name in self.index)
        return later
