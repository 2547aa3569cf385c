"""A legacy (or the seed's) or 2023-07 draft package as a 2025-09 package: the plan of
its new tree (:func:`plan_upgrade`), which :mod:`.upgrade_write` writes or shows as a
diff. Files keep their bytes: only problem.yaml, the test-group files, case sidecars and
submissions.yaml are written anew; everything else moves or stays."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import PurePosixPath

from ruamel.yaml.comments import CommentedMap

from problemtools_py import verdicts
from problemtools_py.convert.roundtrip import dump, flow_seq, load_map, new_map
from problemtools_py.convert.versions.upgrade_config import Note, upgrade_config
from problemtools_py.convert.versions.upgrade_data import upgrade_data
from problemtools_py.model.expectations import MODERN_DIRS
from problemtools_py.model.problem import Expectation, Problem, Submission
from problemtools_py.verdicts import Verdict

# 2025-09 has four verdicts; MLE and OLE are run-time errors there.
AS_2025 = {Verdict.AC: "AC", Verdict.WA: "WA", Verdict.TLE: "TLE", Verdict.RTE: "RTE",
           Verdict.MLE: "RTE", Verdict.OLE: "RTE"}  # fmt: skip
ORDER = ("AC", "WA", "TLE", "RTE")
# A seed-style submission (directly in submissions/) goes to the directory of its claim.
DIR_OF_CLAIM: dict[tuple[str, ...], str] = {
    (v.value,): str(verdicts.directory_of(v)) for v in (Verdict.WA, Verdict.TLE, Verdict.RTE)
}
RENAMED_DIRS = {"problem_statement": "statement", "input_format_validators": "input_validators"}


@dataclass
class Plan:
    """What upgrading a package writes and drops, and its notes."""

    problem: Problem
    files: dict[str, bytes | str] = field(default_factory=dict)  # new rel -> bytes | old rel
    notes: list[Note] = field(default_factory=list)
    already: bool = False  # the package is 2025-09 already: nothing to do
    dropped: list[str] = field(default_factory=list)  # files outside problem.files to remove

    @property
    def unmappable(self) -> list[Note]:
        return [n for n in self.notes if n.kind == "unmappable"]


def _verdicts(found: frozenset[Verdict] | None) -> tuple[str, ...] | None:
    if found is None:
        return None
    names = {AS_2025[v] for v in found if v in AS_2025}
    return tuple(v for v in ORDER if v in names)


Claim = tuple[tuple[str, ...] | None, tuple[str, ...] | None]  # (permitted, required)


def claim_of(expectation: Expectation) -> Claim:
    """What a submission claims, in 2025-09's verdicts (None: no restriction)."""
    permitted, required = _verdicts(expectation.permitted), _verdicts(expectation.required)
    return (None if permitted == ORDER else permitted), required


def directory_of(claim: Claim) -> str:
    """The default 2025-09 directory for a seed-style submission's claim."""
    permitted, required = claim
    if permitted == ("AC",):
        return "accepted"
    return DIR_OF_CLAIM.get(required or (), "rejected")


