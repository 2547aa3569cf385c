"""Visualizers checked (verifyproblem's ``validators`` part): both built (one that does not
build is a warning), and with ``--visualize DIR`` the input visualizer run on every
test case, its images copied out (see judging.visualize, which runs the output
visualizer after each judged output)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from problemtools_py.findings import Finding, warning
from problemtools_py.judge.compile import Executable
from problemtools_py.judge.execute import run_program
from problemtools_py.judging.session import Session
from problemtools_py.judging.visualize import (
    IMAGE,
    VISUAL_DIR,
    build_visualizer,
    copy_images,
    images_dir,
)
from problemtools_py.sandbox.protocol import Bind
from problemtools_py.sandbox.results import SandboxError


def check_visualizers(ctx: Session) -> list[Finding]:
    """Build both visualizers; with ``--visualize``, run the input visualizer."""
    findings: list[Finding] = []
    made = build_visualizer(ctx, ctx.problem.input_visualizer, "input visualizer")
    other = build_visualizer(ctx, ctx.problem.output_visualizer, "output visualizer")
    findings += [f for f in (made, other) if isinstance(f, Finding)]
    if isinstance(made, Executable) and ctx.policy.visualize is not None:
        findings += _input_images(ctx, made)
    return findings


def _input_images(ctx: Session, exe: Executable) -> list[Finding]:
    root, into = ctx.problem.root, images_dir(ctx)
    made = 0
    data = ctx.problem.data
    cases = [c for g in data.walk() for c in g.cases] if data is not None else []
    for case in cases:
        if {".in", ".ans"} - set(case.files) or not ctx.data_selected(case.name):
            continue
        with tempfile.TemporaryDirectory(prefix="ptpy-visual-") as tmp:
            scratch = Path(tmp)
            scratch.chmod(0o777)
            args = ["/judge/input", "/judge/answer", *ctx.problem.visualizer_args(case, "input")]
            binds = [
                Bind(str(root / case.files[".in"]), "/judge/input"),
                Bind(str(root / case.files[".ans"]), "/judge/answer"),
                Bind(str(scratch), VISUAL_DIR, True),
            ]
            try:
                with ctx.pool.sandbox() as box:
                    limits = ctx.validation_limits
                    run_program(box, exe, args, limits=limits, binds=binds, cwd=VISUAL_DIR)
            except SandboxError:
                continue
            made += copy_images(scratch, into / "data" / case.name, IMAGE)
    if made:
        return []
    return [warning("visualizer", "the input visualizer made no images", "input_visualizer")]
