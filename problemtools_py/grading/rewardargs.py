"""What a reward call's arguments mean (``rewards.compute_score`` and the shapes built on
it): a row's ``extra_info`` fields and the reward function's keyword arguments (verl's
``reward_kwargs``, TRL's options), merged and checked into the options a grading takes.
A keyword argument no reward takes is the caller's error, naming the nearest one: a
misspelled ``mdoe`` was ignored without a word."""

from __future__ import annotations

import difflib
import os
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from problemtools_py.grading.shapes import Suite

DATASET_ENV = "PROBLEMTOOLS_PY_DATASET"
DEFAULT_TIME_LIMIT = 2.0  # seconds per test, for inline tests that name none
MAX_TIME_LIMIT = 120.0
MODES = ("dataset", "pass-rate", "first-n")
# What a dataset row's extra_info may set: how this row is graded. Everything else there is
# the trainer's (and ignored).
ROW_FIELDS = ("mode", "reward_mode", "n", "first_n", "time_limit", "language", "fn_name",
              "judge_json", "memory_mb", "memory_limit", "memory_limit_bytes")  # fmt: skip
ON_INFRA_ERROR = ("score", "raise")
ON_BAD_ROW = ("score", "raise")  # a row that cannot be graded: flagged (infra_error), or raised
# keyword arguments a reward takes beside ROW_FIELDS, and those trainers pass of their own
# (verl's with a reward router: its address and tokenizer), which are left alone
KWARGS = ("dataset", "details", "raw", "infra_score", "on_infra_error", "languages", "python",
          "jobs", "on_bad_row")  # fmt: skip
TRAINERS_OWN = ("reward_router_address", "reward_model_tokenizer")


class RewardError(ValueError):
    """A call that cannot be graded as given (bad ground truth, unknown mode, language or
    problem id): the caller's mistake, raised whatever ``on_infra_error`` says."""


class ArgumentError(RewardError):
    """A keyword argument no reward takes, or a reward option with no meaning: the
    trainer's configuration, the same for every row, raised whatever ``on_bad_row`` says
    (at the first step, not the three-thousandth)."""


@dataclass(frozen=True)
class RowCall:
    """One row's call, checked and decoded: its options, and its tests inline (``suite``)
    or the dataset's problem id it names (``problem_id``), never both."""

    options: dict[str, Any]
    suite: Suite | None
    problem_id: str | None


def row_call(ground_truth: Any, extra_info: Any, kwargs: dict[str, Any]) -> RowCall:
    """What a reward call with these arguments grades, or RewardError saying why it
    cannot (the keyword arguments checked by on_bad_row first). Everything but the
    completion and the dataset's own lookups: what a preflight checks of a data file."""
    options = options_of(extra_info, kwargs)
    suite = _suite(ground_truth, options["fn_name"])
    if suite is not None:
        return RowCall(options, suite, None)
    if not options["dataset"]:
        shown = repr(ground_truth)
        shown = shown if len(shown) <= 80 else f"{shown[:77]}..."
        raise RewardError(
            f"ground_truth {shown} is neither tests nor, without a dataset, a problem id: "
            f"give dataset= or set ${DATASET_ENV}"
        )
    return RowCall(options, None, str(ground_truth))


def _suite(ground_truth: Any, fn_name: str | None) -> Suite | None:
    """Inline tests, or None when ``ground_truth`` is a problem id."""
    from problemtools_py.grading.shapes import looks_packed, plain, suite_of

    if ground_truth is None:
        raise RewardError("ground_truth is None: no tests and no problem id")
    try:
        value = plain(ground_truth)
        if isinstance(value, str) and not value.strip().startswith(("[", "{")):
            return suite_of(value, fn_name) if looks_packed(value) else None
        return suite_of(value, fn_name)
    except (ValueError, TypeError, RecursionError) as exc:
        raise RewardError(f"ground_truth is no problem id and no tests: {exc}") from None


def check_language(options: dict[str, Any], installed: Callable[[], Collection[str]]) -> None:
    """RewardError when the row's language, or one a completion may be in, is not
    graded on this machine (``installed()``: the judge's codes it builds and runs, asked
    only when a language other than python3 is named: the dataset's rule)."""
    asked = {options["language"] or "python3", *options["languages"]} - {"python3"}
    if not asked:
        return
    known = {"python3", *installed()}
    for code in sorted(asked):
        if code not in known:
            raise RewardError(
                f"unknown language {code!r}; this machine grades {', '.join(sorted(known))}"
            )


