"""Math as MathML when the page is built: converted, sanitised (a TeX \\text{} is copied
into the MathML as it is), math the converter cannot read kept as TeX and said; and the
page reads right in headless Chromium with the network off, where MathJax from a CDN
leaves raw TeX."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from helpers.packages import SAMPLES

from problemtools_py.cli import problem2html
from problemtools_py.statements.mathml import to_mathml


def test_inline_and_display_math_become_mathml() -> None:
    body, failed = to_mathml('<p><span class="math">\\(1 \\le n &lt; 2\\)</span></p>'
                             '<div class="math">\\[\\frac{a}{b}\\]</div>')  # fmt: skip
    assert failed == []
    assert '<span class="math"><math xmlns="http://www.w3.org/1998/Math/MathML" ' \
           'display="inline">' in body  # fmt: skip
    assert "<mo>≤</mo>" in body and "<mo>&lt;</mo>" in body
    assert 'display="block"><mrow><mfrac>' in body


def test_text_in_math_cannot_inject_markup() -> None:
    body, _ = to_mathml('<span class="math">\\(\\text{&lt;script&gt;alert(1)&lt;/script&gt;'
                        '&lt;img src=x onerror=alert(1)&gt;}\\)</span>')  # fmt: skip
    assert "<script" not in body and "<img" not in body and "onerror" not in body


def test_math_the_converter_cannot_read_stays_tex() -> None:
    source = '<span class="math">\\(\\left( x\\)</span>'
    body, failed = to_mathml(source)
    assert body == source and failed == ["\\left( x"]


def _offline_text(page: Path, tmp_path: Path) -> str:
    """What Chromium prints of ``page`` with no network at all (a new network namespace)."""
    pdf = tmp_path / "page.pdf"
    subprocess.run(["unshare", "-n", "chromium", "--headless", "--no-sandbox", "--disable-gpu",
                    "--disable-dev-shm-usage", "--no-pdf-header-footer",
                    f"--print-to-pdf={pdf}", page.as_uri()],
                   capture_output=True, timeout=120, check=True)  # fmt: skip
    return subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout  # fmt: skip


@pytest.mark.skipif(shutil.which("chromium") is None or shutil.which("pdftotext") is None,
                    reason="needs Debian's chromium and poppler-utils")  # fmt: skip
def test_the_default_page_reads_right_with_no_network(tmp_path: Path) -> None:
    mathml, mathjax = tmp_path / "mathml", tmp_path / "mathjax"
    assert problem2html.main([str(SAMPLES / "subtasks"), "-d", str(mathml), "-q"]) == 0
    assert "<script" not in (mathml / "index.html").read_text()
    assert problem2html.main([str(SAMPLES / "subtasks"), "-d", str(mathjax), "-q",
                              "--math", "mathjax"]) == 0  # fmt: skip
    shown = _offline_text(mathml / "index.html", tmp_path)
    assert "1 ≤ \U0001d45b ≤ 2 · 10" in shown and "\\le" not in shown  # (n in math italic)
    raw = _offline_text(mathjax / "index.html", tmp_path)
    assert "\\le" in raw  # (what the MathJax page shows with no network: TeX)


@pytest.mark.skipif(shutil.which("chromium") is None or shutil.which("pdftotext") is None,
                    reason="needs Debian's chromium and poppler-utils")  # fmt: skip
def test_the_domjudge_zips_page_reads_right_with_no_network(tmp_path: Path) -> None:
    import zipfile

    from problemtools_py.cli import problem2zip

    target = tmp_path / "subtasks.zip"
    assert problem2zip.main([str(SAMPLES / "subtasks"), "--format", "domjudge", "--force",
                             "-o", str(target), "-q"]) == 0  # fmt: skip
    with zipfile.ZipFile(target) as archive:
        (tmp_path / "problem.html").write_bytes(archive.read("subtasks/problem.html"))
    shown = _offline_text(tmp_path / "problem.html", tmp_path)
    assert "1 ≤ \U0001d45b ≤ 2 · 10" in shown and "\\le" not in shown and "{{" not in shown
