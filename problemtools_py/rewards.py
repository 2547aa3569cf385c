"""Rewards where RL trainers call them: verl's ``custom_reward_function`` shapes.

``compute_score(data_source, solution_str, ground_truth, extra_info=None, **kwargs)``
grades one completion; ``compute_score_batch`` takes lists (verl's batch reward manager)
and ``compute_score_async`` is awaitable. ``ground_truth`` is a dataset ``problem_id``
(the dataset directory from ``dataset=`` or ``$PROBLEMTOOLS_PY_DATASET``), or the tests
inline in any shape the common datasets ship (see :mod:`~problemtools_py.grading.shapes`:
this dataset's pairs, APPS/TACO/PRIME ``inputs``/``outputs``, CodeContests' splits,
LiveCodeBench's and DeepCoder's records, open-r1's ``verification_info``, call-based tests
with ``fn_name``), as objects, numpy arrays or JSON strings.

The result is a dict with the same keys for every call (verl gathers each key into
``reward_extra_info``): ``score``, always a float (the dataset's reward unless ``mode``
says otherwise), ``status``, and ``infra_error``, true when the grader's side failed
(``grader_error``, ``harness_overload``): then the score is ``infra_score`` (0.0 unless
given), a warning is logged and :func:`infra_failures` counts it; ``on_infra_error=
"raise"`` raises :class:`InfraError` instead. A row that cannot be graded is flagged
the same way (``bad_row``, counted by :func:`bad_rows`), never raised unless
``on_bad_row="raise"`` (then :class:`RewardError`); an unknown keyword argument is
raised always. ``details=True`` adds the rest of the grade.
Modes: ``dataset`` (1.0 when every test passes, in order; the default), ``pass-rate`` (the
fraction of tests passed, every test run) and ``first-n`` (the dataset's rule on the first
``n`` tests).

A row's ``extra_info`` is read for :data:`ROW_FIELDS` only (a trainer's rows carry other
fields: ``index``, ``split``...); the rest are the reward function's keyword arguments
(verl's ``reward_kwargs``), which take precedence. One
:class:`~problemtools_py.grading.grader.Grader` per process and dataset, shared by threads,
closed at exit."""

from __future__ import annotations

import asyncio
import atexit
import logging
import os
import signal
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from problemtools_py.grading.rewardargs import (
    DATASET_ENV as DATASET_ENV,  # (callers read it here)
)
from problemtools_py.grading.rewardargs import (
    ArgumentError,
    RewardError,
    RowCall,
    check_language,
    completion_text,
    on_bad_row,
    row_call,
)
from problemtools_py.grading.rewardresults import (  # (the public ones: callers read them here)
    InfraError as InfraError,
)
from problemtools_py.grading.rewardresults import bad_row, scored
from problemtools_py.grading.rewardresults import bad_rows as bad_rows
from problemtools_py.grading.rewardresults import infra_failures as infra_failures

if TYPE_CHECKING:
    from problemtools_py.grading.grader import Grader
    from problemtools_py.grading.results import GradeResult

PUBLIC = ("compute_score", "compute_score_float", "compute_score_batch", "compute_score_async",
          "RewardError", "InfraError", "infra_failures", "bad_rows", "close")  # fmt: skip

_graders: dict[tuple[object, ...], Grader] = {}
_helper_pool: ThreadPoolExecutor | None = None
_lock = threading.Lock()
HOST_MODULE = "problemtools_py.rewards"  # (python -m it --host: see the end)
_forked_from: list[int | None] = [None]  # in a fork: the process it was forked from
_host: list[Any] = [None]  # ... and its line to that process's reward host
_has_forked = [False]  # whether this process forked (then its forks may have a host)
_log = logging.getLogger(__name__)


def _grader(
    dataset: str | None,
    mode: str,
    first_n: int | None,
    raw: bool,
    languages: tuple[str, ...],
    python: str | None = None,
    jobs: int | None = None,
) -> Grader:
    from problemtools_py.errors import FatalError
    from problemtools_py.grading.grader import Grader
    from problemtools_py.grading.results import Settings
    from problemtools_py.judge.interpreter import find

    key = (dataset, mode, raw, first_n, languages, python, jobs)
    with _lock:
        found = _graders.get(key)
        if found is None:
            try:
                if python is not None:
                    find(python, "python=")
            except FatalError as exc:
                raise RewardError(str(exc)) from None
            settings = Settings(
                raw=raw, reward_mode=mode, first_n=first_n, languages=languages, python=python
            )
            found = _graders[key] = Grader(dataset or None, settings, jobs)
        return found


