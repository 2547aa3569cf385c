"""problemtools_py.rewards, as verl calls it: inline tests in both shapes, a dataset
problem id, the batch and async forms, the reward modes, and bad calls."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import numpy as np
import pytest
from helpers.packages import run_python
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from problemtools_py import rewards
from problemtools_py.dataset.ids import problem_id
from problemtools_py.dataset.schema import PROBLEMS, origin_json, split_file
from problemtools_py.dataset.schema import tests_json as encode_tests
from problemtools_py.dataset.writer import RowWriter
from problemtools_py.grading import rewardargs, rewardresults
from problemtools_py.grading.results import GradeResult, Status

ECHO = "```python\nprint(input())\n```"
TESTS = [["1\n", "1\n"], ["2\n", "2\n"], ["3\n", "3\n"], ["4\n", "4\n"]]
FIRST_TWO = "```python\nx = int(input())\nprint(x if x <= 2 else 0)\n```"


@pytest.fixture(autouse=True, scope="module")
def _close_graders() -> object:
    yield None
    rewards.close()


@pytest.mark.parametrize(
    "truth",
    [
        TESTS,
        json.dumps(TESTS),
        {"inputs": [t[0] for t in TESTS], "outputs": [t[1] for t in TESTS]},
        json.dumps({"inputs": [t[0] for t in TESTS], "outputs": [t[1] for t in TESTS]}),
    ],
    ids=["pairs", "pairs-json", "io", "io-json"],
)
def test_inline_tests_in_every_shape(truth: object) -> None:
    got = rewards.compute_score("code", ECHO, truth)
    assert got == {"score": 1.0, "status": "ok", "infra_error": False}


@pytest.mark.parametrize(
    ("mode", "extra", "score", "status"),
    [
        ("dataset", {}, 0.0, "wrong_answer"),
        ("pass-rate", {}, 0.5, "wrong_answer"),
        ("first-n", {"n": 2}, 1.0, "ok"),
        ("first-n", {"n": 3}, 0.0, "wrong_answer"),
    ],
)
def test_reward_modes(mode: str, extra: dict[str, int], score: float, status: str) -> None:
    got = rewards.compute_score("code", FIRST_TWO, TESTS, {"mode": mode, **extra}, details=True)
    assert (got["score"], got["status"]) == (score, status)
    if mode == "pass-rate":
        assert got["tests_run"] == 4  # every test runs


def test_a_dataset_problem_id(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    statement = "Print the input back."
    pid = problem_id(statement)
    with RowWriter(tmp_path / split_file("eval"), PROBLEMS) as writer:
        writer.add(
            {
                "problem_id": pid,
                "statement": statement,
                "tests_json": encode_tests([("5\n", "5\n")]),
                "time_limit_s": 1.0,
                "origin_json": origin_json({}),
            }
        )
    monkeypatch.setenv(rewards.DATASET_ENV, str(tmp_path))
    assert rewards.compute_score("ds", ECHO, pid)["score"] == 1.0
    assert rewards.compute_score("ds", "```python\nprint(4)\n```", pid, dataset=str(tmp_path)) == {
        "score": 0.0,
        "status": "wrong_answer",
        "infra_error": False,
    }


def test_batch_and_async_forms() -> None:
    got = rewards.compute_score_batch(
        ["a", "b"], [ECHO, "```python\nprint(0)\n```"], [TESTS, TESTS]
    )
    assert [g["score"] for g in got] == [1.0, 0.0]
    assert asyncio.run(rewards.compute_score_async("a", ECHO, TESTS))["score"] == 1.0


def test_a_completion_with_no_code_and_one_that_does_not_compile() -> None:
    assert rewards.compute_score("a", "no code here", TESTS)["status"] == "no_code"
    assert rewards.compute_score("a", "```python\ndef (\n```", TESTS)["status"] == "syntax_error"


@pytest.mark.parametrize(
    ("truth", "kwargs", "message"),
    [
        ("not-an-id", {}, "give dataset="),
        ("[1, 2", {}, "not valid JSON"),
        ([["1"]], {}, "not a pair"),
        ({"inputs": ["1"], "outputs": []}, {}, "1 inputs but 0 outputs"),
        (TESTS, {"mode": "best"}, "unknown reward mode"),
        (TESTS, {"mode": "first-n"}, "needs n"),
    ],
)
def test_bad_calls_are_clear(
    truth: object, kwargs: dict[str, object], message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(rewards.DATASET_ENV, raising=False)
    with pytest.raises(rewards.RewardError, match=message):
        rewards.compute_score("a", ECHO, truth, **kwargs, on_bad_row="raise")


def test_no_process_outlives_the_trainer() -> None:
    import subprocess
    import time

    def servers() -> int:
        found = subprocess.run(
            ["pgrep", "-f", "problemtools_py.sandbox.server"],
            capture_output=True,
            text=True,
            check=False,
        ).stdout
        return len(found.split())

    before = servers()
    code = (
        "from problemtools_py import rewards\n"
        f"print(rewards.compute_score('a', {ECHO!r}, {TESTS!r})['score'])\n"
    )
    out = run_python(code, timeout=120).stdout
    assert out.strip() == "1.0"
    deadline = time.monotonic() + 10
    while servers() > before and time.monotonic() < deadline:
        time.sleep(0.1)
    assert servers() <= before


CPP = '```cpp\n#include <iostream>\nint main(){long x; std::cin>>x; std::cout<<x<<"\\n";}\n```'
JAVA = (
    "```java\nimport java.util.*;\npublic class Echo { public static void main(String[] a) {"
    " System.out.println(new Scanner(System.in).nextLong()); } }\n```"
)


@pytest.mark.parametrize(
    ("completion", "kwargs", "status"),
    [
        (CPP, {"languages": ["python3", "cpp", "java"]}, "ok"),
        (JAVA, {"languages": ["python3", "cpp", "java"]}, "ok"),
        # issue 60: a class with main that is not public, and a public class named in a
        # comment, were saved as Main.java / Wrong.java ("could not find or load main class")
        (JAVA.replace("public class Echo", "class Solution"), {"language": "java"}, "ok"),
        (JAVA.replace("import", "// public class Wrong\nimport"), {"language": "java"}, "ok"),
        (CPP.replace("cpp", "c++"), {"language": "cpp"}, "ok"),
        ("```cpp\nint main( {\n```", {"language": "cpp"}, "compile_error"),
        (CPP, {}, "no_code"),  # the dataset's rule: Python only
    ],
)
def test_other_languages(completion: str, kwargs: dict[str, object], status: str) -> None:
    got = rewards.compute_score("code", completion, TESTS, details=True, **kwargs)
    assert got["status"] == status, got
    assert got["score"] == (1.0 if status == "ok" else 0.0)


def test_the_fence_tag_picks_the_last_block_of_an_allowed_language() -> None:
    text = f"First in C++:\n{CPP}\nThen Python:\n```python\nprint(0)\n```"
    got = rewards.compute_score("code", text, TESTS, languages=["python3", "cpp"])
    assert got["status"] == "wrong_answer"  # the Python block is last
    got = rewards.compute_score("code", text, TESTS, language="cpp")
    assert got["status"] == "ok"


def test_a_cpp_program_that_loops_times_out() -> None:
    looping = "```cpp\nint main(){ for(volatile long i=0;;i++); }\n```"
    got = rewards.compute_score("code", looping, [["1\n", "1\n"]], language="cpp", time_limit=0.5)
    assert got["status"] == "timeout"


# Issue 39's table, scored by compute_score: each was 0.0 (NameError, the thread's or the
# atexit handler's output lost, a compile error of the precompiled header) and is 1.0.
AS_PYTHON3 = {
    "exit": "a, b = map(int, input().split())\nprint(a + b)\nexit()\n",
    "quit": "a, b = map(int, input().split())\nprint(a + b)\nquit(0)\n",
    "thread": ("import sys, threading\ndef main():\n    a, b = map(int, input().split())\n"
               "    print(a + b)\nsys.setrecursionlimit(10 ** 6)\nthreading.stack_size(1 << 26)\n"
               "threading.Thread(target=main).start()\n"),
    "atexit": "import atexit\na, b = map(int, input().split())\natexit.register(print, a + b)\n",
    "builtins": "_ = (help, copyright, credits)\na, b = map(int, input().split())\nprint(a + b)\n",
}  # fmt: skip
TWICE = ("#include <bits/stdc++.h>\n#include <bits/stdc++.h>\n#include <iostream>\n"
         "using namespace std;\nint main() { long long a, b; cin >> a >> b; cout << a + b; }\n")  # fmt: skip


@pytest.mark.parametrize(("language", "code"),
                         [*(("python", c) for c in AS_PYTHON3.values()), ("cpp", TWICE)],
                         ids=[*AS_PYTHON3, "cpp-included-twice"])  # fmt: skip
def test_correct_programs_python3_and_g_plus_plus_accept_score_one(
    language: str, code: str
) -> None:
    tests = [["1 2\n", "3\n"], ["5 6\n", "11\n"]]
    got = rewards.compute_score("x", f"```{language}\n{code}```", tests,
                                languages=["python3", "cpp"], details=True)  # fmt: skip
    assert (got["score"], got["status"]) == (1.0, "ok"), got["message"]


# Issue 43: what trainers' rows and configs pass, which zeroed or crashed a step before.
@pytest.mark.parametrize("name", ["python", "py", "Python", "Python 3", "python3", "PY3"])
def test_python_by_any_common_name(name: str) -> None:
    assert rewards.compute_score("code", ECHO, TESTS, {"language": name})["score"] == 1.0
    assert rewards.compute_score("code", ECHO, TESTS, language=name)["score"] == 1.0


@pytest.mark.parametrize(("name", "message"), [
    ("python2", "Python 2 is not graded"),
    ("cobol", "unknown language 'cobol'; this machine grades"),
])  # fmt: skip
def test_an_unknown_language_is_the_callers_error(name: str, message: str) -> None:
    with pytest.raises(rewards.RewardError, match=message):
        rewards.compute_score("code", ECHO, TESTS, language=name, on_bad_row="raise")


def test_extra_info_is_read_for_the_rows_fields_only() -> None:
    row = {"index": 7, "split": "train", "details": True, "dataset": "/nowhere",
           "infra_score": 5, "language": "python"}  # fmt: skip
    assert rewards.compute_score("code", ECHO, TESTS, row) == {
        "score": 1.0, "status": "ok", "infra_error": False}  # fmt: skip


@pytest.mark.parametrize("limit", [{"seconds": 2, "nanos": 0}, {"seconds": 0, "nanos": 5e8},
                                   "1.5", 3, np.float64(1.0)])  # fmt: skip
def test_time_limits_in_the_datasets_forms(limit: object) -> None:
    got = rewards.compute_score("code", ECHO, TESTS, {"time_limit": limit})
    assert got["score"] == 1.0


@pytest.mark.parametrize("limit", [{"seconds": 0}, "two", -1, float("nan"), True, 10_000])
def test_a_bad_time_limit_is_the_callers_error(limit: object) -> None:
    with pytest.raises(rewards.RewardError, match="time_limit"):
        rewards.compute_score("code", ECHO, TESTS, {"time_limit": limit}, on_bad_row="raise")


def test_ground_truth_as_pandas_reads_it_and_with_integer_outputs() -> None:
    frame_value = {"inputs": np.array(["1\n", "2\n"], dtype=object),
                   "outputs": np.array([1, 2])}  # fmt: skip
    assert rewards.compute_score("code", ECHO, frame_value)["score"] == 1.0


def test_an_unknown_problem_id_is_a_reward_error(tmp_path: Path) -> None:
    with RowWriter(tmp_path / split_file("eval"), PROBLEMS) as writer:
        writer.add({"problem_id": problem_id("x"), "statement": "x",
                    "tests_json": encode_tests([("5\n", "5\n")]), "time_limit_s": 1.0,
                    "origin_json": origin_json({})})  # fmt: skip
    with pytest.raises(rewards.RewardError, match="no problem with id 'nosuch'"):
        rewards.compute_score("ds", ECHO, "nosuch", dataset=str(tmp_path), on_bad_row="raise")


def test_every_result_has_the_same_keys_and_a_float_score() -> None:
    """verl gathers each key of every result into reward_extra_info, one list per key."""
    completions = [ECHO, "```python\nprint(0)\n```", "no code", "```python\ndef (\n```"]
    for details in (False, True):
        got = [rewards.compute_score("c", c, TESTS, details=details) for c in completions]
        assert len({tuple(g) for g in got}) == 1
        assert all(type(g["score"]) is float for g in got)


def test_the_graders_failure_is_a_float_reported_beside_it(
    caplog: pytest.LogCaptureFixture,
) -> None:
    failed = GradeResult(None, Status.GRADER_ERROR, message="the jail failed")
    before = rewards.infra_failures()
    options = rewardargs.options_of(None, {})
    assert rewardresults.scored(failed, options) == {
        "score": 0.0, "status": "grader_error", "infra_error": True}  # fmt: skip
    assert rewards.infra_failures() == before + 1
    assert "the jail failed" in caplog.text
    assert (
        rewardresults.scored(failed, rewardargs.options_of(None, {"infra_score": -1}))["score"] == -1.0
    )
    with pytest.raises(rewards.InfraError, match="grader_error: the jail failed"):
        rewardresults.scored(failed, rewardargs.options_of(None, {"on_infra_error": "raise"}))


def test_call_based_ground_truth_of_apps_and_livecodebench() -> None:
    add = "```python\ndef add(a, b):\n    return a + b\n```"
    apps = json.dumps({"fn_name": "add", "inputs": [[1, 2], [3, 4]], "outputs": [[3], [7]]})
    lcb = [{"input": "1\n2", "output": "3", "testtype": "functional",
            "metadata": json.dumps({"func_name": "add"})}]  # fmt: skip
    assert rewards.compute_score("apps", add, apps)["score"] == 1.0
    assert rewards.compute_score("lcb", add, lcb)["score"] == 1.0
    wanting_name = {"inputs": [[1, 2]], "outputs": [[3]]}
    assert rewards.compute_score("x", add, wanting_name, {"fn_name": "add"})["score"] == 1.0


def test_jobs_sizes_this_processes_grader_and_a_bad_one_is_the_callers_error() -> None:
    """verl starts reward.num_workers processes per node: each may size its own grader
    (the cores are one budget for all of them anyway, see sandbox.cores)."""
    found = rewards.compute_score("x", ECHO, json.dumps(TESTS), None, jobs=1)
    assert found["score"] == 1.0
    assert [g.jobs for key, g in rewards._graders.items() if key[-1] == 1] == [1]
    for bad in (0, -1, 1.5, True, "2", 100_000):
        with pytest.raises(rewards.RewardError, match="jobs"):
            rewards.compute_score("x", ECHO, json.dumps(TESTS), None, jobs=bad, on_bad_row="raise")


HOG_600MB = "```python\nx = bytearray(600 << 20)\nfor i in range(0, len(x), 4096):\n    x[i] = 1\nprint(input())\n```"


@pytest.mark.parametrize(
    ("info", "kwargs"),
    [
        ({"memory_limit": 256}, {}),  # open-r1's column, MB
        ({"memory_limit_bytes": 256 << 20}, {}),  # CodeContests'
        ({}, {"memory_mb": 256}),  # the reward kwarg
    ],
)
def test_a_rows_memory_limit_is_the_programs(info: dict[str, int], kwargs: dict[str, int]) -> None:
    """Issue 58: a program touching 600 MB scored 1.0 with a row's limit of 256 MB."""
    got = rewards.compute_score("x", HOG_600MB, json.dumps(TESTS), info, **kwargs)
    assert (got["score"], got["status"]) == (0.0, "memory"), got
    # (the time limit is generous: on a fresh virtual machine the first touch of memory the
    # guest never used costs up to 3 s of system CPU per GiB, and this test is about memory)
    roomy_row = {"memory_limit": 1024, "time_limit": 20}
    roomy = rewards.compute_score("x", HOG_600MB, json.dumps(TESTS), roomy_row)
    assert (roomy["score"], roomy["status"]) == (1.0, "ok"), roomy


