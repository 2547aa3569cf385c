"""verifyproblem --report: a self-contained page with the results, a chart of CPU time per
test case against the limit (seen in headless Chromium), constraint coverage and where
generated test data comes from."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers.builders import write
from helpers.packages import SAMPLES
from helpers.reporting import REPORTING

from problemtools_py.cli.verifyproblem import main


def _pixels(shot: Path) -> list[tuple[int, ...]]:
    from PIL import Image

    raw = Image.open(shot).convert("RGB").tobytes()
    return [tuple(raw[i : i + 3]) for i in range(0, len(raw), 3)]


def test_the_page_has_the_table_the_chart_and_the_coverage(
    copy_sample: Callable[..., Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = copy_sample("subtasks")
    write(root, "input_validators/validate.py", REPORTING)
    page = tmp_path / "report.html"
    main(["--constraints", "--report", str(page), str(root)])
    capsys.readouterr()
    html = page.read_text()
    for text in ("<h3>Results</h3>", "accepted/sum.py", "CPU time per test case",
                 "<svg", "Constraint coverage", "limit ", "margin "):
        assert text in html, text
    assert "<script" not in html and not re.search(r"(src|href)=\"https?:", html)  # no network
    if shutil.which("chromium") is None:
        pytest.skip("needs Debian's chromium for the screenshot")
    shot = tmp_path / "shot.png"
    subprocess.run(
        ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
         "--hide-scrollbars", f"--screenshot={shot}", "--window-size=1200,2400", page.as_uri()],
        capture_output=True, timeout=120, check=True,
    )
    pixels = _pixels(shot)
    green = sum(1 for p in pixels if p == (46, 125, 50))  # AC bars
    orange = sum(1 for p in pixels if p == (239, 108, 0))  # the TLE submission's bars
    assert green > 500, "no accepted bar is drawn"
    assert orange > 100, "the time-limit-exceeded bars are not drawn"


def test_the_page_says_where_generated_data_comes_from(tmp_path: Path) -> None:
    root = tmp_path / "gensum"
    shutil.copytree(SAMPLES / "gensum", root)
    page = tmp_path / "report.html"
    assert main(["--no-run", "--report", str(page), str(root)]) == 0
    html = page.read_text()
    assert "Where the test data comes from" in html
    assert "generate: random_list.py 10 100 {seed} (seed " in html
    assert "copy: generators/manual/max" in html


def test_a_report_in_a_missing_directory_makes_it(tmp_path: Path) -> None:
    """As every command's output: a missing directory on the way is made. (One that cannot
    be, a file on the way, is a usage error before anything runs: tests/cli/test_options.)"""
    page = tmp_path / "missing" / "report.html"
    assert main(["--no-run", "-p", "config", "--report", str(page), str(SAMPLES / "hello")]) == 0
    assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_a_report_that_cannot_be_written_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The place was fine when checked, then a file took the directory's name."""
    from problemtools_py.cli.htmlreport import write_report
    from problemtools_py.errors import FatalError
    from problemtools_py.findings import RunReport

    (tmp_path / "missing").write_text("")
    page = tmp_path / "missing" / "report.html"
    with pytest.raises(FatalError, match="cannot write: ") as raised:
        write_report(RunReport(), page)
    assert str(raised.value).startswith(f"{page}: cannot write: ")
