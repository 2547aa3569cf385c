"""Visualizers (2023-07 and later) where judging runs them: with ``--visualize DIR`` the
output visualizer runs after every output validation of a submission (the validator's
arguments with ``output_visualizer_args``, the team output on stdin, images written as
``teamimage*``/``judgeimage*`` to the feedback directory), its images copied to
``DIR/<problem>/<submission>/<test case>/``. A visualizer's failure is never a judge
error. Verification builds both and runs the input visualizer (verify.visualizers)."""

from __future__ import annotations

import re
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


def build_visualizer(
    ctx: Session, program: Program | None, kind: str
) -> Executable | Finding | None:
    if program is None:
        return None
    build = ctx.build(program)
    if build.executable is None:
        return warning("visualizer", f"{kind} does not build: {build.message[:1500]}", program.rel)
    return build.executable


def images_dir(ctx: Session) -> Path:
    """Where this problem's images go: ``DIR/<short name>/``."""
    assert ctx.policy.visualize is not None
    return ctx.policy.visualize / ctx.problem.short_name


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
            build_visualizer(ctx, program, "output visualizer")
            if ctx.policy.visualize is not None
            else None
        )
        self.executable = built if isinstance(built, Executable) else None

    @property
    def active(self) -> bool:
        return self.executable is not None

    def after(self, submission: str, case: TestCase, work: Path) -> None:
        """Visualize the last validation in ``work`` (team.out, feedback/)."""
        if self.executable is None:
            return
        root, into = self.ctx.problem.root, images_dir(self.ctx)
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
