"""The ``constants`` of problem.yaml as text: ``{{name}}`` and ``{{name.variant}}`` in
Markdown statements, validators, included files, example submissions and
test_group.yaml, and ``\\constant{name}`` / ``\\constant{name.variant}`` in LaTeX.

A constant is a scalar, or (2025-09) a map with a ``value`` and variant keys giving other
representations of it (``tex: 5,000,000``); ``name`` means ``name.value``."""

from __future__ import annotations

import re
from collections.abc import Mapping

SEQUENCE = re.compile(r"\{\{([a-zA-Z_][a-zA-Z0-9_]*(?:\.[a-zA-Z_][a-zA-Z0-9_]*)?)\}\}")
LATEX_COMMAND = re.compile(r"\\constant\s*\{([^{}]*)\}")  # a LaTeX statement's \constant{...}


def _text(value: object) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)


def constant_texts(constants: Mapping[str, object]) -> dict[str, str]:
    """Every way to name a constant (``name``, ``name.value``, ``name.variant``) -> text."""
    table: dict[str, str] = {}
    for name, raw in constants.items():
        variants = raw if isinstance(raw, dict) else {"value": raw}
        for variant, value in variants.items():
            table[f"{name}.{variant}"] = _text(value)
        if "value" in variants:
            table[name] = _text(variants["value"])
    return table


def substitute(text: str, table: Mapping[str, str]) -> str:
    """``{{name}}`` and ``{{name.variant}}`` replaced; unknown names are left as they are."""
    return SEQUENCE.sub(lambda m: table.get(m.group(1), m.group(0)), text)


def substitute_latex(text: str, table: Mapping[str, str]) -> str:
    """``\\constant{name}`` and ``\\constant{name.variant}`` replaced; unknown names
    are left as they are."""
    return LATEX_COMMAND.sub(lambda m: table.get(m.group(1), m.group(0)), text)


def substitute_bytes(data: bytes, table: Mapping[str, str], latex: bool = False) -> bytes:
    """The same on a program's file, when it is UTF-8 text that uses a constant (and with
    ``latex``, ``\\constant`` too, for a file that leaves the format's tools)."""
    if not table or (b"{{" not in data and not (latex and b"\\constant" in data)):
        return data
    try:
        text = substitute(data.decode("utf-8"), table)
    except UnicodeDecodeError:
        return data
    return (substitute_latex(text, table) if latex else text).encode("utf-8")
