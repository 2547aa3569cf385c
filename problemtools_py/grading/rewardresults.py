"""What a reward call gives back (``rewards.compute_score`` and the shapes built on it):
a dict with the same keys every call (verl gathers each key into ``reward_extra_info``),
a float score. A grade without a reward (the grader's side failed) and a row that cannot
be graded are scored ``infra_score``, counted and logged once per reason."""

from __future__ import annotations

import logging
import threading
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from problemtools_py.grading.results import GradeResult

_lock = threading.Lock()
_failures = [0]
_bad = [0]
_reasons: set[str] = set()
_log = logging.getLogger("problemtools_py.rewards")


class InfraError(RuntimeError):
    """The grader's side failed (with ``on_infra_error="raise"``): no reward is known."""


def infra_failures() -> int:
    """How many completions this process scored without a verdict (the grader failed)."""
    return _failures[0]


def bad_row(exc: BaseException, kwargs: dict[str, Any]) -> dict[str, Any]:
    """A row that cannot be graded (on_bad_row="score"): ``infra_score``, flagged, the
    reason logged once (the first 1,000 reasons) and counted (bad_rows)."""
    from problemtools_py.grading.results import GradeResult, Status

    reason = (str(exc) or type(exc).__name__)[:300]
    try:
        score = float(kwargs.get("infra_score") or 0.0)
    except (TypeError, ValueError):
        score = 0.0
    with _lock:
        _bad[0] += 1
        first = reason not in _reasons and len(_reasons) < 1000
        _reasons.add(reason)
    if first:
        _log.warning("a row that cannot be graded (%s); scored %s", reason, score)
    found = GradeResult(None, Status.BAD_ROW, message=reason)
    return result_dict(found, score, bool(kwargs.get("details")))


def bad_rows() -> int:
    """How many calls this process scored as rows that cannot be graded (see bad_row)."""
    return _bad[0]


def scored(result: GradeResult, options: dict[str, Any]) -> dict[str, Any]:
    """The result dict: the same keys every time, a float score."""
    infra = result.reward is None
    if infra:
        if options["on_infra_error"] == "raise":
            raise InfraError(f"{result.status}: {result.message}")
        with _lock:
            _failures[0] += 1
        _log.warning(
            "no reward known (%s: %s); scored %s",
            result.status,
            result.message,
            options["infra_score"],
        )
    score = float(options["infra_score"] if result.reward is None else result.reward)
    return result_dict(result, score, options["details"])


def result_dict(result: GradeResult, score: float, details: bool) -> dict[str, Any]:
    """``score``, the status and whether no reward is known; with ``details``, the rest
    of the grade (the same keys every time: verl gathers them by key)."""
    out: dict[str, Any] = {
        "score": score,
        "status": str(result.status),
        "infra_error": result.reward is None,
    }
    if details:
        out.update({k: v for k, v in result.as_dict().items() if k not in ("reward", "status")})
        out["judge_score"] = result.judge_score
    return out