@pytest.mark.parametrize("bad", [-1, "lots", float("nan"), float("inf"), True, [256], 1 << 40])
def test_a_memory_limit_that_is_no_size_is_the_callers_error(bad: object) -> None:
    with pytest.raises(rewards.RewardError, match="memory_limit"):
        rewards.compute_score(
            "x", ECHO, json.dumps(TESTS), {"memory_limit": bad}, on_bad_row="raise"
        )


def test_a_misspelled_keyword_is_the_callers_error_naming_the_nearest() -> None:
    """Issue 58: mdoe= was ignored without a word; verl's own keywords are left alone."""
    with pytest.raises(rewards.RewardError, match="'mdoe'; did you mean 'mode'"):
        rewards.compute_score("x", ECHO, json.dumps(TESTS), None, mdoe="pass-rate")
    with pytest.raises(rewards.RewardError, match="'memory'; did you mean 'memory_mb'"):
        rewards.compute_score("x", ECHO, json.dumps(TESTS), None, memory=256)
    routed = rewards.compute_score("x", ECHO, json.dumps(TESTS), None,
                                   reward_router_address=None, reward_model_tokenizer=None)  # fmt: skip
    assert routed["score"] == 1.0


def test_codecontests_numbered_languages_are_read_as_its_enum_says() -> None:
    """Issue 58: CodeContests rows carry Solution.Language as a number (3: PYTHON3)."""
    assert rewards.compute_score("x", ECHO, json.dumps(TESTS), {"language": 3})["score"] == 1.0
    for number, why in ((1, "Python 2"), (0, "no language"), (9, "no language")):
        with pytest.raises(rewards.RewardError, match=why):
            rewards.compute_score(
                "x", ECHO, json.dumps(TESTS), {"language": number}, on_bad_row="raise"
            )


