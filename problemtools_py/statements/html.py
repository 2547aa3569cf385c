"""problem2html's work: one statement to a sanitised HTML page (or fragment) with its
images copied beside it. Nothing is written when the statement has errors."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from html import escape
from pathlib import Path

from markupsafe import Markup

from problemtools_py import atomicfile
from problemtools_py.findings import Finding, Severity, warning
from problemtools_py.model.problem import Problem
from problemtools_py.statements import MATHJAX_URL as DEFAULT_MATHJAX
from problemtools_py.statements.renderer import HtmlWriter
from problemtools_py.statements.samples_html import SampleCursor
from problemtools_py.statements.sanitize import clean
from problemtools_py.statements.source import StatementSource, load_source, pick_statement
from problemtools_py.statements.templating import html_env
from problemtools_py.statements.words import WORDS

MATHJAX_URL = DEFAULT_MATHJAX


@dataclass
class HtmlResult:
    """One statement rendered to HTML, and what its check found."""

    problem: str
    lang: str | None
    statement: str | None  # rel path of the statement rendered
    findings: list[Finding] = field(default_factory=list)
    html: str | None = None
    images: list[str] = field(default_factory=list)
    converted: dict[str, Path] = field(default_factory=dict)  # images made (PDF figures)
    output: str | None = None  # the page written, if any
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not any(f.severity is Severity.ERROR for f in self.findings)


def render_html(
    problem: Problem,
    lang: str | None = None,
    *,
    body_only: bool = False,
    math: str = "mathml",
    mathjax_url: str | None = MATHJAX_URL,
) -> HtmlResult:
    """Render the statement in ``lang`` to HTML in memory: its math as MathML (read
    offline, no script), or with ``math="mathjax"`` as TeX for MathJax from
    ``mathjax_url``."""
    start = time.perf_counter()
    result = HtmlResult(problem.short_name, lang, None)
    picked = pick_statement(problem, lang)
    if isinstance(picked, Finding):
        result.findings.append(picked)
        return result
    result.lang, result.statement = picked.lang, picked.rel
    source = load_source(problem, picked)
    if isinstance(source, Finding):
        result.findings.append(source)
        return result
    body, images, converted, findings = _body(source)
    result.findings.extend(findings)
    result.converted = converted
    if math == "mathml":
        from problemtools_py.statements.mathml import to_mathml

        body, failed = to_mathml(body)
        result.findings += [
            warning("statement", f"math kept as TeX (no MathML for it): {tex[:80]}", picked.rel)
            for tex in failed
        ]
        mathjax_url = None
    result.images = sorted(images)
    result.html = _page(source, body, body_only, mathjax_url)
    result.seconds = time.perf_counter() - start
    return result


def _body(source: StatementSource) -> tuple[str, set[str], dict[str, Path], list[Finding]]:
    """The page's body, the images it shows (those made of PDF figures, with their files)
    and the findings."""
    if source.statement.kind == "pdf":  # a ready-made PDF: linked, and copied beside the page
        name = source.statement.rel.rsplit("/", 1)[-1]
        link = f'<p class="pdf-statement"><a href="{escape(name)}">{escape(name)}</a></p>'
        return link, {name}, {}, []
    cursor = SampleCursor(source.samples, source.statement.lang)
    # (imported here: plasTeX, ~0.1 s, for LaTeX only; markdown-it, ~20 ms, for Markdown)
    renderer: HtmlWriter
    if source.statement.kind == "tex":
        from problemtools_py.statements.latex_html import LatexHtml

        renderer = LatexHtml(source, cursor)
    else:
        from problemtools_py.statements.markdown_html import MarkdownHtml

        renderer = MarkdownHtml(source, cursor)
    html = clean(renderer.render())
    return html, renderer.images, renderer.converted, renderer.findings


def _page(source: StatementSource, body: str, body_only: bool, mathjax_url: str | None) -> str:
    lang = source.statement.lang
    words = WORDS.get(lang.split("-")[0], WORDS["en"])
    limit = source.time_limit
    fragment = (
        html_env()
        .get_template("problem-fragment.html.j2")
        .render(
            name=source.name,
            time_limit=(f"{limit:g}" if limit else None),
            memory_mb=source.memory_mb,
            words=words,
            body=Markup(body),
        )
    )
    if body_only:
        return fragment
    return (
        html_env()
        .get_template("problem.html.j2")
        .render(lang=lang, name=source.name, fragment=Markup(fragment), mathjax_url=mathjax_url)
    )


def write_html(result: HtmlResult, problem: Problem, dest: Path) -> Path:
    """Write ``index.html`` and the images into ``dest``, each file replaced atomically."""
    assert result.html is not None and result.statement is not None
    dest.mkdir(parents=True, exist_ok=True)
    statement_dir = problem.root / result.statement.rsplit("/", 1)[0]
    for image in result.images:
        target = dest / image
        target.parent.mkdir(parents=True, exist_ok=True)
        atomicfile.copy_file(result.converted.get(image, statement_dir / image), target)
    page = dest / "index.html"
    atomicfile.write_bytes(page, result.html.encode("utf-8"))
    result.output = str(page)
    return page
