"""upgradeproblem on the bundled legacy and draft samples: each upgraded package verifies
as 2025-09 with the same verdicts and time limit as before, its test data and submissions
keep their bytes; a custom grader stops it (nothing written) unless --force; --dry-run
writes nothing; --in-place keeps what is not the package's (.git) and a .timelimit's exact
limit; a symlink out of the package is refused."""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
from pathlib import Path

import pytest
from helpers.packages import peer_env, plain

from problemtools_py.cli.upgradeproblem import main
from problemtools_py.findings import ProblemReport
from problemtools_py.verify.verifier import verify_all

SAMPLES = Path(__file__).resolve().parents[2] / "sample_problems"
UPGRADABLE = ["average", "divisor", "guess", "hello", "different"]
Capture = pytest.CaptureFixture[str]


def tree(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}  # fmt: skip


def verdicts(report: ProblemReport) -> dict[str, tuple[str | None, float | None]]:
    """Each submission's verdict and score, by its file name (upgrading may move it)."""
    return {row.submission.rsplit("/", 1)[-1]: (row.verdict, row.score)
            for row in report.submissions}  # fmt: skip


@pytest.mark.parametrize("name", UPGRADABLE)
def test_a_sample_upgrades_with_the_same_verdicts_and_limit(name: str, tmp_path: Path,
                                                           capsys: Capture) -> None:  # fmt: skip
    assert main([str(SAMPLES / name), "-o", str(tmp_path), "--json"]) == 0
    made = json.loads(capsys.readouterr().out)["upgraded"][0]
    assert made["output"] == str(tmp_path / name)
    new = tmp_path / name
    before, after = verify_all([SAMPLES / name]), verify_all([new])
    old_report, new_report = before.problems[0], after.problems[0]
    assert new_report.format_version == "2025-09"
    assert (new_report.errors, new_report.warnings) == (0, 0), new_report.findings
    assert verdicts(new_report) == verdicts(old_report)
    assert new_report.time_limit == old_report.time_limit
    old_files, new_files = tree(SAMPLES / name), tree(new)
    for rel, digest in old_files.items():  # test data and submissions keep their bytes
        if rel.startswith("data/") and rel.endswith((".in", ".ans")):
            assert new_files[rel] == digest
        if rel.startswith("submissions/") and not rel.endswith(".yaml"):
            moved = [r for r, d in new_files.items() if d == digest and r.startswith("submissions/")]
            assert moved, rel


def test_comments_survive_and_the_seeds_keys_are_gone(tmp_path: Path) -> None:
    assert main([str(SAMPLES / "average"), "-o", str(tmp_path), "-q"]) == 0
    text = (tmp_path / "average" / "problem.yaml").read_text()
    original = (SAMPLES / "average" / "problem.yaml").read_text()
    assert text.startswith(original.split("\n")[0])  # the comment at the top
    for key in ("author:", "source-url:", "grader:", "validator:", "time_multiplier:"):
        assert f"\n{key}" not in text and f"  {key}" not in text
    assert "output_validator_args: [float_tolerance, '1e-6']" in (
        tmp_path / "average" / "data" / "secret" / "test_group.yaml").read_text()  # fmt: skip
    assert (tmp_path / "average" / "submissions" / "accepted" / "mean.py").is_file()


def test_a_custom_grader_stops_it_unless_forced(tmp_path: Path, capsys: Capture) -> None:
    assert main([str(SAMPLES / "bigsum"), "-o", str(tmp_path)]) == 1
    err = "".join(capsys.readouterr())
    assert "bigsum/graders/grader.py: error: a custom grader" in err
    assert "nothing written" in err
    assert list(tmp_path.iterdir()) == []
    assert main([str(SAMPLES / "bigsum"), "-o", str(tmp_path), "--force"]) == 0
    err = "".join(capsys.readouterr())
    assert "graders/grader.py: warning: a custom grader" in err
    assert not (tmp_path / "bigsum" / "graders").exists()
    groups = tmp_path / "bigsum" / "data" / "secret"
    assert (groups / "group1" / "test_group.yaml").read_text() == (
        "score_aggregation: min\nmax_score: 30\n")  # fmt: skip


