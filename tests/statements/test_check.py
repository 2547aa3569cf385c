"""verifyproblem's statement rendering: the PDF is built while the HTML renders, and counts
only when the HTML is clean."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers.builders import replace

from problemtools_py.findings import Severity
from problemtools_py.model import load_problem
from problemtools_py.statements import check, latex_parse
from problemtools_py.statements import html as html_module
from problemtools_py.statements import pdf as pdf_module

TEX = "problem_statement/problem.en.tex"


def test_the_pdf_is_built_while_the_html_renders(
    copy_sample: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    real_pdf, real_html = pdf_module.render_pdf, html_module.render_html
    started = threading.Event()

    def pdf(*args: Any, **kwargs: Any) -> pdf_module.PdfResult:
        started.set()
        return real_pdf(*args, **kwargs)

    def html(*args: Any, **kwargs: Any) -> html_module.HtmlResult:
        assert started.wait(30), "the PDF was not under way while the HTML rendered"
        return real_html(*args, **kwargs)

    monkeypatch.setattr(pdf_module, "render_pdf", pdf)
    monkeypatch.setattr(html_module, "render_html", html)
    root = copy_sample("hello")
    replace(root, TEX, "Politeness", "Politeness\\footnote{")  # (pdflatex alone objects)
    findings = check._render(load_problem(root), "en")
    assert [f.severity for f in findings] == [Severity.ERROR]
    assert findings[0].path == TEX and "LaTeX" in findings[0].message


def test_html_errors_leave_the_pdfs_out(copy_sample: Callable[..., Path]) -> None:
    root = copy_sample("hello")
    replace(root, TEX, "Politeness", "\\input{nowhere} Politeness")  # (both would object)
    findings = check._render(load_problem(root), "en")
    assert len(findings) == 1 and "nowhere" in findings[0].message


def test_an_undefined_macro_is_told_once_by_latex(copy_sample: Callable[..., Path]) -> None:
    """The HTML only loses some markup; where LaTeX rejects the macro too, its error is
    the one finding (with the line), not the HTML's warning beside it."""
    root = copy_sample("hello")
    replace(root, TEX, "Politeness", "\\frobnicate{x} Politeness")
    findings = check._render(load_problem(root), "en")
    if pdf_module.latex_command() is None:
        pytest.skip("no pdflatex here")  # (CI installs TeX)
    (finding,) = findings
    assert finding.severity is Severity.ERROR and "Undefined control sequence" in finding.message
    assert finding.line == 5


def test_macros_of_the_kernel_packages_and_bapctools_render(
    copy_sample: Callable[..., Path],
) -> None:
    """Statements that compile with the contests' classes: \\shortstack (the kernel),
    array's \\newcolumntype and \\arraybackslash, scalerel, and BAPCtools'
    \\problemyamlname and \\timelimit: no finding, and the name and limit in the HTML."""
    root = copy_sample("hello")
    (root / ".timelimit").write_text("2.5\n")
    replace(root, TEX, "Politeness", "\\problemyamlname{} (\\timelimit{} s): "
            "\\shortstack{a\\\\b} \\stretchrel*{x}{y}\n"
            "\\newcolumntype{C}{>{\\centering\\arraybackslash}p{2cm}}"
            "\\begin{tabular}{C}x\\end{tabular}\n\nPoliteness")
    problem = load_problem(root)
    assert check._render(problem, "en") == []
    html = html_module.render_html(problem, "en", math="mathjax", mathjax_url=None)
    assert "Hello (2.5 s)" in html.html


def test_without_pdflatex_only_the_html(
    copy_sample: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_pdf(*args: Any, **kwargs: Any) -> pdf_module.PdfResult:
        raise AssertionError("a PDF built without pdflatex")

    monkeypatch.setattr(pdf_module, "latex_command", lambda: None)
    monkeypatch.setattr(pdf_module, "render_pdf", no_pdf)
    assert check._render(load_problem(copy_sample("hello")), "en") == []


@pytest.fixture
def endless(copy_sample: Callable[..., Path], monkeypatch: pytest.MonkeyPatch) -> Path:
    """hello with a macro that never ends, pdflatex given 600 s for it."""
    monkeypatch.setattr(pdf_module, "LATEX_TIMEOUT", 600.0)
    root = copy_sample("hello")
    replace(root, TEX, "Politeness", "\\def\\x{\\x}\\x Politeness")
    return root


def test_an_html_failure_stops_the_pdf(endless: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An endless macro stops plasTeX at its clock; pdflatex, at work on the same statement,
    is stopped then instead of running to its own time limit."""
    monkeypatch.setattr(latex_parse, "MAX_SECONDS", 1.0)
    start = time.monotonic()
    findings = check._render(load_problem(endless), "en")
    assert time.monotonic() - start < 120  # (not pdflatex's 600 s)
    assert len(findings) == 1 and "still expanding" in findings[0].message


def test_an_html_renderer_that_raises_stops_the_pdf(
    endless: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: Any, **kwargs: Any) -> html_module.HtmlResult:
        raise RuntimeError("the renderer broke")

    monkeypatch.setattr(html_module, "render_html", broken)
    start = time.monotonic()
    with pytest.raises(RuntimeError, match="the renderer broke"):
        check._render(load_problem(endless), "en")
    assert time.monotonic() - start < 120  # (not pdflatex's 600 s)
