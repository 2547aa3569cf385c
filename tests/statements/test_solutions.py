"""problem2pdf --solutions (statements.solutions): one slide deck from the packages'
solution/ files (LaTeX with its own frames, Markdown converted as statements are), read
back with pdftotext; and --watch (statements.watch) building again after a save."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from problemtools_py.cli.problem2pdf import main
from problemtools_py.statements.watch import stamp

SAMPLES = Path(__file__).resolve().parents[2] / "sample_problems"
Capture = pytest.CaptureFixture[str]


def _packages(root: Path) -> tuple[Path, Path]:
    gensum = shutil.copytree(SAMPLES / "gensum", root / "gensum")
    hello = shutil.copytree(SAMPLES / "hello", root / "hello")
    (gensum / "solution").mkdir()
    (gensum / "solution/solution.en.md").write_text(
        "Add them up in **one pass**, $O(n)$.\n\n- read $n$\n- sum the values\n")  # fmt: skip
    (hello / "solution").mkdir()
    (hello / "solution/solution.tex").write_text(
        "\\begin{frame}{Greeting}\nPrint \\texttt{Hello} and the name.\n\\end{frame}\n")  # fmt: skip
    return gensum, hello


def test_slides_from_markdown_and_latex(tmp_path: Path, capsys: Capture) -> None:
    gensum, hello = _packages(tmp_path)
    out = tmp_path / "slides.pdf"
    assert main(["--solutions", str(gensum), str(hello), "-o", str(out), "--title", "Spring"]) == 0
    text = subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True,
                          check=True).stdout  # fmt: skip
    for said in ("Spring", "A: Generated Sum", "one pass", "sum the values", "Greeting",
                 "Print Hello and the name."):  # fmt: skip
        assert said in text, text


def test_a_package_without_a_solution_is_named(tmp_path: Path, capsys: Capture) -> None:
    gensum, _ = _packages(tmp_path)
    bare = shutil.copytree(SAMPLES / "divisor", tmp_path / "divisor")
    assert main(["--solutions", str(gensum), str(bare), "-o", str(tmp_path / "s.pdf")]) == 1
    assert "divisor: no solution/solution.en.{tex,md,pdf}" in capsys.readouterr().out
    assert not (tmp_path / "s.pdf").exists()


def test_the_stamp_sees_a_save(tmp_path: Path) -> None:
    gensum, _ = _packages(tmp_path)
    before = stamp([gensum])
    statement = gensum / "statement/problem.en.md"
    statement.write_text(statement.read_text() + "\nMore.\n")
    assert stamp([gensum]) != before
    (gensum / "generators/random_list.py").write_text("# not watched\n")
    assert stamp([gensum])[-1] == stamp([gensum])[-1]


def _wrote(proc: subprocess.Popen[str]) -> str:
    """The next "wrote ..." line of the watching process (the report's lines skipped)."""
    assert proc.stdout is not None
    while line := proc.stdout.readline():
        if line.startswith("wrote "):
            return line
    return ""


def test_watch_builds_again_after_a_save(tmp_path: Path) -> None:
    gensum, _ = _packages(tmp_path)
    out = tmp_path / "gensum.pdf"
    tool = Path(sys.executable).parent / "problem2pdf"
    with subprocess.Popen([str(tool), str(gensum), "-o", str(out), "--watch"],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True) as proc:
        try:
            assert _wrote(proc).startswith(f"wrote {out}")
            first = out.stat().st_mtime_ns
            time.sleep(0.1)
            statement = gensum / "statement/problem.en.md"
            statement.write_text(statement.read_text() + "\nOne more line.\n")
            assert _wrote(proc).startswith(f"wrote {out}")
            assert out.stat().st_mtime_ns > first
        finally:
            os.kill(proc.pid, signal.SIGINT)
            proc.communicate(timeout=30)
    assert proc.returncode == 130
