"""problemtools_py.rewards as verl 0.9.1's own code calls it (issue 43): its loader of a
custom_reward_function (by file path and by pkg://), its PRIME manager's process pool,
its naive manager's compute_score_timeout (a SIGALRM) and its reward loop's reading of
the result. verl's code runs as verl wrote it (see clientcode: no torch here)."""

from __future__ import annotations

import asyncio
import pickle
import signal
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

import psutil
import pytest
from helpers.clientcode import functions, load

from problemtools_py import rewards

REWARDS_FILE = str(Path(rewards.__file__))
ECHO = "```python\nprint(input())\n```"
TESTS = [["1\n", "1\n"], ["2\n", "2\n"]]


@pytest.fixture(scope="module")
def import_utils() -> Any:
    return load("verl/utils/import_utils.py")


# verl's wrapping of a custom_reward_function with its reward_kwargs (trainer/ppo/reward.py)
WRAP = functions("verl/trainer/ppo/reward.py", ("_call_with_kwargs", "_call_with_kwargs_async"), {})


@pytest.mark.parametrize("path", [REWARDS_FILE, "pkg://problemtools_py.rewards",
                                  "pkg://problemtools_py/rewards"])  # fmt: skip
def test_verls_loader_finds_a_function_that_pickles(import_utils: Any, path: str) -> None:
    found = import_utils.load_extern_object(module_path=path, object_name="compute_score")
    assert pickle.loads(pickle.dumps(found)) is rewards.compute_score
    wrapped = partial(WRAP["_call_with_kwargs"], found, {"mode": "pass-rate"})
    assert wrapped("code", ECHO, TESTS, {})["score"] == 1.0


def test_the_prime_managers_process_pool_scores_every_completion(import_utils: Any) -> None:
    """verl's PRIME manager: compute_score in a process pool (forked), float(result[0]) of
    anything but a number; compute_score_float is what it takes."""
    space = functions("verl/workers/reward_manager/prime.py",
                      ("single_compute_score", "parallel_compute_score_async"),
                      {"asyncio": asyncio, "ProcessPoolExecutor": ProcessPoolExecutor,
                       "partial": partial, "psutil": psutil,
                       **functions("verl/utils/ray_utils.py", ("get_event_loop",),
                                   {"asyncio": asyncio})})  # fmt: skip
    raw = import_utils.load_extern_object(REWARDS_FILE, "compute_score_float")
    score = partial(WRAP["_call_with_kwargs"], raw, {})
    rewards.compute_score("code", ECHO, TESTS)  # (a grader in the parent, before the fork)
    completions = [ECHO, "```python\nprint(0)\n```", "no code"]
    got = asyncio.run(space["parallel_compute_score_async"](
        score, completions, [TESTS] * 3, ["code"] * 3, None, num_processes=2))  # fmt: skip
    assert got == [1.0, 0.0, 0.0]


def test_a_sigalrm_timeout_ends_the_call_at_once() -> None:
    """verl's naive manager bounds each compute_score with SIGALRM (main thread only); the
    TimeoutError must reach it, not be taken for a lost jail and the test run again."""
    space = functions("verl/workers/reward_manager/naive.py", ("_score_timeout",),
                      {"signal": signal, "contextmanager": __import__("contextlib").contextmanager})
    sleeper = "```python\nimport time\ntime.sleep(30)\n```"
    start = time.monotonic()
    with pytest.raises(TimeoutError), space["_score_timeout"](1.0):
        rewards.compute_score("code", sleeper, TESTS, {"time_limit": 20})
    assert time.monotonic() - start < 3
    assert rewards.compute_score("code", ECHO, TESTS)["score"] == 1.0  # (the grader goes on)


def test_the_reward_loops_reading_of_the_result(import_utils: Any) -> None:
    """verl's reward-loop managers take result["score"] as the reward and gather every
    key into reward_extra_info, one list per key (so every result must have them all)."""
    raw = import_utils.load_extern_object(REWARDS_FILE, "compute_score_async")
    score = partial(WRAP["_call_with_kwargs_async"], raw, {"details": True})
    completions = [ECHO, "```python\nprint(0)\n```", "no code", "```python\ndef (\n```"]

    async def loop() -> list[dict[str, Any]]:
        return await asyncio.gather(*[score(data_source="code", solution_str=c,
                                            ground_truth=TESTS, extra_info={"num_turns": None})
                                      for c in completions])  # fmt: skip

    results = asyncio.run(loop())
    extra: dict[str, list[Any]] = {}
    for result in results:
        for key, value in result.items():
            extra.setdefault(key, []).append(value)
    assert {len(v) for v in extra.values()} == {len(completions)}
    assert [float(r["score"]) for r in results] == [1.0, 0.0, 0.0, 0.0]


def test_the_file_loaded_by_path_is_the_installed_module() -> None:
    code = ("import importlib.util\n"
            f"spec = importlib.util.spec_from_file_location('custom_module_1', {REWARDS_FILE!r})\n"
            "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)\n"
            "from problemtools_py import rewards\n"
            "print(m.compute_score is rewards.compute_score, m.RewardError is rewards.RewardError)\n")  # fmt: skip
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, check=True).stdout  # fmt: skip
    assert out.split() == ["True", "True"]



