"""Visualizers (2023-07 and later). Both are built with the validators (one that does not
build is a warning: the format says a visualizer's failure is never a judge error). With
``--visualize DIR``, the input visualizer runs on every test case
(``input answer [input_visualizer_args]``, images written to its working directory) and
the output visualizer after every output validation of a submission (the validator's
arguments with ``output_visualizer_args``, the team output on stdin, images written as
``teamimage*``/``judgeimage*`` to the feedback directory). Images are copied to
``DIR/<problem>/<submission>/<test case>/`` and ``DIR/<problem>/data/<test case>/``."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from problemtools_py import jailfiles
from problemtools_py.findings import Finding, warning
from problemtools_py.judge.compile import Executable
from problemtools_py.judge.execute import run_program
from problemtools_py.judging.session import Session
from problemtools_py.model.problem import Program, TestCase
from problemtools_py.sandbox.protocol import Bind
from problemtools_py.sandbox.results import SandboxError

IMAGE = re.compile(r"^[^/]+\.(png|jpg|jpeg|svg)$", re.IGNORECASE)
FEEDBACK_IMAGE = re.compile(r"^(team|judge)image(-[^/]+)?\.(png|jpg|jpeg|svg)$")
IMAGE_CAP = 16 << 20  # bytes per image copied out of the sandbox
VISUAL_DIR = "/visual"


def _build(ctx: Session, program: Program | None, kind: str) -> Executable | Finding | None:
    if program is None:
        return None
    build = ctx.build(program)
    if build.executable is None:
        return warning("visualizer", f"{kind} does not build: {build.message[:1500]}", program.rel)
    return build.executable


def _images_dir(ctx: Session) -> Path:
    """Where this problem's images go: ``DIR/<short name>/``."""
    assert ctx.policy.visualize is not None
    return ctx.policy.visualize / ctx.problem.short_name


def check_visualizers(ctx: Session) -> list[Finding]:
    """Build both visualizers; with ``--visualize``, run the input visualizer."""
    findings: list[Finding] = []
    made = _build(ctx, ctx.problem.input_visualizer, "input visualizer")
    other = _build(ctx, ctx.problem.output_visualizer, "output visualizer")
    findings += [f for f in (made, other) if isinstance(f, Finding)]
    if isinstance(made, Executable) and ctx.policy.visualize is not None:
        findings += _input_images(ctx, made)
    return findings


def _input_images(ctx: Session, exe: Executable) -> list[Finding]:
    root, into = ctx.problem.root, _images_dir(ctx)
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


def copy_images(source: Path, into: Path, names: re.Pattern[str]) -> int:
    """Copy the image files a sandboxed program left in ``source`` (regular files only,
    never through a symlink, each at most IMAGE_CAP bytes); how many were copied."""
    copied = 0
    for name in jailfiles.regular_files(source):
        data = jailfiles.read(source, name, IMAGE_CAP) if names.match(name) else None
        if data is None:
            continue
        into.mkdir(parents=True, exist_ok=True)
        (into / name).write_bytes(data)
        copied += 1
    return copied


class OutputVisualizer:
    """Runs the output visualizer after a submission's output was validated."""

    def __init__(self, ctx: Session) -> None:
        self.ctx = ctx
        program = ctx.problem.output_visualizer
        built = (
            _build(ctx, program, "output visualizer") if ctx.policy.visualize is not None else None
        )
        self.executable = built if isinstance(built, Executable) else None

    @property
    def active(self) -> bool:
        return self.executable is not None

    def after(self, submission: str, case: TestCase, work: Path) -> None:
        """Visualize the last validation in ``work`` (team.out, feedback/)."""
        if self.executable is None:
            return
        root, into = self.ctx.problem.root, _images_dir(self.ctx)
        feedback, output = work / "feedback", work / "team.out"
        if not output.exists():  # interactive: the team output is an empty file
            output.write_bytes(b"")
            output.chmod(0o644)
        args = [
            "/judge/input",
            "/judge/answer",
            "/judge/feedback/",
            *self.ctx.problem.visualizer_args(case, "output"),
        ]
        binds = [
            Bind(str(root / case.files[".in"]), "/judge/input"),
            Bind(str(root / case.files[".ans"]), "/judge/answer"),
            Bind(str(feedback), "/judge/feedback", True),
        ]
        try:
            with self.ctx.pool.sandbox() as box:
                limits = self.ctx.validation_limits
                run_program(box, self.executable, args, limits=limits, binds=binds, stdin=output)
        except SandboxError:
            return
        copy_images(feedback, into / submission / case.name, FEEDBACK_IMAGE)
