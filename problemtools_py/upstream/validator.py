"""An input validator for an imported problem, from its statement's bounds and the way
its tests are written, where the bounds can be read (else the package keeps the
validator that accepts exactly its tests: see dataset.export).

It accepts an input when: it is UTF-8; it ends in a newline, and has no carriage return
or tab, when every test is so; its lines hold single spaces between tokens and none at
either end, when every test's do; its first line has the tests' number of tokens and
their kinds (integer, decimal, word), when all tests agree on them; and every integer is
within the statement's bounds (no greater than the greatest upper bound stated, no less
than the least lower one: auditdata's reading of a statement's bounds, see
generate.shaped). It is written only when every test (and every sample) passes it, so
the package verifies; auditdata can then add inputs of its own that it accepts."""

from __future__ import annotations

import json

from problemtools_py.generate.shaped import DECIMAL, INT, integer_ranges, integer_span, within

PROGRAM = '''#!/usr/bin/env python3
"""Input validator of an imported problem (problemtools_py's importdataset): the
statement's bounds and the tests' way of writing. Exit 42 when valid, 43 when not."""
import re
import sys

RULES = json.loads({rules!r})


def kind(token):
    if re.fullmatch(r"-?\\d+", token):
        return "int"
    if re.fullmatch(r"-?\\d+\\.\\d+", token):
        return "decimal"
    return "word"


def why_not(data):
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return "not UTF-8"
    if RULES["newline_end"] and not text.endswith("\\n"):
        return "no newline at the end"
    if RULES["plain"] and ("\\r" in text or "\\t" in text):
        return "a carriage return or a tab"
    lines = text.split("\\n")[:-1] if text.endswith("\\n") else text.split("\\n")
    if RULES["single_spaces"]:
        for number, line in enumerate(lines, 1):
            if "  " in line or line != line.strip(" "):
                return "line %d: spaces other than one between tokens" % number
    first = lines[0].split() if lines else []
    if RULES["first_line"] is not None and [kind(t) for t in first] != RULES["first_line"]:
        return "the first line is not %s" % " ".join(RULES["first_line"])
    least, most = RULES["least"], RULES["most"]
    for token in text.split():
        if kind(token) == "int" and not (len(token) <= 4000 and least <= int(token) <= most):
            return "%s is outside the statement's bounds [%d, %d]" % (token[:30], least, most)
    return None


found = why_not(sys.stdin.buffer.read())
if found is not None:
    print(found, file=sys.stderr)
sys.exit(43 if found else 42)
'''.replace("import re\n", "import json\nimport re\n", 1)


def kind(token: str) -> str:
    if INT.fullmatch(token):
        return "int"
    return "decimal" if DECIMAL.fullmatch(token) else "word"


def rules(statement: str, inputs: list[str]) -> dict[str, object] | None:
    """What the validator checks, or None when the statement states no finite integer
    bounds (or a test breaks them: the bounds were read wrong)."""
    span = integer_span(integer_ranges(statement))
    if span is None or not inputs:
        return None
    least, most = span
    for text in inputs:  # (a test outside the bounds: they were read wrong, or are wrong)
        if any(kind(t) == "int" and not within(t, least, most) for t in text.split()):
            return None
    firsts = {tuple(kind(t) for t in (text.split("\n")[0].split())) for text in inputs}
    return {
        "newline_end": all(text.endswith("\n") for text in inputs),
        "plain": not any("\r" in text or "\t" in text for text in inputs),
        "single_spaces": all(_single_spaced(text) for text in inputs),
        "first_line": list(firsts.pop()) if len(firsts) == 1 else None,
        "least": least,
        "most": most,
    }


def _single_spaced(text: str) -> bool:
    lines = text.split("\n")
    return all(line == line.strip(" ") and "  " not in line for line in lines)


def program(found: dict[str, object]) -> str:
    return PROGRAM.replace("{rules!r}", repr(json.dumps(found, sort_keys=True)))
