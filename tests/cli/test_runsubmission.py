"""runsubmission end to end on the bundled samples: one program on chosen targets, each
judged as verifyproblem judges it, shown with its output and where it differs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from problemtools_py.cli.runsubmission import main

SAMPLES = Path(__file__).resolve().parents[2] / "sample_problems"
Capture = pytest.CaptureFixture[str]


def _json(capsys: Capture, *argv: str) -> tuple[int, dict[str, object]]:
    code = main([*argv, "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_a_wrong_answer_shows_where_it_differs(capsys: Capture) -> None:
    divisor = SAMPLES / "divisor"
    assert main([str(divisor), str(divisor / "submissions/wrong_answer/one.py")]) == 1
    out = capsys.readouterr().out
    assert "sample/1: WA" in out and "judge: 1 is not a proper divisor of 12" in out
    assert "first difference: line 1, column 1\n    answer: 2\n    output: 1" in out


def test_cases_groups_and_json(capsys: Capture) -> None:
    hello = SAMPLES / "hello"
    code, found = _json(capsys, str(hello), str(hello / "submissions/accepted/hello.py"),
                        "secret", "sample/1")  # fmt: skip
    runs = found["runs"]
    assert code == 0 and isinstance(runs, list)
    assert [r["target"] for r in runs][-1] == "sample/1" and len(runs) >= 3
    assert all(r["verdict"] == "AC" and r["ended"] == "exit code 0" for r in runs)
    assert runs[-1]["stdout"].startswith("Hello ")


def test_a_file_with_an_answer_beside_it_is_judged(tmp_path: Path, capsys: Capture) -> None:
    hello = SAMPLES / "hello"
    (tmp_path / "x.in").write_text("Ada\n")
    (tmp_path / "x.ans").write_text("Hello Bob!\n")
    code, found = _json(capsys, str(hello), str(hello / "submissions/accepted/hello.py"),
                        str(tmp_path / "x.in"))  # fmt: skip
    runs = found["runs"]
    assert code == 1 and isinstance(runs, list) and runs[0]["verdict"] == "WA"


def test_standard_input_is_run_not_judged() -> None:
    tool = Path(sys.executable).parent / "runsubmission"
    hello = SAMPLES / "hello"
    done = subprocess.run([str(tool), str(hello), str(hello / "submissions/accepted/hello.py"),
                           "-"], input="World\n", capture_output=True, text=True, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "stdin: ran" in done.stdout and "| Hello World!" in done.stdout


def test_an_interactive_run_has_no_answer_to_compare(capsys: Capture) -> None:
    guess = SAMPLES / "guess"
    assert main([str(guess), str(guess / "submissions/wrong_answer/linear.py"), "secret/2"]) == 1
    out = capsys.readouterr().out
    assert "secret/2: WA" in out and "judge: not found in 10 guesses" in out
    assert "difference" not in out and "the answer has" not in out


def test_unified_diff_and_passes(capsys: Capture) -> None:
    average = SAMPLES / "average"
    assert main([str(average), str(average / "submissions/rounded.py"), "--diff"]) == 1
    out = capsys.readouterr().out
    assert "--- answer\n  +++ output" in out and "  +2.33" in out
    twopass = SAMPLES / "twopass"
    assert main([str(twopass), str(twopass / "submissions/accepted/twopass.py")]) == 0
    assert "passes 2" in capsys.readouterr().out


def test_what_cannot_run_says_why(tmp_path: Path, capsys: Capture) -> None:
    hello = SAMPLES / "hello"
    bad = tmp_path / "bad.cpp"
    bad.write_text("int main( {\n")
    assert main([str(hello), str(bad)]) == 1
    assert "compile error" in capsys.readouterr().err
    assert main([str(hello), str(hello / "submissions/accepted/hello.py"), "nosuch"]) == 2
    assert "'nosuch' is no test case of the package" in capsys.readouterr().err
    assert main([str(hello), str(tmp_path / "missing.py")]) == 2


def test_the_interaction_is_shown_in_order(capsys: Capture) -> None:
    guess = SAMPLES / "guess"
    assert main([str(guess), str(guess / "submissions/accepted/binary.py"), "sample/1",
                 "--interaction"]) == 0  # fmt: skip
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "sample/1: AC" and out[1] == "  >500" and out[-2] == "  <correct"
    twopass = SAMPLES / "twopass"
    code, found = _json(capsys, str(twopass), str(twopass / "submissions/wrong_answer/onepass.py"),
                        "--interaction")  # fmt: skip
    runs = found["runs"]
    assert code == 1 and isinstance(runs, list)
    assert runs[0]["interaction"] == "<1 3\n>9\n---\n<2 9\n>81\n"
    hello = SAMPLES / "hello"
    assert main([str(hello), str(hello / "submissions/accepted/hello.py"), "--interaction"]) == 2


def test_paths_as_authors_type_them_from_the_package(capsys: Capture, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """`runsubmission DIR submissions/accepted/x.py data/secret/01.in`, typed from anywhere:
    a path that is not one from the current directory is read from the package's."""
    monkeypatch.chdir(tmp_path)
    hello = SAMPLES / "hello"
    code, found = _json(capsys, str(hello), "submissions/accepted/hello.py", "data/secret/01.in")
    runs = found["runs"]
    assert code == 0 and isinstance(runs, list) and [r["verdict"] for r in runs] == ["AC"]
    assert main([str(hello), "submissions/accepted/nothere.py"]) == 2
    assert "nothere.py: no such file or directory here, nor in" in capsys.readouterr().err