def test_a_dry_run_prints_a_diff_and_writes_nothing(capsys: Capture) -> None:
    before = tree(SAMPLES / "hello")
    assert main([str(SAMPLES / "hello"), "--dry-run", "--no-time-limit"]) == 0
    out = capsys.readouterr().out
    assert "rename problem_statement/problem.en.tex -> statement/problem.en.tex" in out
    assert "\n-keywords: greeting strings\n" in out and "\n+keywords: [greeting, strings]\n" in out
    assert "delete data/secret/01.desc" in out
    assert "+description: The shortest possible name." in out
    assert tree(SAMPLES / "hello") == before


def test_in_place_keeps_git_and_the_exact_limit(tmp_path: Path) -> None:
    package = tmp_path / "hello"
    shutil.copytree(SAMPLES / "hello", package)
    (package / ".timelimit").write_text("2.5\n")
    (package / ".git").mkdir()
    (package / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    assert main([str(package), "--in-place", "-q"]) == 0
    text = (package / "problem.yaml").read_text()
    assert "  time_limit: 2.5\n  time_resolution: 0.5\n" in text
    assert not (package / ".timelimit").exists()
    assert not (package / "problem_statement").exists()
    assert (package / "statement" / "problem.en.tex").is_file()
    assert (package / ".git" / "HEAD").read_text() == "ref: refs/heads/main\n"
    report = verify_all([package], ("config", "statement", "data")).problems[0]
    assert report.errors == 0, report.findings


def test_already_released_is_left_alone(tmp_path: Path, capsys: Capture) -> None:
    assert main([str(SAMPLES / "hilo"), "-o", str(tmp_path)]) == 0
    assert "already 2025-09: nothing to do" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("target", ["/etc/passwd", "/etc"])
def test_a_symlink_out_of_the_package_is_refused(tmp_path: Path, target: str,
                                                 capsys: Capture) -> None:  # fmt: skip
    package = tmp_path / "hello"
    shutil.copytree(SAMPLES / "hello", package)
    (package / "data" / "secret" / "leak.ans").symlink_to(target)
    out = tmp_path / "out"
    assert main([str(package), "-o", str(out), "--no-time-limit"]) == 1
    err = capsys.readouterr().err
    assert f"data/secret/leak.ans: a symlink out of the package ({target})" in err
    assert "Traceback" not in err
    assert not out.exists() or list(out.iterdir()) == []


def test_an_existing_output_is_not_overwritten(tmp_path: Path, capsys: Capture) -> None:
    (tmp_path / "hello").mkdir()
    assert main([str(SAMPLES / "hello"), "-o", str(tmp_path), "--no-time-limit"]) == 1
    assert "exists already" in capsys.readouterr().err
    assert list((tmp_path / "hello").iterdir()) == []


WANTED = {"accepted": {"AC"}, "wrong_answer": {"WA"}, "time_limit_exceeded": {"TLE"},
          "run_time_error": {"RTE"}, "rejected": {"WA", "TLE", "RTE"}}  # fmt: skip


@pytest.mark.parametrize("name", UPGRADABLE)
def test_bapctools_judges_the_upgraded_sample_as_its_directories_say(
    name: str, tmp_path: Path, bt: Path
) -> None:
    """BAPCtools (PyPI) reads 2025-09: `bt run` in the upgraded package gives every
    submission its directory's verdict, under the time limit ours derives."""
    import re
    import subprocess

    assert main([str(SAMPLES / name), "-o", str(tmp_path), "-q", "--no-time-limit"]) == 0
    done = subprocess.run([str(bt), "run", "--no-bar"], cwd=tmp_path / name, env=peer_env(),
                          capture_output=True, text=True, timeout=600, check=False)  # fmt: skip
    said = plain(done.stdout + done.stderr)
    assert "using timelimit: 1.0s" in said, said[-2000:]
    rows = re.findall(r"^(\w+)/(\S+):\s+(AC|WA|TLE|RTE)\b", said, re.M)
    ours = verify_all([tmp_path / name], ("submissions",)).problems[0]
    assert len(rows) == len(ours.submissions), said[-2000:]
    for directory, submission, verdict in rows:
        assert verdict in WANTED[directory], (directory, submission, verdict)


def test_an_output_directory_named_like_the_scratch_one_is_kept(tmp_path: Path) -> None:
    """The dry run's scratch directory is removed, and only it (an -o directory whose
    name looked like it was removed after the check, with the package just written)."""
    out = tmp_path / "ptpy-upgrade-mine"
    assert main([str(SAMPLES / "hello"), "-o", str(out), "-q", "--no-time-limit"]) == 0
    assert (out / "hello" / "problem.yaml").is_file()
    before = set(Path(tempfile.gettempdir()).glob("ptpy-upgrade-*"))
    assert main([str(SAMPLES / "hello"), "--dry-run", "-q", "--no-time-limit"]) == 0
    assert set(Path(tempfile.gettempdir()).glob("ptpy-upgrade-*")) == before


def test_a_transcript_without_a_case_is_unmappable(tmp_path: Path, capsys: Capture) -> None:
    """Legacy allows a sample .interaction alone (an extra transcript); a 2025-09 sample is
    a test case with an .in, so it is refused, and left out with --force."""
    package = tmp_path / "guess"
    shutil.copytree(SAMPLES / "guess", package)
    (package / "data" / "sample" / "3.interaction").write_text("> 5\n< correct\n")
    out = tmp_path / "out"
    assert main([str(package), "-o", str(out), "--no-time-limit"]) == 1
    said = "".join(capsys.readouterr())
    assert "data/sample/3.interaction: error: an interaction without .in" in said
    assert not out.exists()
    assert main([str(package), "-o", str(out), "--no-time-limit", "--force"]) == 0
    assert not (out / "guess" / "data" / "sample" / "3.interaction").exists()
    assert (out / "guess" / "data" / "sample" / "1.interaction").is_file()


def test_a_draft_submission_without_a_claim_stays_as_it_is(tmp_path: Path) -> None:
    """In a 2023-07 package a directory of no claim (partially_accepted/) gives none, as in
    2025-09: the submission is kept where it is, nothing to map."""
    package = tmp_path / "different"
    shutil.copytree(SAMPLES / "different", package)
    extra = package / "submissions" / "partially_accepted" / "half.py"
    extra.parent.mkdir()
    extra.write_text("print(0)\n")
    out = tmp_path / "out"
    assert main([str(package), "-o", str(out), "-q", "--no-time-limit"]) == 0
    kept = out / "different" / "submissions" / "partially_accepted" / "half.py"
    assert kept.read_text() == "print(0)\n"


@pytest.mark.parametrize(("group1", "said", "max_score"), [
    ("range: '{1: 2}'\n", "range '{1: 2}': not two numbers", None),
    ("range: 0 abc\n", "range '0 abc': not two numbers", None),
    ("range: 7\n", "range '7': not two numbers", None),
    ("max_score: [3]\n", "max_score: '[3]' is not a finite number", None),
    ("accept_score: [1, 2]\n", "accept_score: '[1, 2]' is not a finite number", None),
    ("reject_score: {a: 1}\n", "reject_score: \"{'a': 1}\" is not a finite number", None),
    ("range: 0 +inf\n", None, "unbounded"),
    ("max_score: unbounded\n", None, "unbounded"),
], ids=["range-map", "range-word", "range-one", "max-list", "accept-list", "reject-map", "inf", "unbounded"])
def test_a_score_setting_that_is_no_number_is_unmappable(
        tmp_path: Path, capsys: Capture, group1: str, said: str | None,
        max_score: int | str | None) -> None:  # fmt: skip
    # (each crashed upgradeproblem in int() or float(): an internal error)
    source = tmp_path / "in" / "bigsum"
    shutil.copytree(SAMPLES / "bigsum", source)
    shutil.rmtree(source / "graders")
    (source / "data" / "testdata.yaml").write_text("on_reject: continue\n")
    (source / "data" / "secret" / "group1" / "testdata.yaml").write_text(group1)
    code = main([str(source), "-o", str(tmp_path / "out"), "--force"])
    err = "".join(capsys.readouterr())
    assert code in (0, 1) and "internal error" not in err
    if said is not None:
        assert f"/data/secret/group1: warning: {said}\n" in err, err
    group = tmp_path / "out" / "bigsum" / "data" / "secret" / "group1" / "test_group.yaml"
    written = group.read_text() if group.exists() else ""
    assert (f"max_score: {max_score}" in written) if max_score is not None else (
        "max_score" not in written)