def options_of(extra_info: Any, kwargs: dict[str, Any]) -> dict[str, Any]:
    """The options of a call: a row's ROW_FIELDS, the keyword arguments over them."""
    row = extra_info if isinstance(extra_info, dict) else {}
    merged = {**{k: row[k] for k in ROW_FIELDS if row.get(k) is not None}, **kwargs}
    mode = str(merged.get("mode") or merged.get("reward_mode") or "dataset")
    if mode not in MODES:
        raise RewardError(f"unknown reward mode {mode!r}; choose from {', '.join(MODES)}")
    first_n = merged.get("n") or merged.get("first_n")
    if mode == "first-n" and not (isinstance(first_n, int) and first_n > 0):
        raise RewardError("mode first-n needs n, a positive number of tests")
    on_infra = merged.get("on_infra_error") or "score"
    if on_infra not in ON_INFRA_ERROR:
        raise RewardError(f"on_infra_error is one of {', '.join(ON_INFRA_ERROR)}")
    return {
        "mode": mode,
        "first_n": first_n if mode == "first-n" else None,
        "dataset": merged.get("dataset") or os.environ.get(DATASET_ENV),
        "time_limit": _seconds(merged.get("time_limit")),
        "details": bool(merged.get("details")),
        "raw": bool(merged.get("raw")),
        "infra_score": float(merged.get("infra_score") or 0.0),
        "on_infra_error": on_infra,
        "language": language_code(merged.get("language")),
        "languages": tuple(language_code(n) or "" for n in merged.get("languages") or ("python3",)),
        "python": str(merged["python"]) if merged.get("python") else None,
        "fn_name": merged.get("fn_name") if isinstance(merged.get("fn_name"), str) else None,
        "judge_json": str(merged.get("judge_json") or ""),
        "jobs": _jobs(merged.get("jobs")),
        "memory_mb": _memory(merged),
    }


def _memory(fields: dict[str, Any]) -> int | None:
    from problemtools_py.grading.shapes import memory_mb_of

    try:
        return memory_mb_of(fields)
    except ValueError as exc:
        raise RewardError(str(exc)) from None


def _jobs(value: Any) -> int | None:
    """Completions this process grades at once (None: every core; see sandbox.cores)."""
    if value is None or value == "":
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= 1024:
        raise RewardError(f"jobs must be a whole number in [1, 1024], not {value!r}")
    return value


def _seconds(value: Any) -> float:
    from problemtools_py.grading.shapes import seconds_of

    try:
        return seconds_of(value, DEFAULT_TIME_LIMIT, MAX_TIME_LIMIT)
    except ValueError as exc:
        raise RewardError(str(exc)) from None


def language_code(name: Any) -> str | None:
    """A language as callers name it (``python``, ``Python 3``, ``c++17``, CodeContests'
    numbers...), as the judge's code (None: none named); an unknown one comes back as
    given, for check_language to name; Python 2 is a RewardError. The one reading of a
    language for compute_score and /grade."""
    from problemtools_py.grading.extract import (
        CODECONTESTS_LANGUAGES,
        PYTHON2_NAMES,
        language_named,
    )

    if name is None or name == "":
        return None
    if isinstance(name, int) and not isinstance(name, bool):  # (CodeContests' enum)
        if name not in CODECONTESTS_LANGUAGES:
            raise RewardError(f"language {name!r} is no language CodeContests numbers")
        name = CODECONTESTS_LANGUAGES[name]
    text = str(name)
    if "".join(text.split()).lower() in PYTHON2_NAMES:
        raise RewardError(f"language {text!r}: Python 2 is not graded; programs run as python3")
    return language_named(text) or text


def on_bad_row(kwargs: dict[str, Any]) -> str:
    """What a row that cannot be graded gets (``on_bad_row``: "score", the default, or
    "raise"); every keyword argument checked first (see ArgumentError)."""
    taken = (*ROW_FIELDS, *KWARGS)
    for name in kwargs:
        if name not in taken and name not in TRAINERS_OWN:
            near = difflib.get_close_matches(name, taken, n=1)
            hint = f"; did you mean {near[0]!r}?" if near else ""
            raise ArgumentError(
                f"unknown keyword argument {name!r}{hint} (a reward takes "
                f"{', '.join(sorted(taken))})"
            )
    found = kwargs.get("on_bad_row") or "score"
    if found not in ON_BAD_ROW:
        raise ArgumentError(f"on_bad_row is one of {', '.join(ON_BAD_ROW)}, not {found!r}")
    return str(found)


def completion_text(value: Any, name: str = "solution_str") -> str:
    """A completion as trainers pass it: text (a lone surrogate replaced), bytes (UTF-8),
    a chat's messages (the last assistant message's content, its text blocks joined), or
    None (no completion: no code). Anything else is the caller's error."""
    if value is None:
        return ""
    if isinstance(value, bytes | bytearray):
        return bytes(value).decode("utf-8", "replace")
    if isinstance(value, list):
        for message in reversed(value):
            if isinstance(message, dict) and message.get("role", "assistant") == "assistant":
                content = message.get("content")
                if isinstance(content, list):  # (content blocks: the text ones)
                    value = "".join(str(b.get("text", "")) for b in content if isinstance(b, dict))
                else:
                    value = content if isinstance(content, str) else ""
                break
        else:
            return ""
    if not isinstance(value, str):
        raise RewardError(f"{name} must be text, not {type(value).__name__}")
    return value.encode("utf-8", "replace").decode("utf-8")
