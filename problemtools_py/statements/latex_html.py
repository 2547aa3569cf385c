"""A LaTeX statement as an HTML fragment: plasTeX parses, and this walker writes the
HTML itself, so every tag and attribute in the output is one we chose (text is escaped,
math is kept as TeX for MathJax)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html import escape
from typing import Any

from problemtools_py.findings import Finding, error, warning
from problemtools_py.statements import images
from problemtools_py.statements.latex_parse import macro_uses, parse, strip_comments
from problemtools_py.statements.samples_html import SampleCursor
from problemtools_py.statements.source import StatementSource
from problemtools_py.statements.words import word

_SIMPLE = {
    "textbf": "strong",
    "bfseries": "strong",
    "bf": "strong",
    "emph": "em",
    "textit": "em",
    "itshape": "em",
    "it": "em",
    "textsl": "em",
    "texttt": "code",
    "ttfamily": "code",
    "tt": "code",
    "underline": "u",
    "textsc": "span",
    "textrm": "span",
    "textsf": "span",
    "textup": "span",
    "small": "small",
    "footnotesize": "small",
    "large": "span",
    "Large": "span",
    "center": "div",
    "flushleft": "div",
    "flushright": "div",
    "quote": "blockquote",
    "quotation": "blockquote",
    "itemize": "ul",
    "enumerate": "ol",
    "item": "li",
    "description": "dl",
    "footnote": "small",
    "figure": "figure",
    "table": "figure",
    "caption": "figcaption",
    "wrapfigure": "figure",
    "minipage": "div",
}
_SECTIONS = {"section": "h2", "subsection": "h3", "subsubsection": "h4", "paragraph": "h5"}
_MATH = {
    "math",
    "displaymath",
    "equation",
    "equation*",
    "align",
    "align*",
    "eqnarray",
    "eqnarray*",
    "gather",
    "gather*",
    "multline",
    "multline*",
    "ensuremath",
}
_SKIP = {
    "problemname",
    "label",
    "documentclass",
    "usepackage",
    "vspace",
    "hspace",
    "newpage",
    "clearpage",
    "noindent",
    "medskip",
    "bigskip",
    "smallskip",
    "centering",
    "#comment",
    "hline",
    "toprule",
    "midrule",
    "bottomrule",
    "cline",
    "vfill",
    "hfill",
}
_CHARS = {
    "$": "$",
    "&": "&",
    "{": "{",
    "}": "}",
    "%": "%",
    "#": "#",
    "_": "_",
    " ": " ",
    "active::~": "\u00a0",
    "~": "\u00a0",
    "nobreakspace": "\u00a0",
    "ldots": "\u2026",
    "dots": "\u2026",
    "textbackslash": "\\",
    "LaTeX": "LaTeX",
    "TeX": "TeX",
    ",": "\u2009",
    "textasciitilde": "~",
    "textasciicircum": "^",
    "textless": "<",
    "textgreater": ">",
    "textbar": "|",
    "quad": "\u2003",
    "qquad": "\u2003\u2003",
    "S": "\u00a7",
}
_LIGATURES = [("---", "\u2014"), ("--", "\u2013"), ("``", "\u201c"), ("''", "\u201d")]
_BLOCK = re.compile(r"<(?:section|table|div|figure|ul|ol|dl|pre|h[1-6]|blockquote|p)\b")
_CONSTANT = re.compile(r"\\constant\s*\{([^{}]*)\}")


@dataclass
class LatexHtml:
    source: StatementSource
    cursor: SampleCursor
    findings: list[Finding] = field(default_factory=list)
    images: set[str] = field(default_factory=set)

    @property
    def rel(self) -> str:
        return self.source.statement.rel

    def render(self) -> str:
        self._static_checks()
        document, complaints = parse(self.source.text)
        for complaint in complaints:
            self._complaint(complaint.message, complaint.line)
        body = "".join(self.node(child) for child in _body(document))
        return body + self.cursor.remaining()

    def _complaint(self, message: str, line: int | None) -> None:
        unknown = re.match(r"unrecognized command/environment: (\S+)", message)
        if unknown:
            self.findings.append(
                error(
                    "statement",
                    f"undefined macro or environment \\{unknown.group(1)}",
                    self.rel,
                    line,
                )
            )
        else:
            self.findings.append(warning("statement", f"plasTeX: {message}", self.rel, line))

    def _static_checks(self) -> None:
        text = self.source.text
        for name, line in macro_uses(text, "constant"):
            if name not in self.source.constants:
                self.findings.append(
                    error(
                        "statement",
                        f"\\constant{{{name}}}: problem.yaml defines no constant '{name}'",
                        self.rel,
                        line,
                    )
                )
        nexts = macro_uses(text, "nextsample")
        for count, (_, line) in enumerate(nexts, 1):
            if count > len(self.source.samples):
                self.findings.append(
                    error(
                        "statement",
                        f"\\nextsample number {count}, but data/sample has only "
                        f"{_count(len(self.source.samples), 'sample')}",
                        self.rel,
                        line,
                    )
                )

    def children(self, node: Any) -> str:
        return "".join(self.node(child) for child in node.childNodes)

    def node(self, node: Any) -> str:
        name = node.nodeName
        if name == "#text":
            return _text(str(node))
        if name in _MATH:
            return self._math(node)
        if name in _SKIP or isinstance(node, _unrecognized()):
            return ""
        if name == "par":
            inner = self.children(node)
            if not inner.strip() or _BLOCK.search(inner):
                return inner
            return f"<p>{inner}</p>"
        if name in _SECTIONS:
            return self._section(node, _SECTIONS[name])
        if name in ("Input", "Output", "Interaction"):
            heading = escape(word(self.source.statement.lang, name))
            return (
                f'<section class="{name.lower()}"><h2>{heading}</h2>{self.children(node)}</section>'
            )
        if name in ("\\", "newline", "linebreak"):
            return "<br>"
        if name in ("verbatim", "alltt", "lstlisting", "Verbatim"):
            return f"<pre>{escape(_verbatim(node))}</pre>"
        if name in ("verb",):
            return f"<code>{escape(_verbatim(node))}</code>"
        if name in ("tabular", "tabular*", "array", "tabularx", "longtable"):
            return self._table(node)
        if name in ("includegraphics", "illustration"):
            return self._image(node)
        if name in ("href", "url"):
            return self._link(node)
        return self._other(node, name)

    def _other(self, node: Any, name: str) -> str:
        if name == "constant":
            return escape(self.source.constants.get(_attr(node, "name"), ""))
        if name in ("nextsample", "remainingsamples", "includesample", "sampletable"):
            return self._sample_macro(node, name)
        if name in _CHARS:
            return escape(_CHARS[name])
        if (
            name == "item"
            and node.parentNode is not None
            and node.parentNode.nodeName == "description"
        ):
            term = node.attributes.get("term") if node.attributes else None
            label = self.node(term) if term is not None and hasattr(term, "nodeName") else ""
            return f"<dt>{label}</dt><dd>{self.children(node)}</dd>"
        tag = _SIMPLE.get(name)
        inner = self.children(node)
        if tag is None:
            return inner
        cls = f' class="{name}"' if tag in ("div", "span", "figure", "small") else ""
        return f"<{tag}{cls}>{inner}</{tag}>"

    def _sample_macro(self, node: Any, name: str) -> str:
        if name == "nextsample":
            return self.cursor.next() or ""
        if name == "remainingsamples":
            return self.cursor.remaining()
        if name == "includesample":
            wanted = _attr(node, "name")
            table = self.cursor.by_name(wanted)
            if table is None:
                self._error(f"\\includesample{{{wanted}}}: no such sample in data/sample", wanted)
            return table or ""
        texts = []
        for key in ("filein", "fileout"):
            found = images.resolve(self.source.directory, _attr(node, key), ("",))
            if found is None:
                self._error(
                    f"\\sampletable: file {_attr(node, key)} not found beside the statement",
                    _attr(node, key),
                )
                return ""
            texts.append((self.source.directory / found).read_text(errors="replace"))
        heads = [self.node(node.attributes[k]) for k in ("hdrin", "hdrout")]
        return (
            f'<table class="sample"><thead><tr><th>{heads[0]}</th><th>{heads[1]}</th></tr>'
            f"</thead><tbody><tr><td><pre>{escape(texts[0])}</pre></td>"
            f"<td><pre>{escape(texts[1])}</pre></td></tr></tbody></table>"
        )

    def _error(self, message: str, near: str) -> None:
        self.findings.append(error("statement", message, self.rel, self._line_of(near)))

    def _math(self, node: Any) -> str:
        source = _CONSTANT.sub(
            lambda m: self.source.constants.get(m.group(1), m.group(0)), node.source
        ).strip()
        if node.nodeName == "math":
            inner = source[1:-1] if source.startswith("$") else source[2:-2]
            return f'<span class="math">\\({escape(inner)}\\)</span>'
        if node.nodeName == "displaymath" and source.startswith(("$$", "\\[")):
            return f'<div class="math">\\[{escape(source[2:-2])}\\]</div>'
        return f'<div class="math">{escape(source)}</div>'

    def _section(self, node: Any, tag: str) -> str:
        title = node.attributes.get("title") if node.attributes else None
        heading = self.node(title) if title is not None and hasattr(title, "nodeName") else ""
        return f"<section><{tag}>{heading}</{tag}>{self.children(node)}</section>"

    def _table(self, node: Any) -> str:
        rows = []
        for row in node.childNodes:
            if row.nodeName != "ArrayRow":
                continue
            cells = "".join(f"<td>{_unpar(self.children(cell))}</td>" for cell in row.childNodes)
            if cells.replace("<td></td>", ""):
                rows.append(f"<tr>{cells}</tr>")
        return '<table class="tabular">' + "".join(rows) + "</table>"

    def _line_of(self, needle: str) -> int | None:
        for number, line in enumerate(strip_comments(self.source.text).split("\n"), 1):
            if needle and needle in line:
                return number
        return None

    def _image(self, node: Any) -> str:
        name = _attr(node, "file")
        line = self._line_of(name)
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
            return ""
        found = images.resolve(self.source.directory, name, images.HTML_EXTENSIONS)
        if found is None:
            pdf = images.resolve(self.source.directory, name, (".pdf",))
            message = (
                (
                    f"image {name} is a PDF, which HTML cannot show; add a PNG or SVG "
                    "version beside it"
                )
                if pdf
                else f"image {name} not found beside the statement"
            )
            self.findings.append((warning if pdf else error)("statement", message, self.rel, line))
            return ""
        problem = images.unsafe_svg(self.source.directory / found)
        if problem:
            self.findings.append(error("statement", f"image {found}: {problem}", self.rel, line))
            return ""
        self.images.add(found)
        img = f'<img src="{escape(found)}" alt="">'
        if node.nodeName != "illustration":
            return img
        width = _fraction(_attr(node, "width"))
        caption = node.attributes.get("caption")
        text = self.node(caption) if caption is not None and hasattr(caption, "nodeName") else ""
        return (
            f'<figure class="illustration" style="width: {width}%">{img}'
            f"<figcaption>{text}</figcaption></figure>"
        )

    def _link(self, node: Any) -> str:
        url = _attr(node, "url")
        text = self.node(node.attributes["self"]) if node.nodeName == "href" else escape(url)
        if not re.match(r"^(https?:|mailto:)", url):
            return text
        return f'<a href="{escape(url)}">{text}</a>'


def _body(document: Any) -> list[Any]:
    for child in document.childNodes:
        if child.nodeName == "document":
            return list(child.childNodes)
    return []


def _unrecognized() -> type:
    import plasTeX

    return plasTeX.UnrecognizedMacro  # type: ignore[no-any-return]


def _text(raw: str) -> str:
    for tex, char in _LIGATURES:
        raw = raw.replace(tex, char)
    return escape(raw.replace("~", "\u00a0"))


def _unpar(html: str) -> str:
    stripped = html.strip()
    if stripped.startswith("<p>") and stripped.endswith("</p>") and stripped.count("<p>") == 1:
        return stripped[3:-4].strip()
    return stripped


def _attr(node: Any, key: str) -> str:
    value = node.attributes.get(key) if node.attributes else None
    if value is None:
        return ""
    return value.textContent if hasattr(value, "textContent") else str(value)


def _verbatim(node: Any) -> str:
    return "".join(str(child) for child in node.childNodes) if node.childNodes else str(node)


def _fraction(value: str) -> int:
    try:
        return max(5, min(100, round(float(value) * 100)))
    except ValueError:
        return 40


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"
