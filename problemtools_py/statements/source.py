"""What a renderer needs for one statement: the text, the problem's name and limits, the
constants and the samples (``data/sample``: ``.in``/``.ans`` pairs or ``.interaction``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from problemtools_py.findings import Finding, error
from problemtools_py.model.problem import Problem, Statement

MAX_SAMPLE_BYTES = 1 << 20


@dataclass(frozen=True)
class Sample:
    """A sample case as a statement shows it."""

    name: str  # the case name below data/sample, e.g. "1"
    input: str | None
    answer: str | None
    interaction: str | None  # the .interaction transcript, lines starting with < or >

    @property
    def interactive(self) -> bool:
        return self.interaction is not None


@dataclass(frozen=True)
class StatementSource:
    """What a statement is rendered from: its text, name, samples and limits."""

    problem: Problem
    statement: Statement
    name: str  # plain name shown as the title (a LaTeX name is kept in ``latex_name``)
    latex_name: str | None  # the \problemname argument, when the statement has one
    samples: tuple[Sample, ...]
    time_limit: float | None
    memory_mb: int
    constants: dict[str, str]

    @property
    def time_limit_text(self) -> str:
        """The time limit as a statement shows it (``\\timelimit``): seconds, or ? where
        none is known yet."""
        return f"{self.time_limit:g}" if self.time_limit else "?"

    @property
    def directory(self) -> Path:
        return self.problem.root / self.statement.rel.rsplit("/", 1)[0]

    @property
    def text(self) -> str:
        return self.statement.text or ""


def pick_statement(problem: Problem, lang: str | None) -> Statement | Finding:
    """The statement in ``lang`` (default: English, else the first one found); LaTeX or
    Markdown before a ready-made PDF in the same language."""
    order = {"tex": 0, "md": 1, "pdf": 2}
    choices = sorted(problem.statements, key=lambda s: order.get(s.kind, 3))
    if lang is not None:
        choices = [s for s in choices if s.lang == lang]
    elif any(s.lang == "en" for s in choices):
        choices = [s for s in choices if s.lang == "en"]
    if not choices:
        found = ", ".join(s.rel for s in problem.statements) or "none"
        wanted = f"in language '{lang}' " if lang else ""
        return error("statement", f"no statement {wanted}to render (found: {found})")
    return choices[0]


def load_source(problem: Problem, statement: Statement) -> StatementSource | Finding:
    """Gather the inputs of a render, or the one error that makes it impossible."""
    if statement.text is None and statement.kind != "pdf":
        return error(
            "statement", "the statement is not valid UTF-8; save it as UTF-8", statement.rel
        )
    if problem.legacy and statement.kind == "tex" and statement.problemname_line is None:
        return error("statement", "no \\problemname{...} in the statement", statement.rel)
    config_name = problem.config.names.get(statement.lang) or next(
        iter(problem.config.names.values()), None
    )
    latex_name = statement.problemname or None
    name = statement.plain_name or config_name or _plain(latex_name) or problem.short_name
    limit = problem.declared_time_limit
    return StatementSource(
        problem=problem,
        statement=statement,
        name=name,
        latex_name=latex_name,
        samples=tuple(load_samples(problem)),
        time_limit=limit.seconds if limit else None,
        memory_mb=problem.config.limits.memory_mib,
        constants=problem.constants,
    )


def _plain(name: str | None) -> str | None:
    if name is None:
        return None
    return name.replace("\\", "").replace("$", "").replace("{", "").replace("}", "") or None


def load_samples(problem: Problem) -> list[Sample]:
    group = problem.data.child("sample") if problem.data is not None else None
    if group is None:
        return []
    samples = []
    for case in group.all_cases():
        files = {ext: _read(problem.root / rel) for ext, rel in case.files.items()}
        if files.get(".interaction") is None and files.get(".in") is None:
            continue
        name = case.name.removeprefix("sample/")
        text = {rel: files[ext] for ext, rel in case.files.items()}
        # an .interaction replaces both, and the page shows it on its own
        given, said = case.shown(modern=not problem.legacy, interaction=False)
        shown_in = text.get(given) if given else None
        shown_ans = text.get(said) if said else None
        samples.append(Sample(name, shown_in, shown_ans, files.get(".interaction")))
    return samples


def _read(path: Path) -> str | None:
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_SAMPLE_BYTES + 1)
    except OSError:
        return None
    text = data[:MAX_SAMPLE_BYTES].decode("utf-8", errors="replace")
    return text + ("\n[...]\n" if len(data) > MAX_SAMPLE_BYTES else "")
