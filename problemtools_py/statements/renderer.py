"""What the LaTeX and Markdown HTML writers share: the statement, the sample cursor, the
findings and images they collect, and how an image reference is checked."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from problemtools_py.findings import Finding, error, warning
from problemtools_py.statements import images
from problemtools_py.statements.pdf_figures import png_of
from problemtools_py.statements.samples_html import SampleCursor
from problemtools_py.statements.source import StatementSource


@dataclass
class HtmlWriter:
    """The HTML of one statement being written: its source, samples, images, findings."""

    source: StatementSource
    cursor: SampleCursor
    findings: list[Finding] = field(default_factory=list)
    images: set[str] = field(default_factory=set)
    converted: dict[str, Path] = field(default_factory=dict)  # image name -> the file made

    def _pdf_figure(self, pdf: str, line: int | None) -> str | None:
        """A PDF figure as the PNG made of it (see pdf_figures.py), or None with a warning
        when it cannot be made."""
        made = png_of(self.source.directory / pdf)
        if isinstance(made, str):
            message = (
                f"image {pdf} is a PDF, which HTML cannot show, and no PNG was made of it: {made}"
            )
            self.findings.append(warning("statement", message, self.rel, line))
            return None
        name = f"{pdf}.png"
        self.converted[name] = made
        self.images.add(name)
        return name

    @property
    def rel(self) -> str:
        return self.source.statement.rel

    def image(self, name: str, line: int | None, pdf_allowed: bool) -> str | None:
        """The file (beside the statement) an image reference shows, recorded to be copied
        beside the page; None, with the finding why, when it cannot be shown: a URL, a
        missing file, an SVG with scripts or external references. A PDF, where the format
        allows PDF images (LaTeX), is shown as a PNG made of it."""
        if images.is_url(name):
            self.findings.append(
                warning(
                    "statement",
                    f"image {name} is referenced by URL; it is not included "
                    "(statements may not use external resources)",
                    self.rel,
                    line,
                )
            )
            return None
        directory = self.source.directory
        found = images.resolve(directory, name, images.HTML_EXTENSIONS)
        if found is None:
            pdf = images.resolve(directory, name, (".pdf",)) if pdf_allowed else None
            if pdf is not None:
                return self._pdf_figure(pdf, line)
            message = f"image {name} not found beside the statement"
            self.findings.append(error("statement", message, self.rel, line))
            return None
        if pdf_allowed and found.lower().endswith(".pdf"):  # (named with its extension)
            return self._pdf_figure(found, line)
        problem = images.unsafe_svg(directory / found)
        if problem:
            self.findings.append(error("statement", f"image {found}: {problem}", self.rel, line))
            return None
        self.images.add(found)
        return found
