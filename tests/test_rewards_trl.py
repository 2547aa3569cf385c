"""problemtools_py.rewards_trl as TRL 1.16's GRPOTrainer calls a reward function (issue
43): its own ``_calculate_rewards`` (run from TRL's source, see clientcode; torch's four
calls there done by numpy, since torch is not installed) with a batch of a dataset's rows,
standard and conversational, its callable's name, and its log_extra/log_metric hooks."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import logging
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from helpers.clientcode import functions

from problemtools_py.rewards_trl import code_reward

ECHO = "```python\nprint(input())\n```"
WRONG = "```python\nprint(0)\n```"
TESTS = [["1\n", "1\n"], ["2\n", "2\n"]]


class _Bools:
    """torch.isnan(...)'s result as _calculate_rewards uses it."""

    def __init__(self, values: Any) -> None:
        self.values = values

    def all(self, dim: int) -> _Bools:
        return _Bools(self.values.all(axis=dim))

    def any(self) -> bool:
        return bool(self.values.any())

    def nonzero(self, as_tuple: bool) -> Any:
        return np.nonzero(self.values)


TORCH = SimpleNamespace(
    zeros=lambda *shape, device=None: np.zeros(shape, dtype=np.float32),
    tensor=lambda data, dtype=None, device=None: np.array(data, dtype=np.float32),
    float32=np.float32, nan=float("nan"), isnan=lambda t: _Bools(np.isnan(t)),
)  # fmt: skip
UTILS = functions("trl/trainer/utils.py", ("get_callable_name", "is_async_callable"),
                  {"functools": functools, "inspect": inspect})  # fmt: skip
TRAINER = functions(
    "trl/trainer/grpo_trainer.py", ("GRPOTrainer._calculate_rewards",),
    {"torch": TORCH, "nn": SimpleNamespace(Module=type("Module", (), {})), "asyncio": asyncio,
     "profiling_context": lambda trainer, name: contextlib.nullcontext(),
     "profiling_decorator": lambda method: method,
     "gather": lambda tensor: tensor, "logger": logging.getLogger("trl"),
     "is_async_callable": UTILS["is_async_callable"],
     **functions("trl/data_utils.py", ("is_conversational",), {})},
)  # fmt: skip


def trainer(reward: Any) -> tuple[Any, dict[str, list[Any]], dict[str, list[float]]]:
    """What _calculate_rewards reads of a GRPOTrainer, and what its hooks were given."""
    extra: dict[str, list[Any]] = {}
    metrics: dict[str, list[float]] = {}
    state = SimpleNamespace(
        accelerator=SimpleNamespace(device="cpu"), reward_funcs=[reward],
        reward_processing_classes=[None], reward_func_names=[UTILS["get_callable_name"](reward)],
        state=SimpleNamespace(global_step=3), environments=None,
        _log_completion_extra=lambda column, values: extra.setdefault(column, []).extend(values),
        _log_metric=lambda name, value: metrics.setdefault(name, []).append(value),
    )  # fmt: skip
    return state, extra, metrics


def rewards_of(reward: Any, rows: list[dict[str, Any]], completions: list[Any]) -> Any:
    self, extra, metrics = trainer(reward)
    prompts = [row["prompt"] for row in rows]
    got = TRAINER["_calculate_rewards"](self, rows, prompts, completions, [[1]] * len(rows))
    return got[:, 0].tolist(), extra, metrics


def test_standard_rows_and_trls_hooks() -> None:
    rows = [{"prompt": "Echo it.", "ground_truth": TESTS, "time_limit": 2}] * 3
    got, extra, metrics = rewards_of(code_reward(), rows, [ECHO, WRONG, "no code"])
    assert got == [1.0, 0.0, 0.0]
    assert extra == {"problemtools_status": ["ok", "wrong_answer", "no_code"]}
    assert metrics == {"problemtools/infra_errors": [0.0]}
    assert trainer(code_reward())[0].reward_func_names == ["problemtools_py"]


def test_conversational_rows_and_call_based_tests() -> None:
    add = "```python\ndef add(a, b):\n    return a + b\n```"
    apps = {"fn_name": "add", "inputs": [[1, 2]], "outputs": [[3]]}
    prompt = [{"role": "user", "content": "Write add(a, b)."}]
    rows = [{"prompt": prompt, "tests": apps}] * 2
    completions = [[{"role": "assistant", "content": add}],
                   [{"role": "assistant", "content": [{"type": "text", "text": WRONG}]}]]  # fmt: skip
    got, _, _ = rewards_of(code_reward(column="tests"), rows, completions)
    assert got == [1.0, 0.0]


def test_a_missing_column_says_which_columns_there_are() -> None:
    rows = [{"prompt": "Echo it.", "answer": TESTS}]
    with pytest.raises(KeyError, match="no column 'ground_truth' \\(it has answer"):
        rewards_of(code_reward(), rows, [ECHO])


def test_a_step_over_every_bad_row_completes() -> None:
    """Issue 58's done-when: TRL's own _calculate_rewards over a batch holding one of each
    row that crashed a step: it completes, each bad row scored infra_score and reported to
    log_metric, the good ones scored right."""
    from helpers.trainer_rows import CASES, trl_rows

    rows = trl_rows()
    completions = [case.completion for case in CASES]
    got, extra, metrics = rewards_of(code_reward(), rows, completions)
    assert got == [case.score for case in CASES]
    assert extra == {"problemtools_status": [case.status for case in CASES]}
    assert metrics == {"problemtools/infra_errors": [sum(c.bad for c in CASES) / len(CASES)]}
    kept, _, _ = rewards_of(code_reward(infra_score=None), rows, completions)
    assert [v != v for v in kept] == [case.bad for case in CASES]  # (NaN: left out of the mean)
