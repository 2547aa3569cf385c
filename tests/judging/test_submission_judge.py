"""judging/submission_judge.py: a package with many test cases is judged in held jails, their
inits fresh past judge.held.FRESH_INIT_RUNS runs (forked at first for a submission expected
to fail), with the verdicts its submissions claim and no finding."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from helpers.packages import SAMPLES

from problemtools_py.judge import held
from problemtools_py.judging.submission_judge import expects_failure
from problemtools_py.model import load_problem
from problemtools_py.verdicts import Verdict
from problemtools_py.verify.context import Options
from problemtools_py.verify.verifier import verify_all


@pytest.mark.parametrize("extra", [0, held.FRESH_INIT_RUNS])
def test_many_cases_are_judged_in_held_jails(
    copy_sample: Callable[..., Path], monkeypatch: pytest.MonkeyPatch, extra: int
) -> None:
    root = copy_sample("divisor")
    monkeypatch.setenv("XDG_CACHE_HOME", str(root.parent / "cache"))
    for index in range(extra):
        n = (index + 2) * (index + 5)
        smallest = next(d for d in range(2, n + 1) if n % d == 0)
        (root / f"data/secret/x{index}.in").write_text(f"{n}\n")
        (root / f"data/secret/x{index}.ans").write_text(f"{smallest}\n")
    opened: list[bool] = []  # whether each jail's init is a fresh interpreter
    short: list[bool] = []  # the expected failures' jails (they fail within 4 cases)
    real = held.HeldJail.box

    def box(self: held.HeldJail) -> object:
        found = real(self)
        assert found.lean_open  # (lean in any case: straight to the jail's init)
        if self.runs == 0:
            (short if self.forked_first else opened).append(self._fresh_open)
        return found

    monkeypatch.setattr(held.HeldJail, "box", box)
    (report,) = verify_all([root], ("validators", "submissions"), options=Options(jobs=2)).problems
    assert report.findings == []
    verdicts = {row.submission.split("/")[-1]: row.verdict for row in report.submissions}
    assert verdicts == {"largest.cpp": Verdict.AC, "smallest.py": Verdict.AC,
                        "recurse.py": Verdict.RTE, "one.py": Verdict.WA, "overflow.c": Verdict.WA}
    assert opened and (any(opened) if extra else not any(opened)), opened
    # (a forked init first: a fresh one costs more to start than the few runs they make;
    # three submissions' jails and two validators', the run-time error's output is not
    # checked)
    assert short == ([False] * 5 if extra else []), short


@pytest.mark.parametrize(
    ("sample", "program"),
    [
        ("hello", "import time\ntime.sleep(60)\n"),
        # interactive: it waits for input the validator waits for its guess to send
        ("guess", "import sys\nsys.stdin.read()\n"),
    ],
    ids=["sleeps", "deadlocks-with-its-validator"],
)
def test_a_submission_that_sleeps_past_the_wall_clock_is_judged_once(
    copy_sample: Callable[..., Path], monkeypatch: pytest.MonkeyPatch, sample: str, program: str
) -> None:
    """Stopped by the wall clock while it slept (its wait for a CPU small, and its
    validator's), the outcome is its own, kept like any other; only a run the machine may
    have starved is run again."""
    import re

    from problemtools_py.judge import judging

    root = copy_sample(sample)
    monkeypatch.setenv("XDG_CACHE_HOME", str(root.parent / "cache"))
    (root / "submissions/time_limit_exceeded/sleeps.py").write_text(program)
    runs: list[str] = []
    real = judging.CaseJudge.judge

    def judge(self: judging.CaseJudge, *args: object, **kwargs: object) -> object:
        runs.append("run")
        return real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(judging.CaseJudge, "judge", judge)
    options = Options(jobs=2, fixed_time_limit=0.5, submissions=re.compile("sleeps"))
    for _ in range(2):
        (report,) = verify_all([root], ("submissions",), options=options).problems
        assert [row.verdict for row in report.submissions] == [Verdict.TLE]
        assert report.errors == 0, report.findings
    assert runs == ["run"]  # (the first verification's; the second found it cached)


def test_an_output_validated_before_is_not_validated_again(
    copy_sample: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A custom validator's answer is kept by content (its arguments, the input, the answer,
    the output): a second submission writing the same outputs runs, its validator does not;
    one writing other outputs is validated."""
    import re

    from problemtools_py.judge import validators

    root = copy_sample("divisor")
    monkeypatch.setenv("XDG_CACHE_HOME", str(root.parent / "cache"))
    smallest = (root / "submissions/accepted/smallest.py").read_text()
    (root / "submissions/accepted/again.py").write_text("# the same outputs\n" + smallest)
    (root / "submissions/accepted/other.py").write_text(
        "n = int(input())\nd = 2\nwhile n % d:\n    d += 1\nprint(n // d)\n")  # (the largest)
    validated: list[str] = []
    for name in ("validate_held", "validate_with"):
        real = getattr(validators.CustomValidator, name)

        def counting(self: object, *args: object, _real: Callable[..., object] = real,
                     **kwargs: object) -> object:  # fmt: skip
            validated.append("run")
            return _real(self, *args, **kwargs)

        monkeypatch.setattr(validators.CustomValidator, name, counting)
    runs = {}
    for sub in ("smallest", "again", "other"):
        validated.clear()
        options = Options(jobs=2, submissions=re.compile(f"/{sub}\\.py$"))
        (report,) = verify_all([root], ("submissions",), options=options).problems
        assert [row.verdict for row in report.submissions] == [Verdict.AC], report.findings
        runs[sub] = len(validated)
    numbers = [int(p.read_text()) for p in (root / "data").rglob("*.in")]
    smallest_of = [next(d for d in range(2, n + 1) if n % d == 0) for n in numbers]
    differ = sum(1 for n, d in zip(numbers, smallest_of, strict=True) if n // d != d)
    assert 0 < differ < len(numbers)  # (n = p * p: both write p)
    assert runs == {"smallest": len(numbers), "again": 0, "other": differ}


def test_a_validators_judge_error_is_not_kept(
    copy_sample: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A judge error may be the machine's (a validator starved past its limit): the next
    verification asks the validator again."""
    import re

    from problemtools_py.judge import validators

    root = copy_sample("divisor")
    monkeypatch.setenv("XDG_CACHE_HOME", str(root.parent / "cache"))
    (root / "output_validators/divisor_checker/checker.py").write_text(
        "import sys\nsys.exit(3)\n")
    validated: list[str] = []
    real = validators.CustomValidator.interpret

    def counting(self: validators.CustomValidator, *args: object) -> object:
        validated.append("run")
        return real(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(validators.CustomValidator, "interpret", counting)
    options = Options(jobs=2, submissions=re.compile("/smallest\\.py$"))
    for _ in range(2):
        validated.clear()
        (report,) = verify_all([root], ("submissions",), options=options).problems
        assert [row.verdict for row in report.submissions] == [Verdict.JE]
        assert validated  # (asked again the second time)


@pytest.mark.parametrize(("sample", "failing"), [
    ("divisor", {"wrong_answer/one.py", "wrong_answer/overflow.c", "run_time_error/recurse.py"}),
    ("average", {"intdiv.c", "nodivide.py", "rounded.py"}),  # (@EXPECTED_RESULT@ tags)
    ("hello", {"run_time_error/segfault.c", "run_time_error/crash.py", "run_time_error/Main.java",
               "time_limit_exceeded/spin.c", "time_limit_exceeded/slow.py",
               "wrong_answer/world.py", "wrong_answer/noexclaim.cpp"}),
])
def test_the_submissions_expected_to_fail(sample: str, failing: set[str]) -> None:
    problem = load_problem(SAMPLES / sample)
    found = {s.rel.removeprefix("submissions/") for s in problem.submissions if expects_failure(s)}
    assert found == failing
