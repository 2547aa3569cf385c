"""Sample tables as HTML (shared by the LaTeX and Markdown paths)."""

from __future__ import annotations

from html import escape

from problemtools_py.statements.source import Sample
from problemtools_py.statements.words import interaction_lines, word


def sample_table(sample: Sample, number: int, lang: str) -> str:
    if sample.interaction is not None:
        return _interaction(sample.interaction, number, lang)
    head_in = f"{escape(word(lang, 'sample_input'))} {number}"
    head_out = f"{escape(word(lang, 'sample_output'))} {number}"
    return (
        '<table class="sample">'
        f"<thead><tr><th>{head_in}</th><th>{head_out}</th></tr></thead>"
        f"<tbody><tr><td><pre>{escape(sample.input or '')}</pre></td>"
        f"<td><pre>{escape(sample.answer or '')}</pre></td></tr></tbody></table>"
    )


def _interaction(transcript: str, number: int, lang: str) -> str:
    rows = []
    for direction, text in interaction_lines(transcript):
        if direction == "pass":
            rows.append(f'<div class="pass">{escape(word(lang, "pass"))} {escape(text)}</div>')
        else:
            rows.append(f'<div class="{direction}"><pre>{escape(text)}</pre></div>')
    head = f"{escape(word(lang, 'sample_interaction'))} {number}"
    legend = (
        f'<div class="legend"><span class="read">{escape(word(lang, "read"))}</span>'
        f'<span class="write">{escape(word(lang, "write"))}</span></div>'
    )
    return f'<div class="sample interaction"><h4>{head}</h4>{legend}' + "".join(rows) + "</div>"


class SampleCursor:
    """Hands out samples in order for ``\\nextsample`` / ``{{nextsample}}``; whatever is
    left goes at the end (or where ``\\remainingsamples`` asks)."""

    def __init__(self, samples: tuple[Sample, ...], lang: str) -> None:
        self.samples = samples
        self.lang = lang
        self.used = 0

    def next(self) -> str | None:
        if self.used >= len(self.samples):
            return None
        self.used += 1
        return sample_table(self.samples[self.used - 1], self.used, self.lang)

    def remaining(self) -> str:
        parts = []
        while (table := self.next()) is not None:
            parts.append(table)
        return "".join(parts)

    def by_name(self, name: str) -> str | None:
        for number, sample in enumerate(self.samples, 1):
            if sample.name == name:
                return sample_table(sample, number, self.lang)
        return None
