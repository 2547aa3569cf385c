"""problem2pdf's work: statements compiled by the real ``pdflatex`` in a temporary build
directory (``cwd=``, never ``chdir``), its errors read from the log and mapped back to the
statement's file and line. The PDF is moved into place only when the build succeeded."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from problemtools_py import atomicfile
from problemtools_py.findings import Finding, Severity, error, warning
from problemtools_py.model.problem import Problem
from problemtools_py.statements import latexlog, texformat
from problemtools_py.statements.pdf_build import Entry, document, prepare
from problemtools_py.statements.source import StatementSource, load_source, pick_statement

LATEX_TIMEOUT = 120.0
_POLL = 0.05  # (how often a cancellable run looks at its cancel event)
_LOG_EXCERPT = 1500


@dataclass
class PdfResult:
    """Statements rendered to one PDF, and what went wrong."""

    problems: list[str]
    findings: list[Finding] = field(default_factory=list)
    output: str | None = None
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not any(f.severity is Severity.ERROR for f in self.findings)


def latex_command() -> str | None:
    return shutil.which("pdflatex")


def render_pdf(
    problems: list[Problem],
    output: Path | None,
    *,
    lang: str | None = None,
    title: str | None = None,
    subtitle: str = "",
    draft: bool = False,
    make_format: bool = False,
    cancel: threading.Event | None = None,
) -> PdfResult:
    """Compile the problems' statements into one PDF at ``output`` (or only check them,
    with ``draft`` and no output). Paths in findings are relative to the problem root,
    prefixed with the problem's name when there are several problems. A draft uses the
    class's format where the cache has one (see texformat), made first with
    ``make_format``. Setting ``cancel`` stops pdflatex (its findings are then unwanted)."""
    start = time.perf_counter()
    result = PdfResult([p.short_name for p in problems])
    prefix = len(problems) > 1
    sources = _sources(problems, lang, result, prefix)
    if not result.ok:
        return result
    with tempfile.TemporaryDirectory(prefix="problem2pdf-") as tmp:
        build = Path(tmp)
        entries = prepare(build, sources, letters=len(sources) > 1)
        for entry in entries:
            result.findings.extend(_prefixed(entry.findings, entry, prefix))
        if title is None and len(sources) > 1:
            title = "Problem Set"
        (build / "main.tex").write_text(document(entries, title, subtitle), encoding="utf-8")
        fmt = _draft_format(make_format) if draft else None
        ok, log = _compile(build, draft, fmt, cancel)
        stopped = cancel is not None and cancel.is_set()
        if not ok and fmt is not None and not stopped:  # (told as pdflatex alone tells it)
            ok, log = _compile(build, draft, None, cancel)
            if ok:  # (the format was at fault)
                texformat.drop(fmt)
        if ok and not draft and _needs_rerun(log):  # \ref to a later \label
            ok, log = _compile(build, draft)
        if not ok:
            result.findings.extend(_errors(log, entries, prefix))
        else:
            result.findings.extend(_warnings(log, entries))
        if ok and output is not None and result.ok:
            output.parent.mkdir(parents=True, exist_ok=True)
            atomicfile.copy_file(build / "main.pdf", output)
            result.output = str(output)
    result.seconds = time.perf_counter() - start
    return result


def _sources(
    problems: list[Problem], lang: str | None, result: PdfResult, prefix: bool
) -> list[StatementSource]:
    sources = []
    for problem in problems:
        picked = pick_statement(problem, lang)
        source = picked if isinstance(picked, Finding) else load_source(problem, picked)
        if isinstance(source, Finding):
            # (one problem: its report names the package; a set's report names none)
            path = source.path if not prefix else str(problem.root / (source.path or ""))
            result.findings.append(error(source.check, source.message, path, source.line))
        else:
            sources.append(source)
    return sources


def compile_document(build: Path) -> tuple[bool, str]:
    """pdflatex on ``build/main.tex`` (making ``main.pdf``), in its safe environment:
    whether it made the PDF, and its log."""
    return _compile(build, False)


def _needs_rerun(log: str) -> bool:
    """A \\ref to a \\label pdflatex had not seen yet (not outlines: there are none)."""
    return "Rerun to get cross-references right" in log or "There were undefined references" in log


def latex_env() -> dict[str, str]:
    """pdflatex's environment: files read and written only below its directory, no shell."""
    return {
        "SOURCE_DATE_EPOCH": "0",  # the same bytes every build (unless the caller sets it)
        "FORCE_SOURCE_DATE": "1",
        **os.environ,
        "openin_any": "p",
        "openout_any": "p",
        "shell_escape": "f",
        "max_print_line": "100000",
    }


