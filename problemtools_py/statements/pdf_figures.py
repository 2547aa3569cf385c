"""Figures given as PDF (``\\includegraphics{sample2.pdf}``, common in contest statements)
for the HTML statement, which no browser shows inside an ``<img>``: the first page made a
PNG by poppler's ``pdftocairo`` (as problemtools makes them with Ghostscript), kept in the
cache by the PDF's content. scripts/setup.sh installs poppler-utils."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from problemtools_py import atomicfile
from problemtools_py.cachedir import cache_root
from problemtools_py.digests import digest, file_digest

PDFTOCAIRO = "pdftocairo"
RESOLUTION = 150  # dots per inch: a figure drawn at its size on paper stays sharp
TIMEOUT = 30.0  # seconds: a PDF that takes longer is not worth the figure
CACHE = "pdf-figures"


def png_of(pdf: Path) -> Path | str:
    """A PNG of the first page of ``pdf`` (made once per content), or why there is none."""
    tool = shutil.which(PDFTOCAIRO)
    if tool is None:
        return f"{PDFTOCAIRO} (poppler-utils) is not installed; scripts/setup.sh installs it"
    try:
        key = digest("pdf-figure-v1", file_digest(pdf), str(RESOLUTION))
    except OSError as exc:
        return f"cannot be read: {exc.strerror or exc}"
    target = cache_root() / CACHE / f"{key}.png"
    if target.is_file():
        return target
    with tempfile.TemporaryDirectory(prefix="ptpy-pdf-figure-") as tmp:
        base = Path(tmp) / "figure"
        command = [
            tool,
            "-png",
            "-singlefile",
            "-f",
            "1",
            "-l",
            "1",
            "-r",
            str(RESOLUTION),
            "--",
            str(pdf),
            str(base),
        ]
        try:
            proc = subprocess.run(
                command, capture_output=True, timeout=TIMEOUT, check=False, stdin=subprocess.DEVNULL
            )
        except subprocess.TimeoutExpired:
            return f"{PDFTOCAIRO} took more than {TIMEOUT:g} s"
        made = base.with_suffix(".png")
        if proc.returncode != 0 or not made.is_file():
            said = proc.stderr.decode("utf-8", "replace").strip().splitlines()
            return f"{PDFTOCAIRO} cannot read it: {said[-1] if said else proc.returncode}"
        target.parent.mkdir(parents=True, exist_ok=True)
        atomicfile.copy_file(made, target)
    return target
