"""Each source's published row, read into an :class:`Upstream` (see the package's
docstring for where each layout is read from). A row that is not in its layout raises
UnreadableRow saying what is wrong; nothing of a row is run or trusted here."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any

from problemtools_py.grading.extract import extract_code
from problemtools_py.grading.shapes import plain, suite_of
from problemtools_py.upstream.problem import (
    MAX_WRONG,
    NotSelected,
    NotValidated,
    Tests,
    UnreadableRow,
    Upstream,
    limit_mb,
    limit_seconds,
    python_references,
)

MAX_STATEMENT = 1 << 20  # characters: a longer "statement" is no problem's
DEEPCODER_CONFIGS = ("taco", "primeintellect", "lcbv5", "codeforces")


def _json_field(row: Mapping[str, Any], name: str, default: object) -> object:
    """A field that a source stores as JSON text (or already decoded, as some copies do)."""
    value = plain(row.get(name))
    if value is None or value == "":
        return default
    if isinstance(value, str):
        try:
            return json.loads(value)
        except (ValueError, RecursionError) as exc:
            raise UnreadableRow(f"{name} is not JSON ({exc})") from None
    return value


def _statement(row: Mapping[str, Any], name: str) -> str:
    text = row.get(name)
    if not isinstance(text, str) or not text.strip():
        raise UnreadableRow(f"no {name} (the statement)")
    if len(text) > MAX_STATEMENT:
        raise UnreadableRow(f"the {name} is over {MAX_STATEMENT >> 20} MiB")
    return text


# PrimeIntellect's prompt around a problem (verifiable-coding-problems, and DeepCoder's
# primeintellect rows that kept it): "Solve the following coding problem using the
# programming language python:" before, "The input will be stdin ... Now solve the problem
# and return the code." after.
_PROMPT_HEAD = re.compile(
    r"^\s*Solve the following coding problem using the programming language (\w+):\s*"
)
_PROMPT_TAIL = re.compile(
    r"\n+(?:The input will be (?:stdin|given via stdin)|Now solve the problem).*\Z", re.S
)


def unwrapped(prompt: str) -> tuple[str, str | None]:
    """A problem without PrimeIntellect's prompt around it, and the prompt's language."""
    head = _PROMPT_HEAD.match(prompt)
    if head is None:
        return prompt, None
    return _PROMPT_TAIL.sub("\n", prompt[head.end() :]).strip() + "\n", head.group(1)


def _tests(value: object, fn_name: str | None = None) -> tuple[Tests, str | None]:
    try:
        suite = suite_of(value, fn_name)
    except (ValueError, RecursionError, MemoryError) as exc:
        raise UnreadableRow(f"tests: {exc}") from None
    return suite.tests, (suite.call.fn_name if suite.call is not None else None)


def deepcoder(row: Mapping[str, Any], key: str, config: str) -> Upstream:
    """A DeepCoder-Preview row of ``config``: ``problem``, ``solutions``, ``tests``,
    ``starter_code``, ``metadata``."""
    statement = unwrapped(_statement(row, "problem"))[0]
    metadata = _json_field(row, "metadata", {})
    if not isinstance(metadata, dict):
        metadata = {}
    tests, call = _tests(_json_field(row, "tests", None), _fn_name(metadata))
    solutions = _json_field(row, "solutions", [])
    origin: dict[str, Any] = {"dataset": "DeepCoder-Preview-Dataset", "config": config}
    for name in ("url", "source", "difficulty", "rating", "contest_date", "name"):
        if isinstance(metadata.get(name), str | int | float):
            origin[name] = metadata[name]
    return Upstream(
        source=config,
        key=key,
        statement=statement,
        tests=tests,
        call=call,
        references=python_references(solutions),
        time_limit_s=limit_seconds(metadata.get("time_limit")),
        memory_mb=limit_mb(metadata.get("memory_limit")),
        origin=origin,
    )


def _fn_name(metadata: Mapping[str, Any]) -> str | None:
    for name in ("fn_name", "func_name"):
        if isinstance(metadata.get(name), str) and metadata[name].strip():
            return str(metadata[name])
    return None


def taco(row: Mapping[str, Any], key: str) -> Upstream:
    """A TACO row: ``question``, ``solutions`` (JSON text), ``input_output`` (JSON text:
    inputs, outputs, fn_name), ``time_limit`` and ``memory_limit`` as text."""
    statement = _statement(row, "question")
    io = _json_field(row, "input_output", None)
    if not isinstance(io, dict):
        raise UnreadableRow("input_output must be an object of inputs and outputs")
    tests, call = _tests(io)
    origin: dict[str, Any] = {"dataset": "TACO"}
    for name in ("source", "url", "name", "difficulty", "date"):
        if isinstance(row.get(name), str) and row[name]:
            origin[name] = row[name]
    pictures = str(row.get("picture_num") or "0").strip()
    if pictures not in ("", "0"):
        origin["picture_num"] = pictures
    return Upstream(
        source="taco",
        key=key,
        statement=statement,
        tests=tests,
        call=call,
        references=python_references(_json_field(row, "solutions", [])),
        time_limit_s=limit_seconds(row.get("time_limit")),
        memory_mb=limit_mb(row.get("memory_limit")),
        origin=origin,
    )


def primeintellect(row: Mapping[str, Any], key: str) -> Upstream:
    """A PrimeIntellect/verifiable-coding-problems row: ``prompt`` (the problem in its
    prompt), ``gold_standard_solution`` (a program, fenced or not), ``verification_info``
    (``language``, ``test_cases``) and ``metadata`` (``time_limit``, ``memory_limit``,
    ``problem_url``, ``difficulty``), JSON text or objects. Only Python problems."""
    statement, language = unwrapped(_statement(row, "prompt"))
    info = _json_field(row, "verification_info", None)
    if not isinstance(info, dict):
        raise UnreadableRow("verification_info must be an object with test_cases")
    language = str(info.get("language") or language or "python")
    if language.lower() not in ("python", "python3"):
        raise NotSelected(f"a {language} problem (the card's rows are Python 3)")
    tests, call = _tests(info)
    metadata = _json_field(row, "metadata", {})
    metadata = metadata if isinstance(metadata, dict) else {}
    gold = row.get("gold_standard_solution")
    code = (extract_code(gold) or gold) if isinstance(gold, str) else None  # (fenced or not)
    origin: dict[str, Any] = {"dataset": "PrimeIntellect/verifiable-coding-problems"}
    for name in ("problem_id", "source", "in_source_id"):
        if isinstance(row.get(name), str) and row[name]:
            origin[name] = row[name]
    if isinstance(metadata.get("problem_url"), str):
        origin["url"] = metadata["problem_url"]
    return Upstream(
        source="primeintellect",
        key=key,
        statement=statement,
        tests=tests,
        call=call,
        references=python_references([code]),
        time_limit_s=limit_seconds(metadata.get("time_limit")),
        memory_mb=limit_mb(metadata.get("memory_limit")),
        origin=origin,
    )


def livecodebench(row: Mapping[str, Any], key: str) -> Upstream:
    """A LiveCodeBench code_generation row: ``question_content``, ``public_test_cases``
    and ``private_test_cases`` (JSON, the private ones packed), ``metadata`` (``func_name``
    of a functional problem), ``platform``, ``question_id``, ``contest_date``. It has no
    solutions: a row is kept only on its tests (--allow-no-reference)."""
    statement = _statement(row, "question_content")
    tests, call = _tests(dict(row))
    origin: dict[str, Any] = {"dataset": "LiveCodeBench"}
    for name in ("platform", "question_id", "contest_id", "difficulty", "question_title"):
        if isinstance(row.get(name), str) and row[name]:
            origin[name] = row[name]
    if row.get("contest_date"):
        origin["contest_date"] = str(row["contest_date"])[:10]
    return Upstream("livecodebench", key, statement, tests, call, origin=origin)


VALIDATED = 0.9  # Code-Contests-Plus' true positive and negative rates a row needs
CCPLUS_LANGUAGES = {"PY3": "python3", "CPP": "cpp", "JAVA": "java"}  # (no Python 2 here)


def ccplus(row: Mapping[str, Any], key: str) -> Upstream:
    """A Code-Contests-Plus row (ByteDance-Seed, config ``1x``): ``source``, ``id``,
    ``title``, ``description``, ``time_limit`` (ms), ``memory_limit`` (MB),
    ``test_cases`` (``{input, output}``), ``checker`` (a testlib checker's source),
    ``validator``, ``correct_submissions`` and ``incorrect_submissions`` (``{language,
    code}``: ``PY3``, ``PY2``, ``CPP``, ``JAVA``; a list of records, or one record of
    lists), ``true_positive_rate``, ``true_negative_rate``. A row under VALIDATED on either
    rate has tests its source does not vouch for."""
    description = _statement(row, "description")
    title = str(row.get("title") or "").strip()
    rates = [row.get("true_positive_rate"), row.get("true_negative_rate")]
    if not all(isinstance(r, int | float) and r >= VALIDATED for r in rates):
        raise NotValidated(f"true positive and negative rates {rates} (under {VALIDATED})")
    tests, call = _tests(_records(row.get("test_cases")))
    right = _records(row.get("correct_submissions"))
    python3 = [s.get("code") for s in right if str(s.get("language")).upper() == "PY3"]
    python2 = [s.get("code") for s in right if str(s.get("language")).upper() == "PY2"]
    wrong = [
        (CCPLUS_LANGUAGES[str(s.get("language")).upper()], str(s.get("code")))
        for s in _records(row.get("incorrect_submissions"))
        if str(s.get("language")).upper() in CCPLUS_LANGUAGES and s.get("code")
    ]
    limit = row.get("time_limit")
    checker = row.get("checker")
    return Upstream(
        source="code-contests-plus",
        key=key,
        statement=f"{title}\n\n{description}" if title else description,
        tests=tests,
        call=call,
        references=python_references([*python3, *python2]),
        time_limit_s=limit / 1000 if isinstance(limit, int | float) and limit > 0 else None,
        memory_mb=limit_mb(row.get("memory_limit")),
        origin={"dataset": "Code-Contests-Plus", "id": f"{row.get('source')}:{row.get('id')}"},
        checker=checker if isinstance(checker, str) and checker.strip() else None,
        wrong=tuple(wrong[:MAX_WRONG]),
    )


def _records(value: object) -> list[dict[str, Any]]:
    """A list of records, also as parquet may give it: one record of equal-length lists."""
    value = plain(value)
    if isinstance(value, dict):
        columns = [v for v in value.values() if isinstance(v, list)]
        if len(columns) != len(value) or len({len(c) for c in columns}) > 1:
            raise UnreadableRow("a record of lists of different lengths")
        return [dict(zip(value, items, strict=True)) for items in zip(*columns, strict=True)]
    if not isinstance(value, list):
        return []
    return [r for r in value if isinstance(r, dict)]


Reader = Callable[[Mapping[str, Any], str], Upstream]


def _deepcoder_config(config: str) -> Reader:
    return lambda row, key: deepcoder(row, key, config)


READERS: dict[str, Reader] = {
    **{f"deepcoder-{c}": _deepcoder_config(c) for c in DEEPCODER_CONFIGS},
    "taco": taco,
    "primeintellect": primeintellect,
    "livecodebench": livecodebench,
    "code-contests-plus": ccplus,
}

# The column a source's every row has (its statement's): a file whose first row lacks it
# is not in that source's layout at all (another SOURCE was meant), said at once.
STATEMENT_COLUMN = {
    **{f"deepcoder-{c}": "problem" for c in DEEPCODER_CONFIGS},
    "taco": "question",
    "primeintellect": "prompt",
    "codeforces": "description",
    "code-contests-plus": "description",
    "livecodebench": "question_content",
}
