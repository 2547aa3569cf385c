"""Language definitions: the shipped ``languages.yaml``, overridden in layers (``/etc``,
the user's config directory, a ``languages.yaml`` beside the problem), key by key."""

from __future__ import annotations

import fnmatch
import os
import re
import shlex
import shutil
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import yaml

from problemtools_py.errors import FatalError
from problemtools_py.findings import ExitCode
from problemtools_py.resources import package_file
from problemtools_py.sandbox.protocol import ENV
from problemtools_py.yamlfile import load_bounded

if TYPE_CHECKING:
    from problemtools_py.judge.interpreter import Interpreter

SYSTEM_CONFIG = Path("/etc/problemtools_py/languages.yaml")
# judges whose own table is laid over ours with --judge (judge/languages-JUDGE.yaml)
JUDGE_TABLES = frozenset({"domjudge"})
_LINKER = re.compile(r"[a-z][a-z0-9]*")
# the compiler drivers that take -fuse-ld (gcc, g++, cc, c++, clang, as versioned or prefixed)
_DRIVER = re.compile(r"([\w.-]+-)?(gcc|g\+\+|cc|c\+\+|clang|clang\+\+)(-[0-9.]+)?")


def user_config() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "problemtools_py" / "languages.yaml"


SANITIZER_FLAGS = ("-fsanitize=address,undefined", "-fno-sanitize-recover=undefined",
                   "-fno-omit-frame-pointer", "-g")  # fmt: skip
SANITIZER_MEMORY_MB = 1024  # beside the program's limit: shadow memory, redzones, quarantine
SANITIZER_HEADER_NAME = "sanitizer_options.h"
# Included first in every source file of a sanitized build: the sanitizers' defaults, as
# weak definitions (one per file; the linker keeps one). LeakSanitizer stops the world
# with ptrace, which the sandbox forbids (it would fail every run at its exit): off.
SANITIZER_HEADER = b"""#ifdef __cplusplus
extern "C" {
#endif
__attribute__((weak, used)) const char *__asan_default_options(void) {
    return "detect_leaks=0:quarantine_size_mb=64:allocator_may_return_null=1";
}
__attribute__((weak, used)) const char *__ubsan_default_options(void) {
    return "print_stacktrace=1:halt_on_error=1";
}
#ifdef __cplusplus
}
#endif
"""


@dataclass(frozen=True)
class Language:
    """One language the judge knows: its files, how it compiles and how it runs."""

    code: str
    name: str
    files: tuple[str, ...]  # glob patterns that decide this language
    compile: tuple[str, ...]
    run: tuple[str, ...]
    entrypoint: tuple[str, ...] = ()
    shebang: str | None = None
    extra_memory_mb: int = 0
    also_compile: tuple[str, ...] = ()
    out_of_memory: str | None = None
    inprocess: bool = False
    class_data_sharing: bool = False  # javac: map a class-data archive (see javacds)
    precompiled_headers: tuple[str, ...] = ()  # g++: first includes precompiled (see pch)
    # host directories its tools need, bound read-only (host path, path in the jail)
    binds: tuple[tuple[str, str], ...] = ()
    sanitized: bool = False  # built with sanitizers: its builds get SANITIZER_HEADER
    # the class to run found among all sources (DOMjudge's DetectMain): the one holding
    # ``public static void main``, named with its package; none is a compile error
    detect_main: bool = False
    program_dir_cwd: bool = False  # runs in its own (read-only) directory, not in /work

    def compiles_in_process(self) -> bool:
        """Whether its compile command is ``python3 -S -c CODE ...``, which the sandbox
        server's own interpreter runs as it runs the language's programs (see inprocess)."""
        command = self.compile
        return self.inprocess and len(command) >= 4 and _after_python3_dash_s(command) == "-c"

    def matches(self, name: str) -> bool:
        return any(fnmatch.fnmatchcase(name, pattern) for pattern in self.files)

    def missing_tool(self) -> str | None:
        """The compiler (or, without a compile step, the interpreter) this language needs
        that is not installed, or None. (A command taken from the program, such as a
        build script's, is never missing.)"""
        tool = (self.compile or self.run)[0]
        if tool in ("/bin/sh", "sh") and self.run:  # (a script of checks: the runner's)
            tool = self.run[0]
        for host, jail in self.binds:  # (a tool in a bound directory: the host's file)
            if tool.startswith(jail + "/"):
                tool = host + tool[len(jail) :]
        if "{" in tool or shutil.which(tool, path=ENV["PATH"]) is not None:
            return None
        return tool

    def compiles(self, name: str) -> bool:
        base = name.rsplit("/", 1)[-1]
        return self.matches(base) or any(fnmatch.fnmatchcase(base, p) for p in self.also_compile)


