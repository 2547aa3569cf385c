"""Call-based problems (APPS, TACO, LiveCodeBench's functional tests, LeetCode-style rows):
the completion defines a function (or a ``Solution`` class with the method), and each test
calls it with arguments and compares the value it returns.

The call happens in the sandbox, the comparison here: the program run is a harness that
reads the arguments (a JSON list) from stdin, executes the completion as a module (named
``tmp_sol``, with the imports APPS' harness puts before it), calls the function, and
writes the value it returned as JSON on a line of its own after :data:`MARK`; anything the
completion prints goes to stderr. The expected value never enters the sandbox, so a
completion can pass only by returning it.

Comparison, as the datasets' harnesses compare: ``apps`` (APPS, TACO, PrimeIntellect):
the value equals the expected one, or the first element of an expected list (the datasets
wrap each output in one); ``exact`` (LiveCodeBench): equal. Both after JSON's conversion
(a tuple is a list, a dict's keys are strings), as the harnesses turn tuples into lists.
A value JSON cannot hold (a set, an object) is a wrong answer, said so."""

from __future__ import annotations

import json
from dataclasses import dataclass

APPS = "apps"
EXACT = "exact"
MARK = "\x1ecallbased-result\x1e "

# The imports APPS' and TACO's harnesses put before a call-based completion (numpy only
# when the interpreter has it), then the harness itself.
_PRELUDE = """\
import sys, time, itertools, collections, math, fractions, random, heapq, bisect, string
from itertools import accumulate, product, permutations, combinations
from collections import Counter, OrderedDict, deque, defaultdict, ChainMap
from functools import lru_cache, reduce
from math import sqrt, sin, cos, tan, ceil, fabs, floor, gcd, exp, log, log2
from typing import *
from heapq import *
try:
    import numpy as np
except ImportError:
    pass
"""

_HARNESS = """\
import json as _json, os as _os, sys as _sys
_SOURCE = {source}
_PRELUDE = {prelude}
_NAME = {name}
_MARK = {mark}


def _arguments():
    args = _json.loads(_sys.stdin.read())
    if args and isinstance(args[0], dict):  # (JSON made the keys strings: APPS undoes it)
        try:
            args[0] = {{int(k): v for k, v in args[0].items()}}
        except ValueError:
            pass
    return args


def _main():
    if hasattr(_sys, "set_int_max_str_digits"):
        _sys.set_int_max_str_digits(0)
    args = _arguments()
    result_fd = _os.dup(1)
    _os.dup2(2, 1)
    _sys.stdout = _sys.stderr
    module = {{"__name__": "tmp_sol", "__builtins__": __builtins__}}
    exec(compile(_PRELUDE, "<prelude>", "exec"), module)
    exec(compile(_SOURCE, "solution.py", "exec"), module)
    if "class Solution" in _SOURCE and "Solution" in module:
        function = getattr(module["Solution"](), _NAME)
    elif _NAME in module:
        function = module[_NAME]
    else:
        raise SystemExit(f"the completion defines no function {{_NAME}}")
    value = function(*args)
    try:
        text = _json.dumps(value)
    except (TypeError, ValueError):
        text = _json.dumps({{"not JSON": type(value).__name__}})
    _os.write(result_fd, ("\\n" + _MARK + text + "\\n").encode())


_main()
"""


@dataclass(frozen=True)
class Call:
    """The function a call-based problem's tests call."""

    fn_name: str


def expected_text(value: object, rule: str) -> str:
    """A test's expected side: the value and how to compare it (never run)."""
    return json.dumps({"rule": rule, "value": value})


def harness(source: str, call: Call) -> str:
    """The Python program run for each test of a call-based problem."""
    return _HARNESS.format(
        source=repr(source), prelude=repr(_PRELUDE), name=repr(call.fn_name), mark=repr(MARK)
    )


def difference(stdout: str, expected: str) -> str | None:
    """None when the call returned the expected value; else why not."""
    spec = json.loads(expected)
    lines = [line for line in stdout.split("\n") if line.startswith(MARK)]
    if not lines:
        return "the function returned nothing (the program ended before it returned)"
    try:  # (the completion can write this line itself: whatever it holds is its answer)
        got = json.loads(lines[-1][len(MARK) :])
        return _compared(got, spec["value"], spec["rule"])
    except (ValueError, RecursionError):  # (not JSON, or nested deeper than Python goes)
        return "the harness's output is not JSON"


def _compared(got: object, wanted: object, rule: str) -> str | None:
    if got == wanted:
        return None
    if rule == APPS and isinstance(wanted, list) and wanted and got == wanted[0]:
        return None
    if isinstance(got, dict) and list(got) == ["not JSON"]:
        return f"returned a {got['not JSON']}, which is no JSON value"
    return f"returned {_short(got)}, expected {_short(wanted)}"


def _short(value: object) -> str:
    text = json.dumps(value)
    return text if len(text) <= 80 else text[:77] + "..."
