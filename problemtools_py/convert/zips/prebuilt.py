"""The statement prebuilt for a judge that shows it as it is (DOMjudge's importer reads
``problem.pdf`` or ``problem.html`` at the top of the zip): the PDF from problem2pdf
(when pdflatex is installed) and one self-contained HTML page from problem2html, its
images inlined, so that it reads right with no other file and no network."""

from __future__ import annotations

import base64
import mimetypes

from problemtools_py.findings import Finding, warning
from problemtools_py.model.problem import Problem


def prebuilt_statements(problem: Problem) -> tuple[dict[str, bytes], list[Finding]]:
    from problemtools_py.statements.html import render_html

    built: dict[str, bytes] = {}
    notes: list[Finding] = []
    page = render_html(problem)
    if page.html is not None and page.ok and page.statement is not None:
        html = page.html
        folder = problem.root / page.statement.rsplit("/", 1)[0]
        for image in page.images:
            kind = mimetypes.guess_type(image)[0] or "application/octet-stream"
            data = base64.b64encode((folder / image).read_bytes()).decode()
            html = html.replace(f'src="{image}"', f'src="data:{kind};base64,{data}"')
        built["problem.html"] = html.encode("utf-8")
    else:
        notes.append(
            warning(
                "statement",
                "problem.html left out: the statement does not render (see problem2html)",
            )
        )
    pdf, why = statement_pdf(problem)
    if pdf is not None:
        built["problem.pdf"] = pdf
    else:
        notes.append(warning("statement", f"problem.pdf left out: {why}"))
    return built, notes


def statement_pdf(problem: Problem) -> tuple[bytes | None, str]:
    """The statement as problem2pdf makes it, or None and why not."""
    import tempfile
    from pathlib import Path

    from problemtools_py.statements.pdf import latex_command, render_pdf

    if latex_command() is None:
        return None, "no pdflatex on this machine"
    with tempfile.TemporaryDirectory(prefix="ptpy-prebuilt-") as tmp:
        target = Path(tmp) / "problem.pdf"
        result = render_pdf([problem], target)
        if result.output is None:
            return None, "the statement does not compile (see problem2pdf)"
        return target.read_bytes(), ""
