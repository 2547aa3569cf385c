"""A 2025-09 (or 2023-07 draft) package as a legacy one, for tools that read only legacy
(Kattis problemtools, DOMjudge's importer): the tree of :class:`~.upgrade.Plan`, the
inverse of :mod:`.upgrade` where legacy can say it. ``limits.time_limit`` becomes
``.timelimit`` (both tools read it); constants are substituted; what legacy has no place
for but loses nothing a judge needs (visualizers, a solution text, generators whose data
is there) is left out with a note; what would change judging is ``unmappable``."""

from __future__ import annotations

from typing import Any

from ruamel.yaml.comments import CommentedMap

from problemtools_py.convert.roundtrip import dump, load_map, new_map, put, rename, words
from problemtools_py.convert.versions.downgrade_data import downgrade_data
from problemtools_py.convert.versions.downgrade_submissions import downgrade_submissions
from problemtools_py.convert.versions.upgrade import Plan
from problemtools_py.convert.versions.upgrade_config import Note
from problemtools_py.model.constants import substitute_bytes
from problemtools_py.model.problem import Problem
from problemtools_py.model.testdata import data_directories

LEFT_OUT = (
    "input_visualizer/",
    "output_visualizer/",
    "solution/",
    "generators/",
    "answer_validators/",
    *(f"data/{d}/" for d in data_directories(False) if d not in data_directories(True)),
)
TEXT_SUFFIXES = (".tex", ".md", ".py", ".c", ".cc", ".cpp", ".h", ".hpp", ".java", ".kt",
                 ".txt", ".ctd", ".viva", ".sh", ".rs", ".go", ".js")  # fmt: skip


