"""Rewards where RL trainers call them: verl's ``custom_reward_function`` shapes.

``compute_score(data_source, solution_str, ground_truth, extra_info=None, **kwargs)``
grades one completion; ``compute_score_batch`` takes lists (verl's batch reward manager)
and ``compute_score_async`` is awaitable. ``ground_truth`` is a dataset ``problem_id``
(the dataset directory from ``dataset=`` or ``$PROBLEMTOOLS_PY_DATASET``), or the tests
inline: ``[[stdin, stdout], ...]`` (as ``tests_json``) or ``{"inputs": [...], "outputs":
[...]}`` (verl's code datasets), either as a JSON string too. The result is a dict with
``score`` (the dataset's reward unless ``mode`` says otherwise), ``status`` and, with
``details=True``, the rest of the grade. Modes: ``dataset`` (1.0 when every test passes,
in order; the default), ``pass-rate`` (the fraction of tests passed, every test run) and
``first-n`` (the dataset's rule on the first ``n`` tests). A failure on the grader's side
is never a 0.0: its status is ``grader_error`` or ``harness_overload`` and ``score`` is
``None`` unless ``infra_score`` is given (a trainer that needs a number sets it).

One :class:`~problemtools_py.grading.grader.Grader` per process and dataset, shared by
threads, closed at exit."""

from __future__ import annotations

import asyncio
import atexit
import json
import os
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from problemtools_py.grading.grader import Grader

DATASET_ENV = "PROBLEMTOOLS_PY_DATASET"
DEFAULT_TIME_LIMIT = 2.0  # seconds per test, for inline tests that name none
MODES = ("dataset", "pass-rate", "first-n")

_graders: dict[tuple[object, ...], Grader] = {}
_lock = threading.Lock()


class RewardError(ValueError):
    """A call that cannot be graded as given (bad ground truth, unknown mode)."""


def _tests(ground_truth: Any) -> tuple[tuple[str, str], ...] | None:
    """Inline tests, or None when ``ground_truth`` is a problem id."""
    from problemtools_py.grading.problems import inline_tests

    value = ground_truth
    if isinstance(value, str):
        text = value.strip()
        if not text.startswith(("[", "{")):
            return None
        try:
            value = json.loads(text)
        except ValueError as exc:
            raise RewardError(f"ground_truth is not valid JSON: {exc}") from None
    try:
        return inline_tests(value)
    except ValueError as exc:
        raise RewardError(f"ground_truth is no problem id and no tests: {exc}") from None


def _grader(
    dataset: str | None,
    mode: str,
    first_n: int | None,
    raw: bool,
    languages: tuple[str, ...],
    python: str | None = None,
) -> Grader:
    from problemtools_py.errors import FatalError
    from problemtools_py.grading.grader import Grader
    from problemtools_py.grading.results import Settings
    from problemtools_py.judge.interpreter import find

    key = (dataset, mode, raw, first_n, languages, python)
    with _lock:
        found = _graders.get(key)
        if found is None:
            try:
                if python is not None:
                    find(python, "python=")
            except FatalError as exc:
                raise RewardError(str(exc)) from None
            settings = Settings(raw=raw, reward_mode=mode, first_n=first_n,
                                languages=languages, python=python)  # fmt: skip
            found = _graders[key] = Grader(dataset or None, settings)
        return found


def _options(extra_info: dict[str, Any] | None, kwargs: dict[str, Any]) -> dict[str, Any]:
    merged = {**(extra_info or {}), **kwargs}
    mode = str(merged.get("mode") or merged.get("reward_mode") or "dataset")
    if mode not in MODES:
        raise RewardError(f"unknown reward mode {mode!r}; choose from {', '.join(MODES)}")
    first_n = merged.get("n") or merged.get("first_n")
    if mode == "first-n" and not (isinstance(first_n, int) and first_n > 0):
        raise RewardError("mode first-n needs n, a positive number of tests")
    return {
        "mode": mode,
        "first_n": first_n if mode == "first-n" else None,
        "dataset": merged.get("dataset") or os.environ.get(DATASET_ENV),
        "time_limit": float(merged.get("time_limit") or DEFAULT_TIME_LIMIT),
        "details": bool(merged.get("details")),
        "raw": bool(merged.get("raw")),
        "infra_score": merged.get("infra_score"),
        "language": merged.get("language"),
        "languages": tuple(merged.get("languages") or ("python3",)),
        "python": str(merged["python"]) if merged.get("python") else None,
    }


def compute_score(
    data_source: str,
    solution_str: str,
    ground_truth: Any,
    extra_info: dict[str, Any] | None = None,
    **kwargs: Any,
) -> dict[str, Any]:
    """The reward of one completion (see the module's text)."""
    options = _options(extra_info, kwargs)
    tests = _tests(ground_truth)
    grader = _grader(
        None if tests is not None else options["dataset"],
        options["mode"],
        options["first_n"],
        options["raw"],
        options["languages"],
        options["python"],
    )
    language = options["language"]
    if tests is not None:
        result = grader.grade_tests(tests, options["time_limit"], solution_str, language)
    else:
        if not options["dataset"]:
            raise RewardError(
                f"ground_truth {ground_truth!r} is a problem id: give dataset= "
                f"or set ${DATASET_ENV}"
            )
        result = grader.grade(str(ground_truth), solution_str, language)
    score = result.reward if result.reward is not None else options["infra_score"]
    out: dict[str, Any] = {"score": score, "status": result.status}
    if options["details"]:
        out.update({k: v for k, v in result.as_dict().items() if k not in ("reward", "status")})
    return out


def compute_score_batch(
    data_sources: Sequence[str],
    solution_strs: Sequence[str],
    ground_truths: Sequence[Any],
    extra_infos: Sequence[dict[str, Any] | None] | None = None,
    **kwargs: Any,
) -> list[dict[str, Any]]:
    """Lists in, a list out, in order; the completions are graded in parallel."""
    from concurrent.futures import ThreadPoolExecutor

    from problemtools_py.cpus import usable_cores

    infos = list(extra_infos) if extra_infos is not None else [None] * len(solution_strs)
    if not len(data_sources) == len(solution_strs) == len(ground_truths) == len(infos):
        raise RewardError("the batch's lists must have one length")
    with ThreadPoolExecutor(usable_cores()) as pool:
        jobs = [
            pool.submit(compute_score, d, s, g, i, **kwargs)
            for d, s, g, i in zip(data_sources, solution_strs, ground_truths, infos, strict=True)
        ]
        return [job.result() for job in jobs]


async def compute_score_async(
    data_source: str,
    solution_str: str,
    ground_truth: Any,
    extra_info: dict[str, Any] | None = None,
    **kwargs: Any,
) -> dict[str, Any]:
    """``compute_score`` without blocking the event loop."""
    return await asyncio.to_thread(
        compute_score, data_source, solution_str, ground_truth, extra_info, **kwargs
    )


@atexit.register
def close() -> None:
    """Close every grader (and its sandboxes): no process outlives the trainer."""
    with _lock:
        graders = list(_graders.values())
        _graders.clear()
    for grader in graders:
        grader.close()
