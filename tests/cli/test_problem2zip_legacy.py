"""problem2zip --format legacy: each 2025-09 sample downgraded verifies as legacy with the
same verdicts, scores and time limit; what legacy cannot say stops it (nothing written)
unless --force; an upgrade followed by a downgrade keeps test data and submissions
byte-identical; and Kattis problemtools from PyPI accepts the legacy zips."""

from __future__ import annotations

import hashlib
import subprocess
import zipfile
from pathlib import Path

import pytest
from helpers.packages import SAMPLES

from problemtools_py.cli.problem2zip import main
from problemtools_py.cli.upgradeproblem import main as upgrade
from problemtools_py.findings import ProblemReport
from problemtools_py.verify.verifier import verify_all

Capture = pytest.CaptureFixture[str]
DOWNGRADABLE = {"gensum": [], "hilo": [], "subtasks": ["--force"]}  # subtasks: require_pass


def verdicts(report: ProblemReport) -> dict[str, tuple[str | None, float | None]]:
    return {row.submission.rsplit("/", 1)[-1]: (row.verdict, row.score)
            for row in report.submissions}  # fmt: skip


@pytest.fixture(scope="module")
def legacy_zips(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("legacy")
    for name, extra in DOWNGRADABLE.items():
        assert main([str(SAMPLES / name), "--format", "legacy", "-o", str(out / f"{name}.zip"),
                     "-q", *extra]) == 0  # fmt: skip
    return {name: out / f"{name}.zip" for name in DOWNGRADABLE}


@pytest.mark.parametrize("name", DOWNGRADABLE)
def test_a_2025_09_sample_as_legacy_judges_the_same(name: str,
                                                    legacy_zips: dict[str, Path]) -> None:  # fmt: skip
    before = verify_all([SAMPLES / name]).problems[0]
    after = verify_all([legacy_zips[name]]).problems[0]
    assert after.format_version == "legacy"
    assert (after.errors, after.warnings) == (0, 0), after.findings
    assert verdicts(after) == verdicts(before)
    assert after.time_limit == before.time_limit  # (subtasks: 0.5 s, kept by .timelimit)


def test_what_legacy_cannot_say_writes_nothing(tmp_path: Path, capsys: Capture) -> None:
    target = tmp_path / "twopass.zip"
    assert main([str(SAMPLES / "twopass"), "--format", "legacy", "-o", str(target)]) == 1
    out = "".join(capsys.readouterr())
    assert "problem.yaml: error: type multi-pass: legacy has no such type" in out
    assert not target.exists()


def test_a_legacy_zip_built_twice_is_byte_identical(tmp_path: Path) -> None:
    for side in ("a", "b"):
        assert main([str(SAMPLES / "gensum"), "--format", "legacy", "-q",
                     "-o", str(tmp_path / side / "gensum.zip")]) == 0  # fmt: skip
    assert (tmp_path / "a/gensum.zip").read_bytes() == (tmp_path / "b/gensum.zip").read_bytes()


def _contents(files: dict[str, bytes], prefix: str) -> list[bytes]:
    return sorted(data for rel, data in files.items() if rel.startswith(prefix))


@pytest.mark.parametrize("name", ["average", "divisor", "guess", "hello"])
def test_upgrade_then_downgrade_keeps_data_and_submissions(name: str, tmp_path: Path) -> None:
    assert upgrade([str(SAMPLES / name), "-o", str(tmp_path / "up"), "-q",
                    "--no-time-limit"]) == 0  # fmt: skip
    target = tmp_path / f"{name}.zip"
    assert main([str(tmp_path / "up" / name), "--format", "legacy", "-o", str(target),
                 "-q"]) == 0  # fmt: skip
    with zipfile.ZipFile(target) as archive:
        back = {n.removeprefix(f"{name}/"): archive.read(n) for n in archive.namelist()}
    original = {str(p.relative_to(SAMPLES / name)): p.read_bytes()
                for p in (SAMPLES / name).rglob("*") if p.is_file()}  # fmt: skip
    for rel, data in original.items():
        if rel.startswith("data/") and rel.endswith((".in", ".ans", ".interaction")):
            assert back[rel] == data, rel
    assert _contents(back, "submissions/") == _contents(original, "submissions/")


@pytest.mark.parametrize("name", DOWNGRADABLE)
def test_kattis_problemtools_accepts_the_legacy_zip(name: str, legacy_zips: dict[str, Path],
                                                    problemtools: Path, tmp_path: Path) -> None:  # fmt: skip
    with zipfile.ZipFile(legacy_zips[name]) as archive:
        archive.extractall(tmp_path)
    config = tmp_path / "config" / "problemtools"
    config.mkdir(parents=True)
    # problemtools runs Python 3 with PyPy by default; this machine has CPython.
    (config / "languages.yaml").write_text(
        "python3:\n  name: Python 3\n  compile: '/usr/bin/python3 -m py_compile {files}'\n"
        "  run: '/usr/bin/python3 \"{mainfile}\"'\n"
    )
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(tmp_path),
           "XDG_CONFIG_HOME": str(tmp_path / "config")}  # fmt: skip
    done = subprocess.run([str(problemtools), str(tmp_path / name), "-p", "config", "data",
                           "submissions"], capture_output=True, text=True, env=env,
                          timeout=600, check=False)  # fmt: skip
    said = done.stdout + done.stderr
    assert f"{name} tested: 0 errors, 0 warnings" in said, said[-3000:]
    assert hashlib.sha256(legacy_zips[name].read_bytes()).hexdigest()  # (the zip it checked)


