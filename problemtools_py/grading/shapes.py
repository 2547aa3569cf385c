"""Tests in the shapes RL datasets ship them, read into one form: a :class:`Suite` of
(stdin, expected) pairs, and for call-based problems the function to call.

Shapes read (each also as a JSON string, or a Python literal as APPS rows hold it, and
with numpy arrays where pandas put them):

- ``[[stdin, stdout], ...]``: this dataset's ``tests_json``;
- ``{"inputs": [...], "outputs": [...], "fn_name"?: name}``: APPS, TACO, PRIME/Eurus, verl's
  code datasets (an APPS row's ``input_output`` field holds it as a string);
- ``{"public_tests" | "private_tests" | "generated_tests": {"input": [...], "output":
  [...]}}``: CodeContests (all three, in that order);
- ``[{"input", "output", "testtype"?: "stdin" | "functional", "metadata"?: {"func_name"}}]``:
  LiveCodeBench and DeepCoder; ``[{"input", "output", "type"?: "stdin_stdout" |
  "function_call", "fn_name"?}]``: PrimeIntellect's verifiable problems;
- ``{"test_cases": [...], "language"?}``: open-r1's ``verification_info``;
- a LiveCodeBench row, ``{"public_test_cases", "private_test_cases", "metadata"}``, its
  private tests *packed* as LiveCodeBench ships them (base64 of zlib of a pickle of the
  JSON text: read as plain values only, a pickle naming anything is refused), packed
  text given alone too.

Stdin tests: a list given as input or output is its lines (as APPS joins them), a
number its text. Call-based tests (see :mod:`~problemtools_py.grading.callbased`): APPS,
TACO and PrimeIntellect give each test's arguments as a list and the expected value
(usually wrapped in a one-element list, which the APPS harness unwraps); LiveCodeBench gives
one JSON value per line of ``input`` and compares exactly."""

from __future__ import annotations

import ast
import base64
import binascii
import io
import json
import math
import pickle
import re
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from problemtools_py.grading.callbased import APPS, EXACT, Call, expected_text

Tests = tuple[tuple[str, str], ...]
SPLITS = ("public_tests", "private_tests", "generated_tests")  # CodeContests' order


@dataclass(frozen=True)
class Suite:
    """A problem's tests as given with the call: pairs of (stdin, expected) and, for a
    call-based problem, the function they call (its stdin a JSON list of arguments, its
    expected the value and how to compare it, see ``callbased.expected_text``)."""

    tests: Tests
    call: Call | None = None


MAX_DEPTH = 32  # tests nested deeper are no test shape (and would exhaust the stack)


def plain(value: object, depth: int = 0) -> object:
    """numpy arrays and scalars (what ``pd.read_parquet`` gives verl) as lists and numbers,
    at any depth up to MAX_DEPTH (deeper: ValueError); everything else as it is."""
    if depth > MAX_DEPTH:
        raise ValueError(f"nested deeper than {MAX_DEPTH} levels")
    tolist = getattr(value, "tolist", None)
    if callable(tolist) and not isinstance(value, str | bytes):
        value = tolist()
    if isinstance(value, Mapping):
        return {str(k): plain(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v, depth + 1) for v in value]
    return value


def decoded(text: str) -> object:
    """A JSON string, LiveCodeBench's packed text, or a Python literal (APPS rows written
    with ``str()``)."""
    try:
        return json.loads(text)
    except ValueError:
        pass
    if looks_packed(text):
        return unpacked(text)
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        raise ValueError("not valid JSON (nor a Python literal)") from None


def suite_of(value: object, fn_name: str | None = None) -> Suite:
    """The tests ``value`` holds, in any shape above (``fn_name``: the function of a
    call-based problem whose tests do not name it). Raises ValueError saying what is
    wrong."""
    value = plain(value)
    if isinstance(value, str):
        value = plain(decoded(value.strip()))
    if isinstance(value, dict):
        return _from_dict(value, fn_name)
    if isinstance(value, list):
        if value and all(isinstance(t, dict) for t in value):
            return _from_records(value, fn_name)
        return _from_pairs(value, fn_name)
    raise ValueError(f"tests must be a list or an object, not {type(value).__name__}")