def _packed(value: object) -> str:
    """As LiveCodeBench packs its private tests: base64 of zlib of a pickle of JSON."""
    import base64
    import pickle
    import zlib

    return base64.b64encode(zlib.compress(pickle.dumps(json.dumps(value)))).decode()


def test_livecodebenchs_packed_private_tests_are_read() -> None:
    """Issue 58: the packed text was taken for a problem id ('give dataset=')."""
    stdin = [{"input": i, "output": o, "testtype": "stdin"} for i, o in TESTS]
    assert rewards.compute_score("x", ECHO, _packed(stdin))["score"] == 1.0
    row = {"public_test_cases": json.dumps(stdin[:1]), "private_test_cases": _packed(stdin[1:]),
           "metadata": json.dumps({"func_name": None})}  # fmt: skip
    got = rewards.compute_score("x", ECHO, row, details=True)
    assert (got["score"], got["tests_run"]) == (1.0, len(TESTS)), got
    call = [{"input": "2\n3", "output": "5", "testtype": "functional"}]
    row = {"public_test_cases": "[]", "private_test_cases": _packed(call),
           "metadata": json.dumps({"func_name": "add"})}  # fmt: skip
    solution = "```python\nclass Solution:\n    def add(self, a, b):\n        return a + b\n```"
    assert rewards.compute_score("x", solution, row)["score"] == 1.0


