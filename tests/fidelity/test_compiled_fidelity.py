"""C, C++ and Java programs (``compiled/``: includes repeated and reordered, pragma lines,
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
from problemtools_py.judge.execute import run_program
from problemtools_py.judge.held import HeldJail
from problemtools_py.judge.judging import run_limits
from problemtools_py.judge.languages import Language
from problemtools_py.sandbox.protocol import ENV

CORPUS = Path(__file__).parent / "compiled"
PROGRAMS = sorted(p for p in CORPUS.iterdir() if p.suffix in (".c", ".cpp", ".java"))
LANGUAGE = {".c": "c", ".cpp": "cpp", ".java": "java"}
WAYS = ("jail", "held-forked", "held-fresh")
MEMORY_MB = LIMITS.memory_bytes >> 20  # what a program is told (the JVM's heap)

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the sandbox isolates fully as root")


def source_name(program: Path) -> str:
    return "Main.java" if program.suffix == ".java" else program.name


def fill(words: tuple[str, ...], directory: Path, name: str) -> list[str]:
    values = {"{dir}": str(directory), "{main}": name, "{mainclass}": Path(name).stem,
              "{memory_mb}": str(MEMORY_MB)}  # fmt: skip
    out: list[str] = []
    for word in words:
        if word == "{files}":
            out.append(str(directory / name))
            continue
        for key, value in values.items():
            word = word.replace(key, value)
        out.append(word)
    return out


def plain(language: Language, program: Path) -> Ended | None:
    """Built by the plain compiler with the language's flags and run here; None when it
    does not compile."""
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        name = source_name(program)
        (work / name).write_bytes(program.read_bytes())
        built = subprocess.run(fill(language.compile, work, name), cwd=work, env=dict(ENV),
                               capture_output=True, check=False, timeout=300)  # fmt: skip
        if built.returncode != 0:
            return None
        return reference(fill(language.run, work, name), (CORPUS / "STDIN").read_bytes(), work)


@pytest.fixture(scope="module")
def references(kit: Kit) -> dict[str, Ended | None]:
    def one(program: Path) -> Ended | None:
        return plain(kit.languages.get(LANGUAGE[program.suffix]), program)  # type: ignore[arg-type]

    with ThreadPoolExecutor(usable_cores()) as pool:
        return dict(zip((p.name for p in PROGRAMS), pool.map(one, PROGRAMS), strict=True))


def test_the_corpus_has_each_kind() -> None:
    kinds = {p.name.split("_")[0] for p in PROGRAMS}
    assert kinds == {"c", "cpp", "java"} and len(PROGRAMS) >= 50


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


def _run(kit: Kit, way: str, exe: object) -> Ended:
    limits = run_limits(LIMITS, exe)  # type: ignore[arg-type]
    stdin = CORPUS / "STDIN"
    if way == "jail":
        with kit.pool.sandbox() as box:
            return ended(run_program(box, exe, limits=limits, memory_mb=MEMORY_MB, stdin=stdin))  # type: ignore[arg-type]
    with HeldJail(kit.pool, exe, limits, fresh=way == "held-fresh") as held:  # type: ignore[arg-type]
        return ended(held.run(limits=limits, memory_mb=MEMORY_MB, stdin=stdin))
