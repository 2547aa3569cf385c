"""Lay out the build directory problem2pdf compiles in: the class, each problem's statement
directory (Markdown converted to LaTeX), its sample files, and the document itself."""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from problemtools_py.findings import Finding
from problemtools_py.resources import template_dir
from problemtools_py.statements.samples_html import SampleCursor
from problemtools_py.statements.source import Sample, StatementSource
from problemtools_py.statements.templating import latex_env
from problemtools_py.statements.texescape import tex_escape
from problemtools_py.statements.words import WORDS, interaction_lines, word

_SAFE_NAME = re.compile(r"[^A-Za-z0-9._-]")


@dataclass
class Entry:
    """One problem of the document, as the template sees it."""

    source: StatementSource
    letter: str
    dir: str  # its directory inside the build directory, e.g. "p1"
    file: str  # the statement file inside it
    named: bool  # the statement has its own \problemname
    findings: list[Finding] = field(default_factory=list)
    samples: list[dict[str, str]] = field(default_factory=list)

    @property
    def pdf(self) -> bool:
        return self.source.statement.kind == "pdf"

    @property
    def name(self) -> str:
        return self.source.name

    @property
    def limits(self) -> str:
        lang = self.source.statement.lang
        memory = f"{word(lang, 'memory_limit')}: {self.source.memory_mb} MiB"
        if self.source.time_limit:
            return f"{word(lang, 'time_limit')}: {self.source.time_limit:g} s, {memory}"
        return memory

    @property
    def time_limit(self) -> str:
        """``\\timelimit``: the limit in seconds, or ? where none is known yet."""
        return self.source.time_limit_text

    @property
    def words(self) -> dict[str, str]:
        return WORDS.get(self.source.statement.lang.split("-")[0], WORDS["en"])

    @property
    def constants(self) -> list[tuple[str, str]]:
        return [
            (name, tex_escape(value))
            for name, value in self.source.constants.items()
            if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)?", name)  # (name.variant)
        ]


def prepare(build: Path, sources: list[StatementSource], letters: bool) -> list[Entry]:
    shutil.copyfile(Path(str(template_dir() / "problemset.cls")), build / "problemset.cls")
    entries = []
    for index, source in enumerate(sources, 1):
        sub = build / f"p{index}"
        _copy_directory(source, sub)
        entry = Entry(
            source,
            chr(ord("A") + index - 1) if letters and index <= 26 else "",
            f"p{index}",
            Path(source.statement.rel).name,
            source.latex_name is not None,
        )
        if source.statement.kind == "pdf":  # included as it is: it holds its own samples
            entries.append(entry)
            continue
        if source.statement.kind == "md":
            # (imported here: markdown-it, ~20 ms, is for Markdown statements only)
            from problemtools_py.statements.markdown_html import MarkdownHtml
            from problemtools_py.statements.markdown_latex import MarkdownLatex

            entry.file = Path(entry.file).with_suffix(".md.tex").name
            converter = MarkdownHtml(source, SampleCursor(source.samples, source.statement.lang))
            (sub / entry.file).write_text(MarkdownLatex(converter).render(), encoding="utf-8")
            entry.findings.extend(converter.findings)
        entry.samples = _samples(sub, entry)
        entries.append(entry)
    return entries


def _copy_directory(source: StatementSource, sub: Path) -> None:
    """The statement's directory, as the model lists it: its readable files only (a link
    out of the package, a FIFO or a device is never read: a copy that followed them once
    copied whatever directory a link named), the ``*.pdf.*`` of other builds left out."""
    prefix = source.statement.rel.rsplit("/", 1)[0] + "/"
    sub.mkdir()
    for entry in source.problem.files:
        if entry.rel.startswith(prefix) and entry.readable and ".pdf." not in entry.name:
            target = sub / entry.rel[len(prefix) :]
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source.problem.root / entry.rel, target)


def document(entries: list[Entry], title: str | None, subtitle: str) -> str:
    return (
        latex_env()
        .get_template("problemset.tex.j2")
        .render(problems=entries, title=title, subtitle=subtitle)
    )


def _samples(sub: Path, entry: Entry) -> list[dict[str, str]]:
    folder = sub / "_samples"
    folder.mkdir(exist_ok=True)
    lang = entry.source.statement.lang
    out = []
    for number, sample in enumerate(entry.source.samples, 1):
        base = f"{entry.dir}/_samples/{number}"
        out.append(
            {
                "name": _SAFE_NAME.sub("", sample.name) or str(number),
                "body": _sample_body(folder, base, number, sample, lang),
            }
        )
    return out


def _sample_body(folder: Path, base: str, number: int, sample: Sample, lang: str) -> str:
    if sample.interaction is not None:
        parts = []
        runs: list[tuple[str, list[str]]] = []
        for direction, text in interaction_lines(sample.interaction):
            if runs and runs[-1][0] == direction:
                runs[-1][1].append(text)
            else:
                runs.append((direction, [text]))
        for index, (direction, lines) in enumerate(runs):
            if direction == "pass":  # one run per separator: its line is the pass number
                for pass_number in lines:
                    label = tex_escape(f"{word(lang, 'pass')} {pass_number}")
                    parts.append(f"\\ptinteractionpass{{{label}}}")
                continue
            name = f"{number}-{index}.txt"
            (folder / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
            parts.append(f"\\ptinteraction{direction}{{{base.rsplit('/', 1)[0]}/{name}}}")
        head = tex_escape(f"{word(lang, 'sample_interaction')} {number}")
        return f"\\begin{{ptinteraction}}{{{head}}}" + "".join(parts) + "\\end{ptinteraction}"
    (folder / f"{number}.in").write_text(sample.input or "", encoding="utf-8")
    (folder / f"{number}.ans").write_text(sample.answer or "", encoding="utf-8")
    head_in = tex_escape(f"{word(lang, 'sample_input')} {number}")
    head_out = tex_escape(f"{word(lang, 'sample_output')} {number}")
    return f"\\ptsampletable{{{head_in}}}{{{base}.in}}{{{head_out}}}{{{base}.ans}}"
