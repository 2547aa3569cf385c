"""A reward function for TRL's ``GRPOTrainer`` (and any trainer with its protocol:
``reward_func(prompts=..., completions=..., **columns) -> list[float]``, each column of
the dataset a list with one value per completion).

    from problemtools_py.rewards_trl import code_reward
    trainer = GRPOTrainer(..., reward_funcs=[code_reward(column="ground_truth")])

The column ``column`` holds each row's tests (any shape ``problemtools_py.rewards``
reads) or its problem id; the row's ``time_limit``, ``language`` and ``fn_name`` columns,
when the dataset has them, are read as ``extra_info`` is. Completions are text or, for a
conversational dataset, the messages generated (the last assistant message's content
is the text). The keyword arguments are ``compute_score``'s (``mode``, ``dataset``,
``languages``, ``infra_score``...). A completion the grader could not grade scores
``infra_score`` (0.0) or, with ``infra_score=None``, None, which TRL turns into NaN and
leaves out of the mean; TRL's ``log_metric`` gets the fraction of such completions
(``problemtools/infra_errors``) and ``log_extra`` each completion's status."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from problemtools_py.grading.rewardargs import ROW_FIELDS
from problemtools_py.rewards import compute_score_batch

NAME = "problemtools_py"


def code_reward(column: str = "ground_truth", **options: Any) -> Callable[..., list[float | None]]:
    """TRL's reward function over the dataset column ``column`` (see the module's text)."""
    keep_none = "infra_score" in options and options["infra_score"] is None
    if keep_none:
        options = {k: v for k, v in options.items() if k != "infra_score"}

    def reward(
        prompts: Sequence[Any], completions: Sequence[Any], **columns: Any
    ) -> list[float | None]:
        if column not in columns:
            names = sorted(k for k in columns if not k.startswith("log_"))
            raise KeyError(f"the dataset has no column {column!r} (it has {', '.join(names)})")
        texts = list(completions)  # (a chat's messages too: compute_score reads them)
        truths = list(columns[column])
        infos = [
            {k: columns[k][i] for k in ROW_FIELDS if k in columns and isinstance(columns[k], list)}
            for i in range(len(texts))
        ]
        results = compute_score_batch([NAME] * len(texts), texts, truths, infos, **options)
        failed = [r["infra_error"] for r in results]
        log_metric, log_extra = columns.get("log_metric"), columns.get("log_extra")
        if callable(log_metric):
            log_metric("problemtools/infra_errors", sum(failed) / max(1, len(failed)))
        if callable(log_extra):
            log_extra("problemtools_status", [r["status"] for r in results])
        return [
            None if keep_none and bad else r["score"]
            for r, bad in zip(results, failed, strict=True)
        ]

    reward.__name__ = reward.__qualname__ = NAME
    return reward