def _draft_format(make: bool) -> Path | None:
    latex = latex_command()
    return texformat.draft_format(latex, latex_env(), make) if latex is not None else None


def _compile(
    build: Path, draft: bool, fmt: Path | None = None, cancel: threading.Event | None = None
) -> tuple[bool, str]:
    """Run pdflatex (from the format ``fmt``, when given; stopped when ``cancel`` is set):
    whether it succeeded, and its log."""
    command = [
        latex_command() or "pdflatex",
        "-interaction=nonstopmode",
        "-halt-on-error",
        "-file-line-error",
        "-no-shell-escape",
    ]
    command += ["-draftmode"] if draft else []
    command += [f"-fmt={fmt}"] if fmt is not None else []
    try:
        proc = subprocess.Popen(
            [*command, "main.tex"],
            cwd=build,
            env=latex_env(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    except FileNotFoundError:
        return False, "! pdflatex is not installed (TeX Live; scripts/setup.sh installs it)"
    out = _wait(proc, cancel)
    if out is None:
        if cancel is not None and cancel.is_set():
            return False, "! pdflatex stopped: its result was no longer wanted"
        return (
            False,
            f"! pdflatex ran for more than {LATEX_TIMEOUT:g} s (an endless loop?); stopped",
        )
    log_file = build / "main.log"
    log = log_file.read_text(errors="replace") if log_file.is_file() else ""
    ok = proc.returncode == 0 and (draft or (build / "main.pdf").is_file())
    return ok, log or out.decode(errors="replace")


def _errors(log: str, entries: list[Entry], prefix: bool) -> list[Finding]:
    found = latexlog.errors(log, limit=3)
    if not found:
        tail = log[-_LOG_EXCERPT:]
        return [
            error(
                "statement",
                "LaTeX failed:\n" + tail,
                entries[0].source.statement.rel if len(entries) == 1 else None,
            )
        ]
    findings = []
    for item in found:
        entry = _entry_of(item.file, entries)
        rel, line = (None, None)
        if entry is not None:
            rel, line = entry.source.statement.rel, item.line
            if item.file and not item.file.endswith(entry.file):
                rel = (
                    entry.source.statement.rel.rsplit("/", 1)[0] + "/" + item.file.split("/", 1)[-1]
                )
            if entry.source.statement.kind == "md":
                line = None  # the line is in the LaTeX we generated, not in the Markdown
            if prefix:
                rel = f"{entry.source.problem.root}/{rel}"
        elif len(entries) == 1:
            rel = entries[0].source.statement.rel
        message = f"LaTeX: {item.message}" + (f"\n{item.context}" if item.context else "")
        findings.append(error("statement", message, rel, line))
    return findings


def _warnings(log: str, entries: list[Entry]) -> list[Finding]:
    """Our class's warnings (a character without a glyph), once each, on the statement."""
    found = dict.fromkeys(latexlog.class_warnings(log))
    rel = entries[0].source.statement.rel if len(entries) == 1 else None
    return [
        warning("statement", f"PDF: {message}", rel, line if rel else None)
        for message, line in found
    ]


def _entry_of(file: str | None, entries: list[Entry]) -> Entry | None:
    if not file:
        return None
    head = file.removeprefix("./").split("/", 1)[0]
    return next((e for e in entries if e.dir == head), None)


def _prefixed(findings: list[Finding], entry: Entry, prefix: bool) -> list[Finding]:
    if not prefix:
        return findings
    name = str(entry.source.problem.root)
    return [
        Finding(f.severity, f.check, f.message, f"{name}/{f.path}" if f.path else name, f.line)
        for f in findings
    ]


def _wait(proc: subprocess.Popen[bytes], cancel: threading.Event | None) -> bytes | None:
    """pdflatex's output; None when it ran out of time or was cancelled (then killed)."""
    deadline = time.monotonic() + LATEX_TIMEOUT
    while True:
        left = max(0.0, deadline - time.monotonic())
        try:
            return proc.communicate(timeout=min(left, _POLL) if cancel is not None else left)[0]
        except subprocess.TimeoutExpired:
            if time.monotonic() >= deadline or (cancel is not None and cancel.is_set()):
                os.killpg(proc.pid, signal.SIGKILL)
                proc.communicate()
                return None
