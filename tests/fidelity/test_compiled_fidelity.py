"""Programs of every compiled language CI installs (``compiled/``: C, C++, Java, Kotlin,
Rust, Go, Haskell, C#; includes repeated and reordered, pragma lines,
macros before the includes, headers no precompiled state holds, a std::thread left
running, exit() in a thread, output lost to _exit, System.exit from a thread, non-daemon
threads, shutdown hooks...) built by the plain compiler with the language's own flags
and run here, and built and run by the judge (precompiled headers, the linker it picks,
javac's class-data archive; a jail per run and held jails): whether they compile, and
then stdout and exit status, agree.

A program's stdin is ``compiled/STDIN``."""

from __future__ import annotations

import os
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from helpers.fidelity import LIMITS, Ended, ended, reference
from helpers.judgekit import Kit

from problemtools_py.cpus import usable_cores
from problemtools_py.grading.compiled import file_name
from problemtools_py.grading.languages_here import HELLO
from problemtools_py.judge.execute import run_program
from problemtools_py.judge.held import HeldJail
from problemtools_py.judge.javaname import facade
from problemtools_py.judge.judging import run_limits
from problemtools_py.judge.languages import Language
from problemtools_py.sandbox.protocol import ENV

CORPUS = Path(__file__).parent / "compiled"
LANGUAGE = {".c": "c", ".cpp": "cpp", ".java": "java", ".kt": "kotlin", ".rs": "rust", ".go": "go",
            ".hs": "haskell", ".cs": "csharp"}  # fmt: skip
PROGRAMS = sorted(p for p in CORPUS.iterdir() if p.suffix in LANGUAGE)
# The file name a program is saved as: its language's entry point (Kotlin's Main.kt runs
# as MainKt), else its own.
ENTRY = {".java": "Main.java", ".kt": "Main.kt", ".rs": "main.rs", ".hs": "Main.hs"}
WAYS = ("jail", "held-forked", "held-fresh")
MEMORY_MB = LIMITS.memory_bytes >> 20  # what a program is told (the JVM's heap)

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the sandbox isolates fully as root")


def source_name(program: Path) -> str:
    return ENTRY.get(program.suffix, program.name)


def fill(words: tuple[str, ...], directory: Path, name: str) -> list[str]:
    values = {"{dir}": str(directory), "{main}": name, "{mainclass}": Path(name).stem,
              "{Mainclass}": facade(Path(name).stem), "{memory_mb}": str(MEMORY_MB)}  # fmt: skip
    out: list[str] = []
    for word in words:
        if word == "{files}":
            out.append(str(directory / name))
            continue
        for key, value in values.items():
            word = word.replace(key, value)
        out.append(word)
    return out


def plain(language: Language, program: Path, stdin: bytes | None = None,
          name: str | None = None) -> Ended | None:  # fmt: skip
    """Built by the plain compiler with the language's flags and run here; None when it
    does not compile."""
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        name = name or source_name(program)
        (work / name).write_bytes(program.read_bytes())
        if language.compile:
            built = subprocess.run(fill(language.compile, work, name), cwd=work, env=dict(ENV),
                                   capture_output=True, check=False, timeout=300)  # fmt: skip
            if built.returncode != 0:
                return None
        given = (CORPUS / "STDIN").read_bytes() if stdin is None else stdin
        return reference(fill(language.run, work, name), given, work)


@pytest.fixture(scope="module")
def references(kit: Kit) -> dict[str, Ended | None]:
    def one(program: Path) -> Ended | None:
        return plain(kit.languages.get(LANGUAGE[program.suffix]), program)  # type: ignore[arg-type]

    with ThreadPoolExecutor(usable_cores()) as pool:
        return dict(zip((p.name for p in PROGRAMS), pool.map(one, PROGRAMS), strict=True))


def test_the_corpus_has_each_kind_and_each_toolchain_is_here(kit: Kit) -> None:
    """Every language of the corpus is graded here: scripts/setup.sh --dev installs each
    toolchain (a language left out would pass unseen)."""
    kinds = {p.name.split("_")[0] for p in PROGRAMS}
    assert kinds == {"c", "cpp", "java", "kotlin", "rust", "go", "hs", "cs"}
    assert len(PROGRAMS) >= 80
    missing = {code: language.missing_tool() for code in set(LANGUAGE.values())
               if (language := kit.languages.get(code)) is not None}  # fmt: skip
    assert not any(missing.values()), f"not installed (run scripts/setup.sh --dev): {missing}"


@pytest.mark.parametrize("way", WAYS)
def test_every_program_builds_and_ends_as_with_the_plain_compiler(
    kit: Kit, way: str, references: dict[str, Ended | None]
) -> None:
    wrong = []
    for program in PROGRAMS:
        language = kit.languages.get(LANGUAGE[program.suffix])
        assert language is not None
        build = kit.builder.build(language, {source_name(program): program.read_bytes()})
        want = references[program.name]
        if (want is None) != ("compile_error" in program.name):  # (the corpus itself)
            wrong.append(f"{program.name}: the plain compiler {'failed' if want is None else 'built'}")
            continue
        if (build.executable is None) != (want is None):
            wrong.append(f"{program.name}: the judge {'failed' if want else 'built'}: "
                         f"{build.message[-300:]}")  # fmt: skip
            continue
        if build.executable is None or want is None:
            continue
        got = _run(kit, way, build.executable)
        if not got.same(want):
            wrong.append(f"{program.name}: plain {want.brief()}\n    {way}: {got.brief()}")
    assert not wrong, f"{len(wrong)} programs differ:\n" + "\n".join(wrong)


# The other languages of languages.yaml: each one installed here, its probe program (read
# a number, print twice it) built and run beside its plain toolchain.
OTHERS = sorted(set(HELLO) - set(LANGUAGE.values()) - {"python3"})


@pytest.mark.parametrize("code", OTHERS)
def test_every_other_installed_language_ends_as_with_its_plain_toolchain(
    kit: Kit, code: str, tmp_path: Path
) -> None:
    language = kit.languages.get(code)
    assert language is not None
    if (tool := language.missing_tool()) is not None:
        pytest.skip(f"{tool!r} is not installed (scripts/setup.sh --languages {code})")
    name = file_name(language, HELLO[code])
    program = tmp_path / name
    program.write_text(HELLO[code])
    want = plain(language, program, b"21\n", name)
    build = kit.builder.build(language, {name: program.read_bytes()})
    assert want is not None and build.executable is not None, build.message[-500:]
    stdin = tmp_path / "stdin"
    stdin.write_bytes(b"21\n")
    got = _run(kit, "jail", build.executable, stdin)
    assert got.same(want) and want.stdout.strip() == b"42", f"{want.brief()}\n{got.brief()}"


def _run(kit: Kit, way: str, exe: object, stdin: Path = CORPUS / "STDIN") -> Ended:
    limits = run_limits(LIMITS, exe)  # type: ignore[arg-type]
    if way == "jail":
        with kit.pool.sandbox() as box:
            return ended(run_program(box, exe, limits=limits, memory_mb=MEMORY_MB, stdin=stdin))  # type: ignore[arg-type]
    with HeldJail(kit.pool, exe, limits, fresh=way == "held-fresh") as held:  # type: ignore[arg-type]
        return ended(held.run(limits=limits, memory_mb=MEMORY_MB, stdin=stdin))
