"""SandboxFusion's ``/run_code`` as its clients depend on it (the ``sandbox-fusion`` client
0.3.7 and verl's ``sandbox_fusion`` helper read these fields):

- ``language``: SandboxFusion's names (``python``, ``cpp``, ``nodejs``, ``kotlin_script``...)
  or ours. One SandboxFusion names that this machine cannot run (no toolchain, or a test
  harness mode we do not have) is answered ``200`` with ``status: "Failed"`` and a message
  saying so, so that the client neither retries it (it retries every other status for
  ~18 s) nor raises; a name neither knows is ``400``.
- ``run_timeout``: wall-clock seconds, as SandboxFusion's; the CPU limit is the same, and
  ``run_result.cpu_time`` reports what was used. A run the limit stopped is
  ``TimeLimitExceeded``.
- every run ended by a signal (a kill at the time or memory limit, a crash) has a
  ``return_code``: 128 + the signal, as a shell reports it, so the client's summary never
  meets "no return code".
- stdout past :data:`RUN_OUTPUT` is dropped and the run goes on (SandboxFusion truncates);
  stderr keeps its last 64 KiB.
- ``compile_result``: ``Finished`` with ``return_code`` 0 when a compiled language built, 1
  and the compiler's message when it did not, ``TimeLimitExceeded`` past
  ``compile_timeout`` (SandboxFusion's ``Error`` means the sandbox failed, and only
  that); None for interpreted languages.
- ``memory_limit_MB`` and ``compile_timeout`` are honoured (absent or 0: the server's).
- ``files`` are written into the run's working directory before it, and ``fetch_files``
  come back in the response's ``files`` (base64) when the run left them as regular files:
  see grading.runfiles.

``/submit`` checks each case as SandboxFusion's ``check_stdio_test_case`` does
(:func:`stdio_passed`, not the dataset's rule), runs the cases at once and answers with
them in order up to the first that failed (the rest are cancelled), unless
``run_all_cases`` in the config's ``extra``."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from problemtools_py.grading import runfiles
from problemtools_py.grading.extract import language_named
from problemtools_py.grading.results import GradeResult, Status
from problemtools_py.judge.compile import TOO_LONG
from problemtools_py.sandbox.results import Outcome, RunResult

RUN_OUTPUT = 8 << 20
# SandboxFusion's language names (its client's ``Language``) -> the judge's codes; None:
# a mode of SandboxFusion's own (a test harness, a GPU) that this grader does not offer.
FUSION_LANGUAGES: dict[str, str | None] = {
    "python": "python3", "python2": None, "cpp": "cpp", "nodejs": "javascript", "go": "go",
    "java": "java", "php": "php", "csharp": "csharp", "bash": "bash",
    "typescript": "typescript", "rust": "rust", "lua": "lua", "perl": "perl", "ruby": "ruby",
    "scala": "scala", "swift": "swift", "kotlin_script": "kotlin", "racket": None,
    "go_test": None, "sql": None, "cuda": None, "R": None, "D_ut": None, "julia": None,
    "pytest": None, "junit": None, "jest": None, "verilog": None, "python_gpu": None,
    "lean": None, "gtest": None, "react": None,
}  # fmt: skip


class Unavailable(Exception):
    """A language SandboxFusion has and this machine does not: a Failed run, said why."""


class UnknownLanguage(ValueError):
    """A language name nobody knows: the caller's error (400)."""


def run_language(name: object, installed: frozenset[str]) -> str:
    """The judge's code for a /run_code ``language`` (absent: Python)."""
    text = str(name) if name not in (None, "") else "python"
    if text in FUSION_LANGUAGES:
        code = FUSION_LANGUAGES[text]
    else:
        code = language_named(text, installed)
        if code is None:
            raise UnknownLanguage(f"unknown language {text!r}")
    if code is None or (code != "python3" and code not in installed):
        offered = ", ".join(
            sorted(k for k, v in FUSION_LANGUAGES.items() if v == "python3" or v in installed)
        )
        raise Unavailable(f"language {text!r} is not available on this grader (it runs {offered})")
    return code


