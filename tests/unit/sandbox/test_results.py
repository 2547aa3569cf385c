"""RunResult's descriptions of a run (pure: no sandbox)."""

from __future__ import annotations

import pytest

from problemtools_py.sandbox.inside import NOFILE
from problemtools_py.sandbox.protocol import Reply
from problemtools_py.sandbox.results import Limits, Outcome, RunResult

PYTHON = b"""Traceback (most recent call last):
  File "/prog/x.py", line 3, in <module>
    exit(0)
NameError: name 'exit' is not defined
"""
JAVA = b"""Exception in thread "main" java.lang.IllegalStateException: no input
\tat Main.main(Main.java:5)
"""
CPP = b"""terminate called after throwing an instance of 'std::runtime_error'
  what():  bad
"""


def crashed(stderr: bytes) -> RunResult:
    return RunResult(outcome=Outcome.RTE, exit_code=1, signal=None, cpu_seconds=0.01,
                     wall_seconds=0.02, peak_memory_bytes=1 << 20, output_bytes=0, stdout=b"",
                     stderr=stderr)  # fmt: skip


@pytest.mark.parametrize(
    ("stderr", "line"),
    [
        (PYTHON, "NameError: name 'exit' is not defined"),
        (JAVA, 'Exception in thread "main" java.lang.IllegalStateException: no input'),
        (CPP, "terminate called after throwing an instance of 'std::runtime_error'"),
        (b"", ""),
        (b"   \n\t\n", ""),
        (b"bad \x1b[31mred\x1b[0m \xff\n", "bad ?[31mred?[0m \ufffd"),
    ],
    ids=["python", "java", "cpp", "silent", "blank", "control-bytes"],
)
def test_the_error_line_is_what_the_program_last_said(stderr: bytes, line: str) -> None:
    assert crashed(stderr).error_line() == line


def test_a_long_error_line_is_cut() -> None:
    said = crashed(b"E" * 500 + b"\n").error_line(width=40)
    assert len(said) == 40 and said.endswith("...")


def timed(cpu: float, wall: float, queued: float | None, wall_killed: bool) -> RunResult:
    return RunResult(outcome=Outcome.TLE if wall_killed else Outcome.OK, exit_code=None,
                     signal=None, cpu_seconds=cpu, wall_seconds=wall, peak_memory_bytes=0,
                     output_bytes=0, wall_killed=wall_killed, queued_seconds=queued)  # fmt: skip


@pytest.mark.parametrize(
    ("cpu", "wall", "queued", "wall_killed", "crowded", "starved"),
    [
        (0.01, 3.0, 0.002, True, False, False),  # it slept: its own doing
        (0.2, 3.0, 2.5, True, True, True),  # runnable, and given no CPU: the machine's
        (0.2, 3.0, None, True, True, True),  # unknown: the machine's, to be safe
        (0.01, 0.5, 0.001, False, False, False),  # a validator that waited on its peer
        (0.01, 0.5, 0.4, False, True, False),  # one the machine kept waiting (not killed)
        (1.0, 1.0, 0.0, False, True, False),  # it ran all the time: nothing to tell
    ],
)
def test_a_run_kept_waiting_by_the_machine(cpu: float, wall: float, queued: float | None,
                                           wall_killed: bool, crowded: bool,
                                           starved: bool) -> None:  # fmt: skip
    run = timed(cpu, wall, queued, wall_killed)
    assert (run.crowded, run.starved) == (crowded, starved)


@pytest.mark.parametrize(("cpu", "limit", "queued", "wall_killed", "again"), [
    (0.2, 1.0, 2.5, True, True),  # starved under its limit: run it again
    (1.0, 1.0, 2.5, True, False),  # used its whole limit: a timeout, however crowded
    (1.2, 1.0, None, True, False),  # over it
    (0.01, 1.0, 0.002, True, False),  # it slept
    (0.2, 1.0, 2.5, False, False),  # the wall clock did not stop it
])  # fmt: skip
def test_starved_under_a_limit_is_the_one_rule_for_running_again(
    cpu: float, limit: float, queued: float | None, wall_killed: bool, again: bool
) -> None:
    assert timed(cpu, 3.0, queued, wall_killed).starved_under(limit) is again


@pytest.mark.parametrize(
    ("cpu", "queued", "wall_killed", "starved"),
    [
        (0.05, 2.9, True, True),  # well under its share of a core 8 runs share: the machine
        (0.40, 2.5, True, False),  # its share, beside loops: a timeout, its own
        (0.05, 0.01, True, False),  # it slept
        (0.05, 2.9, False, False),  # not stopped by the clock
        (0.05, None, True, True),  # its wait unknown: counted as the machine's
    ],
)
def test_a_wall_clock_run_is_starved_only_below_half_its_fair_share(
    cpu: float, queued: float | None, wall_killed: bool, starved: bool
) -> None:
    assert timed(cpu, 3.0, queued, wall_killed).starved_sharing(8) is starved


def reply(**fields: object) -> Reply:
    base: dict[str, object] = dict(exit_code=0, signal=None, cpu_seconds=0.01, wall_seconds=0.02,
                                   ended=0.0, peak_memory_bytes=0, oom=False)  # fmt: skip
    return Reply(**{**base, **fields})  # type: ignore[arg-type]


@pytest.mark.parametrize(("fields", "outcome", "named"), [
    ({"tasks_full": True, "killed_for": "wall", "exit_code": None, "signal": 9}, Outcome.RTE, True),
    ({"tasks_full": True, "exit_code": 1}, Outcome.RTE, True),
    ({"tasks_full": True, "exit_code": None, "signal": 6}, Outcome.RTE, True),
    ({"tasks_full": True}, Outcome.OK, False),  # it handled the refusal: judged on its output
    ({"tasks_full": True, "killed_for": "cpu", "cpu_seconds": 1.2}, Outcome.TLE, False),
    ({"tasks_full": True, "oom": True, "exit_code": None, "signal": 9}, Outcome.MLE, False),
    ({"killed_for": "wall", "exit_code": None, "signal": 9}, Outcome.TLE, False),
])  # fmt: skip
def test_a_refused_task_then_a_failure_is_a_run_time_error_naming_the_limit(
    fields: dict[str, object], outcome: Outcome, named: bool
) -> None:
    run = RunResult.from_reply(reply(**fields), Limits(cpu_seconds=1.0, processes=256), b"")
    assert run.outcome is outcome
    assert run.describe().startswith("reached its limit of 256 processes and threads") is named


def test_the_default_task_limit_keeps_a_sandboxs_open_files_bounded() -> None:
    """Issue 40's bound: descriptors per process times tasks stays at 131,072."""
    assert Limits().processes * NOFILE <= 131_072 and Limits().processes >= 150
