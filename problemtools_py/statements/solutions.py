"""``problem2pdf --solutions``: solution slides (BAPCtools' ``bt solutions``): one beamer
deck for the problems given, a title frame, then each problem's ``solution/`` file
(``solution.<lang>.{tex,md,pdf}``, or ``solution.{tex,md,pdf}``) under its letter and
name: LaTeX as written (its own frames kept, else the text in one frame that breaks over
as many slides as it needs), Markdown converted as statements are, a PDF's pages as they
are. Each problem's ``solution/`` files are beside its part, for its figures."""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path

from problemtools_py import atomicfile
from problemtools_py.findings import Finding, error
from problemtools_py.model.problem import Problem, Statement
from problemtools_py.statements.pdf import PdfResult, compile_document
from problemtools_py.statements.texescape import tex_escape

KINDS = ("tex", "md", "pdf")
PREAMBLE = r"""\documentclass[aspectratio=169]{beamer}
\usepackage[utf8]{inputenc}
\usepackage[T1]{fontenc}
\usepackage{lmodern}
\usepackage{amsmath,amssymb,graphicx,pdfpages}
\setbeamertemplate{navigation symbols}{}
"""


def solution_file(problem: Problem, lang: str) -> Path | None:
    """The problem's solution in ``lang`` (else the one without a language)."""
    folder = problem.root / "solution"
    for name in [f"solution.{lang}.{kind}" for kind in KINDS] + [f"solution.{k}" for k in KINDS]:
        if (folder / name).is_file():
            return folder / name
    return None


def render_slides(
    problems: list[Problem], output: Path | None, lang: str = "en", title: str | None = None
) -> PdfResult:
    start = time.perf_counter()
    result = PdfResult([p.short_name for p in problems])
    with tempfile.TemporaryDirectory(prefix="problem2pdf-solutions-") as tmp:
        build = Path(tmp)
        parts = []
        for index, problem in enumerate(problems):
            letter = chr(ord("A") + index) if len(problems) > 1 and index < 26 else ""
            part = _part(problem, lang, letter, build / f"p{index + 1}", result.findings)
            if part is not None:
                parts.append(part)
        heading = tex_escape(title or "Solutions")
        body = "".join(parts)
        (build / "main.tex").write_text(
            f"{PREAMBLE}\\title{{{heading}}}\n\\date{{}}\n\\begin{{document}}\n"
            f"\\begin{{frame}}\\titlepage\\end{{frame}}\n{body}\\end{{document}}\n",
            encoding="utf-8",
        )
        ok, log = compile_document(build)
        if not ok:
            said = next((line for line in log.splitlines() if line.startswith("!")), "")
            result.findings.append(error("solution", f"pdflatex failed: {said}"))
        elif output is not None and result.ok:
            atomicfile.copy_file(build / "main.pdf", output)
            result.output = str(output)
    result.seconds = time.perf_counter() - start
    return result


def _part(
    problem: Problem, lang: str, letter: str, folder: Path, findings: list[Finding]
) -> str | None:
    found = solution_file(problem, lang)
    if found is None:
        findings.append(
            error(
                "solution",
                f"{problem.short_name}: no solution/solution.{lang}."
                "{tex,md,pdf} (nor solution.{tex,md,pdf})",
            )
        )
        return None
    shutil.copytree(problem.root / "solution", folder)
    name = problem.config.names.get(lang) or next(
        iter(problem.config.names.values()), problem.short_name
    )
    heading = tex_escape(f"{letter}: {name}" if letter else name)
    where = folder.name
    head = f"\\section{{{heading}}}\n\\graphicspath{{{{{where}/}}}}\n"
    if found.suffix == ".pdf":
        return f"{head}\\includepdf[pages=-]{{{where}/{found.name}}}\n"
    text = found.read_text(encoding="utf-8", errors="replace")
    if found.suffix == ".md":
        text = _markdown(problem, found, text, lang, findings)
    if "\\begin{frame}" in text:
        return head + text + "\n"
    return f"{head}\\begin{{frame}}[allowframebreaks]{{{heading}}}\n{text}\n\\end{{frame}}\n"


def _markdown(problem: Problem, path: Path, text: str, lang: str, findings: list[Finding]) -> str:
    """A Markdown solution as LaTeX, converted as a Markdown statement is."""
    from problemtools_py.statements.markdown_html import MarkdownHtml
    from problemtools_py.statements.markdown_latex import MarkdownLatex
    from problemtools_py.statements.samples_html import SampleCursor
    from problemtools_py.statements.source import load_source

    rel = path.relative_to(problem.root).as_posix()
    source = load_source(problem, Statement(lang, rel, "md", True, text))
    if isinstance(source, Finding):
        findings.append(source)
        return ""
    converter = MarkdownHtml(source, SampleCursor(source.samples, lang))
    body = MarkdownLatex(converter).render()
    findings.extend(converter.findings)
    return body.replace("\\nextsample{}", "").replace("\\remainingsamples{}", "")
