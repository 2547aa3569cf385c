"""The judge's language table: which language a program's files and first lines name."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from problemtools_py.errors import FatalError
from problemtools_py.judge.languages import Languages


@pytest.mark.parametrize(
    ("names", "first_line", "code"),
    [
        (["a.py"], "", "python3"),
        (["a.py"], "#!/usr/bin/python", "python3"),  # BAPCtools' guessnoeofcheck validator
        (["a.py"], "#!/usr/bin/env python3", "python3"),
        (["a.py"], "#!/usr/bin/env python2", None),  # Python 2: not the judge's
        (["a.c", "b.cc"], "", "cpp"),
        (["A.java"], "", "java"),
        (["a.kt"], "", "kotlin"),
        (["a.rs"], "", "rust"),
        (["a.py", "b.c"], "", None),
    ],
)
def test_detect(names: list[str], first_line: str, code: str | None) -> None:
    language = Languages.load().detect(names, dict.fromkeys(names, first_line))
    assert (language.code if language else None) == code


@pytest.mark.parametrize(
    ("run", "inprocess"),
    [
        (None, True),  # the shipped python3 {dir}/{main}
        ('[python3, "{dir}/{main}"]', True),
        ('[python3, -S, "{dir}/{main}"]', True),  # (as this judge wrote it before)
        ('[/usr/bin/python3, -S, "{dir}/{main}", extra]', True),
        ('[python3, -S, -O, "{dir}/{main}"]', False),  # no asserts: not what a fork runs
        ('[python3, -I, "{dir}/{main}"]', False),
        ('[pypy3, "{dir}/{main}"]', False),
    ],
)
def test_python_runs_as_python3_only_for_a_plain_script_command(
    tmp_path: Path, run: str | None, inprocess: bool
) -> None:
    """A run that lives as ``python3 prog.py`` (forked from the sandbox's interpreter, or
    afresh with the same life) stands for ``python3 file``; a languages.yaml that runs
    Python otherwise gets its command executed as it is."""
    (tmp_path / "p").mkdir()
    if run is not None:
        (tmp_path / "languages.yaml").write_text(f"python3:\n  run: {run}\n")
    language = Languages.load((tmp_path / "p",)).get("python3")
    assert language is not None and language.inprocess is inprocess
    if inprocess:  # (an older -S dropped: the script command it stands for)
        assert language.run[1] == "{dir}/{main}"


@pytest.mark.parametrize(
    ("compile_line", "in_process"),
    [
        (None, True),  # the shipped python3 -S -c "...py_compile..."
        ('[python3, -c, "import py_compile", "{files}"]', False),  # site loaded
        ('[python3, -S, -m, py_compile, "{files}"]', False),
    ],
)
def test_python_compiles_in_process_only_as_python3_dash_s_dash_c(
    tmp_path: Path, compile_line: str | None, in_process: bool
) -> None:
    (tmp_path / "p").mkdir()
    if compile_line is not None:
        (tmp_path / "languages.yaml").write_text(f"python3:\n  compile: {compile_line}\n")
    language = Languages.load((tmp_path / "p",)).get("python3")
    assert language is not None and language.compiles_in_process() is in_process


@pytest.mark.parametrize(
    ("compiler", "linked"),
    [("gcc", True), ("/usr/bin/x86_64-linux-gnu-g++-12", True), ("clang++", True),
     ("cc", True), ("tcc", False), ("sh", False), ("gccgo", False)],
)  # fmt: skip
def test_only_a_compiler_driver_is_told_its_linker(
    tmp_path: Path, compiler: str, linked: bool
) -> None:
    """A languages.yaml whose C compile command is not gcc's, g++'s or clang's (tcc, a
    script) keeps it as it is: the option is the drivers' own."""
    (tmp_path / "p").mkdir()
    (tmp_path / "languages.yaml").write_text(
        f'c:\n  compile: [{compiler}, -o, "{{dir}}/a.out", "{{files}}"]\n  linkers: [bfd]\n'
    )
    c = Languages.load((tmp_path / "p",)).get("c")
    assert c is not None
    assert c.compile[:2] == ((compiler, "-fuse-ld=bfd") if linked else (compiler, "-o"))


@pytest.mark.parametrize(
    ("linkers", "used"),
    [
        (None, "gold" if shutil.which("ld.gold") else None),  # the shipped choice
        ("[nosuchld, bfd]", "bfd"),  # the first installed (GNU ld is ld.bfd too)
        ("[nosuchld]", None),  # none: the driver's own
        ("[]", None),
    ],
)
def test_c_and_cpp_link_with_the_first_linker_installed(
    tmp_path: Path, linkers: str | None, used: str | None
) -> None:
    (tmp_path / "p").mkdir()
    if linkers is not None:
        (tmp_path / "languages.yaml").write_text(f"c:\n  linkers: {linkers}\n")
    table = Languages.load((tmp_path / "p",))
    c, cpp = table.get("c"), table.get("cpp")
    assert c is not None and cpp is not None
    flags = [arg for arg in c.compile if arg.startswith("-fuse-ld=")]
    assert flags == ([f"-fuse-ld={used}"] if used else [])
    if used:
        assert c.compile[:2] == ("gcc", f"-fuse-ld={used}")  # (right after the driver)
    if linkers is None:
        assert cpp.compile[1:2] == c.compile[1:2] and cpp.compile[0] == "g++"


