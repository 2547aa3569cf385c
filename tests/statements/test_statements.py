"""problem2html and problem2pdf on every sample statement (the page parsed, the PDF read back
with pdftotext, a screenshot taken by headless Chromium), and broken statements, each with
its one clear error."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path

import pytest
from helpers.builders import append, replace, write
from helpers.packages import SAMPLES, describe, verify

from problemtools_py.cli import problem2html, problem2pdf
from problemtools_py.findings import Severity
from problemtools_py.model import load_problem
from problemtools_py.statements import latex_parse
from problemtools_py.statements import pdf as pdf_module
from problemtools_py.statements.html import render_html

# (sample, language): the name, a sentence of the statement, and what shows math is there.
STATEMENTS = {
    ("average", "en"): ("Average", "compute their arithmetic mean", r"\frac{1}{n}"),
    ("bigsum", "en"): ("Big Sum", "Some of them are large", "10^{12}"),
    ("different", "en"): ("A Different Problem", "absolute value of the difference", "1000000000000000"),
    ("divisor", "en"): ("Divisor", "A composite number has a divisor", r"4 \le n"),
    ("gensum", "en"): ("Generated Sum", "Its test data is generated", "1000"),
    ("guess", "en"): ("Guess the Number", "Can you guess it in at most", "1000"),
    ("hello", "en"): ("Hello", "Politeness is a virtue", "20"),
    ("hilo", "en"): ("Higher or Lower", "Find it with at most", "1000000"),
    ("subtasks", "en"): ("Subtask Sum", "Add up a list of integers", r"2 \cdot 10^4"),
    ("twopass", "en"): ("Two Passes", "Your program is run twice", "10^6"),
    ("twopass", "sv"): ("Två pass", "Ditt program körs två gånger", "f(n) = n^2 + 1"),
}
TEX = "problem_statement/problem.en.tex"
MTEX = "statement/problem.en.tex"


def test_every_sample_statement_is_listed() -> None:
    found = set()
    for name in sorted(p.name for p in SAMPLES.iterdir() if (p / "problem.yaml").is_file()):
        found |= {(name, s.lang) for s in load_problem(SAMPLES / name).statements}
    assert found == set(STATEMENTS)


def _first_sample_line(sample: str) -> str:
    folder = SAMPLES / sample / "data/sample"
    first = sorted(folder.glob("*.interaction")) or sorted(folder.glob("*.in"))
    line = first[0].read_text().splitlines()[0]
    return line.lstrip("<>")


class Page(HTMLParser):
    """The text of a page, its scripts, images and headings."""

    def __init__(self) -> None:
        super().__init__()
        self.text: list[str] = []
        self.scripts: list[dict[str, str | None]] = []
        self.images: list[str] = []
        self.h1: list[str] = []
        self._in: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._in.append(tag)
        if tag == "script":
            self.scripts.append(dict(attrs))
        if tag == "img":
            self.images.append(dict(attrs).get("src") or "")
        for name, value in attrs:
            assert not name.startswith("on"), f"event handler {name}={value}"
            assert "javascript:" not in (value or "")

    def handle_endtag(self, tag: str) -> None:
        if tag in self._in:
            while self._in and self._in.pop() != tag:
                pass

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if "h1" in self._in:
            self.h1.append(data)

    @property
    def plain(self) -> str:
        return re.sub(r"\s+", " ", "".join(self.text))


def _page(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


@pytest.mark.parametrize(("sample", "lang"), sorted(STATEMENTS))
def test_html_of_every_sample(sample: str, lang: str, tmp_path: Path) -> None:
    name, sentence, math = STATEMENTS[sample, lang]
    dest = tmp_path / "html"
    assert problem2html.main([str(SAMPLES / sample), "-l", lang, "-d", str(dest), "-q"]) == 0
    page = _page(dest / "index.html")
    assert "".join(page.h1).strip() == name
    assert sentence in page.plain
    assert _first_sample_line(sample) in page.plain
    assert "<math" in (dest / "index.html").read_text()  # MathML: read with no network
    assert "\\(" not in page.plain and not page.scripts
    for image in page.images:
        assert (dest / image).is_file()
    jax = tmp_path / "mathjax"
    assert problem2html.main([str(SAMPLES / sample), "-l", lang, "-d", str(jax), "-q",
                              "--math", "mathjax"]) == 0  # fmt: skip
    page = _page(jax / "index.html")
    assert math in page.plain and "\\(" in page.plain  # math kept as TeX for MathJax
    assert [s.get("src") for s in page.scripts if s.get("src")] == [problem2html.MATHJAX_URL]


def test_html_copies_images_and_body_only_has_no_script(tmp_path: Path) -> None:
    dest = tmp_path / "hello"
    assert problem2html.main([str(SAMPLES / "hello"), "-d", str(dest), "--body-only", "-q"]) == 0
    text = (dest / "index.html").read_text()
    assert "<script" not in text and "<html" not in text
    assert _page(dest / "index.html").images == ["smiley.png"]
    assert (dest / "smiley.png").read_bytes() == (
        SAMPLES / "hello/problem_statement/smiley.png"
    ).read_bytes()


HOSTILE_MD = """\
Hello <script>alert(1)</script> and <img src="x.png" onerror="alert(2)">.
[click](javascript:alert(3)) <iframe src="https://evil.example/"></iframe>
<a href="https://ok.example/" onclick="alert(4)">ok</a> ![remote](https://evil.example/t.png)
<style>body { display: none }</style> <img src="../../data/secret/1.ans">

Math: $a < b$
"""


def test_markdown_statement_is_sanitised(copy_sample: Callable[..., Path]) -> None:
    root = copy_sample("different")
    write(root, "statement/problem.sv.md", HOSTILE_MD)
    replace(root, "problem.yaml", "  en: A Different Problem", "  en: A Different Problem\n  sv: Ett")
    result = render_html(load_problem(root), "sv", body_only=True, math="mathjax")
    assert result.html is not None
    page = Page()
    page.feed(result.html)  # asserts no event handler and no javascript: URL
    assert not page.scripts and "<iframe" not in result.html and "<style" not in result.html
    assert "evil.example" not in result.html and "https://ok.example/" in result.html
    assert "data/secret" not in result.html
    assert "\\(a &lt; b\\)" in result.html
    assert [f.message for f in result.findings if "URL" in f.message]


def test_latex_statement_cannot_inject_html(copy_sample: Callable[..., Path]) -> None:
    root = copy_sample("hello")
    replace(root, TEX, "Politeness", "\\href{javascript:alert(1)}{x} <script>alert(1)</script> "
            "\\textless{}b onmouseover=alert(1)\\textgreater{} Politeness")
    result = render_html(load_problem(root), body_only=True)
    assert result.ok and result.html is not None
    assert "<script" not in result.html and "javascript:" not in result.html
    assert "&lt;script&gt;" in result.html and "<b " not in result.html


def _pdf_text(path: Path) -> str:
    out = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True)
    return re.sub(r"\s+", " ", out.stdout)


@pytest.mark.parametrize(("sample", "lang"), sorted(STATEMENTS))
def test_pdf_of_every_sample(sample: str, lang: str, tmp_path: Path) -> None:
    name, sentence, _ = STATEMENTS[sample, lang]
    out = tmp_path / "out.pdf"
    cwd = os.getcwd()
    assert problem2pdf.main([str(SAMPLES / sample), "-l", lang, "-o", str(out), "-q"]) == 0
    assert os.getcwd() == cwd
    text = _pdf_text(out)
    assert name in text and sentence in text
    assert _first_sample_line(sample) in text


def test_problem_set_pdf_has_title_page_and_letters(tmp_path: Path) -> None:
    out = tmp_path / "set.pdf"
    dirs = [str(SAMPLES / n) for n in ("hello", "different", "guess")]
    argv = [*dirs, "-o", str(out), "--title", "Demo Contest", "--subtitle", "29 November", "-q"]
    assert problem2pdf.main(argv) == 0
    text = _pdf_text(out)
    assert text.index("Demo Contest") < text.index("Problem A") < text.index("Problem B")
    assert text.index("Hello") < text.index("A Different Problem") < text.index("Guess the Number")
    info = subprocess.run(["pdfinfo", str(out)], capture_output=True, text=True, check=True)
    assert int(re.search(r"Pages:\s+(\d+)", info.stdout).group(1)) >= 4  # type: ignore[union-attr]


def test_pdf_leaves_no_build_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    tempfile.tempdir = None
    try:
        assert problem2pdf.main([str(SAMPLES / "hello"), "-o", str(tmp_path / "h.pdf"), "-q"]) == 0
    finally:
        tempfile.tempdir = None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["h.pdf"]


@pytest.mark.skipif(shutil.which("chromium") is None, reason="needs Debian's chromium")
def test_headless_chromium_screenshot_is_not_blank(tmp_path: Path) -> None:
    from PIL import Image

    dest = tmp_path / "hello"
    assert problem2html.main([str(SAMPLES / "hello"), "-d", str(dest), "--mathjax-url", "", "-q"]) == 0
    shot = tmp_path / "shot.png"
    subprocess.run(
        ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
         "--hide-scrollbars",
         f"--screenshot={shot}", "--window-size=1000,800", (dest / "index.html").as_uri()],
        capture_output=True, timeout=120, check=True,
    )
    image = Image.open(shot).convert("RGB")
    assert image.size == (1000, 800)
    raw = image.tobytes()
    pixels = [tuple(raw[i : i + 3]) for i in range(0, len(raw), 3)]
    dark = sum(1 for r, g, b in pixels if r + g + b < 200)
    yellow = sum(1 for r, g, b in pixels if r > 200 and 150 < g < 230 and b < 90)
    assert dark > 2000, "no text on the page"
    assert yellow > 1000, "the statement's image is not shown"
    assert len(set(pixels)) > 50


# ---- broken statements: each gives exactly one error, naming the file (and line)

def _one_error(root: Path) -> tuple[str, str | None, int | None]:
    report = verify(root, ("config", "statement"))
    errors = [f for f in report.findings if f.severity is Severity.ERROR]
    assert len(errors) == 1, describe(report)
    return errors[0].message, errors[0].path, errors[0].line


BROKEN = [
    ("undefined-macro", "hello", lambda p: replace(p, TEX, "Politeness", "\\frobnicate{x} Politeness"),
     "\\frobnicate", TEX, 5),
    ("undefined-math-macro", "hello", lambda p: replace(p, TEX, "Politeness", "$\\frob$ Politeness"),
     "Undefined control sequence", TEX, 5),
    ("missing-image", "hello", lambda p: replace(p, TEX, "smiley.png", "frowny.png"),
     "frowny.png not found", TEX, 3),
    ("missing-problemname", "hello", lambda p: replace(p, TEX, "\\problemname{Hello}", ""),
     "no \\problemname", TEX, None),
    ("unclosed-problemname", "hello", lambda p: replace(p, TEX, "\\problemname{Hello}", "\\problemname{Hello"),
     "is never closed", TEX, 1),
    ("wrong-encoding", "hello", lambda p: write(p, TEX, "\\problemname{Caf\u00e9}\nT\u00e9st\n".encode("latin-1")),
     "not valid UTF-8", TEX, 1),
    ("unknown-constant", "different", lambda p: replace(p, MTEX, "max_value", "max_val"),
     "no constant 'max_val'", MTEX, 7),
    ("too-many-nextsample", "different", lambda p: replace(p, MTEX, "\\begin{Output}",
     "\\nextsample\n\\nextsample\n\\begin{Output}"), "data/sample has only 1 sample", MTEX, 11),
    ("unbalanced-environment", "divisor", lambda p: replace(p, "problem_statement/problem.en.tex",
     "\\section*{Output}", "\\begin{itemize}\\item x\n\\section*{Output}"),
     "\\begin{itemize}", "problem_statement/problem.en.tex", None),
    ("markdown-missing-image", "twopass", lambda p: replace(p, "statement/problem.sv.md",
     "Till exempel:", "![figur](figur.png)"), "figur.png not found", "statement/problem.sv.md", 15),
    ("markdown-unknown-placeholder", "twopass", lambda p: replace(p, "statement/problem.sv.md",
     "Till exempel:", "{{nosuch}}"), "no constant 'nosuch'", "statement/problem.sv.md", 15),
    # (2025-09: no scripting, no external resources; the page dropped them, unreported)
    ("markdown-script", "twopass", lambda p: replace(p, "statement/problem.sv.md",
     "Till exempel:", "<script>alert(1)</script>"), "raw HTML that scripts (<script)",
     "statement/problem.sv.md", 15),
    ("markdown-event-handler", "twopass", lambda p: replace(p, "statement/problem.sv.md",
     "Till exempel:", "Se <b onclick=\"x()\">här</b>"), "raw HTML that scripts (onclick=)",
     "statement/problem.sv.md", 15),
    # (HTML reads an attribute after a '/' or a closing quote as well as after a space;
    # Markdown's inline HTML does not, but an HTML block passes such tags on raw)
    ("markdown-handler-after-slash", "twopass", lambda p: replace(p, "statement/problem.sv.md",
     "Till exempel:", "<div>\nSe <b/onclick=\"x()\">här</b>\n</div>\n"), "raw HTML that scripts (onclick=)",
     "statement/problem.sv.md", 15),
    ("markdown-handler-after-quote", "twopass", lambda p: replace(p, "statement/problem.sv.md",
     "Till exempel:", "<div>\nSe <b id=\"a\"onmouseover=\"x()\">här</b>\n</div>\n"),
     "raw HTML that scripts (onmouseover=)", "statement/problem.sv.md", 15),
    ("markdown-external-after-slash", "twopass", lambda p: replace(p, "statement/problem.sv.md",
     "Till exempel:", "<div>\n<img/src='//example.org/a.png'>\n</div>\n"),
     "raw HTML that loads a resource from outside the package (src='//", "statement/problem.sv.md",
     15),
    ("markdown-external-image", "twopass", lambda p: replace(p, "statement/problem.sv.md",
     "Till exempel:", "<img src='https://example.org/a.png'>"),
     "raw HTML that loads a resource from outside the package", "statement/problem.sv.md", 15),
]


@pytest.mark.parametrize(("sample", "build", "text", "path", "line"),
                         [b[1:] for b in BROKEN], ids=[b[0] for b in BROKEN])
def test_broken_statement_gives_one_error(
    sample: str, build: Callable[[Path], None], text: str, path: str, line: int | None,
    copy_sample: Callable[..., Path],
) -> None:
    root = copy_sample(sample)
    build(root)
    message, where, at = _one_error(root)
    assert text in message and where == path
    if line is not None:
        assert at == line


@pytest.mark.parametrize("command", ["problem2pdf", "problem2html"])
def test_a_language_with_no_statement_is_named_at_the_package(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The error sits at the package (once said at <package>/<short name>, a path that
    does not exist); in a problem set, at each package it is about."""
    module = problem2pdf if command == "problem2pdf" else problem2html
    out = ["-o", str(tmp_path / "x.pdf")] if command == "problem2pdf" else ["-d", str(tmp_path)]
    hello = SAMPLES / "hello"
    assert module.main([str(hello), "-l", "xx", *out]) == 1
    said = capsys.readouterr().out
    assert f"{hello}: error: no statement in language 'xx' to render" in said
    if command == "problem2pdf":
        assert module.main([str(hello), str(SAMPLES / "twopass"), "-l", "sv", *out]) == 1
        said = capsys.readouterr().out
        assert f"{hello.resolve()}: error: no statement in language 'sv'" in said


def test_problem2pdf_error_names_file_line_and_log_lines(
    copy_sample: Callable[..., Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = copy_sample("hello")
    replace(root, TEX, "Politeness", "$\\frob$ Politeness")
    out = tmp_path / "out.pdf"
    assert problem2pdf.main([str(root), "-o", str(out)]) == 1
    err = capsys.readouterr().out
    assert f"{root / TEX}:5: error: LaTeX: Undefined control sequence." in err
    assert "l.5 $\\frob" in err and len(err.splitlines()) < 12  # the relevant lines, not the log
    assert not out.exists()


def test_problem2html_writes_nothing_on_error(copy_sample: Callable[..., Path], tmp_path: Path) -> None:
    root = copy_sample("hello")
    replace(root, TEX, "Politeness", "\\input{nowhere} Politeness")
    dest = tmp_path / "html"
    assert problem2html.main([str(root), "-d", str(dest), "-q"]) == 1
    assert not dest.exists()


def test_problem2html_writes_a_page_without_an_unknown_macro_s_markup(
    copy_sample: Callable[..., Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """As problemtools' problem2html (plasTeX) does: the macro's text stays, a warning
    with its line says what the page lacks."""
    root = copy_sample("hello")
    replace(root, TEX, "Politeness", "\\frobnicate Politeness")
    dest = tmp_path / "html"
    assert problem2html.main([str(root), "-d", str(dest)]) == 0
    assert "Politeness" in (dest / "index.html").read_text()
    assert "undefined macro or environment \\frobnicate" in capsys.readouterr().out


def test_latex_that_never_ends_is_stopped(
    copy_sample: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = copy_sample("hello")
    replace(root, TEX, "Politeness", "\\def\\loop{\\loop}\\loop Politeness")
    monkeypatch.setattr(pdf_module, "LATEX_TIMEOUT", 3.0)
    result = pdf_module.render_pdf([load_problem(root)], None, draft=True)
    assert not result.ok and "more than 3 s" in result.findings[0].message


def test_verifyproblem_renders_once_then_uses_the_cache(copy_sample: Callable[..., Path]) -> None:
    root = copy_sample("hello")
    replace(root, TEX, "Politeness", "\\frobnicate Politeness")
    first = verify(root, ("statement",))
    second = verify(root, ("statement",))
    assert first.findings == second.findings and first.errors == 1
    replace(root, TEX, "\\frobnicate ", "")
    assert verify(root, ("statement",)).errors == 0


def test_cli_usage_errors() -> None:
    assert problem2html.main(["/nonexistent/problem"]) == 2
    assert problem2pdf.main(["--no-such-option"]) == 2


def test_characters_without_a_glyph_are_a_warning_not_a_failure(
    copy_sample: Callable[..., Path], tmp_path: Path
) -> None:
    root = copy_sample("hello")
    replace(root, TEX, "Politeness", "名字 \U0001f600 Politeness")
    out = tmp_path / "out.pdf"
    result = pdf_module.render_pdf([load_problem(root)], out)
    assert result.ok and out.is_file()
    messages = [(f.message, f.line) for f in result.findings if f.severity is Severity.WARNING]
    assert ("PDF: Unicode character 名 (U+540D) has no glyph in the PDF fonts", 5) in messages
    html = render_html(load_problem(root))
    assert html.ok and html.html is not None and "名字 \U0001f600 Politeness" in html.html


def test_includesample_and_sampletable_in_html_and_pdf(
    copy_sample: Callable[..., Path], tmp_path: Path
) -> None:
    root = copy_sample("hello")
    write(root, "problem_statement/extra.in", "Extra-Input\n")
    write(root, "problem_statement/extra.ans", "Extra-Answer\n")
    replace(root, TEX, "\\section*{Output}", "\\includesample{2}\n\\sampletable{Given}{extra.in}"
            "{Wanted}{extra.ans}\n\\section*{Output}")
    html = render_html(load_problem(root), body_only=True, math="mathjax")
    assert html.ok and html.html is not None
    page = Page()
    page.feed(html.html)
    assert "Given" in page.plain and "Extra-Input Extra-Answer" in page.plain
    assert page.plain.index("Kattis") < page.plain.index("Extra-Input")  # sample 2 placed first
    out = tmp_path / "out.pdf"
    assert problem2pdf.main([str(root), "-o", str(out), "-q"]) == 0
    text = _pdf_text(out)
    assert "Extra-Input" in text and "Extra-Answer" in text and "Given" in text
    images = subprocess.run(["pdfimages", "-list", str(out)], capture_output=True, text=True,
                            check=True)
    assert len(images.stdout.splitlines()) == 3  # two header lines and the illustration


def test_huge_statement_is_a_warning(copy_sample: Callable[..., Path]) -> None:
    root = copy_sample("hello")
    replace(root, TEX, "Politeness", ("% " + "x" * 62 + "\n") * (1 << 14) + "Politeness")
    report = verify(root, ("statement",))
    assert report.errors == 0
    assert any("over 1 MiB" in f.message for f in report.findings), describe(report)


def test_missing_sample_file_for_sampletable(copy_sample: Callable[..., Path]) -> None:
    root = copy_sample("hello")
    replace(root, TEX, "Politeness", "\\sampletable{In}{nope.in}{Out}{nope.ans}\nPoliteness")
    message, path, line = _one_error(root)
    assert "nope.in not found" in message and path == TEX and line == 5


def test_input_reads_only_files_beside_the_statement(
    copy_sample: Callable[..., Path], tmp_path: Path
) -> None:
    secret = tmp_path / "secret.tex"
    secret.write_text("TOPSECRET\n")
    root = copy_sample("hello")
    write(root, "problem_statement/part.tex", "Included-Part text.\n")
    replace(root, TEX, "Politeness", "\\input{part}\nPoliteness")
    html = render_html(load_problem(root), body_only=True, math="mathjax")
    assert html.ok and html.html is not None and "Included-Part text." in html.html
    out = tmp_path / "ok.pdf"
    assert problem2pdf.main([str(root), "-o", str(out), "-q"]) == 0
    assert "Included-Part text." in _pdf_text(out)
    for outside in (str(secret), "../data/secret/01.ans"):
        replace(root, TEX, "\\input{part}", f"\\input{{{outside}}}")
        bad = render_html(load_problem(root), body_only=True)
        assert not bad.ok and "TOPSECRET" not in (bad.html or "")
        assert "no such file beside the statement" in bad.findings[0].message
        assert bad.findings[0].line == 5
        replace(root, TEX, f"\\input{{{outside}}}", "\\input{part}")
    replace(root, TEX, "\\input{part}", f"\\input{{{secret}}}")
    assert problem2pdf.main([str(root), "-o", str(tmp_path / "bad.pdf"), "-q"]) == 1
    assert not (tmp_path / "bad.pdf").exists()


def test_a_ready_made_pdf_statement(copy_sample: Callable[..., Path], tmp_path: Path) -> None:
    root = copy_sample("different")
    made = tmp_path / "made.pdf"
    assert problem2pdf.main([str(SAMPLES / "hello"), "-o", str(made), "-q"]) == 0
    (root / MTEX).unlink()
    shutil.copyfile(made, root / "statement/problem.en.pdf")
    assert verify(root, ("config", "statement")).errors == 0
    dest = tmp_path / "html"
    assert problem2html.main([str(root), "-d", str(dest), "-q"]) == 0
    assert (dest / "problem.en.pdf").read_bytes() == made.read_bytes()
    assert 'href="problem.en.pdf"' in (dest / "index.html").read_text()
    out = tmp_path / "set.pdf"
    assert problem2pdf.main([str(root), str(SAMPLES / "guess"), "-o", str(out), "-q"]) == 0
    text = _pdf_text(out)
    assert text.index("Politeness is a virtue") < text.index("Guess the Number")
    write(root, "statement/problem.en.pdf", "not really a PDF\n")
    message, path, _ = _one_error(root)
    assert "not a PDF file" in message and path == "statement/problem.en.pdf"


def test_json_reports(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    assert problem2pdf.main([str(SAMPLES / "hello"), "--draft", "--json"]) == 0
    pdf = json.loads(capsys.readouterr().out)
    assert pdf["exit_code"] == 0 and pdf["problems"] == ["hello"] and pdf["output"] is None
    dest = tmp_path / "h"
    assert problem2html.main([str(SAMPLES / "guess"), "-d", str(dest), "--json"]) == 0
    html = json.loads(capsys.readouterr().out)
    assert html["problems"][0]["output"] == str(dest / "index.html")
    assert html["problems"][0]["statement"] == "problem_statement/problem.en.tex"


@pytest.mark.parametrize("loop", ["\\def\\x{\\x}\\x", "\\def\\x{a\\x}\\x"])
def test_endless_macro_is_stopped_in_html_too(
    loop: str, copy_sample: Callable[..., Path]
) -> None:
    root = copy_sample("hello")
    replace(root, TEX, "Politeness", loop + " Politeness")
    message, path, line = _one_error(root)
    assert "still expanding" in message and path == TEX and line == 5


@pytest.mark.parametrize("tail", ["\\csname", "\\textbf", "\\section", "\\def\\x{{\\x}}\\x"])
def test_statements_plastex_chokes_on_give_one_error(
    tail: str, copy_sample: Callable[..., Path]
) -> None:
    root = copy_sample("hello")
    append(root, TEX, tail + "\n")
    message, path, _ = _one_error(root)
    assert path == TEX and ("could not parse" in message or "LaTeX" in message), message


def test_a_macro_doubling_its_argument_is_stopped_by_the_clock(
    copy_sample: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(latex_parse, "MAX_SECONDS", 1.0)
    root = copy_sample("hello")
    replace(root, TEX, "Politeness", "\\def\\a#1{\\a{#1#1}}\\a{x} Politeness")
    start = time.monotonic()
    result = render_html(load_problem(root))
    assert time.monotonic() - start < 5
    assert [f.message for f in result.findings] == [
        "the statement was still expanding after 1 s (an endless macro?); stopped"
    ]


REALISTIC = r"""\problemname{Real Statement}
\illustration{0.3}{smiley.png}{Picture by \href{https://example.org}{someone}}
Some text with \emph{emphasis}, \textit{italics}, \textbf{bold}, \texttt{mono}, \textsc{caps}
and \underline{under}. A list:
\begin{enumerate}
  \item first item with $\{1, 2\}$ and $a \bmod b$, $\lfloor x \rfloor$,
  \item second\footnote{A footnote.}
\end{enumerate}
\begin{itemize}
  \item bullet
\end{itemize}
\noindent\bigskip\vspace{1em}\hspace{1cm}Text after spacing\ldots{} and ``quotes''.

\begin{center}
\begin{tabular}{|l|r|}
\hline
A & B \\[1em]
\hline
1 & 2 \\
\hline
\end{tabular}
\end{center}

\begin{figure}[h]
  \centering
  \includegraphics[width=0.5\textwidth]{smiley}
  \caption{A figure}
  \label{fig:one}
\end{figure}
See Figure~\ref{fig:one} and \url{https://example.com/x_y}. Use \verb|a_b| here.
\begin{align*}
  x &= 1 \\
  y &= 2
\end{align*}
\[ \sum_{i=1}^n i = \frac{n(n+1)}{2} \qquad \text{done} \]
\section*{Input}
The input has $n$ ($1 \leq n \leq 10^5$) lines.\\
A second line after a break.
\subsection*{Notes}
\begin{description}
\item[Term] Definition.
\end{description}
\section*{Output}
Print it. 50\% of points, \$5, \#1, \&, \_.
"""


def test_a_realistic_statement_renders_cleanly(
    copy_sample: Callable[..., Path], tmp_path: Path
) -> None:
    """The constructs Kattis statements use most: no finding, and nothing lost."""
    root = copy_sample("hello")
    write(root, TEX, REALISTIC)
    report = verify(root, ("statement",))
    assert report.findings == [], describe(report)
    html = render_html(load_problem(root), body_only=True, math="mathjax")
    assert html.html is not None
    page = Page()
    page.feed(html.html)
    for text in ("See Figure 1 and", "A figure", "Text after spacing\u2026", "A footnote.",
                 "Definition.", "50% of points, $5, #1, &, _.", "\\lfloor x \\rfloor"):
        assert text in page.plain, text
    assert page.images == ["smiley.png", "smiley.png"]
    out = tmp_path / "real.pdf"
    assert problem2pdf.main([str(root), "-o", str(out), "-q"]) == 0
    text = _pdf_text(out)
    assert "See Figure 1 and" in text and "Figure 1: A figure" in text


def test_pdflatex_runs_again_only_for_references(
    copy_sample: Callable[..., Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runs: list[bool] = []
    real = pdf_module._compile
    monkeypatch.setattr(pdf_module, "_compile",
                        lambda b, d, f=None, c=None: runs.append(d) or real(b, d, f, c))  # fmt: skip
    assert pdf_module.render_pdf([load_problem(SAMPLES / "hello")], tmp_path / "a.pdf").ok
    assert len(runs) == 1
    root = copy_sample("hello")
    replace(root, TEX, "Politeness", "See \\ref{later}. Politeness")
    append(root, TEX, "\\section{Later}\\label{later}\n")
    runs.clear()
    assert pdf_module.render_pdf([load_problem(root)], tmp_path / "b.pdf").ok
    assert len(runs) == 2 and "See 1." in _pdf_text(tmp_path / "b.pdf")


def test_multi_pass_interaction_shows_each_pass(copy_sample: Callable[..., Path],
                                                tmp_path: Path) -> None:
    """A ``---`` line in a multi-pass problem's ``.interaction`` starts the next pass: the
    HTML and the PDF say so between the exchanges instead of dropping the line."""
    root = copy_sample("guess")
    (root / "data/sample/1.interaction").write_text(">500\n<lower\n---\n>250\n<correct\n")
    html = render_html(load_problem(root), body_only=True, math="mathjax")
    assert html.ok and html.html is not None
    page = Page()
    page.feed(html.html)
    plain = page.plain
    assert plain.index("500lower") < plain.index("Pass 2") < plain.index("250correct"), plain
    out = tmp_path / "guess.pdf"
    assert problem2pdf.main([str(root), "-o", str(out), "-q"]) == 0
    text = " ".join(_pdf_text(out).split())
    assert text.index("lower") < text.index("Pass 2") < text.index("250"), text


ICELANDIC = """\\problemname{Halló}

Skrifaðu forrit sem heilsar þér.

\\begin{Input}
Eitt nafn.
\\end{Input}

\\begin{Output}
Kveðja.
\\end{Output}
"""


def test_icelandic_headings_as_problemtools_has_them(copy_sample: Callable[..., Path],
                                                     tmp_path: Path) -> None:
    root = copy_sample("hello")
    write(root, "problem_statement/problem.is.tex", ICELANDIC)
    html = render_html(load_problem(root), "is", body_only=True)
    assert html.ok and html.html is not None, html.findings
    page = Page()
    page.feed(html.html)
    assert "Inntak" in page.plain and "Úttak" in page.plain and "Sýniinntak 1" in page.plain
    out = tmp_path / "is.pdf"
    assert problem2pdf.main([str(root), "-l", "is", "-o", str(out), "-q"]) == 0
    text = _pdf_text(out)
    assert "Sýniinntak 1" in text and "Sýniúttak 1" in text and "Skrifaðu forrit" in text


def test_a_statement_directory_link_out_of_the_package_is_not_followed(
    copy_sample: Callable[..., Path], tmp_path: Path
) -> None:
    # (the PDF build copied the statement's directory following links: a link to `..`
    # of a temporary directory copied all of /tmp, and a FIFO there failed the build)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("not the package's\n")
    os.mkfifo(outside / "pipe")
    root = copy_sample("hello")
    os.symlink(outside, root / "problem_statement" / "extra")
    report = verify(root, ("config", "statement"))
    errors = [(f.check, f.path) for f in report.findings if f.severity is Severity.ERROR]
    assert errors == [("symlink", "problem_statement/extra")], describe(report)
    out = tmp_path / "hello.pdf"
    assert problem2pdf.main([str(root), "-o", str(out), "-q"]) == 0 and out.stat().st_size > 0
