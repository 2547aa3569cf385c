"""Mutants of a C or C++ program (auditdata), by a small token-level mutator: the source
read as tokens, comments, string and character literals and preprocessor lines left
alone, and one token (or one ``if`` condition) changed per mutant:

- ``compare``: ``<`` and ``<=``, ``>`` and ``>=``, ``==`` and ``!=`` swapped (a ``<``
  or ``>`` that opens or closes a template's arguments is left alone: ``vector<int>``);
- ``arith``: ``+`` and ``-`` swapped, ``+=`` and ``-=`` too;
- ``constant``: a decimal integer literal one larger;
- ``narrow``: ``long long`` (and ``int64_t``, ``long``) narrowed to ``int``;
- ``branch``: an ``if``'s condition made ``0 && (...)``: its body never runs.

A mutant that no longer compiles is left out by the caller (not built)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import dataclass

from problemtools_py.audit.mutants import Mutant

TOKEN = re.compile(r"""
    (?P<skip>//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|^[ \t]*\#[^\n]*)
  | (?P<narrow>\blong\s+long\b|\bint64_t\b|\blong\b)
  | (?P<number>(?<![\w.])\d+(?![\w.]))
  | (?P<op><<=|>>=|<=|>=|==|!=|\+=|-=|\+\+|--|->|<<|>>|&&|\|\||[<>+\-])
  | (?P<if>\bif\s*\()
  | (?P<word>[A-Za-z_]\w*)
""", re.VERBOSE | re.DOTALL | re.MULTILINE)  # fmt: skip
SWAPS = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "==", "+": "-",
         "-": "+", "+=": "-=", "-=": "+="}  # fmt: skip
OPERATORS = {"<": "compare", "<=": "compare", ">": "compare", ">=": "compare",
             "==": "compare", "!=": "compare", "+": "arith", "-": "arith", "+=": "arith",
             "-=": "arith"}  # fmt: skip
TYPES = frozenset({"int", "long", "short", "char", "bool", "double", "float", "unsigned",
                   "signed", "string", "size_t", "vector", "pair", "map", "set", "array",
                   "const", "std"})  # fmt: skip


@dataclass(frozen=True)
class Site:
    """One change: the text from ``start`` to ``end`` becomes ``new``."""

    operator: str
    start: int
    end: int
    new: str
    change: str


def _sites(code: str) -> Iterator[Site]:
    tokens = list(TOKEN.finditer(code))
    for index, token in enumerate(tokens):
        kind, text = token.lastgroup, token.group()
        if kind == "number":
            yield Site(
                "constant",
                token.start(),
                token.end(),
                str(int(text) + 1),
                f"{text} -> {int(text) + 1}",
            )
        elif kind == "narrow":
            yield Site(
                "narrow", token.start(), token.end(), "int", f"{' '.join(text.split())} -> int"
            )
        elif kind == "op" and text in SWAPS and not _template(tokens, index):
            yield Site(
                OPERATORS[text], token.start(), token.end(), SWAPS[text], f"{text} -> {SWAPS[text]}"
            )
        elif kind == "if":
            close = _closing(code, token.end())
            if close is not None:
                yield Site(
                    "branch",
                    token.end(),
                    close,
                    f"0 && ({code[token.end() : close]})",
                    "if body never runs",
                )


def _template(tokens: list[re.Match[str]], index: int) -> bool:
    """Whether a ``<`` or ``>`` at ``index`` opens or closes a template's arguments: a
    type name beside it (``vector<int>``, ``pair<int, int> p``)."""
    text = tokens[index].group()
    if text not in ("<", ">"):
        return False
    before = tokens[index - 1] if index > 0 else None
    after = tokens[index + 1] if index + 1 < len(tokens) else None
    typed = [
        t
        for t in (before, after)
        if t is not None and (t.group() in TYPES or t.lastgroup == "narrow")
    ]
    return bool(typed) or (text == ">" and before is not None and before.group().endswith(">"))


def _closing(code: str, start: int) -> int | None:
    """Where the parenthesis opened just before ``start`` closes."""
    depth = 1
    for at in range(start, len(code)):
        if code[at] == "(":
            depth += 1
        elif code[at] == ")":
            depth -= 1
            if depth == 0:
                return at
    return None


def c_mutants(code: str, limit: int, seed: int = 0) -> list[Mutant]:
    """At most ``limit`` mutants of a C or C++ program (a sample, the same for a seed)."""
    sites = list(_sites(code))
    chosen = list(range(len(sites)))
    if len(chosen) > limit:
        chosen = sorted(random.Random(seed).sample(chosen, limit))
    found = []
    for index in chosen:
        site = sites[index]
        line = code.count("\n", 0, site.start) + 1
        text = code[: site.start] + site.new + code[site.end :]
        found.append(
            Mutant(f"{site.operator}@{index}:L{line}", site.operator, line, site.change, text)
        )
    return found