# ---- --format domjudge: legacy, with the time limit fixed, claims as @EXPECTED_RESULTS@
# and the statement prebuilt beside it


def test_a_domjudge_zip_has_what_its_importer_reads(tmp_path: Path) -> None:
    target = tmp_path / "a" / "hilo.zip"
    assert main([str(SAMPLES / "hilo"), "--format", "domjudge", "-o", str(target), "-q"]) == 0
    with zipfile.ZipFile(target) as archive:
        names = set(archive.namelist())
        html = archive.read("hilo/problem.html").decode()
        limit = archive.read("hilo/.timelimit").decode()
        pdf = archive.read("hilo/problem.pdf") if "hilo/problem.pdf" in names else None
    assert limit == "1\n"  # (DOMjudge takes a limit, not a rule: the derived one)
    assert "<math" in html and "<script" not in html  # read offline, no script
    assert pdf is None or pdf.startswith(b"%PDF")
    assert "hilo/problem.yaml" in names and "hilo/output_validators/output_validator/validate.py" in names
    report = verify_all([target], ("config", "statement", "data")).problems[0]
    assert (report.errors, report.warnings) == (0, 0), report.findings
    again = tmp_path / "b" / "hilo.zip"
    assert main([str(SAMPLES / "hilo"), "--format", "domjudge", "-o", str(again), "-q"]) == 0
    assert again.read_bytes() == target.read_bytes()


def test_a_claim_no_directory_carries_becomes_a_tag_for_domjudge(tmp_path: Path,
                                                                 capsys: Capture) -> None:  # fmt: skip
    import shutil

    package = tmp_path / "gensum"
    shutil.copytree(SAMPLES / "gensum", package)
    rejected = package / "submissions" / "rejected"
    rejected.mkdir()
    (rejected / "crash.py").write_text("raise SystemExit(1)\n")
    legacy = tmp_path / "legacy" / "gensum.zip"
    assert main([str(package), "--format", "legacy", "-o", str(legacy)]) == 1
    said = "".join(capsys.readouterr())
    assert "submissions/rejected/crash.py: error: its claim has no legacy directory" in said
    assert not legacy.exists()
    target = tmp_path / "domjudge" / "gensum.zip"
    assert main([str(package), "--format", "domjudge", "-o", str(target), "-q"]) == 0
    with zipfile.ZipFile(target) as archive:
        tagged = archive.read("gensum/submissions/crash.py").decode()
    assert tagged == ("# @EXPECTED_RESULTS@: WRONG-ANSWER, TIMELIMIT, RUN-ERROR\n"
                      "raise SystemExit(1)\n")  # fmt: skip
    report = verify_all([target]).problems[0]
    assert report.errors == 0, report.findings
    row = next(r for r in report.submissions if r.submission.endswith("crash.py"))
    assert row.verdict is not None and row.verdict.value == "RTE"


