"""Compiling programs once per content hash, inside the sandbox, with their own limits."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from problemtools_py import jailfiles
from problemtools_py.cachedir import cache_root
from problemtools_py.digests import digest
from problemtools_py.judge import buildcache, buildfiles, javacds, pch
from problemtools_py.judge.javaname import detect_main, facade, java_class, scala_object
from problemtools_py.judge.languages import Language
from problemtools_py.sandbox import inprocess
from problemtools_py.sandbox.pool import SandboxPool
from problemtools_py.sandbox.protocol import Bind
from problemtools_py.sandbox.results import Limits, Outcome, RunResult, SandboxError

BUILD_DIR, RUN_DIR, WORK_DIR = "/build", "/prog", "/work"
SCRIPT_NAMES = ("build", "run")
_JAVA_MAIN = re.compile(r"public\s+static\s+void\s+main\s*\(")


TOO_LONG = "compilation took too long"  # (a build stopped at its time limit)


@dataclass(frozen=True)
class Executable:
    """A built program: a directory (bound at /prog when it runs) and its run command."""

    language: str
    directory: Path
    run: tuple[str, ...]
    main: str
    extra_memory_mb: int = 0
    out_of_memory: str | None = None  # crash output that means MLE
    inprocess: bool = False  # a Python program the sandbox server may run itself
    tools: tuple[tuple[str, str], ...] = ()  # host directories its run needs (see Language)
    mainclass: str | None = None  # {mainclass}, where its source names it (Java, Scala)
    # where its directory is bound: /prog, or (a generator, as BAPCtools runs it from a
    # directory named after it) /prog/<name>, so that a program reading its own path sees
    # the name bt shows it
    run_dir: str = RUN_DIR
    program_dir_cwd: bool = False  # runs in run_dir (read-only), not in /work (see Language)

    @property
    def cwd(self) -> str:
        """Where it runs: /work, a scratch directory of its own, or its own directory."""
        return self.run_dir if self.program_dir_cwd else WORK_DIR

    def inprocess_main(self) -> str:
        return f"{self.run_dir}/{self.main}"

    def argv(self, memory_mb: int) -> list[str]:
        values = placeholders(self.run_dir, self.main, self.mainclass, memory_mb)
        return [_fill(arg, values) for arg in self.run]

    def binds(self) -> list[Bind]:
        return [Bind(str(self.directory), self.run_dir), *(Bind(h, j) for h, j in self.tools)]


@dataclass(frozen=True)
class Build:
    """A program built, or its compile error, and whether it came from the cache."""

    executable: Executable | None  # None: compile error
    message: str  # the compiler's output, or why nothing was built
    seconds: float
    cached: bool


def placeholders(
    directory: str, main: str, mainclass: str | None, memory_mb: int
) -> dict[str, str]:
    """What languages.yaml's placeholders stand for, compiling and running alike."""
    return {
        "{dir}": directory,
        "{main}": main,
        "{mainclass}": mainclass or _stem(main),
        "{Mainclass}": facade(_stem(main)),
        "{memory_mb}": str(memory_mb),
    }


def main_class(code: str, main: str, files: dict[str, bytes]) -> str:
    """What ``java``/``scala`` run: the class (object) the main file's source says holds
    ``main`` (a public class, else the one with main: boolfind-test-correct.java holds
    ``class Main``), else the file's stem, as every other language's {mainclass}."""
    text = files.get(main, b"").decode("utf-8", "replace")
    named = java_class(text) if code == "java" else scala_object(text) if code == "scala" else None
    return named or _stem(main)


def _stem(name: str) -> str:
    base = name.rsplit("/", 1)[-1]
    return base.rsplit(".", 1)[0] if "." in base else base


def _fill(arg: str, values: dict[str, str]) -> str:
    for key, value in values.items():
        arg = arg.replace(key, value)
    return arg


def scripts_language(has_build: bool) -> Language:
    """A program directory with ``build``/``run`` scripts: build runs in the program's
    directory and must leave an executable ``run`` behind."""
    return Language(
        code="scripts",
        name="build/run scripts",
        files=("run", "build"),
        compile=("/bin/sh", "-c", "cd {dir} && sh ./build") if has_build else (),
        run=("{dir}/run",),
        entrypoint=("run",),
    )


def read_program(
    paths: Sequence[Path], base: Path, includes: Path | None = None
) -> dict[str, bytes]:
    """A program's files (relative to ``base``, its directory or parent), with the files
    of an include directory laid over them: included files win on name clashes."""
    files = {p.relative_to(base).as_posix(): p.read_bytes() for p in paths if p.is_file()}
    if includes is not None and includes.is_dir():
        for path in sorted(includes.rglob("*")):
            if path.is_file() and not path.is_symlink():
                files[path.relative_to(includes).as_posix()] = path.read_bytes()
    return files