def test_a_packed_pickle_that_names_anything_runs_nothing(tmp_path: Path) -> None:
    import base64
    import os
    import pickle
    import zlib

    marker = tmp_path / "ran"

    class Evil:
        def __reduce__(self) -> tuple[object, tuple[str]]:
            return (os.system, (f"touch {marker}",))

    packed = base64.b64encode(zlib.compress(pickle.dumps(Evil()))).decode()
    with pytest.raises(rewards.RewardError, match="only plain values"):
        rewards.compute_score("x", ECHO, packed, on_bad_row="raise")
    assert not marker.exists()


def test_packed_tests_that_unpack_without_bound_are_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from problemtools_py.grading import shapes

    monkeypatch.setattr(shapes, "PACKED_MAX", 1 << 10)
    big = [{"input": "1\n" * 2000, "output": "1\n", "testtype": "stdin"}]
    with pytest.raises(rewards.RewardError, match="unpack to over"):
        rewards.compute_score("x", ECHO, _packed(big), on_bad_row="raise")


BAD_ROWS = [
    (ECHO, None, {}),  # no ground truth
    (ECHO, "not-an-id", {}),  # a problem id without a dataset
    (ECHO, TESTS, {"time_limit": 0}),
    (ECHO, TESTS, {"language": "cobol"}),
    (ECHO, [{"input": "1", "output": "1", "testtype": "functional"}], {}),  # no fn_name
    (ECHO, TESTS, {"memory_limit": "lots"}),
    (12, TESTS, {}),  # a completion that is no text
]


