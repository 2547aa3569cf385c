"""A pdflatex format with the problemset class and every package it loads read already
(TeX Live's mylatexformat): a statement's draft check (verifyproblem's) then starts at
``\\begin{document}``, ~0.13 s of pdflatex instead of ~0.28 s.

It is made from the class and a document of our own (never a statement: nothing of a
package is in it), once per class and pdflatex (~0.5 s), and kept in the cache; made only
on a machine whose cache outlives the run (see cachedir.used_before), as g++'s precompiled
headers are. Where it cannot be made (no mylatexformat), that is remembered under the same
name for a day (TeX packages installed meanwhile are then tried), and checks run without.
A check that fails with the format is run again without it (see pdf.render_pdf), so a
fault is always reported as pdflatex alone reports it; where the check passes without it,
the format is dropped, and not made again for a day."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from problemtools_py.cachedir import cache_root
from problemtools_py.digests import digest
from problemtools_py.resources import template_text

CLASS = "problemset.cls"
DOCUMENT = "\\documentclass{problemset}\n\\begin{document}\n\\end{document}\n"
DUMPER = "mylatexformat.ltx"  # (TeX Live, texlive-latex-extra in Debian)
TIMEOUT = 120.0
RETRY_AFTER = 86400.0  # (seconds: see _failed_lately)
_lock = threading.Lock()


def draft_format(latex: str, env: dict[str, str], make: bool) -> Path | None:
    """The format for ``latex`` (pdflatex's ``-fmt``: its path without ``.fmt``), made now
    with ``make`` when missing, else None."""
    target = _target(latex)
    if target.is_file():
        return target.with_suffix("")
    if not make or _failed_lately(target):
        return None
    with _lock:  # (one process makes it once; two processes: either's bytes will do)
        try:
            if not target.is_file() and not _make(latex, env, target):
                return None
        except OSError:  # (a cache that cannot be written: checks run without)
            return None
    return target.with_suffix("")


def drop(fmt: Path) -> None:
    """A format that failed a check pdflatex alone passes (damaged, or our class acting
    otherwise from it): removed, and not made again for a day."""
    with contextlib.suppress(OSError):
        fmt.with_suffix(".failed").write_text("a check failed with it and passed without\n")
        fmt.with_suffix(".fmt").unlink()


def _failed_lately(target: Path) -> bool:
    """Whether making or using this format failed less than RETRY_AFTER (a day) ago."""
    try:
        return time.time() - target.with_suffix(".failed").stat().st_mtime < RETRY_AFTER
    except OSError:
        return False


def _target(latex: str) -> Path:
    """The format's file in the cache, named by the class and the pdflatex it is for (its
    file, size and time: an upgraded TeX has a new binary, which a format must match)."""
    binary = os.path.realpath(shutil.which(latex) or latex)
    parts = [template_text(CLASS)]
    with contextlib.suppress(OSError):
        stat = os.stat(binary)
        parts += [binary, str(stat.st_size), str(stat.st_mtime_ns)]
    return cache_root() / "texformat" / f"problemset-{digest(*parts)[:20]}.fmt"


def _make(latex: str, env: dict[str, str], target: Path) -> bool:
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".texformat-", dir=target.parent) as tmp:
        work = Path(tmp)
        (work / CLASS).write_text(template_text(CLASS), encoding="utf-8")
        (work / "format.tex").write_text(DOCUMENT, encoding="utf-8")
        command = [latex, "-ini", "-interaction=nonstopmode", "-halt-on-error"]
        command += ["-jobname=problemset", "&pdflatex", DUMPER, "format.tex"]
        try:
            done = subprocess.run(
                command,
                cwd=work,
                env=env,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                timeout=TIMEOUT,
                check=False,
            )
            said = done.stdout[-4000:] if done.returncode != 0 else b""
        except (OSError, subprocess.TimeoutExpired) as exc:
            said = str(exc).encode()
        made = work / "problemset.fmt"
        if said or not made.is_file():  # (remembered: not tried again for a day)
            with contextlib.suppress(OSError):
                target.with_suffix(".failed").write_bytes(said or b"no format written\n")
            return False
        os.replace(made, target)
    for stale in target.parent.glob("problemset-*"):  # (for an older class or pdflatex)
        if stale.name != target.name:
            with contextlib.suppress(OSError):
                stale.unlink()
    return True