def compute_score(
    data_source: str,
    solution_str: str,
    ground_truth: Any,
    extra_info: dict[str, Any] | None = None,
    **kwargs: Any,
) -> dict[str, Any]:
    """The reward of one completion (see the module's text)."""
    policy = on_bad_row(kwargs)  # (a keyword no reward takes: ArgumentError, always)
    if _forked_from[0] is not None:  # (a fork: its process's reward host grades)
        hosted = _hosted([data_source, solution_str, ground_truth, extra_info], kwargs)
        if hosted is not None:
            return hosted
    try:
        call = row_call(ground_truth, extra_info, kwargs)
        result = _graded(completion_text(solution_str), call)
    except ArgumentError:
        raise
    except (RewardError, TypeError, ValueError, RecursionError, OverflowError) as exc:
        if policy == "raise":
            raise exc if isinstance(exc, RewardError) else RewardError(str(exc)) from None
        return bad_row(exc, kwargs)
    return scored(result, call.options)


def _graded(solution: str, call: RowCall) -> GradeResult:
    from problemtools_py.errors import FatalError
    from problemtools_py.grading.results import Status

    suite, options = call.suite, call.options
    grader = _grader(
        None if suite is not None else options["dataset"],
        options["mode"],
        options["first_n"],
        options["raw"],
        options["languages"],
        options["python"],
        options["jobs"],
    )
    check_language(options, grader.languages)
    language = options["language"]
    if suite is not None and options["judge_json"]:  # (a judged row's tests and judge)
        return _by_judge(grader, suite.tests, options, solution)
    if suite is not None:
        return _off_main_thread(
            grader,
            lambda: grader.grade_tests(
                suite.tests,
                options["time_limit"],
                solution,
                language,
                suite.call,
                options["memory_mb"],
            ),
        )
    try:
        found = _off_main_thread(
            grader,
            lambda: grader.grade(str(call.problem_id), solution, language, options["memory_mb"]),
        )
    except FatalError as exc:  # (an id the dataset does not have)
        raise RewardError(str(exc)) from None
    if found.status is Status.UNKNOWN_PROBLEM:  # (a package kattis2parquet leaves out)
        raise RewardError(found.message)
    return found


def _by_judge(
    grader: Grader, tests: tuple[tuple[str, str], ...], options: dict[str, Any], solution: str
) -> GradeResult:
    """A row of judged-<split>.parquet given inline: its tests and ``judge_json`` (see
    grading.own_judge); a judge that does not fit the tests is the caller's error."""
    from problemtools_py.errors import FatalError
    from problemtools_py.grading.problems import Fetched

    judge, limit = options["judge_json"], options["time_limit"]
    found = Fetched(tests, limit, judge)
    key = found.content_key
    try:
        return _off_main_thread(
            grader, lambda: grader.grade_by_judge(key, found, solution, options["language"])
        )
    except FatalError as exc:
        raise RewardError(f"extra_info.judge_json: {exc}") from None


def compute_score_float(
    data_source: str,
    solution_str: str,
    ground_truth: Any,
    extra_info: dict[str, Any] | None = None,
    **kwargs: Any,
) -> float:
    """``compute_score``'s score alone, for callers that take a number: verl's PRIME
    manager (``float(result[0])`` of anything but a number), TRL's reward functions."""
    return float(
        compute_score(data_source, solution_str, ground_truth, extra_info, **kwargs)["score"]
    )


def _off_main_thread(grader: Grader, call: Callable[[], GradeResult]) -> GradeResult:
    """``call()``; from the main thread with an alarm armed, run by a helper thread while
    the main thread waits, so that an exception a signal handler raises there (verl's
    compute_score_timeout is a SIGALRM raising TimeoutError) ends the wait at once and
    stops the grading between tests, rather than reaching the sandbox's client mid-run
    (read as a lost jail and run again). Without an alarm, no hop (it cost ~10 % of a
    short call's time)."""
    if threading.current_thread() is not threading.main_thread() or not _alarm_armed():
        return call()
    cancel = threading.Event()
    future = _helpers().submit(grader.cancellable, cancel, call)
    try:
        return future.result()
    except BaseException:
        cancel.set()
        raise