def entry_point(
    language: Language,
    names: Sequence[str],
    read: dict[str, str],
    own: frozenset[str] | None = None,
) -> str | None:
    """The main file: the only source, a default name (main.py, Main.java: an included
    driver has it), the program's own only source (``own``: its files before included
    ones were laid over them), one named ``main``, the only file of the language, or
    the only Java class with a main method."""
    sources = [n for n in names if language.matches(n.rsplit("/", 1)[-1])]
    if len(sources) == 1:
        return sources[0]
    for candidate in language.entrypoint:
        if candidate in names:
            return candidate
    mine = [n for n in sources if own is not None and n in own]
    if len(mine) == 1:
        return mine[0]
    # no default of the language's (Bash, C, ...): a source named main, as BAPCtools and
    # DOMjudge take it
    mains = [n for n in sources if _stem(n) == "main"]
    if len(mains) == 1:
        return mains[0]
    if language.code == "java":
        mains = [n for n in sources if _JAVA_MAIN.search(read.get(n, ""))]
        if len(mains) == 1:
            return mains[0]
    if language.run and all("{main" not in a for a in language.run):
        return sources[0] if sources else None
    return None


class Builder:
    """Builds programs into ``cache/builds/<sha256>/``, reusing earlier builds."""

    def __init__(
        self,
        pool: SandboxPool,
        limits: Limits,
        cache: Path | None = None,
        warm_compilers: bool = True,
    ) -> None:
        """``warm_compilers``: make the compilers' own caches (g++'s precompiled headers,
        javac's class-data archive) when missing, else use only those there (see pch.py)."""
        self.pool = pool
        self.limits = limits
        self.warm_compilers = warm_compilers
        self.root = (cache or cache_root()) / "builds"
        self.root.mkdir(parents=True, exist_ok=True)

    def key(
        self,
        language: Language,
        files: dict[str, bytes],
        own: frozenset[str] | None = None,
        entrypoint: str | None = None,
    ) -> str:
        return digest(
            buildcache.RULES,
            json.dumps(dataclasses.asdict(language), sort_keys=True),
            repr((sorted(own or ()), entrypoint)),
            # a build that failed under some limits may succeed under others
            repr(dataclasses.astuple(self.limits)),
            *(part for name in sorted(files) for part in (name, files[name])),
        )

    def build(
        self,
        language: Language,
        files: dict[str, bytes],
        own: frozenset[str] | None = None,
        entrypoint: str | None = None,
    ) -> Build:
        """``files``: relative name -> content (submission files with include files
        already laid over them); ``own``: the names that are the program's own;
        ``entrypoint``: the main file, when submissions.yaml names it."""
        start = time.monotonic()
        key = self.key(language, files, own, entrypoint)
        final = self.root / key
        if (final / "build.json").is_file():
            buildcache.used(final)
            return self._load(final, time.monotonic() - start, cached=True)
        texts = {n: c.decode("utf-8", "replace") for n, c in files.items() if language.compiles(n)}
        main = entry_point(language, sorted(files), texts, own)
        if entrypoint is not None:  # submissions.yaml's, a file of the program (or a class)
            named = [n for n in files if n == entrypoint or _stem(n) == entrypoint]
            main = named[0] if named else None
        if main is None and language.detect_main:  # (the class decides, not the file)
            main = min(texts, default=None)
        if main is None:
            return Build(
                None,
                f"cannot tell the entry point of this {language.name} program "
                f"(expected one of: {', '.join(language.entrypoint) or 'a single file'})",
                time.monotonic() - start,
                False,
            )
        found = (
            detect_main(language.code, texts)
            if language.detect_main
            else main_class(language.code, main, files)
        )
        if found is None:  # (DOMjudge's DetectMain's words)
            message = "Error: no 'main' found in any class file."
            return Build(None, message, time.monotonic() - start, False)
        mainclass = found
        work = Path(tempfile.mkdtemp(prefix=".tmp-", dir=self.root))
        out = work
        try:
            with buildfiles.bounded_dir(work, self.limits.file_bytes) as mounted:
                self._stage(work, files)
                message, ok = self._compile(language, work, files, (main, mainclass))
                if mounted:  # out of the bounded tmpfs, onto the disk (a failure: nothing)
                    out = Path(tempfile.mkdtemp(prefix=".out-", dir=self.root))
                    if ok:
                        buildfiles.copy_plain(work, out)
            info = {
                "ok": ok,
                "message": message,
                "main": main,
                "language": language.code,
                "run": list(language.run),
                "extra_memory_mb": language.extra_memory_mb,
                "out_of_memory": language.out_of_memory,
                "inprocess": language.inprocess,
                "tools": list(language.binds),
                "mainclass": mainclass,
                "program_dir_cwd": language.program_dir_cwd,
            }
            jailfiles.write_new(out / "build.json", json.dumps(info).encode())
            buildfiles.publish(out)
            try:
                out.rename(final)
            except OSError:  # another process built the same program first
                shutil.rmtree(out, ignore_errors=True)
            else:
                buildcache.published(self.root)
        except BaseException:
            shutil.rmtree(out, ignore_errors=True)
            raise
        finally:
            if out != work:
                shutil.rmtree(work, ignore_errors=True)
        return self._load(final, time.monotonic() - start, cached=False)

    def _stage(self, work: Path, files: dict[str, bytes]) -> None:
        for name, content in files.items():
            target = work / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content)
            if name in SCRIPT_NAMES or content.startswith(b"#!"):
                target.chmod(0o755)

    def _compile(
        self, language: Language, work: Path, files: dict[str, bytes], main: tuple[str, str]
    ) -> tuple[str, bool]:
        """``main``: the main file and the class it runs as (see main_class)."""
        if not language.compile:
            return "", True
        sources = sorted(n for n in files if language.compiles(n))
        values = placeholders(BUILD_DIR, *main, self.limits.memory_bytes >> 20)
        argv: list[str] = []
        for arg in language.compile:
            if arg == "{files}":
                argv.extend(sources)
            else:
                argv.append(_fill(arg, values))
        binds = [Bind(str(work), BUILD_DIR, True), *(Bind(h, j) for h, j in language.binds)]
        if language.precompiled_headers:  # (the sources as staged: their bytes in hand)
            texts = [files[name] for name in sources]
            argv, binds = pch.decorate(
                argv, binds, sources, texts, language.precompiled_headers, self.warm_compilers
            )
        shared = self._class_data(language, argv)
        result = self._run_compiler(
            argv[:1] + javacds.flags(shared) + argv[1:] if shared else argv,
            [*binds, javacds.bind(shared)] if shared else binds,
            language.compiles_in_process(),
        )
        if shared is not None and _jvm_crashed(result):  # (a damaged archive: without it)
            javacds.drop(shared)
            result = self._run_compiler(argv, binds)
        if result.outcome is Outcome.TLE and result.wall_killed:
            raise SandboxError(
                "the compiler was stopped by the wall-clock backstop while under "
                "its CPU limit: the machine is overloaded"
            )
        output = (result.stdout + result.stderr).decode("utf-8", "replace").strip()
        if result.ok:
            return output, True
        why = (
            TOO_LONG
            if result.outcome is Outcome.TLE
            else (
                "the compiler ran out of memory"
                if result.outcome is Outcome.MLE
                else f"the compiler failed ({result.describe()})"
            )
        )
        return f"{why}\n{output}".strip(), False

    def _class_data(self, language: Language, argv: list[str]) -> Path | None:
        if not language.class_data_sharing or not argv:
            return None
        options = tuple(a for a in argv if a.startswith("-J"))
        return javacds.archive(argv[0], options, self.warm_compilers)

    def _run_compiler(
        self, argv: list[str], binds: list[Bind], in_process: bool = False
    ) -> RunResult:
        """The compiler's run; ``in_process``: a ``python3 -S -c`` command the server's
        interpreter may run itself (a new interpreter costs ~40 ms of CPU). A sandbox
        failure raises SandboxError: never cache what the machine, not the program, caused."""
        with self.pool.sandbox() as box:
            if os.geteuid() == 0:  # the build directory, to this sandbox's own user
                for path in (
                    p for b in binds if b.writable for p in buildfiles.tree(Path(b.source))
                ):
                    os.chown(path, *box.user, follow_symlinks=False)
            fast = in_process and box.python_matches()
            return box.run(
                argv,
                limits=self.limits,
                binds=binds,
                cwd=BUILD_DIR,
                inprocess=inprocess.COMMAND if fast else None,
            )

    def _load(self, directory: Path, seconds: float, cached: bool) -> Build:
        info = json.loads((directory / "build.json").read_text())
        if not info["ok"]:
            return Build(None, info["message"], seconds, cached)
        exe = Executable(
            info["language"],
            directory,
            tuple(info["run"]),
            info["main"],
            int(info["extra_memory_mb"]),
            info.get("out_of_memory"),
            bool(info.get("inprocess", False)),
            tuple((host, jail) for host, jail in info.get("tools", ())),
            mainclass=info.get("mainclass"),
            program_dir_cwd=bool(info.get("program_dir_cwd", False)),
        )
        return Build(exe, info["message"], seconds, cached)


def _jvm_crashed(result: RunResult) -> bool:
    """A compiler JVM that died of a signal or of its own fatal error (which a damaged
    class-data archive causes), not one that reported errors in the program."""
    return result.outcome is Outcome.RTE and (
        result.signal is not None or b"A fatal error has been detected" in result.stdout
    )