class _Planner:
    def __init__(self, problem: Problem, time_limit: float | None) -> None:
        self.problem = problem
        self.time_limit = time_limit
        self.plan = Plan(problem)
        self.taken: set[str] = set()  # old rels accounted for (moved, rewritten, dropped)
        self.rules = new_map()  # submissions.yaml entries to add

    def note(self, kind: str, path: str, message: str) -> None:
        self.plan.notes.append(Note(kind, path, message))

    def run(self) -> Plan:
        problem = self.problem
        if problem.released:
            self.plan.already = True
            return self.plan
        config = upgrade_config(
            self._problem_yaml(), problem.legacy, self._names(), self._time_limit()
        )
        self.plan.notes += config.notes
        data = upgrade_data(problem, config.output_validator_args)
        self.plan.notes += data.notes
        self.plan.files["problem.yaml"] = dump(config.data).encode()
        self.taken |= {"problem.yaml", ".timelimit"} | data.removed
        for rel, text in data.written.items():
            self.plan.files[rel] = text.encode()
            self.taken.add(rel)
        self.plan.files.update(data.copies)
        self._validators()
        self._graders()
        self._submissions()
        self._rest()
        return self.plan

    def _problem_yaml(self) -> CommentedMap:
        path = self.problem.root / "problem.yaml"
        text = path.read_text(encoding="utf-8") if path.is_file() else ""
        return load_map(text, "problem.yaml")

    def _names(self) -> dict[str, str]:
        found: dict[str, str] = {}
        for statement in self.problem.statements:
            title = statement.problemname or statement.plain_name
            if title and statement.lang not in found:
                found[statement.lang] = title
        names = self.problem.config.names
        for lang in found:
            if lang in names:
                found[lang] = names[lang]
        return found or dict(names)

    def _time_limit(self) -> float | None:
        declared = self.problem.timelimit_file
        if declared is not None and declared.seconds is not None:
            self.note("changed", ".timelimit", "now limits.time_limit in problem.yaml")
            self.plan.dropped.append(".timelimit")
            return declared.seconds
        return self.time_limit

    def _move(self, old: str, new: str) -> None:
        self.plan.files[new] = old
        self.taken.add(old)

    def _validators(self) -> None:
        problem = self.problem
        used = problem.output_validator
        for program in problem.output_validators:
            if program is not used:
                self.note(
                    "unmappable",
                    program.rel,
                    "an output validator the package does "
                    "not use (validation is not custom): 2025-09 would use it",
                )
                continue
            if program.rel.startswith("output_validator/"):
                continue
            base = program.rel if program.is_dir else str(PurePosixPath(program.rel).parent)
            for entry in problem.files:
                if entry.is_dir or not (
                    entry.rel == program.rel or entry.rel.startswith(base + "/")
                ):
                    continue
                inner = (
                    entry.rel[len(base) + 1 :] if program.is_dir else PurePosixPath(entry.rel).name
                )
                self._move(entry.rel, f"output_validator/{inner}")
            self.note("changed", program.rel, "now output_validator/")

    def _graders(self) -> None:
        for program in self.problem.graders:
            self.note(
                "unmappable",
                program.rel,
                "a custom grader: 2025-09 has none "
                "(score_aggregation sum or min); --force leaves it out",
            )
            for rel in program.files:
                self.taken.add(rel)

    def _submissions(self) -> None:
        by_dir: dict[str, list[tuple[Submission, Claim]]] = {}
        for submission in self.problem.submissions:
            target = self._submission_target(submission)
            if target is None:
                continue
            claim = claim_of(submission.expectation) if submission.expectation else (None, None)
            by_dir.setdefault(target.split("/", 2)[1], []).append((submission, claim))
        if self.problem.legacy:  # (the drafts' claims are in submissions.yaml already)
            for directory, members in by_dir.items():
                self._rules_for(directory, members)
        self._submissions_yaml()

    def _submission_target(self, submission: Submission) -> str | None:
        expectation = submission.expectation
        if expectation is None and not self.problem.legacy:  # (no claim, as in 2025-09)
            return self._keep(submission)
        if expectation is None or expectation.compile_error:
            why = "its tags do not parse" if expectation is None else "a compile error claim"
            self.note("unmappable", submission.rel, f"{why}: 2025-09 has no counterpart")
            return None
        if expectation.partially_accepted:
            self.note(
                "unmappable",
                submission.rel,
                "partially accepted (less than the best score): 2025-09 can only bound the score",
            )
        target = submission.rel
        if submission.category is None:
            directory = directory_of(claim_of(expectation))
            target = f"submissions/{directory}/{PurePosixPath(submission.rel).name}"
            self.note("changed", submission.rel, f"now {target}")
        return self._keep(submission, target)

    def _keep(self, submission: Submission, target: str | None = None) -> str:
        """The submission's files at ``target`` (by default where they are)."""
        target = target or submission.rel
        for rel in submission.program.files if submission.program.is_dir else (submission.rel,):
            self._move(rel, target + rel[len(submission.rel) :])
        return target

    def _rules_for(self, directory: str, members: list[tuple[Submission, Claim]]) -> None:
        """submissions.yaml entries where a claim is not the directory's default: one for
        the directory when all its submissions claim alike, else one per submission."""
        default = MODERN_DIRS.get(directory)
        base = claim_of(default) if default is not None else (None, None)
        odd = [(s, c) for s, c in members if c != base]
        if not odd:
            return
        claims = {c for _, c in odd}
        if len(odd) == len(members) and len(claims) == 1:
            self._rule(directory, odd[0][1])
            return
        for submission, claim in odd:
            name = PurePosixPath(submission.rel).name
            self._rule(f"{directory}/{name}", claim)

    def _rule(self, pattern: str, claim: Claim) -> None:
        permitted, required = claim
        rule = new_map()
        rule["permitted"] = flow_seq(list(permitted or ORDER))
        if required is not None:
            rule["required"] = flow_seq(list(required))
        self.rules[pattern] = rule
        self.note(
            "changed",
            f"submissions/{pattern}",
            "its claim, which is not its directory's in 2025-09, is in submissions.yaml",
        )

    def _submissions_yaml(self) -> None:
        rel = "submissions/submissions.yaml"
        if not self.rules:
            return
        path = self.problem.root / rel
        doc = load_map(path.read_text(encoding="utf-8"), rel) if path.is_file() else new_map()
        for key, value in self.rules.items():
            if key in doc:
                self.note("unmappable", rel, f"{key} is there already: merge by hand")
                continue
            doc[key] = value
        self.plan.files[rel] = dump(doc).encode()
        self.taken.add(rel)

    def _rest(self) -> None:
        for entry in self.problem.files:
            if entry.is_dir or entry.rel in self.taken:
                continue
            self.plan.files.setdefault(self._renamed(entry.rel), entry.rel)

    def _renamed(self, rel: str) -> str:
        top, _, rest = rel.partition("/")
        if top in RENAMED_DIRS and rest:
            if top == "problem_statement" and rest.startswith("problem.") and rest.count(".") == 1:
                rest = "problem.en." + rest.split(".", 1)[1]  # legacy problem.tex is English
            return f"{RENAMED_DIRS[top]}/{rest}"
        return rel


def plan_upgrade(problem: Problem, time_limit: float | None = None) -> Plan:
    """The 2025-09 tree of ``problem``; ``time_limit`` (the derived limit, when the
    package fixes none) is written as ``limits.time_limit``."""
    return _Planner(problem, time_limit).run()
