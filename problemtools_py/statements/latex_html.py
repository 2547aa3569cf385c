"""A LaTeX statement as an HTML fragment: plasTeX parses, and this walker writes the
HTML itself, so every tag and attribute in the output is one we chose (text is escaped,
math is kept as TeX for MathJax)."""

from __future__ import annotations

import re
from html import escape
from typing import Any

from problemtools_py.findings import count, error, warning
from problemtools_py.model.constants import substitute_latex
from problemtools_py.model.statements import strip_comments
from problemtools_py.statements import images
from problemtools_py.statements import latex_nodes as nodes
from problemtools_py.statements.latex_parse import PARSE_FAILED, macro_uses, parse
from problemtools_py.statements.renderer import HtmlWriter
from problemtools_py.statements.words import word

UNDEFINED = "undefined macro or environment"  # (statements.check matches findings by it)
# plasTeX's notes on a \usepackage it has no Python version of, and ours on not reading it
PACKAGE_NOTE = re.compile(r"No Python version of \S+ was found|Will now try to load a LaTeX "
                          r"implementation of|\.sty: only files beside the statement")  # fmt: skip


class LatexHtml(HtmlWriter):
    def render(self) -> str:
        self._static_checks()
        document, complaints = parse(self.source.text, self.source.directory)
        for complaint in complaints:
            self._complaint(complaint.message, complaint.line)
        body = "".join(self.node(child) for child in nodes.body(document))
        return body + self.cursor.remaining()

    def _complaint(self, message: str, line: int | None) -> None:
        unknown = re.match(r"unrecognized command/environment: (\S+)", message)
        missing = re.match(r"File not found: (.+)", message)
        if PACKAGE_NOTE.search(message):
            return  # (a package plasTeX lacks: what it defines is reported where used)
        if unknown:  # (only the HTML's loss: the PDF, made by LaTeX, says if it is wrong)
            self.findings.append(
                warning(
                    "statement",
                    f"{UNDEFINED} \\{unknown.group(1)}: the HTML shows its arguments as text",
                    self.rel,
                    line,
                )
            )
            return
        if "still expanding" in message or message.startswith(PARSE_FAILED):
            text = message
        elif missing:
            text = (
                f"\\input{{{missing.group(1)}}}: no such file beside the statement (only "
                "files in the statement's directory are read)"
            )
        else:
            self.findings.append(warning("statement", f"plasTeX: {message}", self.rel, line))
            return
        self.findings.append(error("statement", text, self.rel, line))

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
        for number, (_, line) in enumerate(nexts, 1):
            if number > len(self.source.samples):
                self.findings.append(
                    error(
                        "statement",
                        f"\\nextsample number {number}, but data/sample has only "
                        f"{count(len(self.source.samples), 'sample')}",
                        self.rel,
                        line,
                    )
                )

    def children(self, node: Any) -> str:
        return "".join(self.node(child) for child in node.childNodes)

    def node(self, node: Any) -> str:
        name = node.nodeName
        if name == "#text":
            return nodes.text(str(node))
        if name in nodes.MATH:
            return self._math(node)
        if name in nodes.SKIP or isinstance(node, nodes.unrecognized()):
            # plasTeX hangs what follows a declaration (\\small, \\noindent) below it
            return "" if name in ("problemname", "#comment") else self.children(node)
        if name in ("ref", "eqref", "pageref"):
            target = node.idref.get("label") if getattr(node, "idref", None) else None
            number = getattr(getattr(target, "ref", None), "textContent", None)
            return escape(str(number)) if number else "??"
        if name == "par":
            inner = self.children(node)
            if not inner.strip() or nodes.BLOCK.search(inner):
                return inner
            return f"<p>{inner}</p>"
        if name in nodes.SECTIONS:
            return self._section(node, nodes.SECTIONS[name])
        if name in ("Input", "Output", "Interaction"):
            heading = escape(word(self.source.statement.lang, name))
            return (
                f'<section class="{name.lower()}"><h2>{heading}</h2>{self.children(node)}</section>'
            )
        if name in ("\\", "newline", "linebreak"):
            return "<br>"
        if name in ("verbatim", "alltt", "lstlisting", "Verbatim"):
            return f"<pre>{escape(nodes.verbatim(node))}</pre>"
        if name in ("verb",):
            return f"<code>{escape(nodes.verbatim(node))}</code>"
        if name in ("tabular", "tabular*", "array", "tabularx", "longtable"):
            return self._table(node)
        if name in ("includegraphics", "illustration"):
            return self._image(node)
        if name in ("href", "url"):
            return self._link(node)
        return self._other(node, name)

    def _other(self, node: Any, name: str) -> str:
        if name == "constant":
            return escape(self.source.constants.get(nodes.attr(node, "name"), ""))
        if name in ("problemyamlname", "timelimit"):
            said = self.source.name if name == "problemyamlname" else self.source.time_limit_text
            return escape(said)
        if name in ("newcolumntype", "arraybackslash"):
            return ""
        if name in ("shortstack", "scalerel", "stretchrel"):
            part = node.attributes.get("text" if name == "shortstack" else "base")
            return self.children(part) if part is not None else ""
        if name in ("nextsample", "remainingsamples", "includesample", "sampletable"):
            return self._sample_macro(node, name)
        if name in nodes.CHARS:
            return escape(nodes.CHARS[name])
        if (
            name == "item"
            and node.parentNode is not None
            and node.parentNode.nodeName == "description"
        ):
            term = node.attributes.get("term") if node.attributes else None
            label = self.node(term) if term is not None and hasattr(term, "nodeName") else ""
            return f"<dt>{label}</dt><dd>{self.children(node)}</dd>"
        tag = nodes.SIMPLE.get(name)
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
            wanted = nodes.attr(node, "name")
            table = self.cursor.by_name(wanted)
            if table is None:
                self._error(f"\\includesample{{{wanted}}}: no such sample in data/sample", wanted)
            return table or ""
        texts = []
        for key in ("filein", "fileout"):
            found = images.resolve(self.source.directory, nodes.attr(node, key), ("",))
            if found is None:
                self._error(
                    f"\\sampletable: file {nodes.attr(node, key)} not found beside the statement",
                    nodes.attr(node, key),
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
        source = substitute_latex(node.source, self.source.constants).strip()
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
            cells = "".join(
                f"<td>{nodes.unpar(self.children(cell))}</td>" for cell in row.childNodes
            )
            if cells.replace("<td></td>", ""):
                rows.append(f"<tr>{cells}</tr>")
        return '<table class="tabular">' + "".join(rows) + "</table>"

    def _line_of(self, needle: str) -> int | None:
        for number, line in enumerate(strip_comments(self.source.text).split("\n"), 1):
            if needle and needle in line:
                return number
        return None

    def _image(self, node: Any) -> str:
        name = nodes.attr(node, "file")
        found = self.image(name, self._line_of(name), pdf_allowed=True)
        if found is None:
            return ""
        img = f'<img src="{escape(found)}" alt="">'
        if node.nodeName != "illustration":
            return img
        width = nodes.fraction(nodes.attr(node, "width"))
        caption = node.attributes.get("caption")
        text = self.node(caption) if caption is not None and hasattr(caption, "nodeName") else ""
        return (
            f'<figure class="illustration" style="width: {width}%">{img}'
            f"<figcaption>{text}</figcaption></figure>"
        )

    def _link(self, node: Any) -> str:
        url = nodes.attr(node, "url")
        text = self.node(node.attributes["self"]) if node.nodeName == "href" else escape(url)
        if not re.match(r"^(https?:|mailto:)", url):
            return text
        return f'<a href="{escape(url)}">{text}</a>'
