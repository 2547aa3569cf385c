"""judge/pch.py: the headers C++ programs include first precompiled once per compiler and
options, used by the compilations that start with them (the same program as without),
and nothing made or changed for the others, or where it cannot be made."""

from __future__ import annotations

import dataclasses
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.judgekit import Kit

from problemtools_py.judge import pch
from problemtools_py.judge.compile import Builder
from problemtools_py.judge.languages import Language
from problemtools_py.sandbox.results import Limits

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="no g++")

SUM = (b"#include <bits/stdc++.h>\nusing namespace std;\n"
       b"int main() { long long a, b; cin >> a >> b; cout << a + b << endl; }\n")
# (a macro before the include: g++ cannot use the state, and reads the header)
MACRO = (b"#define TWICE(x) (2 * (x))\n#include <bits/stdc++.h>\n"
         b"int main() { int a; std::cin >> a; std::cout << TWICE(a) << std::endl; }\n")
IOSTREAM = b"#include <iostream>\nint main() { std::cout << 7 << std::endl; }\n"
# (the header again, as a template and the code below it both include it; or after a
# macro the state depends on: g++ reads the header beside the state, which forwards)
TWICE = b"#include <bits/stdc++.h>\n#include <bits/stdc++.h>\n" + SUM.split(b"\n", 1)[1]
IO_TWICE = b"#include <iostream>\n" + IOSTREAM.replace(b"7", b"42")
DEBUG = b"#define _GLIBCXX_DEBUG\n" + SUM
# (<iostream> not first: its state would not be used, and none is made)
SECOND = b"#include <cstdio>\n#include <iostream>\nint main() { std::cout << 7 << std::endl; }\n"
BITS, IO = "bits/stdc++.h", "iostream"


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One cache holding the state for the shipped C++ options (made once: ~3.5 s)."""
    cache = tmp_path_factory.mktemp("pch-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(cache))
        patch.setattr(pch, "_memo", {})
        yield cache


def _cpp(kit: Kit) -> Language:
    language = kit.languages.get("cpp")
    assert language is not None and language.precompiled_headers == (BITS, IO)
    return language


@pytest.mark.parametrize(("source", "header"), [(SUM, BITS), (IOSTREAM, IO)])
def test_a_program_that_starts_with_it_uses_the_state(
    kit: Kit, made: Path, tmp_path: Path, source: bytes, header: str
) -> None:
    builder = Builder(kit.pool, kit.builder.limits, tmp_path)
    build = builder.build(_cpp(kit), {"p.cpp": source})
    assert build.executable is not None, build.message
    (state,) = (made / "problemtools_py" / "pch").glob(f"*/{pch.state(header)}")
    root = state.parent.parent if header == BITS else state.parent
    assert state.stat().st_mode & 0o004 and not list(root.parent.glob(".make-*"))
    # g++ itself says it loads the state (-H: "!" before a precompiled header it used)
    argv = ["g++", "-I", str(root), "-x", "c++", "-O2", "-std=gnu++20", "-pipe", "-H",
            "-o", str(tmp_path / "h.out"), "-"]  # fmt: skip
    said = subprocess.run(argv, input=source, capture_output=True, check=True).stderr
    assert said.startswith(b"! " + str(state).encode())
    # ... and the program is byte for byte the one made without it
    without = dataclasses.replace(_cpp(kit), precompiled_headers=())
    other = builder.build(without, {"p.cpp": source})
    assert other.executable is not None
    exe_with = build.executable.directory / "a.out"
    assert exe_with.read_bytes() == (other.executable.directory / "a.out").read_bytes()


def test_inside_the_sandbox_the_compiler_reads_the_state(kit: Kit, made: Path,
                                                        tmp_path: Path) -> None:
    # (-H: g++ lists the headers it reads, "!" before a precompiled one it used)
    cpp = _cpp(kit)
    told = dataclasses.replace(cpp, compile=(*cpp.compile[:1], "-H", *cpp.compile[1:]))
    build = Builder(kit.pool, kit.builder.limits, tmp_path).build(told, {"p.cpp": IOSTREAM})
    assert build.executable is not None, build.message
    assert build.message.startswith(f"! {pch.MOUNT}/0/{pch.state(IO)}"), build.message


def test_a_later_process_finds_it_without_making_it(
    kit: Kit, made: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    Builder(kit.pool, kit.builder.limits, tmp_path / "a").build(_cpp(kit), {"sum.cpp": SUM})
    monkeypatch.setattr(pch, "_memo", {})  # (a new process)

    def no_make(*args: object) -> None:
        raise AssertionError("made again")

    monkeypatch.setattr(pch, "_make", no_make)
    flags = pch.options(_cpp(kit).compile, ["{files}"])
    found = pch.directory("g++", flags, BITS)
    assert found is not None and (found / pch.state(BITS)).is_file()


@pytest.mark.parametrize(("source", "stdin", "out"), [(SUM, b"2 40\n", b"42"),
                                                     (MACRO, b"21\n", b"42"),
                                                     (TWICE, b"2 40\n", b"42"),
                                                     (IO_TWICE, b"", b"42"),
                                                     (DEBUG, b"2 40\n", b"42")])  # fmt: skip
def test_programs_with_the_state_present_judge_as_before(
    kit: Kit, made: Path, tmp_path: Path, source: bytes, stdin: bytes, out: bytes
) -> None:
    from problemtools_py.judge.held import HeldJail

    build = Builder(kit.pool, kit.builder.limits, tmp_path).build(_cpp(kit), {"p.cpp": source})
    assert build.executable is not None, build.message
    (tmp_path / "in").write_bytes(stdin)
    limits = Limits(cpu_seconds=2.0, memory_bytes=256 << 20, output_bytes=1 << 20)
    with HeldJail(kit.pool, build.executable, limits) as jail:
        run = jail.run(limits=limits, stdin=tmp_path / "in")
    assert run.ok and run.stdout.strip() == out


def test_a_state_made_without_the_forwarding_header_gets_one(
    kit: Kit, made: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A state made before there was one (before 2026-12): the header beside it is added
    when it is found, so a program that includes the header twice compiles."""
    Builder(kit.pool, kit.builder.limits, tmp_path / "a").build(_cpp(kit), {"sum.cpp": SUM})
    (state,) = (made / "problemtools_py" / "pch").glob(f"*/{pch.state(BITS)}")
    forward = state.parent / "stdc++.h"
    forward.unlink()
    monkeypatch.setattr(pch, "_memo", {})  # (a new process)
    build = Builder(kit.pool, kit.builder.limits, tmp_path / "b").build(_cpp(kit), {"t.cpp": TWICE})
    assert build.executable is not None, build.message
    assert forward.read_text() == "#include_next <bits/stdc++.h>\n"


