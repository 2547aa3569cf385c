"""The problemset class's pdflatex format for draft checks: made only when asked, used when
there, and never the reason a check's findings differ from pdflatex's own."""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers.builders import replace

from problemtools_py.findings import Finding
from problemtools_py.model import load_problem
from problemtools_py.statements import pdf, texformat

TEX = "problem_statement/problem.en.tex"
LATEX = pdf.latex_command()
DUMPER = shutil.which("kpsewhich") and subprocess.run(
    ["kpsewhich", texformat.DUMPER], capture_output=True, check=False
).stdout.strip()
pytestmark = pytest.mark.skipif(not (LATEX and DUMPER), reason="pdflatex or mylatexformat missing")


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache" / "problemtools_py" / "texformat"


@pytest.fixture
def compiles(monkeypatch: pytest.MonkeyPatch) -> list[Path | None]:
    """The format each pdflatex run of a check started from (None: pdflatex's own)."""
    seen: list[Path | None] = []
    real = pdf._compile

    def compile_(build: Path, draft: bool, fmt: Path | None = None,
                 cancel: threading.Event | None = None) -> tuple[bool, str]:  # fmt: skip
        seen.append(fmt)
        return real(build, draft, fmt, cancel)

    monkeypatch.setattr(pdf, "_compile", compile_)
    return seen


def _draft(root: Path, make: bool = False) -> list[Finding]:
    return pdf.render_pdf([load_problem(root)], None, lang="en", draft=True,
                          make_format=make).findings  # fmt: skip


def _plain(root: Path, monkeypatch: pytest.MonkeyPatch) -> list[Finding]:
    """The check's findings with no format at all (pdflatex's own)."""
    with monkeypatch.context() as patch:
        patch.setattr(pdf, "_draft_format", lambda make: None)
        return _draft(root)


def test_made_only_when_asked(cache: Path, copy_sample: Callable[..., Path],
                              compiles: list[Path | None]) -> None:  # fmt: skip
    root = copy_sample("hello")
    assert _draft(root) == [] and compiles == [None] and not cache.exists()
    assert _draft(root, make=True) == []
    made = sorted(cache.glob("problemset-*.fmt"))
    assert len(made) == 1 and compiles[1] == made[0].with_suffix("")
    assert _draft(root) == [] and compiles[2] == made[0].with_suffix("")  # (there: used)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Politeness", "Politeness\\footnote{"),  # an error only pdflatex finds
        ("Politeness", "Politeness \u2603"),  # a warning: no glyph
        ("Politeness", "Politeness \\begin{tabular}{ll} a & b & c \\end{tabular}"),
    ],
    ids=["error", "warning", "tabular"],
)
def test_findings_are_pdflatexs_own(old: str, new: str, cache: Path,
                                    copy_sample: Callable[..., Path],
                                    monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    root = copy_sample("hello")
    replace(root, TEX, old, new)
    plain = _plain(root, monkeypatch)
    assert plain and _draft(root, make=True) == plain and any(cache.glob("*.fmt"))


def test_a_format_that_fails_a_passing_check_is_dropped_for_a_day(
    cache: Path, copy_sample: Callable[..., Path], compiles: list[Path | None]
) -> None:
    root = copy_sample("hello")
    assert _draft(root, make=True) == []
    (made,) = cache.glob("problemset-*.fmt")
    made.write_bytes(b"not a format")
    assert _draft(root) == []  # (run again without it)
    assert compiles[-2:] == [made.with_suffix(""), None] and not made.exists()
    assert _draft(root, make=True) == [] and compiles[-1] is None  # (not made again)
    assert not made.exists() and made.with_suffix(".failed").exists()


def test_a_format_that_cannot_be_made_is_not_tried_again(
    cache: Path, copy_sample: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(texformat, "DUMPER", "no-such-dumper.ltx")
    makes: list[list[str]] = []
    real = subprocess.run

    def run(command: list[str], **kwargs: Any) -> subprocess.CompletedProcess[bytes]:
        makes.append(command)
        return real(command, **kwargs)

    monkeypatch.setattr(texformat.subprocess, "run", run)
    root = copy_sample("hello")
    assert _draft(root, make=True) == [] and _draft(root, make=True) == []
    assert len(makes) == 1 and not any(cache.glob("*.fmt"))
    (failed,) = cache.glob("*.failed")
    day_ago = time.time() - texformat.RETRY_AFTER - 60
    os.utime(failed, (day_ago, day_ago))  # (a day later: tried again, mylatexformat there)
    monkeypatch.setattr(texformat, "DUMPER", "mylatexformat.ltx")
    assert _draft(root, make=True) == [] and len(makes) == 2
    assert any(cache.glob("*.fmt")) and not failed.exists()


def test_a_format_make_that_runs_out_of_time_is_not_tried_again(
    cache: Path, copy_sample: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(texformat, "TIMEOUT", 0.001)
    root = copy_sample("hello")
    assert _draft(root, make=True) == []
    monkeypatch.setattr(texformat, "TIMEOUT", 120.0)  # (would make it, if it tried)
    assert _draft(root, make=True) == []
    assert not any(cache.glob("*.fmt")) and list(cache.glob("*.failed"))