@pytest.mark.parametrize(("solution", "truth", "info"), BAD_ROWS)
def test_a_row_that_cannot_be_graded_is_scored_and_flagged_not_raised(
    solution: object, truth: object, info: dict[str, object]
) -> None:
    """Issue 58: one such row ended verl's and TRL's reward step (a training run dying at
    step 3,000). By default it scores infra_score, flagged, with the reason."""
    before = rewards.bad_rows()
    got = rewards.compute_score("x", solution, truth, info, details=True)  # type: ignore[arg-type]
    assert (got["score"], got["status"], got["infra_error"]) == (0.0, "bad_row", True), got
    assert got["message"] and rewards.bad_rows() == before + 1
    keys = set(rewards.compute_score("x", ECHO, TESTS, details=True))
    assert set(got) == keys  # (verl gathers every key of every row)
    assert rewards.compute_score("x", solution, truth, info, infra_score=-1.0)["score"] == -1.0  # type: ignore[arg-type]
    with pytest.raises(rewards.RewardError):
        rewards.compute_score("x", solution, truth, info, on_bad_row="raise")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("solution", "score", "status"),
    [
        (None, 0.0, "no_code"),
        (ECHO.encode(), 1.0, "ok"),
        ([{"role": "user", "content": "echo"}, {"role": "assistant", "content": ECHO}], 1.0, "ok"),
        ([{"role": "assistant", "content": [{"type": "text", "text": ECHO}]}], 1.0, "ok"),
        ("```python\nprint(input())  # \ud800\n```", 1.0, "ok"),  # (a lone surrogate)
    ],
)
def test_a_completion_in_any_form_trainers_pass_is_graded(
    solution: object, score: float, status: str
) -> None:
    got = rewards.compute_score("x", solution, TESTS)  # type: ignore[arg-type]
    assert (got["score"], got["status"]) == (score, status), got


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    solution=st.one_of(st.none(), st.text(max_size=40), st.binary(max_size=20), st.integers(),
                       st.floats(), st.lists(st.dictionaries(st.text(max_size=5), st.text(max_size=5)), max_size=3)),
    truth=st.one_of(st.none(), st.text(max_size=30), st.integers(), st.floats(),
                    st.lists(st.lists(st.text(max_size=5), max_size=3), max_size=3)),
    info=st.one_of(st.none(), st.dictionaries(
        st.sampled_from(["time_limit", "language", "mode", "n", "fn_name", "memory_limit"]),
        st.one_of(st.none(), st.integers(), st.floats(), st.text(max_size=8)), max_size=3)),
)  # fmt: skip
def test_every_argument_gives_a_float_or_the_flag(
    solution: object, truth: object, info: object
) -> None:
    got = rewards.compute_score("x", solution, truth, info)  # type: ignore[arg-type]
    assert isinstance(got["score"], float) and isinstance(got["infra_error"], bool), got


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    solution=st.one_of(st.none(), st.text(max_size=20), st.binary(max_size=10), st.floats()),
    truth=st.one_of(st.none(), st.just(TESTS), st.text(max_size=20), st.floats()),
    kwargs=st.dictionaries(st.sampled_from(["mode", "n", "language", "time_limit", "memory_mb"]),
                           st.one_of(st.none(), st.integers(), st.floats(), st.text(max_size=8)),
                           max_size=2),
)  # fmt: skip
def test_the_awaitable_gives_a_float_or_the_flag_too(
    solution: object, truth: object, kwargs: dict[str, object]
) -> None:
    """compute_score_async, the form verl's reward loop awaits, with odd reward kwargs."""
    got = asyncio.run(rewards.compute_score_async("x", solution, truth, None, **kwargs))  # type: ignore[arg-type]
    assert isinstance(got["score"], float) and isinstance(got["infra_error"], bool), got
    assert got["infra_error"] == (got["status"] in ("bad_row", "grader_error", "harness_overload"))


