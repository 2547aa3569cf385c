"""statements/pdf_figures.py: a figure given as a PDF (``\\illustration{..}{smiley.pdf}``)
is shown in the HTML statement as a PNG made of it, which the browser the tests use
(headless Chromium) draws; a PDF the tool cannot read is a warning naming it."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers.builders import replace, write

from problemtools_py.cli import problem2html
from problemtools_py.findings import Severity
from problemtools_py.model import load_problem
from problemtools_py.statements.html import render_html

TEX = "problem_statement/problem.en.tex"
needs_poppler = pytest.mark.skipif(shutil.which("pdftocairo") is None,
                                   reason="needs poppler-utils (scripts/setup.sh)")  # fmt: skip


def pdf_figure(copy_sample: Callable[..., Path]) -> Path:
    """hello, its smiley drawn as a PDF only (as contests' statements give figures)."""
    from PIL import Image

    root: Path = copy_sample("hello")
    png = root / "problem_statement" / "smiley.png"
    Image.open(png).convert("RGB").save(png.with_suffix(".pdf"), resolution=100.0)
    png.unlink()
    replace(root, TEX, "smiley.png", "smiley.pdf")
    return root


@needs_poppler
def test_a_pdf_figure_becomes_a_png_beside_the_page(copy_sample: Callable[..., Path],
                                                    tmp_path: Path) -> None:  # fmt: skip
    root = pdf_figure(copy_sample)
    result = render_html(load_problem(root), None)
    assert [f.message for f in result.findings] == []
    assert re.search(r'<img[^>]+src="smiley\.pdf\.png"', result.html or "")
    dest = tmp_path / "page"
    assert problem2html.main([str(root), "-d", str(dest), "-q"]) == 0
    assert (dest / "smiley.pdf.png").read_bytes().startswith(b"\x89PNG")


@needs_poppler
def test_a_pdf_that_cannot_be_read_is_a_warning(copy_sample: Callable[..., Path]) -> None:
    root = pdf_figure(copy_sample)
    write(root, "problem_statement/smiley.pdf", b"%PDF-1.4 not really\n")
    result = render_html(load_problem(root), None)
    found = [(f.severity, f.line) for f in result.findings if "smiley.pdf" in f.message]
    assert found == [(Severity.WARNING, 3)]
    assert "<img" not in (result.html or "")


@needs_poppler
@pytest.mark.skipif(shutil.which("chromium") is None, reason="needs Debian's chromium")
def test_the_browser_draws_the_figure(copy_sample: Callable[..., Path], tmp_path: Path) -> None:
    from PIL import Image

    dest = tmp_path / "page"
    assert problem2html.main([str(pdf_figure(copy_sample)), "-d", str(dest),
                              "--mathjax-url", "", "-q"]) == 0  # fmt: skip
    shot = tmp_path / "shot.png"
    subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu",
                    "--disable-dev-shm-usage", "--hide-scrollbars", f"--screenshot={shot}",
                    "--window-size=1000,800", (dest / "index.html").as_uri()],
                   capture_output=True, timeout=120, check=True)  # fmt: skip
    raw = Image.open(shot).convert("RGB").tobytes()
    pixels = [tuple(raw[i : i + 3]) for i in range(0, len(raw), 3)]
    yellow = sum(1 for r, g, b in pixels if r > 200 and 150 < g < 230 and b < 90)
    assert yellow > 1000, "the figure is not drawn"
