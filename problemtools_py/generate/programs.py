"""The programs generators.yaml runs, each built once: generators (a file or directory
below ``generators/``, or a name of its ``generators:`` map) and solutions (a path from the
package root, usually an example submission)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

from problemtools_py.judge.compile import RUN_DIR, Build, Executable
from problemtools_py.model.programs import make_program
from problemtools_py.once import OnceEach
from problemtools_py.workbench.bench import Workbench

GENERATORS = "generators"


def _inside(name: str) -> bool:
    parts = Path(name).parts
    return bool(parts) and not name.startswith("/") and ".." not in parts


class Programs:
    def __init__(self, ctx: Workbench, named: dict[str, tuple[str, ...]]) -> None:
        self.ctx = ctx
        self.named = named
        self._built: OnceEach[str, Build | str] = OnceEach()

    def generator(self, name: str) -> Executable | str:
        """The built generator, or why there is none. It runs from ``/prog/<name>`` (its
        name in generators.yaml: a directory or file below generators/), where BAPCtools
        runs it from a directory of that name: a generator seeded by its own path
        (``Path(sys.argv[0]).parts[-2]``) writes what ``bt generate`` writes."""
        found = self._once(f"gen:{name}", lambda: self._generator(name))
        if isinstance(found, str) or not _inside(name):
            return found
        return dataclasses.replace(found, run_dir=f"{RUN_DIR}/{name}")

    def solution(self, path: str) -> Executable | str:
        """The built solution at ``path`` (from the package root), or why there is none."""
        return self._once(f"sol:{path}", lambda: self._solution(path))

    def default_solution(self) -> str | None:
        """An accepted example submission the judge can build (the first by name), as a
        path from the package root, for cases whose directories name no solution."""
        for sub in sorted(self.ctx.problem.submissions, key=lambda s: s.rel):
            exp = sub.expectation
            if exp is not None and exp.accepted and self.ctx.runnable(sub):
                return "/" + sub.rel
        return None

    def _once(self, key: str, make: Callable[[], Build | str]) -> Executable | str:
        """``make()`` once per key; other threads asking meanwhile wait for it."""
        found = self._built.get(key, make)
        if isinstance(found, str):
            return found
        return found.executable if found.executable is not None else found.message[:2000]

    def _generator(self, name: str) -> Build | str:
        root = self.ctx.problem.root
        if name in self.named:
            files = self.named[name]
            if not all(_inside(f) and (root / GENERATORS / f).is_file() for f in files):
                return f"generators.{name} lists a file that is not below generators/"
            paths = [root / GENERATORS / f for f in files]
            return self.ctx.build_files(paths, root / GENERATORS, entrypoint=files[0])
        if not _inside(name):
            return f"'{name}' is no program below generators/"
        return self._program(f"{GENERATORS}/{name}")

    def _solution(self, path: str) -> Build | str:
        rel = path.lstrip("/")
        for sub in self.ctx.problem.submissions:
            if sub.rel == rel:
                return self.ctx.submission(sub)
        if not _inside(rel):
            return f"solution '{path}' is not inside the package"
        return self._program(rel)

    def _program(self, rel: str) -> Build | str:
        root = self.ctx.problem.root
        target = (root / rel).resolve()  # a link to another program of the package
        if target.is_relative_to(root) and target != root / rel:
            rel = target.relative_to(root).as_posix()
        entry = self.ctx.problem.file(rel)
        if entry is None:
            return f"there is no program {rel}"
        program = make_program(self.ctx.problem.root, entry, self.ctx.problem.files)
        return self.ctx.build(program)