def _from_dict(value: dict[str, object], fn_name: str | None) -> Suite:
    if "input_output" in value:  # an APPS row
        return suite_of(value["input_output"], _name(value.get("fn_name")) or fn_name)
    if "test_cases" in value:  # open-r1's verification_info
        return suite_of(value["test_cases"], fn_name)
    if "public_test_cases" in value or "private_test_cases" in value:  # LiveCodeBench's row
        return _from_lcb_row(value, fn_name)
    if any(key in value for key in SPLITS):
        inputs: list[object] = []
        outputs: list[object] = []
        for key in SPLITS:
            part = value.get(key) or {}
            if not isinstance(part, dict):
                raise ValueError(f"{key} must be {{input: [...], output: [...]}}")
            ins, outs = part.get("input") or [], part.get("output") or []
            if not isinstance(ins, list) or not isinstance(outs, list) or len(ins) != len(outs):
                raise ValueError(f"{key}'s input and output must be lists of one length")
            inputs += ins
            outputs += outs
        return _from_columns(inputs, outputs, fn_name)
    if "inputs" in value and "outputs" in value:
        name = _name(value.get("fn_name")) or fn_name
        return _from_columns(value["inputs"], value["outputs"], name)
    raise ValueError(
        "an object of tests needs inputs and outputs, input_output, test_cases or "
        f"{', '.join(SPLITS)}; it has {', '.join(sorted(value)) or 'nothing'}"
    )


def _from_columns(inputs: object, outputs: object, fn_name: str | None) -> Suite:
    if not isinstance(inputs, list) or not isinstance(outputs, list):
        raise ValueError("inputs and outputs must be lists of one length")
    if len(inputs) != len(outputs):
        raise ValueError(f"{len(inputs)} inputs but {len(outputs)} outputs")
    return _from_pairs([[i, o] for i, o in zip(inputs, outputs, strict=True)], fn_name)


def _from_pairs(pairs: list[object], fn_name: str | None) -> Suite:
    if not pairs:
        raise ValueError("there are no tests (an empty list)")
    tests = []
    for index, pair in enumerate(pairs):
        if not (isinstance(pair, list) and len(pair) == 2):
            raise ValueError(f"test {index} is not a pair [input, output]")
        if fn_name is not None:
            tests.append(_call_test(pair[0], pair[1], APPS, index))
        else:
            tests.append((_text(pair[0], index, "input"), _text(pair[1], index, "output")))
    return Suite(tuple(tests), Call(fn_name) if fn_name is not None else None)


def _from_records(records: list[dict[str, object]], fn_name: str | None) -> Suite:
    """LiveCodeBench's, DeepCoder's, PrimeIntellect's and open-r1's lists of tests."""
    kinds = {str(r.get("testtype") or r.get("type") or "stdin") for r in records}
    functional = kinds & {"functional", "function_call"}
    if functional and len(kinds) > 1:
        raise ValueError(f"the tests mix call-based and stdin tests ({', '.join(sorted(kinds))})")
    for record in records:
        if "input" not in record or "output" not in record:
            raise ValueError("each test needs an input and an output")
    if not functional:
        return _from_pairs([[r["input"], r["output"]] for r in records], None)
    first = records[0]
    metadata = first.get("metadata")
    if isinstance(metadata, str):
        metadata = decoded(metadata) if metadata.strip() else {}
    named = _name(first.get("fn_name"))
    if named is None and isinstance(metadata, dict):
        named = _name(metadata.get("func_name"))
    name = named or fn_name
    if name is None:
        raise ValueError("call-based tests need the function's name (fn_name)")
    if "functional" in kinds:  # LiveCodeBench: one JSON argument per line, exact compare
        tests = [_lcb_test(r["input"], r["output"], i) for i, r in enumerate(records)]
    else:
        tests = [_call_test(r["input"], r["output"], APPS, i) for i, r in enumerate(records)]
    return Suite(tuple(tests), Call(name))


def _lcb_test(given: object, wanted: object, index: int) -> tuple[str, str]:
    if not isinstance(given, str) or not isinstance(wanted, str):
        raise ValueError(f"test {index}: a functional test's input and output are JSON text")
    try:
        args = [json.loads(line) for line in given.split("\n")]
        value = json.loads(wanted)
    except ValueError as exc:
        raise ValueError(f"test {index}: not JSON: {exc}") from None
    return json.dumps(args), expected_text(value, EXACT)


def _call_test(given: object, wanted: object, rule: str, index: int) -> tuple[str, str]:
    if isinstance(given, str):  # (a row that kept the arguments as text)
        given = decoded(given)
    if not isinstance(given, list):
        raise ValueError(f"test {index}: a call's arguments must be a list")
    return json.dumps(given), expected_text(wanted, rule)


