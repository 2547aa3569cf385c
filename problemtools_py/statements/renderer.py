"""What the LaTeX and Markdown HTML writers share: the statement, the sample cursor, the
findings and images they collect, and how an image reference is checked."""

from __future__ import annotations

from dataclasses import dataclass, field

from problemtools_py.findings import Finding, error, warning
from problemtools_py.statements import images
from problemtools_py.statements.samples_html import SampleCursor
from problemtools_py.statements.source import StatementSource


@dataclass
class HtmlWriter:
    """The HTML of one statement being written: its source, samples, images, findings."""

    source: StatementSource
    cursor: SampleCursor
    findings: list[Finding] = field(default_factory=list)
    images: set[str] = field(default_factory=set)

    @property
    def rel(self) -> str:
        return self.source.statement.rel

    def image(self, name: str, line: int | None, pdf_allowed: bool) -> str | None:
        """The file (beside the statement) an image reference shows, recorded to be copied
        beside the page; None, with the finding why, when it cannot be shown: a URL, a
        missing file (a PDF only where the format allows PDF images: a warning, as HTML
        cannot show it), an SVG with scripts or external references."""
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
            if pdf_allowed and images.resolve(directory, name, (".pdf",)):
                message = (
                    f"image {name} is a PDF, which HTML cannot show; add a PNG or SVG "
                    "version beside it"
                )
                self.findings.append(warning("statement", message, self.rel, line))
            else:
                message = f"image {name} not found beside the statement"
                self.findings.append(error("statement", message, self.rel, line))
            return None
        problem = images.unsafe_svg(directory / found)
        if problem:
            self.findings.append(error("statement", f"image {found}: {problem}", self.rel, line))
            return None
        self.images.add(found)
        return found
