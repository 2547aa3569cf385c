"""What the LaTeX-to-HTML writer knows about plasTeX's nodes: which become which tags,
which are characters, which are math, which are dropped; and small helpers on nodes."""

from __future__ import annotations

import re
from html import escape
from typing import Any

SIMPLE = {
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
    "centering": "div",
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
SECTIONS = {"section": "h2", "subsection": "h3", "subsubsection": "h4", "paragraph": "h5"}
MATH = {
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
# Dropped, tag and all (a declaration among them keeps its content: see latex_html).
SKIP = {
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
    "#comment",
    "hline",
    "toprule",
    "midrule",
    "bottomrule",
    "cline",
    "vfill",
    "hfill",
}
CHARS = {
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
LIGATURES = [("---", "\u2014"), ("--", "\u2013"), ("``", "\u201c"), ("''", "\u201d")]
BLOCK = re.compile(r"<(?:section|table|div|figure|ul|ol|dl|pre|h[1-6]|blockquote|p)\b")


def body(document: Any) -> list[Any]:
    """The nodes inside ``\\begin{document}`` (none when the parse never finished)."""
    for child in document.childNodes if document is not None else ():
        if child.nodeName == "document":
            return list(child.childNodes)
    return []


def unrecognized() -> type:
    import plasTeX

    found: type = plasTeX.UnrecognizedMacro
    return found


def text(raw: str) -> str:
    for tex, char in LIGATURES:
        raw = raw.replace(tex, char)
    return escape(raw.replace("~", "\u00a0"))


def unpar(html: str) -> str:
    stripped = html.strip()
    if stripped.startswith("<p>") and stripped.endswith("</p>") and stripped.count("<p>") == 1:
        return stripped[3:-4].strip()
    return stripped


def attr(node: Any, key: str) -> str:
    value = node.attributes.get(key) if node.attributes else None
    if value is None:
        return ""
    return value.textContent if hasattr(value, "textContent") else str(value)


def verbatim(node: Any) -> str:
    return "".join(str(child) for child in node.childNodes) if node.childNodes else str(node)


def fraction(value: str) -> int:
    try:
        return max(5, min(100, round(float(value) * 100)))
    except ValueError:
        return 40