@pytest.fixture
def empty(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache of its own, and a process that made no state yet."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(pch, "_memo", {})
    return tmp_path / "cache" / "problemtools_py" / "pch"


@pytest.mark.parametrize("source", [SECOND, b"int main() { return 0; }\n"])
def test_a_program_that_starts_with_no_such_header_makes_none(
    kit: Kit, empty: Path, tmp_path: Path, source: bytes
) -> None:
    build = Builder(kit.pool, kit.builder.limits, tmp_path).build(_cpp(kit), {"p.cpp": source})
    assert build.executable is not None and not empty.exists()


@pytest.mark.parametrize("why", ["a failing compiler", "no room"])
def test_where_it_cannot_be_made_the_program_compiles_without(
    kit: Kit, empty: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, why: str
) -> None:
    if why == "no room":
        monkeypatch.setattr(pch, "ROOM", 1 << 62)
    else:
        monkeypatch.setattr(pch, "_SOURCE", "#error no state for {header}\n")
    build = Builder(kit.pool, kit.builder.limits, tmp_path).build(_cpp(kit), {"p.cpp": SUM})
    assert build.executable is not None, build.message
    assert not list(empty.glob(f"*/{pch.state(BITS)}")) and not list(empty.glob(".make-*"))


def test_told_not_to_make_one_a_builder_compiles_without_asking_g_plus_plus(
    kit: Kit, empty: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_run(*args: object) -> None:
        raise AssertionError("g++ asked for a state's name")

    monkeypatch.setattr(pch, "_run", no_run)
    builder = Builder(kit.pool, kit.builder.limits, tmp_path, warm_compilers=False)
    build = builder.build(_cpp(kit), {"p.cpp": SUM})
    assert build.executable is not None, build.message
    assert not empty.exists()


def test_told_not_to_make_one_a_builder_uses_one_there(
    kit: Kit, made: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    Builder(kit.pool, kit.builder.limits, tmp_path / "a").build(_cpp(kit), {"p.cpp": IOSTREAM})
    monkeypatch.setattr(pch, "_memo", {})  # (a new process)
    monkeypatch.setattr(pch, "_make", lambda *args: pytest.fail("made again"))
    cpp = _cpp(kit)
    told = dataclasses.replace(cpp, compile=(*cpp.compile[:1], "-H", *cpp.compile[1:]))
    builder = Builder(kit.pool, kit.builder.limits, tmp_path / "b", warm_compilers=False)
    build = builder.build(told, {"p.cpp": IOSTREAM})
    assert build.executable is not None, build.message
    assert build.message.startswith(f"! {pch.MOUNT}/0/{pch.state(IO)}"), build.message


def test_a_state_is_made_in_the_environment_compilations_have(
    kit: Kit, empty: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The judge's own environment (a CPATH, as some toolchains set) never shapes a state:
    the sandbox compiles with a clean one, and g++ would take a state made from other
    headers without a word."""
    shadow = tmp_path / "include"
    shadow.mkdir()
    (shadow / "iostream").write_text("#define PTPY_SHADOWED 1\n#include_next <iostream>\n")
    monkeypatch.setenv("CPATH", str(shadow))
    told = b"#include <iostream>\nint main() {\n#ifdef PTPY_SHADOWED\n return 3;\n#endif\n}\n"
    build = Builder(kit.pool, kit.builder.limits, tmp_path / "b").build(_cpp(kit), {"p.cpp": told})
    assert build.executable is not None, build.message
    assert list(empty.glob(f"*/{pch.state(IO)}"))  # (made, and used by the compilation)
    from problemtools_py.judge.held import HeldJail

    (tmp_path / "in").write_bytes(b"")
    limits = Limits(cpu_seconds=2.0, memory_bytes=256 << 20, output_bytes=1 << 20)
    with HeldJail(kit.pool, build.executable, limits) as jail:
        run = jail.run(limits=limits, stdin=tmp_path / "in")
    assert run.exit_code == 0, "the state was made from the judge's CPATH"


@pytest.mark.parametrize(("argv", "sources", "kept"), [
    (["g++", "-x", "c++", "-O2", "-pipe", "-o", "/build/a.out", "a.cpp", "b.cpp"],
     ["a.cpp", "b.cpp"], ("-O2", "-pipe")),
    (["g++", "-xc++", "-DONLINE", "-std=gnu++20", "-oa.out", "a.cc", "-lm"], ["a.cc"],
     ("-DONLINE", "-std=gnu++20", "-lm")),
    (["g++", "-D", "X", "a.cpp"], ["a.cpp"], ("-D", "X")),  # (an option's own argument)
    (["g++", "-fuse-ld=gold", "-O2", "a.cpp"], ["a.cpp"], ("-O2",)),  # (the linker: not)
])  # fmt: skip
def test_the_options_that_shape_the_header(argv: list[str], sources: list[str],
                                           kept: tuple[str, ...]) -> None:
    assert pch.options(argv, sources) == kept


@pytest.mark.parametrize(("text", "first"), [
    (b"#include <bits/stdc++.h>\n", BITS),
    (b"// hi\n  #  include \"bits/stdc++.h\"\n", BITS),
    (b"#include <cstdio>\n#include <iostream>\n", "cstdio"),
    (b"// #include <iostream>\n#include <vector>\n", "vector"),
    (b"int main() { return 0; }\n", None),
])  # fmt: skip
def test_the_header_a_program_includes_first(text: bytes, first: str | None) -> None:
    assert pch.first_include(text) == first


def test_another_compiler_gets_none() -> None:
    assert pch.directory("gcc", ("-O2",), BITS) is None  # (not a g++)
    assert pch.directory("no-such-compiler", (), BITS) is None
