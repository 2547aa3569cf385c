"""judge/held.py: jails kept for a program's runs on many test cases (the submission's,
its custom output validator's), lean with a forked or a fresh init, give the verdicts
fresh jails give, and keep the validator to its own feedback directory."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.judgekit import Kit
from helpers.packages import SAMPLES

from problemtools_py.judge.held import HeldJail, HeldValidator, Lent
from problemtools_py.judge.judging import CaseJudge, run_limits
from problemtools_py.judge.validators import CustomValidator
from problemtools_py.sandbox.results import Limits
from problemtools_py.verdicts import Verdict

LIMITS = Limits(cpu_seconds=1.0, memory_bytes=256 << 20, output_bytes=1 << 20)
DIVISOR = SAMPLES / "divisor"
CASES = ["sample/1", "secret/1", "secret/2", "secret/3"]


def _work(path: Path) -> Path:
    path.mkdir(mode=0o711)
    path.chmod(0o711)  # (as the verification's work directories: see HeldValidator)
    return path


def _validator(kit: Kit, source: str | None = None) -> CustomValidator:
    code = source or (DIVISOR / "output_validators/divisor_checker/checker.py").read_text()
    return CustomValidator(kit.build("checker.py", code), Limits(cpu_seconds=10))


def _judge_all(kit: Kit, submission: str, checker: CustomValidator, work: Path,
               held: bool, fresh: bool = False) -> list[tuple[Verdict, str]]:
    exe = kit.build_file(DIVISOR / "submissions" / submission)
    found = []
    with HeldJail(kit.pool, exe, run_limits(LIMITS, exe), fresh=fresh) as jail, HeldValidator(
        kit.pool, checker.executable, checker.limits, DIVISOR / "data", work, fresh
    ) as validator:
        judge = CaseJudge(kit.pool, checker, LIMITS, held=jail if held else None,
                          held_validator=validator if held else None)
        for index, case in enumerate(CASES):
            data = DIVISOR / "data" / case
            result = judge.judge(exe, data.with_suffix(".in"), data.with_suffix(".ans"),
                                 _work(work / f"{held}{index}"))
            found.append((result.verdict, result.message))
    return found


@pytest.mark.parametrize("fresh", [False, True], ids=["forked", "fresh"])
@pytest.mark.parametrize("submission", [
    "accepted/smallest.py", "accepted/largest.cpp", "wrong_answer/one.py",
    "wrong_answer/overflow.c", "run_time_error/recurse.py",
])
def test_held_jails_judge_as_fresh_jails_do(kit: Kit, tmp_path: Path, submission: str,
                                            fresh: bool) -> None:
    checker, work = _validator(kit), _work(tmp_path / "work")
    held = _judge_all(kit, submission, checker, work, held=True, fresh=fresh)
    alone = _judge_all(kit, submission, checker, work, held=False)  # (a jail per run)
    assert held == alone
    assert {verdict for verdict, _ in held} != {Verdict.JE}


HOSTILE = """import os, sys
if not os.path.isfile("/data/sample/1.ans"):
    sys.exit(1)  # (not in the held jail, which sees the package's data/ there)
for path in ("/data/planted", "/judge/planted", os.path.dirname(sys.argv[3].rstrip("/")) + "/x"):
    try:
        open(path, "w").write("x")
    except OSError:
        continue
    sys.exit(1)  # wrote where it must not: a judge error
