"""Completions in other languages than Python (C++, Java, and every language the judge
knows), built once per content in the sandbox, under the compile limits. A compile error
is the completion's ``compile_error``; a language the judge has no compiler for here is
the grader's side (``grader_error``: no reward)."""

from __future__ import annotations

import dataclasses
import re
import shutil
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from problemtools_py.grading.results import GradeResult, Status
from problemtools_py.judge.javaname import java_class, scala_object
from problemtools_py.sandbox.pool import SandboxPool
from problemtools_py.sandbox.results import Limits

if TYPE_CHECKING:  # (the judge's build machinery: imported when a completion needs it)
    from problemtools_py.judge.compile import Builder, Executable
    from problemtools_py.judge.languages import Language

COMPILE_LIMITS = Limits(cpu_seconds=60.0, memory_bytes=2 << 30, output_bytes=1 << 20, processes=256)
_JAVA_CLASS = re.compile(r"\bpublic\s+(?:final\s+)?class\s+([A-Za-z_]\w*)")


def file_name(language: Language, code: str) -> str:
    """The name the program is saved under: a Java program's class (see javaname), a
    Scala program's object with ``main``, a Kotlin program's public class."""
    if language.code == "java" and (name := java_class(code)) is not None:
        return f"{name}.java"
    if language.code == "scala" and (name := scala_object(code)) is not None:
        return f"{name}.scala"
    if language.code == "kotlin" and (found := _JAVA_CLASS.search(code)):
        return f"{found[1]}.kt"
    if language.entrypoint:
        return language.entrypoint[0]
    pattern = next((p for p in language.files if p.startswith("*.")), "*.txt")
    return "main" + pattern[1:]


class Compiler:
    """Builds in sandboxes of its own: the grader's keep a session open for the tests."""

    def __init__(self, jobs: int) -> None:
        from problemtools_py.judge.compile import Builder
        from problemtools_py.judge.languages import Languages

        self.pool = SandboxPool(max(1, jobs))
        self.builder = Builder(self.pool, COMPILE_LIMITS)
        self._builders = {COMPILE_LIMITS.cpu_seconds: self.builder}
        self._lock = threading.Lock()
        self.languages = Languages.load()
        self._installed: frozenset[str] | None = None

    def close(self) -> None:
        self.pool.close()

    def known(self) -> frozenset[str]:
        return frozenset(self.languages.table)

    def installed(self) -> frozenset[str]:
        """The known languages whose tools this machine has (looked up once: rewards ask
        with every completion in another language)."""
        if self._installed is None:
            self._installed = self.languages.installed()
        return self._installed

    def build(
        self, code: str, language_code: str, seconds: float | None = None
    ) -> Executable | GradeResult:
        """The built program, or the result that ends the completion (``seconds``: the
        compile's CPU time limit, when not the usual; its wall clock stops it at twice
        that and a second)."""
        language = self.languages.get(language_code)
        if language is None:
            return GradeResult(None, Status.GRADER_ERROR, message=f"no language {language_code!r}")
        missing = language.missing_tool()
        if missing is not None:
            why = f"'{missing}' for {language.name} is not installed on the grader"
            return GradeResult(None, Status.GRADER_ERROR, message=why)
        build = self._builder(seconds).build(language, {file_name(language, code): code.encode()})
        if build.executable is None:
            return GradeResult(0.0, Status.COMPILE_ERROR, message=build.message[:500])
        return build.executable

    def _builder(self, seconds: float | None) -> Builder:
        from problemtools_py.judge.compile import Builder

        if seconds is None:
            return self.builder
        with self._lock:
            found = self._builders.get(seconds)
            if found is None:
                limits = dataclasses.replace(COMPILE_LIMITS, cpu_seconds=seconds)
                found = Builder(self.pool, limits)
                if len(self._builders) < 32:  # (callers' limits: a few, kept)
                    self._builders[seconds] = found
            return found


def place(exe: Executable, work: Path) -> list[Path]:
    """Copy a build into the session's program directory (it runs from /prog, where the
    build expects itself); what was copied, to remove after."""
    placed = []
    for path in sorted(exe.directory.iterdir()):
        if path.name == "build.json":
            continue
        target = work / path.name
        if path.is_dir():
            shutil.copytree(path, target, symlinks=True)
        else:
            shutil.copy2(path, target, follow_symlinks=False)
        placed.append(target)
    return placed


def place_program(work: Path, code: str, exe: Executable | None) -> list[Path]:
    """A program into a session's directory: main.py, or a build's files (see place)."""
    if exe is not None:
        return place(exe, work)
    program = work / "main.py"
    program.write_text(code, encoding="utf-8")
    program.chmod(0o644)
    return [program]


def remove(placed: list[Path]) -> None:
    for path in placed:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)
