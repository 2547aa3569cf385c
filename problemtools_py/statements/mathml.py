"""Math rendered to MathML when the page is built (latex2mathml), so a statement reads
right with no network and no script: browsers render MathML natively. Each
``<span class="math">\\(...\\)</span>`` / ``<div class="math">...</div>`` the renderers
write becomes a ``<math>`` element; the result passes an allowlist of MathML elements and
attributes (nh3), since a TeX ``\\text{...}`` is copied into it as it is. Math the
converter cannot read stays TeX, and is said."""

from __future__ import annotations

import html
import re

MATH = re.compile(r'<(span|div) class="math">(.*?)</\1>', re.S)
TAGS = frozenset({"math", "mrow", "mi", "mo", "mn", "ms", "mtext", "mspace", "msup", "msub",
                  "msubsup", "mfrac", "msqrt", "mroot", "mover", "munder", "munderover",
                  "mtable", "mtr", "mtd", "mstyle", "mpadded", "mphantom", "menclose",
                  "merror", "semantics", "annotation"})  # fmt: skip
ATTRIBUTES = frozenset({"xmlns", "display", "mathvariant", "stretchy", "fence", "separator",
                        "lspace", "rspace", "accent", "accentunder", "movablelimits",
                        "minsize", "maxsize", "width", "height", "depth", "columnalign",
                        "rowspacing", "columnspacing", "columnlines", "rowlines", "frame",
                        "displaystyle", "scriptlevel", "notation", "linethickness", "form",
                        "largeop", "symmetric", "encoding", "align"})  # fmt: skip


def _tex(inner: str) -> tuple[str, bool]:
    """The TeX of a math element's text, and whether it is displayed."""
    text = html.unescape(inner).strip()
    if text.startswith("\\(") and text.endswith("\\)"):
        return text[2:-2], False
    if text.startswith("\\[") and text.endswith("\\]"):
        return text[2:-2], True
    return text, True  # (an environment: equation, align, ...)


def to_mathml(body: str) -> tuple[str, list[str]]:
    """``body`` with its math as MathML, and the TeX of each piece left as it was."""
    if MATH.search(body) is None:
        return body, []  # (and the converter, 50-80 ms to import, is not loaded)
    import nh3
    from latex2mathml.converter import convert

    failed: list[str] = []
    tags = set(TAGS)
    attributes = {tag: set(ATTRIBUTES) for tag in TAGS}

    def one(match: re.Match[str]) -> str:
        tex, display = _tex(match.group(2))
        try:
            made = convert(tex, display="block" if display else "inline")
        except Exception:  # (the converter's own errors are of many kinds)
            failed.append(tex)
            return match.group(0)
        clean = nh3.clean(made, tags=tags, attributes=attributes, link_rel=None)
        return f'<{match.group(1)} class="math">{clean}</{match.group(1)}>'

    return MATH.sub(one, body), failed