def failed(message: str) -> dict[str, Any]:
    """A run that could not start for a reason the client should not retry."""
    return {
        "status": "Failed",
        "message": message,
        "compile_result": None,
        "run_result": None,
        "executor_pod_name": None,
        "files": {},
    }


def run_response(
    found: RunResult | GradeResult, compiled: bool, fetched: dict[str, bytes] | None = None
) -> dict[str, Any]:
    """SandboxFusion's RunCodeResponse for one run (``compiled``: its language builds;
    ``fetched``: the files read back after it)."""
    if isinstance(found, GradeResult):
        if found.status in (Status.COMPILE_ERROR, Status.CODE_TOO_LARGE):
            slow = found.message.startswith(TOO_LONG)  # (killed at compile_timeout)
            compile_result = _command(
                "TimeLimitExceeded" if slow else "Finished",
                None,
                137 if slow else 1,
                "",
                found.message,
            )
            return {**failed(""), "compile_result": compile_result}
        return {**failed(found.message), "status": "SandboxError"}
    timed_out = found.outcome is Outcome.TLE
    code = found.exit_code if found.exit_code is not None else 128 + (found.signal or 9)
    result = _command(
        "TimeLimitExceeded" if timed_out else "Finished",
        found.wall_seconds,
        code,
        found.stdout.decode("utf-8", "replace"),
        found.stderr.decode("utf-8", "replace"),
    )
    result["cpu_time"] = round(found.cpu_seconds, 4)
    return {
        "status": "Success" if found.ok else "Failed",
        "message": "",
        "compile_result": _command("Finished", None, 0, "", "") if compiled else None,
        "run_result": result,
        "executor_pod_name": None,
        "files": runfiles.encoded(fetched or {}),
    }


def _command(
    status: str, seconds: float | None, code: int | None, stdout: str, stderr: str
) -> dict[str, Any]:
    return {
        "status": status,
        "execution_time": round(seconds, 4) if seconds is not None else None,
        "return_code": code,
        "stdout": stdout,
        "stderr": stderr,
    }


def stdio_passed(stdout: str, expected: str) -> bool:
    """SandboxFusion's check of a stdio case: both texts stripped and split at newlines,
    one trailing empty line either side dropped, the same number of lines, each pair the
    same once stripped and lowercased, or two numbers (as Python's ``float`` reads them)
    within a relative 1e-5 of the expected one."""
    got, wanted = stdout.strip().split("\n"), expected.strip().split("\n")
    if len(got) - len(wanted) == 1 and got[-1] == "":
        got = got[:-1]
    if len(wanted) - len(got) == 1 and wanted[-1] == "":
        wanted = wanted[:-1]
    if len(got) != len(wanted):
        return False
    return all(
        _line_same(a.lower().strip(), b.lower().strip()) for a, b in zip(got, wanted, strict=True)
    )


def _line_same(got: str, wanted: str) -> bool:
    if got == wanted:
        return True
    try:
        a, b = float(got), float(wanted)
    except ValueError:
        return False
    return abs(a - b) / max(abs(b), 1e-10) < 1e-5


async def stdio_cases(
    jobs: Sequence[asyncio.Future[Any]],
    cases: Sequence[tuple[str, str]],
    compiled: bool,
    every: bool,
) -> list[dict[str, Any]]:
    """/submit's ``tests``: each case's run (a job already started) checked in order; at
    the first that failed the others are cancelled and left out unless ``every``."""
    tests = []
    try:
        for (stdin, expected), job in zip(cases, jobs, strict=True):
            run = await job
            response = run_response(run, compiled)
            passed = (
                isinstance(run, RunResult)
                and run.ok
                and stdio_passed(response["run_result"]["stdout"], expected)
            )
            tests.append(
                {
                    "passed": passed,
                    "exec_info": response,
                    "test_info": {"input": {"stdin": stdin}, "output": {"stdout": expected}},
                }
            )
            if not (passed or every):
                break
    finally:
        for job in jobs:
            job.cancel()
    return tests
