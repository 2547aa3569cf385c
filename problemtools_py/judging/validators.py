"""Input validators, built and run: what a validator says of one file (it accepts by
exiting 42), kept by content. Verification runs them on every input (verify.inputs),
the answer validators on every answer, auditdata and fuzzing on the inputs they make."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from problemtools_py.digests import digest, file_digest
from problemtools_py.findings import Finding, error, warning
from problemtools_py.judge import python2
from problemtools_py.judge.compile import Executable
from problemtools_py.judge.execute import run_program
from problemtools_py.judge.held import HeldJail
from problemtools_py.judging.session import Session
from problemtools_py.model.problem import Program
from problemtools_py.sandbox.protocol import Bind
from problemtools_py.sandbox.results import Outcome, SandboxError
from problemtools_py.workbench.cache import Verdicts

JUDGE_INPUT = "/judge/input"


@dataclass(frozen=True)
class InputVerdict:
    """An input validator's verdict on one file."""

    valid: bool
    message: str = ""


def validators(
    ctx: Session, programs: Sequence[Program] | None = None, kind: str = "input"
) -> tuple[list[tuple[Program, Executable]], list[Finding]]:
    """Built validators of ``kind`` (``programs``: the package's input validators, or its
    answer validators), and findings for those that could not be built or run."""
    built: list[tuple[Program, Executable]] = []
    findings: list[Finding] = []
    check = f"{kind}-validator"
    for program in ctx.problem.input_validators if programs is None else programs:
        build = ctx.build_validator(program)
        if isinstance(build, str):  # VIVA, or checktestdata not installed
            findings.append(warning(check, build, program.rel))
        elif build.executable is None:
            message = f"{kind} validator does not build: {build.message[:2000]}"
            findings.append(error(check, message, program.rel))
        else:
            built.append((program, build.executable))
    return built, findings


def run_validator(
    ctx: Session,
    exe: Executable,
    args: list[str],
    data: Path,
    cache: Verdicts,
    input_file: Path | None = None,
    held: HeldJail | None = None,
) -> InputVerdict:
    """``exe`` on ``data`` (its stdin): accepted when it exits 42. ``input_file``, when
    given, is the test case's input, bound at ``/judge/input`` (answer validators'); else
    the run may be made in ``held``, the validator's jail kept for its runs."""
    seen = file_digest(input_file) if input_file is not None else ""
    key = digest("input-v5", str(exe.directory.name), *args, file_digest(data), seen)
    cached = cache.get(key)
    if cached is not None:
        return InputVerdict(bool(cached["valid"]), str(cached["message"]))
    limits = ctx.validation_limits
    try:
        if held is not None and input_file is None:
            run = held.run(args, limits=limits, stdin=data)
        else:
            with ctx.pool.sandbox() as box:
                binds = [Bind(str(input_file), JUDGE_INPUT)] if input_file is not None else []
                run = run_program(box, exe, args, limits=limits, stdin=data, binds=binds)
    except SandboxError as exc:
        return InputVerdict(False, f"could not run: {exc}")
    if run.exit_code == 42:
        verdict = InputVerdict(True)
    else:
        text = (run.stdout + run.stderr).decode("utf-8", "replace")
        said = " | ".join(line.strip() for line in text.splitlines() if line.strip())
        why = (
            run.describe()
            if run.outcome not in (Outcome.OK, Outcome.RTE)
            else f"exit code {run.exit_code}"
        )
        message = f"{why}" + (f": {said[-300:]}" if said else "")
        verdict = InputVerdict(False, python2.named_for(exe.language, message))
    if run.outcome in (Outcome.OK, Outcome.RTE):  # deterministic outcomes only
        cache.put(key, {"valid": verdict.valid, "message": verdict.message})
    return verdict


__all__ = ["JUDGE_INPUT", "InputVerdict", "run_validator", "validators"]