def test_directories_that_are_no_2025_09_groups_score_the_same_as_legacy(tmp_path: Path) -> None:
    """A 2025-09 secret whose directories have no test_group.yaml is one group (its cases
    share its 100 points), and a draft's testdata.yaml there is not read: the legacy zip
    must score so too (it read the testdata.yaml and gave each case 1 point)."""
    import shutil

    package = tmp_path / "subtasks"
    shutil.copytree(SAMPLES / "subtasks", package)
    for name in ("1-small", "2-large"):
        (package / "data" / "secret" / name / "test_group.yaml").unlink()
    (package / "data" / "secret" / "1-small" / "testdata.yaml").write_text("grader_flags: min\n")
    (package / "submissions" / "submissions.yaml").unlink()
    shutil.rmtree(package / "submissions" / "subtask1_only")
    target = tmp_path / "legacy" / "subtasks.zip"
    assert main([str(package), "--format", "legacy", "-o", str(target), "-q"]) == 0
    before = verify_all([package], ("submissions",)).problems[0]
    after = verify_all([target], ("submissions",)).problems[0]
    assert {k: (v, round(s or 0, 6)) for k, (v, s) in verdicts(after).items()} == {
        k: (v, round(s or 0, 6)) for k, (v, s) in verdicts(before).items()}  # fmt: skip
    assert verdicts(before)["sum.py"][1] == pytest.approx(100)


def test_what_a_legacy_zip_leaves_out_is_reported_by_the_command(tmp_path: Path,
                                                                 capsys: Capture) -> None:  # fmt: skip
    """Harmless omissions are the command's to show (stderr, and --json's "left_out"),
    never printed by the converter itself."""
    import json

    target = tmp_path / "gensum.zip"
    args = [str(SAMPLES / "gensum"), "-o", str(target), "--format", "legacy", "--no-pdf"]
    assert main(args) == 0
    said = capsys.readouterr().err
    assert "  left out: generators: legacy has no place for it" in said
    assert main([*args, "--json"]) == 0
    out, err = capsys.readouterr()
    (made,) = json.loads(out)["written"]
    assert "generators: legacy has no place for it" in made["left_out"]
    assert "left out" not in err
    assert main([*args, "-q"]) == 0
    assert "left out" not in capsys.readouterr().err


@pytest.mark.parametrize(("max_score", "bound", "said"), [
    ("unbounded", "range: 0 +inf", None),  # (valid 2025-09; it crashed in float())
    ("[3]", "range: 0 +inf", "max_score: '[3]' is not a number"),  # (with --force)
])
def test_a_group_max_score_that_is_no_number(tmp_path: Path, capsys: Capture, max_score: str,
                                             bound: str, said: str | None) -> None:  # fmt: skip
    import shutil

    package = tmp_path / "subtasks"
    shutil.copytree(SAMPLES / "subtasks", package)
    (package / "data/secret/1-small/test_group.yaml").write_text(f"max_score: {max_score}\n")
    target = tmp_path / "subtasks.zip"
    assert main([str(package), "--format", "legacy", "-o", str(target), "--force"]) in (0, 1)
    out = "".join(capsys.readouterr())
    assert "internal error" not in out
    if said is not None:
        assert f"1-small/test_group.yaml: warning: {said}" in out
    with zipfile.ZipFile(target) as bundle:
        group = bundle.read("subtasks/data/secret/1-small/testdata.yaml").decode()
    assert bound in group


def test_time_multipliers_that_are_no_map_become_the_defaults(tmp_path: Path,
                                                              capsys: Capture) -> None:  # fmt: skip
    # (an internal error: multipliers.get on a string)
    import shutil

    package = tmp_path / "gensum"
    shutil.copytree(SAMPLES / "gensum", package)
    with (package / "problem.yaml").open("a") as handle:
        handle.write("limits:\n  time_multipliers: fast\n")
    target = tmp_path / "gensum.zip"
    assert main([str(package), "--format", "legacy", "-o", str(target)]) in (0, 1)
    assert "internal error" not in "".join(capsys.readouterr())
    with zipfile.ZipFile(target) as bundle:
        config = bundle.read("gensum/problem.yaml").decode()
    assert "time_multiplier: 2.0" in config and "time_safety_margin: 1.5" in config