def _alarm_armed() -> bool:
    """Whether a real-time alarm (signal.alarm, setitimer: how verl bounds a call) is
    pending: only then can a signal handler's exception come in the middle of a call."""
    return signal.getitimer(signal.ITIMER_REAL)[0] > 0


def _helpers() -> ThreadPoolExecutor:
    global _helper_pool
    with _lock:
        if _helper_pool is None:
            _helper_pool = ThreadPoolExecutor(4, thread_name_prefix="rewards")
        return _helper_pool


def compute_score_batch(
    data_sources: Sequence[str],
    solution_strs: Sequence[str],
    ground_truths: Sequence[Any],
    extra_infos: Sequence[dict[str, Any] | None] | None = None,
    **kwargs: Any,
) -> list[dict[str, Any]]:
    """Lists in, a list out, in order; the completions are graded in parallel."""
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


def _forget_inherited() -> None:
    """In a forked child (verl's PRIME manager forks a process pool): the parent's graders
    and their sandboxes are the parent's; this process asks the parent's reward host (see
    grading.rewardhost), or makes its own."""
    global _helper_pool, _lock
    _lock = threading.Lock()  # (another thread may have held the parent's at the fork)
    _graders.clear()
    _helper_pool = None
    _forked_from[0], _host[0] = os.getppid(), None


def _hosted(args: list[Any], kwargs: dict[str, Any]) -> dict[str, Any] | None:
    """The reward host's answer to this call, or None: grade here (no host to be had, or
    arguments JSON cannot carry). Its errors are raised here as the same classes."""
    from problemtools_py.grading import rewardhost
    from problemtools_py.grading.shapes import plain

    if not rewardhost.enabled():
        return None
    try:
        args = [str(args[0]), completion_text(args[1]), plain(args[2]), plain(args[3])]
        request = rewardhost.encode({"args": args, "kwargs": kwargs})
    except (RewardError, TypeError, ValueError, RecursionError):
        return None  # (an odd argument: this process says what is wrong with it)
    with _lock:
        if _host[0] is None:
            _host[0] = rewardhost.HostClient(int(_forked_from[0] or 0), HOST_MODULE)
        client = _host[0]
    try:
        reply = client.call(request)
    except (rewardhost.HostUnavailable, OSError, ValueError) as exc:
        _log.warning("no reward host (%s): this process grades on its own", exc)
        _forked_from[0] = None
        return None
    if "error" in reply:
        raised = {"InfraError": InfraError, "ArgumentError": ArgumentError}
        raise raised.get(str(reply["error"]), RewardError)(str(reply.get("message")))
    return dict(reply["result"])


os.register_at_fork(
    before=lambda: _has_forked.__setitem__(0, True), after_in_child=_forget_inherited
)


@atexit.register
def close() -> None:
    """Close every grader (and its sandboxes) and this process's reward host, if its forks
    started one: no process outlives the trainer."""
    with _lock:
        graders = list(_graders.values())
        _graders.clear()
    if _forked_from[0] is None and _has_forked[0]:  # (only a fork starts a host)
        from problemtools_py.grading import rewardhost

        rewardhost.stop(os.getpid())
    for grader in graders:
        grader.close()
    global _helper_pool
    with _lock:
        pool, _helper_pool = _helper_pool, None
    if pool is not None:
        pool.shutdown(wait=False, cancel_futures=True)


if __name__ != "problemtools_py.rewards":  # pragma: no cover (checked in a subprocess)
    # Loaded from its file path (verl's custom_reward_function.path): its functions are the
    # installed package's, so that they pickle by name (verl's PRIME manager sends them to
    # a process pool) and share one set of graders with it.
    from problemtools_py import rewards as _installed

    globals().update({name: getattr(_installed, name) for name in PUBLIC})


if __name__ == "__main__":  # the reward host of a process's forks (grading.rewardhost)
    import sys

    if len(sys.argv) != 4 or sys.argv[1] != "--host":
        raise SystemExit("usage: python -m problemtools_py.rewards --host SOCKET OWNER_PID")
    from problemtools_py.grading.rewardhost import serve

    raise SystemExit(serve(compute_score, sys.argv[2], int(sys.argv[3])))
