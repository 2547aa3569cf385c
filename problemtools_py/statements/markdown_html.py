"""A Markdown statement (2023-07) as an HTML fragment: CommonMark with tables, footnotes
and ``$``/``$$`` math kept as TeX for MathJax; ``{{nextsample}}``, ``{{remainingsamples}}``
and ``{{constant}}`` substituted; images checked and kept local."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import partial
from html import escape
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.footnote import footnote_plugin

from problemtools_py.findings import error
from problemtools_py.statements.renderer import HtmlWriter

_PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?)\s*\}\}")
_MARK = "PTPY-SAMPLES-{}-END"
_COMMENT = re.compile(r"<!--.*?(?:-->|$)", re.DOTALL)
# (an attribute starts after a space, a '/' or a closing quote: HTML reads
# <img/src=x/onerror=...> and <b id="a"onclick=...> as attributes too)
_ACTIVE = re.compile(
    r"<\s*(?:script|iframe|object|embed|frame|applet)\b|[\s/\"']on[a-z]+\s*=|javascript\s*:"
    r"|(?P<src>[\s/\"'](?:src|srcset|data|poster)\s*=\s*[\"']?\s*(?:[a-z][a-z0-9+.-]*:|//))",
    re.IGNORECASE,
)
_EDGES = " \t\n/\"'"  # (what may precede an attribute: not shown in the message)


def parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": True}).enable("table").enable("strikethrough")
    md.use(dollarmath_plugin, double_inline=True).use(footnote_plugin)
    md.add_render_rule("math_inline", _math_inline)
    md.add_render_rule("math_inline_double", _math_block)
    md.add_render_rule("math_block", _math_block)
    return md


def _math_inline(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    return f'<span class="math">\\({escape(tokens[idx].content)}\\)</span>'


def _math_block(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    return f'<div class="math">\\[{escape(tokens[idx].content.strip())}\\]</div>'


class MarkdownHtml(HtmlWriter):
    def substitute(self, text: str) -> str:
        """Constants replaced, sample placeholders marked (checked with their lines)."""
        out = []
        for number, line in enumerate(text.split("\n"), 1):
            out.append(_PLACEHOLDER.sub(partial(self._placeholder, line=number), line))
        return "\n".join(out)

    def _placeholder(self, match: re.Match[str], line: int) -> str:
        key = match.group(1)
        if key in ("nextsample", "remainingsamples"):
            return _MARK.format(key)
        if key in self.source.constants:
            return self.source.constants[key]
        self.findings.append(
            error(
                "statement",
                f"{{{{{key}}}}}: problem.yaml defines no constant '{key}'",
                self.rel,
                line,
            )
        )
        return match.group(0)

    def render(self) -> str:
        md = parser()
        tokens = md.parse(self.substitute(self.source.text))
        self._images(tokens)
        html = md.renderer.render(tokens, md.options, {})
        return self._samples(html) + self.cursor.remaining()

    def _samples(self, html: str) -> str:
        pattern = re.compile(
            r"(?:<p>)?" + _MARK.format("(nextsample|remainingsamples)") + r"(?:</p>)?"
        )

        def table(match: re.Match[str]) -> str:
            if match.group(1) == "remainingsamples":
                return self.cursor.remaining()
            found = self.cursor.next()
            if found is None:
                self.findings.append(
                    error("statement", "{{nextsample}}, but no samples remain", self.rel)
                )
            return found or ""

        return pattern.sub(table, html)

    def _images(self, tokens: list[Token]) -> None:
        for token in tokens:
            line = token.map[0] + 1 if token.map else None
            self._html(token, line)
            for child in token.children or ():
                if child.type == "image":
                    self._image(child, line)
                self._html(child, line)

    def _html(self, token: Token, line: int | None) -> None:
        """Raw HTML that scripts or loads from elsewhere, which 2025-09 forbids in a
        statement (the page drops it: sanitize.py; the package is still wrong)."""
        if token.type not in ("html_block", "html_inline"):
            return
        found = _ACTIVE.search(_COMMENT.sub("", token.content))
        if found is not None:
            what = (
                "loads a resource from outside the package" if found.group("src") else ("scripts")
            )
            shown = found.group(0).lstrip(_EDGES)[:40]
            self.findings.append(
                error(
                    "statement",
                    f"raw HTML that {what} ({shown}): a "
                    "statement may not contain scripting or reference external resources",
                    self.rel,
                    line,
                )
            )

    def _image(self, token: Token, line: int | None) -> None:
        found = self.image(str(token.attrGet("src") or ""), line, pdf_allowed=False)
        token.attrSet("src", found or "")