def _text(value: object, index: int, what: str) -> str:
    """A stdin test's input or output: text; a list is its lines, a number its text."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool) or value is None:
        raise ValueError(f"test {index}: the {what} must be text, not {value!r}")
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, list) and all(isinstance(v, str | int | float) for v in value):
        return "\n".join(str(v) for v in value)
    raise ValueError(f"test {index}: the {what} must be text, not {type(value).__name__}")


def _name(value: object) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


MAX_MEMORY_MB = 16 << 10  # the most memory a row may give one run
MEMORY_FIELDS = (("memory_mb", 1), ("memory_limit", 1), ("memory_limit_bytes", 1 / (1 << 20)))


def memory_mb_of(fields: Mapping[str, object]) -> int | None:
    """A row's memory limit in MiB, from the first of ``memory_mb`` (ours), open-r1's
    ``memory_limit`` (MB, read as MiB, as judges mean it) and CodeContests'
    ``memory_limit_bytes``; None when none is given (absent, empty or 0, as those
    datasets write "none"). A value that is no positive number, or over MAX_MEMORY_MB:
    ValueError naming the field."""
    for name, per_mb in MEMORY_FIELDS:
        value = plain(fields.get(name))
        if value is None or value == "" or value == 0:
            continue
        if isinstance(value, str):
            try:
                value = float(value)
            except ValueError:
                raise ValueError(f"{name} {value!r} is no number") from None
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < 1e18:
            raise ValueError(f"{name} must be a positive number, not {value!r}")
        mb = -int(-value * per_mb // 1)  # (rounded up: 1.5 MiB allows 2)
        if mb > MAX_MEMORY_MB:
            raise ValueError(f"{name} {value!r} is over {MAX_MEMORY_MB} MiB")
        return mb
    return None


def seconds_of(
    value: object,
    default: float,
    most: float,
    name: str = "time_limit",
    zero_is_default: bool = False,
) -> float:
    """Seconds a request or row gives (the one reading of every such field: a test's
    time limit in compute_score and /grade, SandboxFusion's run_timeout): a number or its
    text, or CodeContests' {seconds, nanos}; ``default`` when none is given (or 0, with
    ``zero_is_default``, as SandboxFusion reads its fields). ValueError naming ``name``
    when it is no number in (0, ``most``]."""
    value = plain(value)
    if value is None or value == "" or value == {} or (zero_is_default and value == 0):
        return default
    try:
        if isinstance(value, dict):
            seconds = float(value.get("seconds") or 0) + float(value.get("nanos") or 0) / 1e9
        elif isinstance(value, bool) or not isinstance(value, int | float | str):
            raise ValueError
        else:
            seconds = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} {value!r} is no number of seconds") from None
    if not (math.isfinite(seconds) and 0 < seconds <= most):
        raise ValueError(f"{name} must be in (0, {most:g}] seconds, not {value!r}")
    return seconds


PACKED_MAX = 256 << 20  # bytes LiveCodeBench's packed tests may unpack to
_PACKED = re.compile(r"[A-Za-z0-9+/=\s]{64,}")


def looks_packed(text: str) -> bool:
    """Whether ``text`` may be LiveCodeBench's packed tests (long base64; no problem id)."""
    return _PACKED.fullmatch(text) is not None


class _PlainValues(pickle.Unpickler):
    """Plain values only: nothing a pickle names (a class, a function) is looked up, so
    nothing it names runs."""

    def find_class(self, module: str, name: str) -> Any:
        raise ValueError(f"packed tests name {module}.{name}: only plain values are read")


def unpacked(text: str) -> object:
    """LiveCodeBench's packed private tests (its code_generation.py: base64, zlib, pickle,
    JSON), unpacked to at most PACKED_MAX bytes. ValueError saying which step failed."""
    try:
        raw = base64.b64decode("".join(text.split()), validate=True)
        inflater = zlib.decompressobj()
        data = inflater.decompress(raw, PACKED_MAX)
    except (binascii.Error, ValueError, zlib.error) as exc:
        raise ValueError(f"neither JSON nor LiveCodeBench's packed tests ({exc})") from None
    if inflater.unconsumed_tail:
        raise ValueError(f"packed tests unpack to over {PACKED_MAX >> 20} MiB")
    try:
        value = _PlainValues(io.BytesIO(data)).load()
    except (pickle.UnpicklingError, EOFError, ValueError, TypeError) as exc:
        raise ValueError(f"packed tests: no plain pickle ({exc})") from None
    if isinstance(value, str):
        return json.loads(value)
    return value


def _from_lcb_row(row: dict[str, object], fn_name: str | None) -> Suite:
    """A LiveCodeBench row: its public and private tests (each JSON or packed text, or
    a list), their function's name in ``metadata``."""
    records: list[object] = []
    for key in ("public_test_cases", "private_test_cases"):
        part = row.get(key) or []
        part = decoded(part) if isinstance(part, str) else plain(part)
        if not isinstance(part, list):
            raise ValueError(f"{key} must be a list of tests")
        records += part
    metadata = row.get("metadata")
    metadata = decoded(metadata) if isinstance(metadata, str) and metadata.strip() else metadata
    if isinstance(metadata, dict) and fn_name is None:
        fn_name = _name(metadata.get("func_name"))
    tests = [{str(k): v for k, v in r.items()} for r in records if isinstance(r, dict)]
    if not tests or len(tests) != len(records):
        raise ValueError("a LiveCodeBench row needs its tests, each an object")
    return _from_records(tests, fn_name)