def _merge(base: dict[str, Any], layer: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in layer.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def _lay(
    merged: dict[str, Any], origin: dict[str, dict[str, str]], data: dict[str, Any], where: str
) -> dict[str, Any]:
    """``data`` (a layer read from ``where``) over ``merged``; ``origin`` notes the file
    that set each setting last (see _build)."""
    for code, settings in data.items():
        origin.setdefault(code, {"": where}).update(dict.fromkeys(settings, where))
    return _merge(merged, data)


# libyaml's parser where PyYAML has it: the table is read by every verification and
# grading run, and the pure-Python one takes 11 ms for it, libyaml 1.2 ms.
_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _read_layer(path: Path) -> dict[str, Any]:
    try:
        data = load_bounded(path.read_text(encoding="utf-8"), _SAFE_LOADER)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise FatalError(
            f"invalid YAML: {getattr(exc, 'problem', exc)}",
            path=path,
            line=mark.line + 1 if mark else None,
        ) from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise FatalError(f"cannot read: {exc}", path=path) from exc
    if data is None:
        return {}
    if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
        raise FatalError("must map language codes to settings", path=path)
    return data


# problemtools writes commands as strings with its own placeholders; we accept those too.
_THEIR_PLACEHOLDERS = {
    "{path}": "{dir}",
    "{mainfile}": "{dir}/{main}",
    "{memlim}": "{memory_mb}",
    "{binary}": "{dir}/a.out",
}
_COMMANDS = ("compile", "run")
_HEADER = re.compile(r"[A-Za-z0-9_+.-]+(/[A-Za-z0-9_+.-]+)*")


def _command(text: str) -> list[str]:
    words = shlex.split(text)
    out = []
    for word in words:
        for theirs, ours in _THEIR_PLACEHOLDERS.items():
            word = word.replace(theirs, ours)
        out.append(word)
    return out


def _build(code: str, raw: dict[str, Any], origin: dict[str, str]) -> Language:
    """A language from its merged settings; ``origin``: each setting's file (the layer that
    set it last), named by every error about it."""

    def fail(key: str, what: str) -> NoReturn:
        where = origin.get(key) or origin.get("")
        raise FatalError(f"language '{code}': '{key}' {what}", path=where)

    def words(key: str) -> tuple[str, ...]:
        value = raw.get(key, [])
        if isinstance(value, str):
            value = _command(value) if key in _COMMANDS else value.split()
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            fail(key, "must be a list of strings")
        return tuple(value)

    def text(key: str) -> str | None:
        value = raw.get(key)
        if value is not None and not isinstance(value, str):
            fail(key, "must be a string")
        return value

    def flag(key: str) -> bool:
        value = raw.get(key, False)
        if not isinstance(value, bool):
            fail(key, "must be true or false")
        return value

    if not words("run"):
        fail("run", "is missing: a language needs a run command")
    extra = raw.get("extra_memory_mb", 0)
    if isinstance(extra, bool) or not isinstance(extra, int) or extra < 0:
        fail("extra_memory_mb", "must be a whole number of MiB, 0 or more")
    shebang = text("shebang")
    try:
        re.compile(shebang or "")
    except re.error as exc:
        fail("shebang", f"is not a regular expression: {exc}")
    return Language(
        code=code,
        name=text("name") or code,
        files=words("files"),
        compile=_linked(words("compile"), words("linkers"), fail),
        run=_as_python3_script(words("run")) if flag("inprocess") else words("run"),
        entrypoint=words("entrypoint"),
        shebang=shebang,
        extra_memory_mb=extra,
        also_compile=words("also_compile"),
        out_of_memory=text("out_of_memory"),
        inprocess=flag("inprocess") and runs_as_python3_script(words("run")),
        class_data_sharing=flag("class_data_sharing"),
        precompiled_headers=_headers(words("precompiled_headers"), fail),
        binds=_binds(words("binds"), fail),
        detect_main=flag("detect_main"),
        program_dir_cwd=flag("program_dir_cwd"),
    )


def _binds(
    paths: tuple[str, ...], fail: Callable[[str, str], NoReturn]
) -> tuple[tuple[str, str], ...]:
    """languages.yaml's ``binds``: directories a jail shows at their own paths. One this
    machine lacks is left out (its toolchain is not installed: a jail would show nothing)."""
    for path in paths:
        if not path.startswith("/") or ".." in path.split("/"):
            fail("binds", f"names '{path}', not an absolute path")
        if Path(path).exists() and not Path(path).is_dir():
            fail("binds", f"names '{path}', which is not a directory")
    return tuple((path, path) for path in paths if Path(path).is_dir())


def _headers(names: tuple[str, ...], fail: Callable[[str, str], NoReturn]) -> tuple[str, ...]:
    for name in names:
        if not _HEADER.fullmatch(name) or ".." in name.split("/"):
            fail("precompiled_headers", f"names '{name}', not a header such as bits/stdc++.h")
    return names


def _linked(
    command: tuple[str, ...], linkers: tuple[str, ...], fail: Callable[[str, str], NoReturn]
) -> tuple[str, ...]:
    """A compile command that links with the first of ``linkers`` installed (``ld.NAME``
    on the sandbox's PATH), through the driver's ``-fuse-ld=NAME``; with none installed,
    or a command that is not gcc's, g++'s or clang's, as it is."""
    for name in linkers:
        if not _LINKER.fullmatch(name):
            fail("linkers", f"names '{name}', not a linker such as gold")
    driver = command[0].rsplit("/", 1)[-1] if command else ""
    for name in linkers if _DRIVER.fullmatch(driver) else ():
        if shutil.which(f"ld.{name}", path=ENV["PATH"]) is not None:
            return (command[0], f"-fuse-ld={name}", *command[1:])
    return command


def runs_as_python3_script(run: tuple[str, ...]) -> bool:
    """Whether a run command is ``python3 {dir}/{main}`` (or, as this judge wrote it
    before, ``python3 -S {dir}/{main}``): a Python 3 program that runs as ``python3
    prog.py`` would, standard library only, forked from the sandbox's own interpreter or
    afresh (see sandbox/pylife); arguments may follow. Any other (``-O``, ``pypy3``) is
    executed as it is."""
    return script_args(run) is not None


def _as_python3_script(run: tuple[str, ...]) -> tuple[str, ...]:
    """``python3 -S {dir}/{main} ...`` (this judge's own before 2026-12) as the script
    command it now stands for, ``python3 {dir}/{main} ...``; any other as it is."""
    args = script_args(run)
    return run if args is None else (run[0], "{dir}/{main}", *args)


def script_args(run: tuple[str, ...]) -> tuple[str, ...] | None:
    """The words after ``{dir}/{main}`` in a run command ``python3 [-S] {dir}/{main} ...``,
    else None."""
    if not run or run[0].rsplit("/", 1)[-1] != "python3":
        return None
    words = run[2:] if run[1:2] == ("-S",) else run[1:]
    return words[1:] if words[:1] == ("{dir}/{main}",) else None


def _after_python3_dash_s(command: tuple[str, ...]) -> str | None:
    """The word after ``python3 -S`` that a command starts with, else None."""
    if len(command) < 3 or command[0].rsplit("/", 1)[-1] != "python3" or command[1] != "-S":
        return None
    return command[2]


class Languages:
    """The merged language table."""

    def __init__(self, table: dict[str, Language]) -> None:
        self.table = table

    @classmethod
    def load(cls, problem_dirs: tuple[Path, ...] = (), judge: str | None = None) -> Languages:
        """The table: ours, under ``judge``'s own where a judge is named whose languages
        differ (``languages-domjudge.yaml``: DOMjudge's extensions and build scripts),
        under the system's, the user's and the packages' layers."""
        merged: dict[str, Any] = {}
        origin: dict[str, dict[str, str]] = {}  # (see _build)
        shipped = [
            "languages.yaml",
            *([f"languages-{judge}.yaml"] if judge in JUDGE_TABLES else []),
        ]
        for name in shipped:
            try:
                text, where = package_file("problemtools_py.judge", name)
            except OSError as exc:
                raise FatalError(
                    f"installation is broken: cannot read {name}: {exc}",
                    exit_code=ExitCode.INTERNAL,
                ) from exc
            merged = _lay(merged, origin, yaml.load(text, Loader=_SAFE_LOADER), where)
        layers = [SYSTEM_CONFIG, user_config()]
        layers += sorted({d.resolve().parent / "languages.yaml" for d in problem_dirs})
        for layer in layers:
            if layer.is_file():
                merged = _lay(merged, origin, _read_layer(layer), str(layer))
        return cls({code: _build(code, raw, origin[code]) for code, raw in merged.items()})

    def with_python(self, python: Interpreter) -> Languages:
        """This table with Python 3 programs run by ``python`` (``--python``): afresh as
        ``PYTHON prog.py``, their compile check by it too, its directories bound."""
        shipped = self.table["python3"]
        language = replace(
            shipped,
            compile=(python.executable, *shipped.compile[1:]),  # (the check's own words)
            run=(python.executable, "{dir}/{main}"),
            inprocess=False,
            binds=python.binds,
        )
        return Languages({**self.table, "python3": language})

    def with_sanitizers(self) -> Languages:
        """This table with C and C++ built with AddressSanitizer and UndefinedBehavior-
        Sanitizer (``verifyproblem --sanitizer``): a fault they catch ends the run with
        their report (see SANITIZER_HEADER); room made for their memory."""
        table = dict(self.table)
        for code in ("c", "cpp"):
            shipped = table.get(code)
            if shipped is None:
                continue
            at = shipped.compile.index("-O2") + 1 if "-O2" in shipped.compile else 1
            flags = (*SANITIZER_FLAGS, "-include", f"{{dir}}/{SANITIZER_HEADER_NAME}")
            table[code] = replace(
                shipped,
                compile=(*shipped.compile[:at], *flags, *shipped.compile[at:]),
                extra_memory_mb=shipped.extra_memory_mb + SANITIZER_MEMORY_MB,
                precompiled_headers=(),  # (made with other options: not used)
                sanitized=True,
            )
        return Languages(table)

    def get(self, code: str) -> Language | None:
        return self.table.get(code)

    def installed(self) -> frozenset[str]:
        """The codes of the languages whose tools this machine has."""
        return frozenset(c for c, lang in self.table.items() if lang.missing_tool() is None)

    def detect(
        self, names: list[str], first_lines: dict[str, str] | None = None
    ) -> Language | None:
        """The language of a program made of files ``names``: the one language whose
        patterns match its source files (C and C++ together count as C++)."""
        found: set[str] = set()
        for name in names:
            for lang in self.table.values():
                if lang.matches(name):
                    line = (first_lines or {}).get(name, "")
                    if lang.shebang and line.startswith("#!") and not re.match(lang.shebang, line):
                        continue
                    found.add(lang.code)
                    break
        if found == {"c", "cpp"}:
            found = {"cpp"}
        return self.table[found.pop()] if len(found) == 1 else None
