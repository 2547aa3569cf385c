"""A Python program that fails as Python 2 code fails under Python 3, named as such: this
judge runs Python 3 (as the dataset's grader, and Kattis problemtools where no python2 is
installed), so a Python 2 program's compile error or run-time error is told with what
marks it as Python 2, rather than as a mystery (the dataset card: many old accepted
solutions are Python 2: ``print x``, ``raw_input``)."""

from __future__ import annotations

import re

# An error's text -> what in the program it shows: Python 3's own words for Python 2's
# statements, literals and builtins.
_SIGNS = (
    (re.compile(r"Missing parentheses in call to 'print'"), "a print statement"),
    (re.compile(r"Missing parentheses in call to 'exec'"), "an exec statement"),
    (re.compile(r"multiple exception types must be parenthesized"), "'except E, name:'"),
    (re.compile(r"leading zeros in decimal integer literals"), "an octal literal such as 0777"),
    (re.compile(r"NameError: name '(raw_input|xrange|unicode|unichr|basestring|long|cmp|"
                r"execfile|reduce|file|raw_input)' is not defined"), "{0}()"),
    (re.compile(r"AttributeError: '\w+' object has no attribute "
                r"'(iteritems|itervalues|iterkeys|has_key)'"), ".{0}()"),
)  # fmt: skip
RUNS = "this judge runs Python 3"


def python2_sign(error: str) -> str | None:
    """What in a Python program's error (a compile error, or the end of its stderr)
    marks it as Python 2, or None."""
    for pattern, sign in _SIGNS:
        found = pattern.search(error)
        if found:
            return sign.format(*found.groups())
    return None


def named_for(language: str, error: str) -> str:
    """:func:`named` for a Python 3 program's error; another language's as it is."""
    return named(error) if language == "python3" else error


def named(error: str) -> str:
    """``error`` led by ``Python 2 program (SIGN); this judge runs Python 3`` when it
    shows one, else as it is."""
    sign = python2_sign(error)
    return f"Python 2 program ({sign}); {RUNS}: {error}" if sign else error
