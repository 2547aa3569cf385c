"""problemtools_py.verifiers_env through verifiers 0.4's own code (issue 43): its plugin
loader finds the taskset by id, its iteration builds the tasks from a dataset, and its
Task.score runs our reward and metrics on a rollout's trace."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
import verifiers.v1 as vf
from verifiers.v1.graph import MessageNode
from verifiers.v1.trace import AgentInfo, Trace, TraceTask
from verifiers.v1.types import AssistantMessage, UserMessage
from verifiers.v1.utils.loaders import load_taskset, taskset_class

from problemtools_py import rewards
from problemtools_py.dataset.ids import problem_id
from problemtools_py.dataset.schema import PROBLEMS, origin_json, split_file
from problemtools_py.dataset.schema import tests_json as encode_tests
from problemtools_py.dataset.writer import RowWriter
from problemtools_py.verifiers_env import CodeTaskConfig, CodeTaskset, CodeTasksetConfig

ID = "problemtools-py-env"  # (verifiers imports problemtools_py_env)

STATEMENTS = {"Print the input back.": [("5\n", "5\n"), ("7\n", "7\n")],
              "Print twice the input.": [("5\n", "10\n")]}  # fmt: skip


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    root = tmp_path_factory.mktemp("ds")
    with RowWriter(root / split_file("eval"), PROBLEMS) as writer:
        for statement, tests in sorted(STATEMENTS.items(), key=lambda i: problem_id(i[0])):
            writer.add({"problem_id": problem_id(statement), "statement": statement,
                        "tests_json": encode_tests(tests), "time_limit_s": 1.0,
                        "origin_json": origin_json({})})  # fmt: skip
    yield root
    rewards.close()


def rollout(task: vf.Task, reply: str) -> Trace:
    """A finished rollout's trace: the task's prompt, then the model's reply."""
    return Trace(task=TraceTask(type=type(task).__name__, data=task.data),
                 agent=AgentInfo(config=vf.AgentConfig()),
                 nodes=[MessageNode(message=UserMessage(content=task.data.prompt_text)),
                        MessageNode(parent=0, message=AssistantMessage(content=reply),
                                    sampled=True)])  # fmt: skip


def test_the_taskset_loads_by_its_id_and_scores_rollouts(dataset: Path) -> None:
    assert taskset_class(ID) is CodeTaskset
    taskset = load_taskset(CodeTasksetConfig(id=ID, dataset=str(dataset), split="eval"))
    tasks = {t.data.prompt_text.split("\n")[0]: t for t in taskset}
    assert set(tasks) == set(STATEMENTS)
    echo = tasks["Print the input back."]
    assert "```python" in echo.data.prompt_text

    good = rollout(echo, "Here:\n```python\nprint(input())\n```")
    asyncio.run(echo.score(good))
    assert good.rewards["passed"].value == 1.0
    assert good.metrics["infra_error"] == 0.0 and good.metrics["status_code"] == 0.0

    bad = rollout(tasks["Print twice the input."], "```python\nprint(input())\n```")
    asyncio.run(tasks["Print twice the input."].score(bad))
    assert bad.rewards["passed"].value == 0.0 and bad.metrics["status_code"] == 1.0  # WA


def test_pass_rate_from_the_task_config(dataset: Path) -> None:
    config = CodeTasksetConfig(id=ID, dataset=str(dataset), split="eval",
                               task=CodeTaskConfig(mode="pass-rate"))  # fmt: skip
    taskset = load_taskset(config)
    echo = next(t for t in taskset if t.data.prompt_text.startswith("Print the input"))
    half = rollout(echo, "```python\nx = input()\nprint(x if x == '5' else 0)\n```")
    asyncio.run(echo.score(half))
    assert half.rewards["passed"].value == 0.5


def documented_command() -> tuple[dict[str, str], list[str]]:
    """docs/grading.md's vf-eval command, as written: its environment and its words."""
    import re
    import shlex

    text = (Path(__file__).parents[1] / "docs" / "grading.md").read_text(encoding="utf-8")
    (block,) = [b for b in re.findall(r"```sh\n(.*?)```", text, re.S) if "vf-eval" in b]
    words = shlex.split(block.replace("\\\n", " "))
    env = dict(w.split("=", 1) for w in words[: words.index("vf-eval")])
    return env, words[words.index("vf-eval"):]


def test_the_documented_vf_eval_command_runs(dataset: Path, tmp_path: Path) -> None:
    """Issue 58: the docs' command failed (verifiers' command line builds the taskset from
    its id before it reads --env.taskset.dataset). Run as written, with verifiers' own
    vf-eval, its null harness in the subprocess runtime, against a model on loopback that
    answers every task with an echo program: each task graded, with pass-rate."""
    import json
    import os
    import subprocess
    import sys

    from helpers.modelserver import model_server

    env, words = documented_command()
    with model_server(lambda messages: "```python\nprint(input())\n```") as (url, asked):
        given = {"DATASET_DIR": str(dataset), "MODEL": "loopback",
                 "http://127.0.0.1:8000/v1": url}  # fmt: skip
        command = [str(Path(sys.executable).parent / words[0])] + [given.get(w, w) for w in words[1:]]
        done = subprocess.run(command, cwd=tmp_path, env={**os.environ, **env}, text=True,
                              capture_output=True, timeout=600, check=False)  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert len(asked) == len(STATEMENTS)
    (traces,) = tmp_path.glob("outputs/*/traces.jsonl")
    got = {}
    for line in traces.read_text().splitlines():
        episode = json.loads(line)
        (trace,) = episode["traces"]
        statement = trace["task"]["data"]["prompt"].split("\n")[0]
        got[statement] = (trace["rewards"]["passed"]["score"], trace["metrics"]["infra_error"])
    assert got == {"Print the input back.": (1.0, 0.0), "Print twice the input.": (0.0, 0.0)}
