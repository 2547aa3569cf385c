"""Python programs in the styles contestants and models write them (``python/``: input
idioms, every form of exit, threads, atexit, output without a final newline, signals,
exceptions, multiprocessing, recursion at the limit, the main module's names...) end in
every way the sandbox runs them exactly as under ``python3 prog.py``: the same stdout and
exit status, beside the reference run here (see tests/helpers/fidelity.py). Then the verdicts: the
grader's reward and verifyproblem's verdict follow from how python3 ends them.

A program's stdin is ``python/STDIN``, or its own ``NAME.in``."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from helpers.fidelity import LIMITS, PYTHON_WAYS, Ended, PythonWay, reference_python
from helpers.judgekit import Kit

from problemtools_py.cpus import usable_cores
from problemtools_py.grading.grader import Grader
from problemtools_py.grading.results import Settings
from problemtools_py.judge.held import HeldJail
from problemtools_py.judge.judging import CaseJudge, DefaultValidator
from problemtools_py.verdicts import Verdict

CORPUS = Path(__file__).parent / "python"
PROGRAMS = sorted(CORPUS.glob("*.py"))
# What still differs, and why no program's answer can depend on it (docs/judging.md): a
# program forked from a warm interpreter has the judge's frames beneath its main module.
KNOWN = {
    "mm_inspect_stack": "the judge's frames below the main module",
    "mm_sys_getframe": "the judge's frames below the main module",
    "mm_traceback_extract": "the judge's frames below the main module",
}

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the sandbox isolates fully as root")


def stdin_of(program: Path) -> bytes:
    own = program.with_suffix(".in")
    return (own if own.is_file() else CORPUS / "STDIN").read_bytes()


@pytest.fixture(scope="module")
def references() -> dict[str, Ended]:
    """Each program under ``python3 prog.py`` here."""
    with ThreadPoolExecutor(usable_cores()) as pool:
        ended = pool.map(lambda program: reference_python(program, stdin_of(program)), PROGRAMS)
        return {program.name: result for program, result in zip(PROGRAMS, ended, strict=True)}


def test_the_corpus_is_large_and_covers_what_it_names() -> None:
    """At least 150 programs; every style the suite is about has some."""
    assert len(PROGRAMS) >= 150
    prefixes = {program.name.split("_")[0] for program in PROGRAMS}
    assert prefixes >= {"in", "ex", "out", "th", "ax", "er", "sg", "mp", "rc", "gc", "rs", "mm"}


@pytest.mark.parametrize("way", PYTHON_WAYS)
def test_every_program_ends_as_under_python3(way: str, references: dict[str, Ended]) -> None:
    wrong = []
    with PythonWay(way, CORPUS) as runner:
        for program in PROGRAMS:
            got, want = runner.run(program.name, stdin_of(program)), references[program.name]
            known = program.stem in KNOWN
            agrees = got.status == want.status if known else got.same(want)
            if not agrees:
                wrong.append(f"{program.name}: python3 {want.brief()}\n    {way}: {got.brief()}")
    assert not wrong, f"{len(wrong)} programs differ:\n" + "\n".join(wrong)


@pytest.fixture(scope="module")
def as_main(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Ended]:
    """Each program (of those in UTF-8 reading the shared stdin: a completion and its
    tests are text) under ``python3 main.py``: a completion's name in the grader."""
    root = tmp_path_factory.mktemp("as-main")
    chosen = [p for p in PROGRAMS if not p.with_suffix(".in").exists() and p.stem not in KNOWN
              and _text(p)]  # fmt: skip

    def one(program: Path) -> Ended:
        place = root / program.stem
        place.mkdir()
        shutil.copyfile(program, place / "main.py")
        return reference_python(place / "main.py", stdin_of(program))

    with ThreadPoolExecutor(usable_cores()) as pool:
        return {p.name: e for p, e in zip(chosen, pool.map(one, chosen), strict=True)}


def _syntax_error(ended: Ended) -> bool:
    """Whether python3 could not compile the program (a compile error to a judge)."""
    last = ended.stderr.decode(errors="replace").strip().splitlines()[-1:]
    return bool(last) and last[0].startswith(("SyntaxError", "IndentationError", "TabError"))


def _text(program: Path) -> bool:
    try:
        program.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return False
    return True


@pytest.mark.parametrize("fresh", [False, True], ids=["forked", "fresh-python"])
def test_the_grader_rewards_each_program_as_python3_ends_it(
    fresh: bool, as_main: dict[str, Ended]
) -> None:
    """1.0 where python3 exits 0 (the output is then python3's), runtime_error where it
    does not: in the grader's lean jails, and with a new python3 for every test."""
    wrong = []
    stdin = (CORPUS / "STDIN").read_bytes().decode()  # (not read_text: its \r\n stays)
    with Grader(None, Settings(raw=True, fresh_python=fresh)) as grader:
        for name, want in as_main.items():
            expected = want.stdout.decode("utf-8", "replace")
            source = (CORPUS / name).read_text(encoding="utf-8")
            result = grader.grade_tests(((stdin, expected),), LIMITS.cpu_seconds, source)
            status = "ok" if want.status == 0 else "runtime_error"
            if want.status != 0 and _syntax_error(want):
                status = "syntax_error"
            if result.status != status:
                wrong.append(f"{name}: {result.status} ({result.message[-200:]!r}), not {status}")
    assert not wrong, "\n".join(wrong)


@pytest.fixture(scope="module")
def built(kit: Kit) -> Iterator[dict[str, object]]:
    yield {p.name: kit.builder.build(kit.languages.get("python3"), {p.name: p.read_bytes()})  # type: ignore[arg-type]
           for p in PROGRAMS if p.stem not in KNOWN}  # fmt: skip


@pytest.mark.parametrize("fresh", [False, True], ids=["forked-init", "fresh-init"])
def test_verifyproblem_judges_each_program_as_python3_ends_it(
    kit: Kit, tmp_path: Path, fresh: bool, built: dict[str, object], references: dict[str, Ended]
) -> None:
    """As verifyproblem judges a submission on a case, in a held jail: AC where python3
    exits 0 (the answer is python3's output), RTE where it does not, CE where it cannot
    compile it."""
    wrong = []
    for name, build in built.items():
        want = references[name]
        (tmp_path / "in").write_bytes(stdin_of(CORPUS / name))
        (tmp_path / "ans").write_bytes(want.stdout)
        exe = build.executable  # type: ignore[attr-defined]
        if exe is None:
            verdict = Verdict.CE
        else:
            with HeldJail(kit.pool, exe, LIMITS, fresh=fresh) as held:
                judge = CaseJudge(kit.pool, DefaultValidator([]), LIMITS, held=held)
                verdict = judge.judge(exe, tmp_path / "in", tmp_path / "ans", tmp_path / name).verdict
        expected = Verdict.AC if want.status == 0 else Verdict.RTE
        if want.status != 0 and _syntax_error(want):
            expected = Verdict.CE
        if verdict is not expected:
            wrong.append(f"{name}: {verdict.value}, not {expected.value} (python3: {want.brief()})")
    assert not wrong, "\n".join(wrong)
