"""A verifiers (Prime Intellect, ``verifiers`` 0.4's v1 API) taskset: a dataset's problems
as tasks, each rollout's last reply graded by this project's grader.

    vf-eval problemtools-py-env --env.taskset.dataset DIR [--env.taskset.split eval]

The taskset id ``problemtools-py-env`` is the top-level module ``problemtools_py_env``,
which exports this module's taskset (verifiers imports a taskset by a top-level name and
takes the Taskset subclass it exports). Each task's prompt is the problem's statement and
the answer format (a fenced Python program reading stdin); its reward ``passed`` is
``compute_score``'s on the problem id (the dataset's rule, or ``mode``), and the grade's
status, whether the grader failed, and the CPU seconds of the slowest test are metrics."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import verifiers.v1 as vf
from pydantic import Field

from problemtools_py.grading.results import Status
from problemtools_py.grading.rewardargs import DATASET_ENV
from problemtools_py.rewards import compute_score_async

__all__ = ["CodeTaskset"]

ANSWER_FORMAT = (
    "Answer with one Python 3 program in a ```python fenced block; it reads the input from "
    "standard input and writes the answer to standard output."
)
STATUS_CODES = tuple(str(status) for status in Status)  # (grading's one table, in its order)


class CodeTaskConfig(vf.TaskConfig):
    """How a rollout is graded (``--env.taskset.task.*``)."""

    dataset: str = ""
    """The dataset directory (set from the taskset's)."""
    mode: str = "dataset"
    """dataset (1.0 when every test passes), pass-rate or first-n (with n)."""
    n: int | None = None
    languages: list[str] = Field(default_factory=lambda: ["python3"])
    """Languages a reply's program may be in (its fence tag decides)."""


class CodeData(vf.TaskData):
    problem_id: str = ""
    """The dataset's problem_id: the grader reads its tests there."""


class CodeTask(vf.Task[CodeData, vf.State, CodeTaskConfig]):
    @vf.reward(weight=1.0)
    async def passed(self, trace: vf.Trace) -> float:
        """The reward: compute_score's on the rollout's last reply."""
        got = await self._grade(trace)
        return float(got["score"])

    @vf.metric
    async def grade(self, trace: vf.Trace) -> dict[str, float]:
        """The grade's status (its index in STATUS_CODES), whether the grader failed,
        and the slowest test's CPU seconds."""
        got = await self._grade(trace)
        status = STATUS_CODES.index(got["status"]) if got["status"] in STATUS_CODES else -1
        return {
            "status_code": float(status),
            "infra_error": float(got["infra_error"]),
            "cpu_seconds": float(got.get("cpu_seconds") or 0.0),
        }

    async def _grade(self, trace: vf.Trace) -> dict[str, Any]:
        """One grading per trace, whichever signal asks first (kept in trace.info)."""
        found = trace.info.get("problemtools_py")
        if isinstance(found, dict):
            return found
        config = self.config
        got = await compute_score_async(
            "verifiers",
            trace.last_reply,
            self.data.problem_id,
            dataset=config.dataset,
            mode=config.mode,
            n=config.n,
            languages=config.languages,
            details=True,
        )
        trace.info["problemtools_py"] = got
        return got


class CodeTasksetConfig(vf.TasksetConfig):
    dataset: str = ""
    """A dataset directory (kattis2parquet's output); empty: $PROBLEMTOOLS_PY_DATASET.
    (Not required here: verifiers' command line builds this from the taskset id before
    it reads --env.taskset.dataset.)"""
    split: str = "train"
    task: CodeTaskConfig = CodeTaskConfig()


class CodeTaskset(vf.Taskset[CodeTask, CodeTasksetConfig]):
    def load(self) -> Iterator[CodeTask]:
        from problemtools_py.dataset.reader import Dataset

        config = self.config
        root = config.dataset or os.environ.get(DATASET_ENV, "")
        if not root:
            raise ValueError(
                f"problemtools-py-env needs a dataset: --env.taskset.dataset DIR or ${DATASET_ENV}"
            )
        task_config = config.task.model_copy(update={"dataset": root})
        for info in Dataset(root).statements(config.split):
            data = CodeData(
                id=info.problem_id,
                problem_id=info.problem_id,
                prompt=f"{info.statement.strip()}\n\n{ANSWER_FORMAT}",
            )
            yield CodeTask(data, task_config)