@pytest.mark.parametrize(
    ("text", "message", "line"),
    [
        ("python3:\n  run: [a, b\n", "invalid YAML", 3),
        ("python3:\n\tbad: tab\n", "invalid YAML", 2),
        ("python3: &a {run: [*a]}\n", "invalid YAML: an alias refers to a node that contains", 1),
        ("a0: &a0 [x, x, x, x, x, x, x, x]\n" + "".join(f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 8)}]\n"
         for i in range(1, 10)), "invalid YAML: aliases expand this document", None),
        ("- just\n- a list\n", "must map language codes to settings", None),
        ("java:\n  compile: 5\n", "language 'java': 'compile' must be a list of strings", None),
        ("java:\n  run: []\n", "language 'java': 'run' is missing", None),
        ("cpp:\n  extra_memory_mb: lots\n", "'extra_memory_mb' must be a whole number", None),
        ("cpp:\n  extra_memory_mb: -1\n", "'extra_memory_mb' must be a whole number", None),
        ("cpp:\n  shebang: 7\n", "'shebang' must be a string", None),
        ("cpp:\n  shebang: '(x'\n", "'shebang' is not a regular expression", None),
        ("java:\n  class_data_sharing: maybe\n", "'class_data_sharing' must be true or", None),
        ("cpp:\n  precompiled_headers: 1\n", "'precompiled_headers' must be a list", None),
        ("cpp:\n  precompiled_headers: [../x.h]\n", "names '../x.h', not a header", None),
        ("cpp:\n  precompiled_headers: [/usr/x.h]\n", "names '/usr/x.h', not a header", None),
        ("mine:\n  files: ['*.x']\n", "language 'mine': 'run' is missing", None),
        ("c:\n  linkers: 3\n", "'linkers' must be a list of strings", None),
        ("c:\n  linkers: [../ld]\n", "names '../ld', not a linker such as gold", None),
        ("c:\n  binds: [opt/tool]\n", "names 'opt/tool', not an absolute path", None),
        ("c:\n  binds: [/etc/passwd]\n", "names '/etc/passwd', which is not a directory", None),
    ],
)
def test_a_broken_layer_names_its_file_and_line(
    tmp_path: Path, text: str, message: str, line: int | None
) -> None:
    (tmp_path / "p").mkdir()
    (tmp_path / "languages.yaml").write_text(text)
    with pytest.raises(FatalError) as caught:
        Languages.load((tmp_path / "p",))
    assert message in str(caught.value)
    assert caught.value.path == str(tmp_path / "languages.yaml") and caught.value.line == line


def test_binds_are_directories_a_jail_shows_where_they_are(tmp_path: Path) -> None:
    (tmp_path / "p").mkdir()
    (tmp_path / "tools").mkdir()
    (tmp_path / "languages.yaml").write_text(f"c:\n  binds: [{tmp_path / 'tools'}]\n")
    language = Languages.load((tmp_path / "p",)).get("c")
    assert language is not None
    assert language.binds == ((str(tmp_path / "tools"), str(tmp_path / "tools")),)
    # one this machine lacks shows nothing: left out (Haskell's /var/lib/ghc without ghc)
    (tmp_path / "languages.yaml").write_text(f"c:\n  binds: [{tmp_path / 'none'}]\n")
    language = Languages.load((tmp_path / "p",)).get("c")
    assert language is not None and language.binds == ()


@pytest.mark.parametrize(("stem", "name"), [
    ("hello", "Hello"), ("Main", "Main"), ("hello-world", "Hello_world"), ("a.b", "A_b"),
])  # fmt: skip
def test_kotlin_names_a_files_class_with_a_capital(stem: str, name: str) -> None:
    """BAPCtools' helloproblemtools: submissions/accepted/hello.kt runs as HelloKt (it
    was 'could not find or load main class helloKt')."""
    from problemtools_py.judge.javaname import facade

    assert facade(stem) == name


def test_domjudge_table_claims_files_as_domjudge_does() -> None:
    """--judge domjudge: DOMjudge's extensions (its LanguageFixture) and build rules."""
    ours, theirs = Languages.load(), Languages.load(judge="domjudge")

    def code(table: Languages, name: str) -> str | None:
        found = table.detect([name])
        return found.code if found is not None else None

    assert [code(ours, n) for n in ("a.pl", "a.sh", "a.p", "a.plg", "a.mjs")] == [
        "prolog", "bash", None, None, None,
    ]  # fmt: skip
    assert [code(theirs, n) for n in ("a.pl", "a.sh", "a.p", "a.plg", "a.mjs", "a.bash")] == [
        "perl", "sh", "pascal", "prolog", "javascript", "bash",
    ]  # fmt: skip
    assert code(theirs, "a.pm") is None and code(theirs, "a.py3") is None  # (not DOMjudge's)
    java = theirs.get("java")
    assert java is not None and java.detect_main and java.program_dir_cwd
    assert not any(lang.detect_main or lang.program_dir_cwd for lang in ours.table.values())
    assert Languages.load(judge="kattis").table == ours.table


def test_a_check_script_needs_the_runner_it_checks_with() -> None:
    """A compile step that is a shell loop of checks (DOMjudge's Perl): the language is
    missing when its interpreter is, never installed because /bin/sh is."""
    perl = Languages.load(judge="domjudge").get("perl")
    assert perl is not None and perl.compile[0] == "/bin/sh"
    missing = replace(perl, run=("no-such-perl-here", "{dir}/{main}"))
    assert missing.missing_tool() == "no-such-perl-here"
