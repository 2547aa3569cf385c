"""A Markdown statement as LaTeX for problem2pdf, from the same markdown-it tokens as the
HTML path: text escaped for TeX, math passed through, samples and constants as in HTML."""

from __future__ import annotations

from collections.abc import Callable

from markdown_it.token import Token

from problemtools_py.statements.markdown_html import MarkdownHtml, parser
from problemtools_py.statements.texescape import tex_escape

_OPEN = {
    "em_open": r"\emph{",
    "strong_open": r"\textbf{",
    "s_open": "{",
    "bullet_list_open": "\\begin{itemize}\n",
    "ordered_list_open": "\\begin{enumerate}\n",
    "list_item_open": r"\item ",
    "blockquote_open": "\\begin{quote}\n",
}
_CLOSE = {
    "em_close": "}",
    "strong_close": "}",
    "s_close": "}",
    "link_close": "}",
    "bullet_list_close": "\\end{itemize}\n",
    "ordered_list_close": "\\end{enumerate}\n",
    "list_item_close": "\n",
    "blockquote_close": "\\end{quote}\n",
    "paragraph_close": "\n\n",
    "heading_close": "}\n",
    "th_close": "",
    "td_close": "",
}
_HEADINGS = {"h1": r"\section*{", "h2": r"\section*{", "h3": r"\subsection*{"}


class MarkdownLatex:
    def __init__(self, converter: MarkdownHtml) -> None:
        self.converter = converter  # for substitution, image checks and findings
        self.footnotes: dict[int, str] = {}

    def render(self) -> str:
        md = parser()
        env: dict[str, object] = {}
        tokens = md.parse(self.converter.substitute(self.converter.source.text), env)
        self.converter._images(tokens)
        body = self._blocks(self._take_footnotes(tokens))
        for key in ("nextsample", "remainingsamples"):
            body = body.replace(f"PTPY-SAMPLES-{key}-END", f"\\{key}{{}}")
        return body

    def _take_footnotes(self, tokens: list[Token]) -> list[Token]:
        kept: list[Token] = []
        current: int | None = None
        parts: list[Token] = []
        for token in tokens:
            if token.type == "footnote_open":
                current, parts = int(token.meta["id"]), []
            elif token.type == "footnote_close" and current is not None:
                self.footnotes[current] = self._blocks(parts).strip()
                current = None
            elif current is not None:
                parts.append(token)
            elif not token.type.startswith("footnote_block"):
                kept.append(token)
        return kept

    def _blocks(self, tokens: list[Token]) -> str:
        out: list[str] = []
        table: list[list[str]] = []
        for token in tokens:
            kind = token.type
            if kind == "inline":
                text = self._inline(token.children or [])
                (table[-1].append(text) if table else out.append(text))
            elif kind == "heading_open":
                out.append(_HEADINGS.get(token.tag, r"\subsubsection*{"))
            elif kind in ("fence", "code_block"):
                out.append("\\begin{verbatim}\n" + token.content + "\\end{verbatim}\n")
            elif kind == "math_block":
                out.append("\\[" + token.content.strip() + "\\]\n")
            elif kind == "hr":
                out.append("\n\\medskip\\hrule\\medskip\n")
            elif kind == "table_open":
                table = []
            elif kind == "tr_open":
                table.append([])
            elif kind == "table_close":
                out.append(_tabular(table))
                table = []
            elif kind in _OPEN:
                out.append(_OPEN[kind])
            elif kind in _CLOSE:
                out.append(_CLOSE[kind])
        return "".join(out)

    def _inline(self, tokens: list[Token]) -> str:
        handlers: dict[str, Callable[[Token], str]] = {
            "text": lambda t: tex_escape(t.content),
            "code_inline": lambda t: r"\texttt{" + tex_escape(t.content) + "}",
            "softbreak": lambda t: "\n",
            "hardbreak": lambda t: "\\\\\n",
            "math_inline": lambda t: "$" + t.content + "$",
            "math_inline_double": lambda t: "\\[" + t.content + "\\]",
            "link_open": lambda t: r"\href{" + _url(str(t.attrGet("href") or "")) + "}{",
            "image": self._image,
            "footnote_ref": lambda t: (
                r"\footnote{" + self.footnotes.get(int(t.meta["id"]), "") + "}"
            ),
        }
        out = []
        for token in tokens:
            if token.type in handlers:
                out.append(handlers[token.type](token))
            elif token.type in _OPEN:
                out.append(_OPEN[token.type])
            elif token.type in _CLOSE:
                out.append(_CLOSE[token.type])
        return "".join(out)

    def _image(self, token: Token) -> str:
        src = str(token.attrGet("src") or "")
        if not src:
            return ""
        return (
            r"\includegraphics[width=\linewidth,height=0.35\textheight,keepaspectratio]{"
            + src
            + "}"
        )


def _url(url: str) -> str:
    return url.replace("\\", "").replace("%", r"\%").replace("#", r"\#").replace("}", "")


def _tabular(rows: list[list[str]]) -> str:
    if not rows:
        return ""
    width = max(len(row) for row in rows)
    lines = [" & ".join(row + [""] * (width - len(row))) + r" \\ \hline" for row in rows]
    return (
        "\n\\begin{tabular}{|"
        + "l|" * width
        + "}\\hline\n"
        + "\n".join(lines)
        + "\n\\end{tabular}\n\n"
    )
