"""auditdata's ``--report FILE``: one self-contained HTML page (no script, no external
file): a chart of each problem's kill rate (the share of counted wrong programs its tests
reject), then per problem its survivors with their witnesses, each test group's share,
the tests that reject nothing, the bounds and the notes."""

from __future__ import annotations

from html import escape
from pathlib import Path

from problemtools_py import atomicfile

TYPE_CHECKING = False
if TYPE_CHECKING:
    from problemtools_py.audit.package import Audit

BAR, ROW = 360, 22  # chart: the bar's full width and a row's height, in pixels
STYLE = ("body{font-family:sans-serif;margin:2em;max-width:60em}table{border-collapse:"
         "collapse}td,th{padding:.2em .6em;border-bottom:1px solid #ddd;text-align:left}"
         "code{background:#f4f4f4}.weak{color:#b00}")  # fmt: skip


def write_report(audits: list[Audit], path: Path) -> None:
    parts = [
        f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>auditdata</title>"
        f"<style>{STYLE}</style></head><body><h1>How strong are the tests</h1>",
        _chart(audits),
        *(_section(a) for a in audits),
        "</body></html>\n",
    ]
    atomicfile.write_bytes(path, "".join(parts).encode("utf-8"))


def _chart(audits: list[Audit]) -> str:
    """Horizontal bars: each problem's kill rate (grey: nothing counted)."""
    label = 12 + 8 * max((len(a.problem) for a in audits), default=4)
    height = ROW * len(audits) + 10
    rows = []
    for index, audit in enumerate(audits):
        y = 5 + index * ROW
        score = audit.score
        width = round(BAR * score) if score is not None else 0
        color = "#4a4" if score == 1 else "#c60" if score is not None else "#aaa"
        text = f"{score:.0%}" if score is not None else "-"
        rows.append(
            f"<text x='0' y='{y + 15}'>{escape(audit.problem)}</text>"
            f"<rect x='{label}' y='{y + 3}' width='{BAR}' height='{ROW - 6}' "
            f"fill='#eee'/><rect x='{label}' y='{y + 3}' width='{width}' "
            f"height='{ROW - 6}' fill='{color}'/><text x='{label + BAR + 6}' "
            f"y='{y + 15}'>{text}</text>"
        )
    return (
        f"<h2>Kill rate</h2><svg xmlns='http://www.w3.org/2000/svg' width='"
        f"{label + BAR + 60}' height='{height}' font-size='13'>{''.join(rows)}</svg>"
    )


def _section(audit: Audit) -> str:
    counted = audit.counted
    rejected = sum(p.status == "rejected" for p in counted)
    lines = [
        f"<h2>{escape(audit.problem)}</h2><p>The tests reject {rejected} of "
        f"{len(counted)} wrong programs; "
        f"{sum(p.status == 'equivalent' for p in audit.programs)} equivalent left out; "
        f"largest input {audit.largest_input} bytes.</p>"
    ]
    survivors = [p for p in audit.programs if p.status == "survived"]
    if survivors:
        rows = "".join(
            f"<tr><td><code>{escape(p.name)}</code></td><td>{escape(p.change)}"
            f"</td><td><code>{escape(p.witness)}</code></td></tr>"
            for p in survivors
        )
        lines.append(
            "<table class='weak'><tr><th>survives</th><th>change</th>"
            f"<th>fails</th></tr>{rows}</table>"
        )
    if audit.grouped:
        rows = "".join(
            f"<tr><td>{escape(g)}</td><td>{share:.0%}</td></tr>"
            for g, share in audit.groups().items()
        )
        lines.append(f"<table><tr><th>group</th><th>rejects</th></tr>{rows}</table>")
    for title, items in (
        ("Tests that reject nothing", audit.idle()),
        ("Inputs an input validator rejects", audit.invalid_inputs),
        ("Notes", audit.notes),
    ):
        if items:
            listed = "".join(f"<li>{escape(item)}</li>" for item in items)
            lines.append(f"<p>{title}:</p><ul>{listed}</ul>")
    return "".join(lines)