class _Item:
    """One sample of verl's DataProto, as run_single reads it: the response's token ids
    (here one id: the completion's index), its attention mask, the row's fields."""

    def __init__(self, index: int, row: dict[str, Any]) -> None:
        import numpy as np

        self.batch = {"responses": np.array([index]), "attention_mask": np.array([1])}
        self.non_tensor_batch = {"data_source": row["data_source"],
                                 "reward_model": row["reward_model"],
                                 "extra_info": dict(row["extra_info"])}  # fmt: skip

    def __getitem__(self, key: Any) -> Any:
        return self  # (data[-1:] and data[0] of one sample: the sample)


MANAGERS = {  # (the reward loop's managers: file, the methods a step runs)
    "naive": ("verl/experimental/reward_loop/reward_manager/naive.py",
              ("NaiveRewardManager.run_single",)),
    "rate_limited": ("verl/experimental/reward_loop/reward_manager/limited.py",
                     ("RateLimitedRewardManager.run_single",
                      "RateLimitedRewardManager._compute_reward")),
}  # fmt: skip


@pytest.mark.parametrize("manager", sorted(MANAGERS))
def test_a_reward_step_over_every_bad_row_completes(manager: str, tmp_path: Path) -> None:
    """Issue 58's done-when: verl's reward managers (their own run_single) over a data file
    with one of each row that crashed a step: the step completes, every bad row flagged
    (bad_row, infra_error), every good one scored right, every result with the same keys
    (verl gathers reward_extra_info by key)."""
    import logging
    from types import MethodType, SimpleNamespace

    from helpers.trainer_rows import CASES, read_parquet, verl_rows, write_parquet

    rows = read_parquet(write_parquet(verl_rows(), tmp_path / "train.parquet"))
    texts = [case.completion or "" for case in CASES]  # (a tokenizer's text: never None)
    space = functions(*MANAGERS[manager], {"asyncio": asyncio, "logger": logging.getLogger("verl"),
                                           "DataProto": object})  # fmt: skip

    async def step() -> list[dict[str, Any]]:
        this = SimpleNamespace(
            tokenizer=SimpleNamespace(decode=lambda ids, skip_special_tokens: texts[int(ids[0])]),
            compute_score=rewards.compute_score, is_async_reward_score=False,
            loop=asyncio.get_running_loop(), reward_router_address=None,
            reward_model_tokenizer=None, timeout=300.0, _rpm_limiter=None, _tpm_limiter=None,
            _semaphore=asyncio.Semaphore(8),
        )  # fmt: skip
        if "_compute_reward" in space:
            this._compute_reward = MethodType(space["_compute_reward"], this)
        return list(await asyncio.gather(*(space["run_single"](this, _Item(i, row))
                                           for i, row in enumerate(rows))))  # fmt: skip

    got = asyncio.run(step())
    assert [(g["reward_score"], g["reward_extra_info"]["status"]) for g in got] == [
        (case.score, case.status) for case in CASES
    ]
    assert all(g["reward_extra_info"]["infra_error"] == case.bad for g, case in zip(got, CASES, strict=True))
    assert len({tuple(sorted(g["reward_extra_info"])) for g in got}) == 1


class _Batch:
    """A legacy manager's DataProto: the responses of every sample, and each sample."""

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        import numpy as np

        self.items = []
        for index, row in enumerate(rows):
            item = _Item(index, row)
            item.batch = {"prompts": np.array([-1]), "responses": np.array([index]),
                          "attention_mask": np.array([1, 1])}  # fmt: skip
            self.items.append(item)
        self.batch = {"responses": np.zeros((len(rows), 1), dtype=np.int64)}

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, index: int) -> _Item:
        return self.items[index]


def test_the_legacy_naive_managers_step_over_every_bad_row_completes(tmp_path: Path) -> None:
    """The same file through verl's legacy NaiveRewardManager.__call__ (its own code, with
    its SIGALRM bound per call; torch's zeros_like done by numpy): a reward per row."""
    import contextlib
    from collections import defaultdict
    from types import SimpleNamespace

    import numpy as np
    from helpers.trainer_rows import CASES, read_parquet, verl_rows, write_parquet

    rows = read_parquet(write_parquet(verl_rows(), tmp_path / "train.parquet"))
    texts = [case.completion or "" for case in CASES]
    torch = SimpleNamespace(zeros_like=lambda x, dtype=None: np.zeros_like(x, dtype=np.float32),
                            float32=np.float32, Tensor=object)  # fmt: skip
    space = functions("verl/workers/reward_manager/naive.py",
                      ("_score_timeout", "NaiveRewardManager.__call__"),
                      {"signal": signal, "contextmanager": contextlib.contextmanager,
                       "defaultdict": defaultdict, "torch": torch, "DataProto": object,
                       "Any": Any})  # fmt: skip
    this = SimpleNamespace(
        tokenizer=SimpleNamespace(decode=lambda ids, skip_special_tokens: texts[int(ids[0])]
                                  if int(ids[0]) >= 0 else "the prompt"),
        compute_score=rewards.compute_score, reward_fn_key="data_source", num_examine=0,
        compute_score_timeout=60, _extract_reward_from_rm_scores=lambda data, return_dict: None,
    )  # fmt: skip
    got = space["__call__"](this, _Batch(rows), return_dict=True)
    assert got["reward_tensor"][:, 0].tolist() == [case.score for case in CASES]
    assert got["reward_extra_info"]["status"] == [case.status for case in CASES]
    assert got["reward_extra_info"]["infra_error"] == [case.bad for case in CASES]