def test_a_forked_child_never_speaks_on_its_parents_sandbox_connections() -> None:
    """A fork of a process with a warm grader (verl's PRIME pool, any multiprocessing
    fork) drops the parent's graders; their open sessions, finalized in the child, sent
    CLOSE on the parent's sandbox connections and read the parent's replies ("Exception
    ignored in Sandbox.session"), so the parent's next gradings lost their jails."""
    import gc
    import subprocess

    assert rewards.compute_score("x", ECHO, TESTS)["score"] == 1.0  # (a session open)
    child = subprocess.run(
        [sys.executable, "-c", FORK_AND_DROP], capture_output=True, text=True, timeout=120,
        check=False,
    )  # fmt: skip
    assert child.returncode == 0, child.stderr
    assert "Exception ignored" not in child.stderr and "parent ok" in child.stdout, child.stderr
    gc.collect()


FORK_AND_DROP = """
import gc, os, time
import psutil
from problemtools_py import rewards
tests = [["1\\n", "1\\n"], ["2\\n", "2\\n"]]
echo = "```python\\nprint(input())\\n```"
assert rewards.compute_score("x", echo, tests)["score"] == 1.0  # (the parent's session open)
tree = lambda: sorted(p.pid for p in psutil.Process().children(recursive=True))
def settled():  # (the grader's other workers start their sandboxes in the background)
    last, same = tree(), 0
    while same < 4:
        time.sleep(0.25)
        now = tree()
        same, last = (same + 1 if now == last else 0), now
    return last
before = settled()  # (its sandbox servers and the jails of its open sessions)
for _ in range(3):
    pid = os.fork()
    if pid == 0:
        gc.collect()  # (the parent's graders, dropped at the fork, collected here)
        os._exit(0)
    os.waitpid(pid, 0)
time.sleep(0.5)
assert tree() == before, (before, tree())  # (the children closed none of the parent's jails)
got = [rewards.compute_score("x", echo, tests, details=True) for _ in range(4)]
assert [(g["status"], g["retries"]) for g in got] == [("ok", 0)] * 4, got
print("parent ok")
"""


@pytest.mark.parametrize(("completion", "language"), [
    ("```python\nx = bytearray(10**14)\nprint(input())\n```", None),  # MemoryError at once
    ("```cpp\n#include <iostream>\nint main(){ char* p = new char[1LL << 50]; std::cout << p[0]; }\n```",
     "cpp"),  # std::bad_alloc
])  # fmt: skip
def test_a_crash_that_says_out_of_memory_is_memory_as_verifyproblem_judges(
    completion: str, language: str | None
) -> None:
    """Issue 60: bytearray(10**14) was `memory` (MLE) in verifyproblem and runtime_error
    in the grader; both read the language's out_of_memory text now (languages.yaml)."""
    kwargs = {"language": language} if language else {}
    got = rewards.compute_score("x", completion, json.dumps(TESTS), None, **kwargs)
    assert (got["score"], got["status"]) == (0.0, "memory"), got
