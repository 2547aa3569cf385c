"""The problem model: what loading each sample yields, and the expectation rules."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from helpers.packages import SAMPLES

from problemtools_py.errors import FatalError
from problemtools_py.model import FormatVersion, load_problem
from problemtools_py.model.expectations import apply_rules, find_tags, glob_matches, resolve
from problemtools_py.model.files import scan_text
from problemtools_py.verdicts import Verdict
from problemtools_py.yamlfile import load_yaml


def test_model_is_frozen() -> None:
    problem = load_problem(SAMPLES / "hello")
    with pytest.raises(dataclasses.FrozenInstanceError):
        problem.short_name = "other"  # type: ignore[misc]


def test_not_a_directory_is_fatal(tmp_path: Path) -> None:
    with pytest.raises(FatalError, match="no such directory"):
        load_problem(tmp_path / "missing")


def test_hello_model() -> None:
    problem = load_problem(SAMPLES / "hello")
    assert problem.format is FormatVersion.LEGACY and problem.format_declared is None
    assert problem.config.names == {"en": "Hello"}
    assert problem.config.limits.memory_mib == 1024 and problem.config.limits.output_mib == 8
    assert [s.rel for s in problem.statements] == ["problem_statement/problem.en.tex"]
    assert problem.statements[0].problemname == "Hello"
    assert problem.data is not None
    assert [g.name for g in problem.data.walk()] == ["", "sample", "secret"]
    secret = problem.data.child("secret")
    assert secret is not None
    assert [c.name for c in secret.cases] == ["secret/01", "secret/02", "secret/03", "secret/04"]
    assert secret.cases[0].files == {".ans": "data/secret/01.ans", ".desc": "data/secret/01.desc",
                                     ".in": "data/secret/01.in"}
    langs = {s.rel.rsplit("/", 1)[-1]: s.program.language for s in problem.submissions}
    assert langs["hello.py"] == "python3" and langs["hello.c"] == "c"
    assert langs["hello.cpp"] == "cpp" and langs["Main.java"] == "java"
    accepted = [s for s in problem.submissions if s.expectation and s.expectation.accepted]
    assert len(accepted) == 4


def test_seed_style_average_model() -> None:
    problem = load_problem(SAMPLES / "average")
    assert problem.config.validator_flags == ("float_tolerance", "1e-6")
    assert problem.config.source_url == "https://example.org/problemtools-py/samples"
    assert problem.config.authors == ("Grace Hopper", "Ada Lovelace")
    by_name = {s.rel: s for s in problem.submissions}
    assert all(s.category is None for s in problem.submissions)
    assert by_name["submissions/intdiv.c"].expectation.required == {Verdict.WA}  # type: ignore[union-attr]
    rounded = by_name["submissions/rounded.py"].expectation
    assert rounded is not None and rounded.permitted == {Verdict.AC, Verdict.WA}
    assert by_name["submissions/nodivide.py"].expectation.permitted is None  # type: ignore[union-attr]
    assert [p.name for p in problem.input_validators] == ["checkavg"]


def test_scoring_model() -> None:
    problem = load_problem(SAMPLES / "bigsum")
    assert problem.config.scoring
    subs = {s.rel: s.expectation for s in problem.submissions}
    assert subs["submissions/partially_accepted/int32.c"].score == (30, 30)  # type: ignore[union-attr]
    assert subs["submissions/accepted/sum.py"].score == (100, 100)  # type: ignore[union-attr]
    assert [g.name for g in problem.graders] == ["grader"]


def test_modern_model() -> None:
    problem = load_problem(SAMPLES / "different")
    assert problem.format is FormatVersion.V2023_07
    assert problem.config.limits.time_multiplier == 2.0
    assert problem.config.limits.time_safety_margin == 1.5
    assert problem.config.authors == ("Per Austrin <austrin@kth.se>",)
    secret = problem.data.child("secret") if problem.data else None
    assert secret is not None and secret.config.rel == "data/secret/test_group.yaml"
    subs = {s.rel: s.expectation for s in problem.submissions}
    nosign = subs["submissions/rejected/nosign.py"]
    assert nosign is not None and nosign.permitted == {Verdict.AC, Verdict.WA} and nosign.required == {Verdict.WA}
    tle = subs["submissions/time_limit_exceeded/count.py"]
    assert tle is not None and tle.permitted == {Verdict.AC, Verdict.TLE}


def test_custom_validator_model() -> None:
    problem = load_problem(SAMPLES / "divisor")
    assert problem.config.custom_validation
    assert [(p.name, p.language) for p in problem.output_validators] == [("divisor_checker", "python3")]


@pytest.mark.parametrize(("line", "kind", "value"), [
    ("// @EXPECTED_RESULT@: WA", "EXPECTED_RESULT", "WA"),
    ("/* @EXPECTED_RESULT@: TLE */", "EXPECTED_RESULT", "TLE"),
    ("# @expected_results@: WRONG-ANSWER, TIMELIMIT", "EXPECTED_RESULTS",
     "WRONG-ANSWER, TIMELIMIT"),
    ("-- @EXPECTED_SCORE@: 42.5", "EXPECTED_SCORE", "42.5"),
])
def test_find_tags(line: str, kind: str, value: str) -> None:
    (tag,) = find_tags(f"x\n{line}\n", "s.c")
    assert (tag.kind, tag.value, tag.line) == (kind, value, 2)


def test_results_list_maps_domjudge_names() -> None:
    tags = find_tags("# @EXPECTED_RESULTS@: WRONG-ANSWER, TIMELIMIT, RUN-ERROR\n", "s.py")
    expectation, problems = resolve(None, tags, modern=False, scoring=False)
    assert not problems and expectation is not None
    assert expectation.required == {Verdict.WA, Verdict.TLE, Verdict.RTE}
    assert expectation.permitted == {Verdict.AC, Verdict.WA, Verdict.TLE, Verdict.RTE}


def test_compile_error_expectation() -> None:
    expectation, _ = resolve(None, find_tags("@EXPECTED_RESULT@: CE", "s.c"), False, False)
    assert expectation is not None and expectation.compile_error


@pytest.mark.parametrize(("pattern", "path", "matches"), [
    ("accepted", "accepted/a.py", True),
    ("accepted/*", "accepted/a.py", True),
    ("*/a.py", "accepted/a.py", True),
    ("*", "accepted/a.py", True),
    ("accepted/*.{py,cpp}", "accepted/a.cpp", True),
    ("accepted/*.{py,cpp}", "accepted/a.c", False),
    ("acc*", "accepted/sub/a.py", True),
    ("accepted/b*", "accepted/a.py", False),
])
def test_submission_globs(pattern: str, path: str, matches: bool) -> None:
    assert glob_matches(pattern, path) is matches


def test_text_scan(tmp_path: Path) -> None:
    path = tmp_path / "f.in"
    path.write_bytes(b"ok\nline two\r\n\xff\n")
    scan = scan_text(path)
    assert (scan.utf8, scan.bad_line, scan.cr_line, scan.final_newline, scan.bom) == \
        (False, 3, 2, True, False)
    path.write_bytes(b"")
    assert scan_text(path).final_newline
    big = tmp_path / "big.in"
    big.write_bytes(b"x" * (3 << 20) + b"\n\xe2\x82")  # a character cut off at the very end
    assert scan_text(big).bad_line == 2


def test_relative_symlink_inside_the_package_is_fine(tmp_path: Path) -> None:
    import shutil

    from problemtools_py.checks.layout import symlinks

    root = tmp_path / "hello"
    shutil.copytree(SAMPLES / "hello", root)
    (root / "data/secret/05.in").symlink_to("01.in")
    (root / "data/secret/05.ans").symlink_to("../secret/01.ans")
    problem = load_problem(root)
    assert list(symlinks(problem)) == []
    entry = problem.file("data/secret/05.in")
    assert entry is not None and entry.is_symlink and entry.readable and entry.text is not None


@pytest.mark.parametrize(("written", "covers"), [
    ("[RTE]", {Verdict.RTE, Verdict.MLE, Verdict.OLE}),
    ("[AC, WA]", {Verdict.AC, Verdict.WA}),
    ("TLE", {Verdict.TLE}),
])
def test_submissions_yaml_rte_covers_memory_and_output_limits(written: str, covers: set[Verdict],
                                                              tmp_path: Path) -> None:
    """2025-09 has four verdicts: running out of memory or output is a run-time error."""
    (tmp_path / "s.yaml").write_text(f"mixed/*:\n  permitted: {written}\n")
    rules = load_yaml(tmp_path / "s.yaml", "submissions/submissions.yaml")
    expectation = apply_rules(None, "submissions/mixed/a.py", rules)
    assert expectation is not None and expectation.permitted == covers