class _Downgrader:
    def __init__(self, problem: Problem, time_limit: float | None, tag_claims: bool) -> None:
        self.problem = problem
        self.tag_claims = tag_claims
        self.time_limit = time_limit  # to write as .timelimit when the package fixes none
        self.plan = Plan(problem)
        self.taken: set[str] = set()

    def note(self, kind: str, path: str, message: str) -> None:
        self.plan.notes.append(Note(kind, path, message))

    def run(self) -> Plan:
        problem = self.problem
        if problem.legacy:
            self.plan.already = True
            return self.plan
        if problem.config.types & {"multi-pass", "submit-answer"}:
            kinds = " and ".join(sorted(problem.config.types & {"multi-pass", "submit-answer"}))
            self.note("unmappable", "problem.yaml", f"type {kinds}: legacy has no such type")
        data = downgrade_data(problem)
        self.plan.notes += data.notes
        self._problem_yaml(data.validator_flags)
        for rel, text in data.written.items():
            self.plan.files[rel] = text.encode()
        self.taken |= data.removed | {"problem.yaml", "submissions/submissions.yaml"}
        moved = downgrade_submissions(problem, self.tag_claims)
        self.plan.notes += moved.notes
        self.plan.files.update(moved.files)
        self.taken |= moved.taken
        self._rest()
        return self.plan

    def _problem_yaml(self, validator_flags: list[str]) -> None:
        path = self.problem.root / "problem.yaml"
        doc = load_map(path.read_text(encoding="utf-8"), "problem.yaml")
        doc.pop("problem_format_version", None)
        for key in list(doc.keys()):
            self._key(doc, str(key))
        if self.problem.output_validator is not None or validator_flags:
            words = ["custom"] if self.problem.output_validator is not None else ["default"]
            words += [
                t
                for t in ("score",)
                if "scoring" in self.problem.config.types
                and self.problem.output_validator is not None
            ]
            words += ["interactive"] if self.problem.config.interactive else []
            put(doc, "validation", " ".join(words), after="license")
        if validator_flags:
            put(doc, "validator_flags", " ".join(validator_flags), after="validation")
        secret = self.problem.data.child("secret") if self.problem.data else None
        if "scoring" in self.problem.config.types and secret is not None and secret.groups:
            put(doc, "grading", new_map({"show_test_data_groups": True}))
        if self.time_limit is not None and ".timelimit" not in self.plan.files:
            self.plan.files[".timelimit"] = f"{self.time_limit:g}\n".encode()
        self.plan.files["problem.yaml"] = dump(doc).encode()

    def _key(self, doc: CommentedMap, key: str) -> None:
        value = doc[key]
        if key == "type":
            kept = [t for t in words(value) if t in ("pass-fail", "scoring")]
            if kept and kept != ["pass-fail"]:
                doc[key] = kept[0]
            else:
                doc.pop(key)
        elif key == "name" and isinstance(value, dict):
            doc[key] = value.get("en", next(iter(value.values()), ""))
        elif key == "credits":
            rename(doc, key, "author", _authors(value))
            if isinstance(value, dict) and set(value) - {"authors"}:
                self.note(
                    "dropped",
                    "problem.yaml",
                    "credits other than authors: legacy names authors only",
                )
        elif key == "source":
            self._source(doc, value)
        elif key == "limits":
            self._limits(value)
        elif key == "keywords" and isinstance(value, list):
            doc[key] = " ".join(str(v) for v in value)
        elif key in ("languages", "version", "embargo_until", "constants"):
            doc.pop(key)
            if key == "languages" and value != "all":
                self.note("dropped", "problem.yaml", "languages: legacy cannot restrict them")
        elif key == "allow_file_writing":
            doc.pop(key)
            if value:
                self.note("unmappable", "problem.yaml", "allow_file_writing: legacy has none")

    def _source(self, doc: CommentedMap, value: Any) -> None:
        first = value[0] if isinstance(value, list) and value else value
        if isinstance(value, list) and len(value) > 1:
            self.note("dropped", "problem.yaml", "sources after the first: legacy has one")
        if isinstance(first, dict):
            doc["source"] = str(first.get("name", ""))
            if first.get("url"):
                put(doc, "source_url", str(first["url"]), after="source")
        else:
            doc["source"] = str(first)

    def _limits(self, limits: Any) -> None:
        if not isinstance(limits, dict):
            return
        # (the values as the model read them: one that is no number is its default there,
        # and the checks report it; a number keeps the form it was written in)
        read = self.problem.config.limits
        multipliers = limits.pop("time_multipliers", None)
        multipliers = multipliers if isinstance(multipliers, dict) else {}
        limits["time_multiplier"] = _as_read(
            multipliers.get("ac_to_time_limit"), read.time_multiplier
        )
        limits["time_safety_margin"] = _as_read(
            multipliers.get("time_limit_to_tle"), read.time_safety_margin
        )
        limits.pop("time_resolution", None)
        limits.pop("time_limit", None)
        seconds = read.time_limit or self.time_limit
        if seconds is not None:
            self.plan.files[".timelimit"] = f"{float(seconds):g}\n".encode()
            self.note("changed", "problem.yaml", f"limits.time_limit -> .timelimit ({seconds})")

    def _rest(self) -> None:
        table = self.problem.constants
        for entry in self.problem.files:
            rel = entry.rel
            if entry.is_dir or rel in self.taken or rel in self.plan.files:
                continue
            if rel.startswith(LEFT_OUT):
                self.note(
                    "dropped",
                    rel.split("/")[0]
                    if not rel.startswith("data/")
                    else "/".join(rel.split("/")[:2]),
                    "legacy has no place for it",
                )
                continue
            target = _legacy_name(rel)
            if target.endswith(".md") and target.startswith("problem_statement/"):
                self._markdown(rel)
                continue
            if table and rel.endswith(TEXT_SUFFIXES):
                data = (self.problem.root / rel).read_bytes()
                changed = substitute_bytes(data, table, latex=True)
                if changed != data:
                    self.plan.files[target] = changed
                    continue
            self.plan.files[target] = rel
        self.plan.notes = _unique(self.plan.notes)

    def _markdown(self, rel: str) -> None:
        from problemtools_py.convert.versions.downgrade_statement import markdown_as_latex

        statement = next(s for s in self.problem.statements if s.rel == rel)
        target = f"problem_statement/problem.{statement.lang}.tex"
        if any(s.rel.endswith(f"problem.{statement.lang}.tex") for s in self.problem.statements):
            self.note("dropped", rel, "a LaTeX statement in its language is there already")
            return
        text, notes = markdown_as_latex(self.problem, statement)
        self.plan.notes += notes
        if text is not None:
            self.plan.files[target] = text.encode()


def _legacy_name(rel: str) -> str:
    top, _, rest = rel.partition("/")
    if top == "statement":
        return f"problem_statement/{rest}"
    if top == "output_validator":
        return f"output_validators/output_validator/{rest}"
    return rel


def _authors(value: Any) -> str:
    people = value.get("authors") if isinstance(value, dict) else value
    people = people if isinstance(people, list) else [people] if people else []
    names = [p.get("name", "") if isinstance(p, dict) else str(p) for p in people]
    return ", ".join(n for n in names if n)


def _unique(notes: list[Note]) -> list[Note]:
    return list(dict.fromkeys(notes))


def plan_downgrade(
    problem: Problem, time_limit: float | None = None, tag_claims: bool = False
) -> Plan:
    """The legacy tree of ``problem``; ``time_limit`` (the limit derived by 2025-09's
    rule, when it would differ from legacy's) is written as ``.timelimit``; with
    ``tag_claims`` (DOMjudge) a claim no directory carries is written into the
    submission as an ``@EXPECTED_RESULTS@`` comment."""
    return _Downgrader(problem, time_limit, tag_claims).run()


def _as_read(written: object, read: float) -> object:
    """A limit as written when the model read it so (3 stays 3, not 3.0), else as read."""
    return written if not isinstance(written, bool) and written == read else read
