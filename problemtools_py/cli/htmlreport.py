"""``verifyproblem --report FILE``: one self-contained HTML page (no script, no network):
findings, the results table, each submission's CPU time per test case against the time
limit and the safety margin (an SVG chart), the constraint coverage table, and where
generated test data comes from."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from problemtools_py.atomicfile import write_bytes
from problemtools_py.findings import ProblemReport, RunReport, SubmissionRow
from problemtools_py.generate.runner import has_generators, read_plan
from problemtools_py.model import load_problem
from problemtools_py.statements.templating import html_env
from problemtools_py.verdicts import Verdict

COLORS = {
    Verdict.AC: "#2e7d32",
    Verdict.TLE: "#ef6c00",
    Verdict.MLE: "#6a1b9a",
    Verdict.OLE: "#6a1b9a",
}
RED = "#c62828"
HEIGHT, LEFT, BAR, GAP = 180, 40, 14, 4


def _chart(row: SubmissionRow, limit: float | None, hard: float | None) -> dict[str, Any]:
    cases = sorted(row.cases.items())
    top = max([c.cpu for _, c in cases] + [limit or 0.0, hard or 0.0, 0.001]) * 1.1
    width = max(320, LEFT + len(cases) * (BAR + GAP) + 60)

    def y(seconds: float) -> float:
        return round(HEIGHT - 20 - (HEIGHT - 40) * seconds / top, 1)

    bars = []
    for index, (name, cell) in enumerate(cases):
        height = max(2.0, y(0) - y(cell.cpu))  # a fast case still shows
        bars.append(
            {
                "x": LEFT + index * (BAR + GAP),
                "y": round(y(0) - height, 1),
                "w": BAR,
                "h": round(height, 1),
                "color": COLORS.get(cell.verdict, RED),
                "label": f"{name}: {cell.verdict.value}, {cell.cpu:.3f} s",
            }
        )
    lines = [
        {"y": y(v), "label": f"{label} {v:g} s", "dashed": dashed}
        for v, label, dashed in ((limit, "limit", False), (hard, "margin", True))
        if v
    ]
    verdict = row.verdict.value if row.verdict is not None else "-"
    return {
        "name": row.submission,
        "verdict": verdict,
        "width": width,
        "height": HEIGHT,
        "left": LEFT,
        "bars": bars,
        "lines": lines,
        "top_label": f"{top:.2g} s",
    }


def _provenance(report: ProblemReport) -> list[tuple[str, str]]:
    root = Path(report.path)
    if not root.is_dir() or not has_generators(root):
        return []
    plan, _findings = read_plan(load_problem(root))
    rows = []
    for case in plan.cases:
        if case.generate is not None:
            seed = f" (seed {case.generate.seed})" if case.generate.uses_seed else ""
            how = f"generate: {case.generate.text.strip()}{seed}"
        elif case.copy is not None:
            how = f"copy: generators/{case.copy}"
        else:
            how = "inline: " + ", ".join(sorted(case.inline))
        rows.append((case.path, how))
    return rows


def _problem(report: ProblemReport) -> dict[str, Any]:
    groups = sorted({g for row in report.submissions for g in row.groups})
    rows = []
    for row in report.submissions:
        cells = [row.groups.get(g) for g in groups]
        rows.append(
            {
                "name": row.submission,
                "expected": row.expected or "",
                "cells": [
                    {
                        "verdict": c.verdict.value if c else "",
                        "text": f"{c.verdict.value} {c.cpu:.2f}s" if c else "-",
                    }
                    for c in cells
                ],
                "verdict": row.verdict.value if row.verdict else "",
                "result": (row.verdict.value if row.verdict else "-")
                + (f" {row.score:g}" if row.score is not None else ""),
            }
        )
    return {
        "name": report.name,
        "format_version": report.format_version,
        "errors": report.errors,
        "warnings": report.warnings,
        "interrupted": report.interrupted,
        "time_limit": report.time_limit,
        "time_limit_source": report.time_limit_source,
        "hard": report.time_limit_hard,
        "findings": [
            {
                "severity": f.severity.value,
                "message": f.message,
                "where": (f.path or "") + (f":{f.line}" if f.line else ""),
            }
            for f in report.findings
        ],
        "groups": groups,
        "rows": rows,
        "charts": [
            _chart(r, report.time_limit, report.time_limit_hard)
            for r in report.submissions
            if r.cases
        ],
        "constraints": report.constraints,
        "provenance": _provenance(report),
    }


def write_report(run: RunReport, path: Path) -> None:
    """Write the page for ``run`` to ``path`` (whole or not at all)."""
    page = (
        html_env()
        .get_template("report.html.j2")
        .render(problems=[_problem(p) for p in run.problems])
    )
    write_bytes(path, page.encode("utf-8"), parents=True)