open(os.path.join(sys.argv[3], "judgemessage.txt"), "w").write("only feedback")
sys.exit(42)
"""


@pytest.mark.parametrize("fresh", [False, True], ids=["forked", "fresh"])
def test_a_held_validator_writes_only_into_its_feedback_directory(kit: Kit, tmp_path: Path,
                                                                  fresh: bool) -> None:
    work = _work(tmp_path / "work")
    results = _judge_all(kit, "accepted/smallest.py", _validator(kit, HOSTILE), work,
                         held=True, fresh=fresh)
    assert results == [(Verdict.AC, "only feedback")] * len(CASES)
    assert not (DIVISOR / "data/planted").exists() and not (work / "planted").exists()


def test_files_outside_the_bound_roots_are_not_mapped(kit: Kit, tmp_path: Path) -> None:
    work = _work(tmp_path / "work")
    (tmp_path / "data").mkdir()
    (tmp_path / "data/a.in").write_text("1\n")
    (tmp_path / "data/escape.in").symlink_to(tmp_path / "elsewhere.in")
    (tmp_path / "data/a-dir").mkdir()
    (tmp_path / "data/in").symlink_to(tmp_path / "data/a-dir")
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "data/out").symlink_to(tmp_path / "elsewhere")
    checker = _validator(kit)
    with HeldValidator(kit.pool, checker.executable, checker.limits, tmp_path / "data",
                       work) as held:
        assert held.inside(tmp_path / "data/a.in", work / "c/feedback") == [
            "/data/a.in", "/judge/c/feedback"]
        assert held.inside(tmp_path / "data/escape.in") is None  # (a link out of data/)
        assert held.inside(tmp_path / "data/a.in", tmp_path / "other") is None
        # a directory that is a link: followed each time, never taken as the name it has
        assert held.inside(tmp_path / "data/out/x.in") is None
        assert held.inside(tmp_path / "data/in/x.in") == ["/data/a-dir/x.in"]
        assert held.inside(tmp_path / "data/in/x.in") == ["/data/a-dir/x.in"]  # (kept)
        assert held.inside(tmp_path / "data/a-dir/../a.in") == ["/data/a.in"]
        assert held.inside(tmp_path / "data/out/../a.in") is None  # (.. after the link)


@pytest.mark.parametrize("fresh", [False, True], ids=["forked", "fresh"])
def test_a_held_jail_whose_server_was_lost_is_opened_again(kit: Kit, fresh: bool) -> None:
    exe = kit.build_file(DIVISOR / "submissions/accepted/smallest.py")
    stdin = DIVISOR / "data/sample/1.in"
    with HeldJail(kit.pool, exe, run_limits(LIMITS, exe), fresh=fresh) as jail:
        first = jail.box()
        assert jail.box() is first  # (kept between runs)
        first.proc.kill()  # (its server dies)
        first.proc.wait()
        again = jail.box()
        assert again is not first and again.alive
        run = jail.run(limits=LIMITS, stdin=stdin)
        assert run.ok and run.stdout.strip() == b"2"
        # lean either way (straight to the jail's init, as the grader's), its init a fresh
        # interpreter when asked for, else a fork of the server
        assert again.lean_open and jail._fresh_open is fresh


@pytest.mark.parametrize(("fresh", "forked_first", "kinds"), [
    (True, 2, [False, False, True, True]),  # (a forked init for two runs, then a fresh one)
    (True, 0, [True] * 4),
    (False, 2, [False] * 4),  # (never a fresh init: forked_first changes nothing)
])
def test_a_jail_may_serve_its_first_runs_with_a_forked_init(
    kit: Kit, fresh: bool, forked_first: int, kinds: list[bool]
) -> None:
    exe = kit.build_file(DIVISOR / "submissions/accepted/smallest.py")
    found = []
    with HeldJail(kit.pool, exe, run_limits(LIMITS, exe), fresh=fresh,
                  forked_first=forked_first) as jail:  # fmt: skip
        for case in CASES:
            run = jail.run(limits=LIMITS, stdin=DIVISOR / "data" / f"{case}.in")
            answer = (DIVISOR / "data" / f"{case}.ans").read_bytes()
            assert run.ok and run.stdout.split() == answer.split()
            assert jail._box is not None and jail._box.lean_open
            found.append(jail._fresh_open)  # (the init that ran it: box() would switch)
    assert found == kinds and jail.runs == len(CASES)


def test_lent_jails_are_never_more_than_the_runs_at_once() -> None:
    made: list[int] = []

    def make() -> int:
        made.append(len(made))
        return made[-1]

    lent: Lent[int] = Lent()
    with lent.take("a", make) as first, lent.take("a", make) as second:
        assert first != second  # (two at once: two)
    for _ in range(5):  # one after another: one of those two, again and again
        with lent.take("a", make) as again:
            assert again in (first, second)
    with lent.take("b", make) as other:  # another program's: its own
        assert other == 2
    assert sorted(lent.items()) == [0, 1, 2] and lent.items() == []
