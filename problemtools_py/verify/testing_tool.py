"""The testing tool of an interactive (or any) problem, ``attachments/testing_tool*``: the
program contestants get to try their solution locally. Run as BAPCtools'
``check_testing_tool`` runs it, ``testing_tool -f INPUT PROGRAM...``, with every
submission the judge accepted, on each sample's input (its ``.in.download`` when it has
one) and each input of ``data/testing_tool_test/``: a tool that fails (exits non-zero,
runs out of time) where the output validator accepted the program disagrees with it,
which misleads every contestant who trusts it. Both run in one sandbox (the tool starts
the program); a Python tool is run (the other languages' testing tools: not yet)."""

from __future__ import annotations

import shlex
import tempfile
from pathlib import Path

from problemtools_py.findings import Finding, warning
from problemtools_py.judging.judged import SubmissionResult
from problemtools_py.model.testdata import is_sample
from problemtools_py.sandbox.protocol import Bind
from problemtools_py.sandbox.results import Limits, SandboxError
from problemtools_py.verdicts import Verdict
from problemtools_py.verify.context import Context

TOOL_SECONDS = 10.0  # CPU seconds of the tool and the program together, per input


def check_testing_tools(ctx: Context, results: list[SubmissionResult]) -> list[Finding]:
    root = ctx.problem.root
    tools = sorted(p for p in (root / "attachments").glob("testing_tool*") if p.is_file())
    if not tools:
        return []
    inputs = _inputs(ctx)
    accepted = [
        r
        for r in results
        if r.verdict is Verdict.AC
        and r.compile_error is None
        and r.submission.expectation is not None
        and r.submission.expectation.accepted
    ]
    found: list[Finding] = []
    for tool in tools:
        rel = tool.relative_to(root).as_posix()
        if tool.suffix != ".py" and not _python_script(tool):
            continue  # (another language's: not run yet, see docs/authoring.md)
        for result in accepted:
            found += _check(ctx, tool, rel, result, inputs)
    return found


def _python_script(path: Path) -> bool:
    with path.open("rb") as handle:
        first = handle.readline(200)
    return first.startswith(b"#!") and b"python" in first


def _inputs(ctx: Context) -> list[tuple[str, Path]]:
    """(name, file): each sample's downloadable input, and data/testing_tool_test/'s."""
    root = ctx.problem.root
    found = []
    for case in ctx.problem.data.all_cases() if ctx.problem.data is not None else ():
        if is_sample(case.name) and ".in" in case.files:
            rel = case.files.get(".in.download") or case.files[".in"]
            found.append((case.name, root / rel))
    extra = root / "data" / "testing_tool_test"
    found += [(f"testing_tool_test/{p.stem}", p) for p in sorted(extra.glob("*.in"))]
    return found


def _check(
    ctx: Context,
    tool: Path,
    rel: str,
    result: SubmissionResult,
    inputs: list[tuple[str, Path]],
) -> list[Finding]:
    exe = ctx.submission(result.submission).executable
    if exe is None:
        return []
    limits = Limits(
        cpu_seconds=TOOL_SECONDS,
        memory_bytes=ctx.submission_limits(1).memory_bytes
        + (exe.extra_memory_mb << 20)
        + (512 << 20),
    )
    # (the program behind a script, as bt's wrapper: its own options, a JVM's -Xmx, would
    # be read as the tool's)
    argv = ["python3", f"/tool/{tool.name}", "-f", "/judge/input", "sh", "/wrap/run"]
    with tempfile.TemporaryDirectory(prefix="ptpy-tool-") as wrap:
        script = Path(wrap) / "run"
        script.write_text(f'#!/bin/sh\nexec {shlex.join(exe.argv(1024))} "$@"\n')
        Path(wrap).chmod(0o755)
        script.chmod(0o755)
        for name, given in inputs:
            binds = [
                Bind(str(tool.parent), "/tool"),
                Bind(str(given), "/judge/input"),
                Bind(wrap, "/wrap"),
                *exe.binds(),
            ]
            try:
                with ctx.pool.sandbox() as box:
                    run = box.run(argv, limits=limits, binds=binds)
            except SandboxError as exc:
                return [warning("testing-tool", f"could not run: {exc}", rel)]
            if not run.ok:
                said = run.error_line() or run.stdout.decode("utf-8", "replace").strip()[-200:]
                why = f"{run.describe()}{': ' + said if said else ''}"
                sub = result.submission.rel
                return [
                    warning(
                        "testing-tool",
                        f"fails with {sub}, which the output validator accepts, on {name}: {why}",
                        rel,
                    )
                ]
    return []
