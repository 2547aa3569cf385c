"""Reporters: rich text for people, JSON for machines (shape: schemas/report.schema.json)."""

from __future__ import annotations

import json
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from problemtools_py import __version__
from problemtools_py.findings import Finding, ProblemReport, RunReport, Severity

STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "yellow"}


def _where(report: ProblemReport, finding: Finding) -> str:
    if finding.path is None:
        return report.path
    base = Path(report.path) / finding.path
    return str(base) + (f":{finding.line}" if finding.line is not None else "")


class TextReporter:
    """``file:line: error: message`` lines and a ``NAME: N errors, M warnings`` summary."""

    def __init__(
        self, quiet: bool = False, verbose: bool = False, console: Console | None = None
    ) -> None:
        self.quiet = quiet
        self.verbose = verbose
        self.console = console or Console(highlight=False, soft_wrap=True)

    def part(self, problem: str, part: str) -> None:
        if self.verbose:
            self.console.print(Text(f"{problem}: checking {part}", style="dim"))

    def problem(self, report: ProblemReport) -> None:
        for finding in report.findings:
            line = Text()
            line.append(_where(report, finding) + ": ")
            line.append(finding.severity.value, style=STYLE[finding.severity])
            line.append(f": {finding.message}")
            if self.verbose:
                line.append(f" [{finding.check}]", style="dim")
            self.console.print(line)
        if self.quiet and not report.findings:
            return
        summary = Text(f"{report.name}: ", style="bold")
        summary.append(
            _count(report.errors, "error"), style="bold red" if report.errors else "green"
        )
        summary.append(", ")
        summary.append(
            _count(report.warnings, "warning"), style="yellow" if report.warnings else "green"
        )
        if self.verbose:
            summary.append(f" ({report.format_version}, {report.seconds:.2f} s)", style="dim")
        self.console.print(summary)

    def finish(self, run: RunReport) -> None:
        if len(run.problems) > 1 and not self.quiet:
            self.console.print(
                Text(
                    f"total: {_count(run.errors, 'error')}, {_count(run.warnings, 'warning')}",
                    style="bold",
                )
            )


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def run_to_json(run: RunReport) -> dict[str, Any]:
    return {
        "tool": "problemtools_py",
        "version": __version__,
        "exit_code": int(run.exit_code),
        "errors": run.errors,
        "warnings": run.warnings,
        "problems": [
            {
                "name": p.name,
                "path": p.path,
                "format_version": p.format_version,
                "parts": p.parts,
                "errors": p.errors,
                "warnings": p.warnings,
                "seconds": round(p.seconds, 4),
                "findings": [{**asdict(f), "severity": f.severity.value} for f in p.findings],
            }
            for p in run.problems
        ],
    }


class JsonReporter:
    """Prints the whole run as one JSON document on stdout when it ends."""

    def part(self, problem: str, part: str) -> None:
        pass

    def problem(self, report: ProblemReport) -> None:
        pass

    def finish(self, run: RunReport) -> None:
        json.dump(run_to_json(run), sys.stdout, indent=2)
        sys.stdout.write("\n")
