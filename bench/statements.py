"""Statement rendering times per sample: problem2html and problem2pdf (in-process, warm, and
as a fresh process), side by side with Kattis problemtools' problem2html / problem2pdf when
they are installed (``--problemtools DIR``: the bin directory of a venv with problemtools;
its problem2html runs with --messy when tidy is missing, and its problem2pdf needs lualatex).
Beside them verifyproblem's PDF check (a draft, in-process, warm): pdflatex alone, and
started from the class's preloaded format (statements/texformat.py).

Usage: python bench/statements.py [--problemtools DIR] [--repeat N]"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from problemtools_py.model import Problem, load_problem
from problemtools_py.statements.html import render_html
from problemtools_py.statements.pdf import render_pdf

REPO = Path(__file__).resolve().parent.parent
SAMPLES = REPO / "sample_problems"
BIN = Path(sys.executable).parent


def median_seconds(func: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def process_seconds(cmd: list[str], cwd: Path) -> float | None:
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, check=False)
    return time.perf_counter() - start if proc.returncode == 0 else None


def draft_seconds(problem: Problem, lang: str, work: Path, repeat: int) -> tuple[float, float]:
    """The PDF check's median: pdflatex alone (a cache without the format), and from the
    class's format (a cache with it, made by a first check that is not timed)."""
    check = partial(render_pdf, [problem], None, lang=lang, draft=True)
    times = []
    for cache, make in (("no-format", False), ("format", True)):
        os.environ["XDG_CACHE_HOME"] = str(work / cache)
        check(make_format=make)
        times.append(median_seconds(check, repeat))
    return times[0], times[1]


def fmt(seconds: float | None) -> str:
    return f"{seconds:.3f}" if seconds is not None else "failed"


def ratio(theirs: float | None, ours: float | None) -> str:
    return f"{theirs / ours:.1f}x" if theirs and ours else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problemtools", type=Path, help="bin directory of Kattis problemtools")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="ptpy-statements-bench-"))
    messy = [] if shutil.which("tidy") else ["--messy"]
    print(
        f"{'statement':14} {'html warm':>9} {'html cli':>9} {'pdf warm':>9} {'pdf cli':>8}"
        f" {'check':>6} {'fmt':>6}"
        + (f" {'pt html':>8} {'ratio':>6} {'pt pdf':>8} {'ratio':>6}" if args.problemtools else "")
    )
    for root in sorted(p for p in SAMPLES.iterdir() if (p / "problem.yaml").is_file()):
        problem = load_problem(root)
        for lang in sorted({s.lang for s in problem.statements}):
            html = median_seconds(partial(render_html, problem, lang), args.repeat)
            pdf = median_seconds(
                partial(render_pdf, [problem], work / "x.pdf", lang=lang), args.repeat
            )
            plain, preloaded = draft_seconds(problem, lang, work, args.repeat)
            html_cli = process_seconds(
                [str(BIN / "problem2html"), str(root), "-l", lang, "-d", str(work / "h"), "-q"],
                work,
            )
            pdf_cli = process_seconds(
                [str(BIN / "problem2pdf"), str(root), "-l", lang, "-o", str(work / "p.pdf"), "-q"],
                work,
            )
            line = (
                f"{root.name + ':' + lang:14} {html:9.3f} {fmt(html_cli):>9} {pdf:9.3f} "
                f"{fmt(pdf_cli):>8} {plain:6.3f} {preloaded:6.3f}"
            )
            if args.problemtools:
                their_html = process_seconds(
                    [
                        str(args.problemtools / "problem2html"),
                        *messy,
                        "-l",
                        lang,
                        "-d",
                        str(work / "th"),
                        str(root),
                    ],
                    work,
                )
                their_pdf = process_seconds(
                    [
                        str(args.problemtools / "problem2pdf"),
                        "-l",
                        lang,
                        "-o",
                        str(work / "t.pdf"),
                        str(root),
                    ],
                    work,
                )
                line += (
                    f" {fmt(their_html):>8} {ratio(their_html, html_cli):>6}"
                    f" {fmt(their_pdf):>8} {ratio(their_pdf, pdf_cli):>6}"
                )
            print(line, flush=True)
    shutil.rmtree(work, ignore_errors=True)
    print(
        "seconds; warm = median in-process render, cli = a fresh process; check = "
        "verifyproblem's PDF check (a draft) by pdflatex alone, fmt = from the preloaded "
        "format; ratios compare fresh processes (problemtools' time / ours)"
    )


if __name__ == "__main__":
    main()
