"""Plain text made safe inside a LaTeX document: TeX's special characters become the
commands that typeset them."""

from __future__ import annotations

import re

_SPECIAL = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "$": r"\$",
    "&": r"\&",
    "#": r"\#",
    "_": r"\_",
    "%": r"\%",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}
_RE = re.compile("|".join(re.escape(c) for c in _SPECIAL))


def tex_escape(text: object) -> str:
    return _RE.sub(lambda m: _SPECIAL[m.group(0)], str(text))
