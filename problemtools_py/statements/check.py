"""verifyproblem's statement rendering: every LaTeX/Markdown statement to HTML, then, when
that is clean and TeX is installed, to PDF in draft mode. Findings are cached by the hash of
everything a render reads, so an unchanged package is not rendered again."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

from problemtools_py import __version__
from problemtools_py.cachedir import used_before
from problemtools_py.digests import digest, file_digest
from problemtools_py.findings import Finding, Severity, warning
from problemtools_py.model.problem import Problem, Statement
from problemtools_py.resources import template_text
from problemtools_py.workbench.cache import VerdictCache

MAX_STATEMENT_BYTES = 1 << 20


def renderable(problem: Problem) -> list[Statement]:
    """Statements worth rendering: text we could decode, with the legacy \\problemname
    (the static checks already report the others, once)."""
    return [
        s
        for s in problem.statements
        if s.kind in ("tex", "md")
        and s.text is not None
        and not (s.kind == "tex" and _bad_problemname(s, problem.legacy))
    ]


def _bad_problemname(statement: Statement, legacy: bool) -> bool:
    """Missing (legacy) or never closed: reported by the static checks."""
    if statement.problemname_line is None:
        return legacy
    return statement.problemname is None


def render_findings(problem: Problem, cache: VerdictCache | None = None) -> list[Finding]:
    findings: list[Finding] = []
    cache = cache or VerdictCache()
    for statement in renderable(problem):
        size = len(statement.text.encode()) if statement.text else 0
        if size > MAX_STATEMENT_BYTES:
            findings.append(
                warning(
                    "statement",
                    f"the statement is {size} bytes, over 1 MiB: too large for most judges",
                    statement.rel,
                )
            )
        key = _key(problem, statement)
        cached = cache.get(key)
        if cached is None:
            cached = {"findings": [f.to_json() for f in _render(problem, statement.lang)]}
            cache.put(key, cached)
        findings.extend(Finding.from_json(item) for item in cached["findings"])
    return findings


def _render(problem: Problem, lang: str) -> list[Finding]:
    """The HTML's findings, and the PDF's when the HTML is clean (a fault in the LaTeX is
    told once, by the HTML). The PDF is built meanwhile, in a thread: pdflatex (~0.3 s) is
    a process of its own, and runs on another core while plasTeX renders the HTML."""
    # Imported here: plasTeX and friends cost 0.1 s, which a cached run need not pay.
    from concurrent.futures import ThreadPoolExecutor

    from problemtools_py.statements.pdf import latex_command, render_pdf

    unwanted = threading.Event()  # (set: the PDF's pdflatex is stopped)
    with ThreadPoolExecutor(1, thread_name_prefix="statement-pdf") as pool:
        pdf = None
        if latex_command() is not None:
            # (the class's format made where the cache outlives the run, see texformat)
            pdf = pool.submit(
                render_pdf,
                [problem],
                None,
                lang=lang,
                draft=True,
                make_format=used_before(),
                cancel=unwanted,
            )
        try:
            from problemtools_py.statements.html import render_html

            html = render_html(problem, lang, math="mathjax", mathjax_url=None)  # (TeX as is)
        except BaseException:
            unwanted.set()  # (nothing waits up to pdflatex's time limit for an unused PDF)
            raise
        if pdf is None or not html.ok:
            unwanted.set()  # (an endless macro would keep pdflatex to its time limit)
            return html.findings
        built = pdf.result().findings
        failed = {f.line for f in built if f.severity is Severity.ERROR}
        # (a macro the HTML did not know and LaTeX rejects on that line: told once, by LaTeX)
        told = [f for f in html.findings if not (f.line in failed and _undefined(f))]
        return told + built


def _undefined(finding: Finding) -> bool:
    from problemtools_py.statements.latex_html import UNDEFINED  # (loaded: the HTML was made)

    return finding.message.startswith(UNDEFINED)


def _key(problem: Problem, statement: Statement) -> str:
    parts = ["statement-render-1", __version__, statement.lang, str(shutil.which("pdflatex"))]
    for module in sorted(Path(__file__).parent.glob("*.py")):  # a changed renderer re-renders
        stat = module.stat()
        parts.append(f"{module.name}:{stat.st_size}:{stat.st_mtime_ns}")
    for name in ("problemset.cls", "problemset.tex.j2", "problem.html.j2"):
        parts.append(template_text(name))
    statement_dir = statement.rel.rsplit("/", 1)[0] + "/"
    for entry in problem.files:
        inside = entry.rel.startswith((statement_dir, "data/sample/"))
        if entry.readable and (inside or entry.rel in ("problem.yaml", ".timelimit")):
            parts += [entry.rel, file_digest(problem.root / entry.rel)]
    return digest(*parts)
