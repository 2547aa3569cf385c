"""A Markdown statement as the LaTeX legacy reads (``problem.<lang>.tex`` with its
``\\problemname``), through the same converter problem2pdf uses; constants substituted,
and the samples left where legacy puts them (after the text)."""

from __future__ import annotations

from problemtools_py.convert.versions.upgrade_config import Note
from problemtools_py.findings import Finding
from problemtools_py.model.problem import Problem, Statement
from problemtools_py.statements.texescape import tex_escape


def markdown_as_latex(problem: Problem, statement: Statement) -> tuple[str | None, list[Note]]:
    """The LaTeX text, or None with the reason."""
    from problemtools_py.statements.markdown_html import MarkdownHtml
    from problemtools_py.statements.markdown_latex import MarkdownLatex
    from problemtools_py.statements.samples_html import SampleCursor
    from problemtools_py.statements.source import load_source

    source = load_source(problem, statement)
    if isinstance(source, Finding):
        return None, [Note("unmappable", statement.rel, source.message)]
    converter = MarkdownHtml(source, SampleCursor(source.samples, statement.lang))
    body = MarkdownLatex(converter).render()
    notes = [Note("changed", statement.rel, "a Markdown statement, now LaTeX")]
    if "\\nextsample{}" in body:
        notes.append(
            Note(
                "dropped",
                statement.rel,
                "samples placed in the text: legacy shows them all after it",
            )
        )
    body = body.replace("\\nextsample{}", "").replace("\\remainingsamples{}", "")
    names = problem.config.names
    name = names.get(statement.lang) or next(iter(names.values()), problem.short_name)
    return f"\\problemname{{{tex_escape(name)}}}\n\n{body.strip()}\n", notes
