"""kattis2parquet: the round trip through parquet2kattis is the identity (both formats,
byte for byte), real packages become rows or are dropped with their reason, and a failed
conversion leaves nothing behind."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from helpers.dataset_gen import write_dataset
from helpers.packages import SAMPLES

from problemtools_py.cli.kattis2parquet import main
from problemtools_py.cli.parquet2kattis import main as export
from problemtools_py.dataset import Dataset, problem_id

Capture = pytest.CaptureFixture[str]
FILES = ("problems-train.parquet", "problems-eval.parquet", "references.parquet")


@pytest.mark.parametrize("fmt", ["2023-07", "legacy"])
def test_round_trip_is_the_identity(tmp_path: Path, fmt: str) -> None:
    original = tmp_path / "ds"
    write_dataset(original, count=8)
    assert export([str(original), str(tmp_path / "pk"), "--format", fmt, "-q"]) == 0
    packages = sorted(str(p) for p in (tmp_path / "pk").iterdir())
    assert main([*packages, "-o", str(tmp_path / "back"), "-q"]) == 0
    for name in FILES:
        before, after = pq.read_table(original / name), pq.read_table(tmp_path / "back" / name)
        assert before.equals(after), name
        assert (original / name).read_bytes() == (tmp_path / "back" / name).read_bytes()
    report = json.loads((tmp_path / "back" / "build_report.json").read_text())
    assert report["problem_id_rule"] == "v1" and report["dropped"] == {}
    assert set(report["sha256"]) == set(FILES)


def test_sample_packages_become_rows_or_drops(tmp_path: Path) -> None:
    packages = sorted(str(p) for p in SAMPLES.iterdir() if (p / "problem.yaml").is_file())
    out = tmp_path / "built"
    assert main([*packages, "-o", str(out), "-q", "--split", "eval"]) == 0
    report = json.loads((out / "build_report.json").read_text())
    assert report["rows"] == {"eval": 4}
    assert report["dropped"] == {
        "custom output validator (several valid answers)": 1,
        "interactive problem (a validator talks to the program)": 2,
        "multi-pass problem (the validator runs the program again)": 1,
        "too few tests": 1,
        "validator flags the comparator cannot reproduce": 1,
    }
    drops = [json.loads(line) for line in (out / "drops.jsonl").read_text().splitlines()]
    assert {Path(d["package"]).name for d in drops} == {"average", "different", "divisor",
                                                      "guess", "hilo", "twopass"}
    data = Dataset(out)
    hello_statement = (SAMPLES / "hello/problem_statement/problem.en.tex").read_text()
    hello = data.problem("eval", problem_id(hello_statement))
    assert hello is not None and len(hello.tests) == 6
    assert hello.time_limit_s == 4.0  # 4 x the package's 1 s, within [1, 10]
    assert json.loads(hello.origin_json)["reference_kind"] == "python_reference"
    assert "print" in (data.reference(hello.problem_id) or "")
    # readable by others, as the files of every other command (the temporary names were
    # 0700 and 0600: a cluster's workers running as another user could not read them)
    modes = {p.name: p.stat().st_mode & 0o777 for p in [out, *out.iterdir()]}
    assert modes == {"built": 0o755, **{p.name: 0o644 for p in out.iterdir()}}


def test_a_failed_conversion_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: Capture) -> None:
    calls = []

    def failing(path: Path, pool: object, options: object) -> object:
        calls.append(path)
        raise KeyboardInterrupt

    from problemtools_py.dataset import build

    monkeypatch.setattr(build, "convert", failing)  # (the command imports it when it runs)
    assert main([str(SAMPLES / "hello"), "-o", str(tmp_path / "out"), "-q"]) == 130
    assert calls and list(tmp_path.iterdir()) == []


def test_two_problems_with_one_id_is_an_error(tmp_path: Path, capsys: Capture) -> None:
    import shutil

    for name in ("one", "two"):
        shutil.copytree(SAMPLES / "hello", tmp_path / name)
    (tmp_path / "two/data/secret/01.in").write_text("B\n")  # the same statement, other tests
    (tmp_path / "two/data/secret/01.ans").write_text("Hello B!\n")
    assert main([str(tmp_path / "one"), str(tmp_path / "two"), "-o", str(tmp_path / "o"), "-q"]) == 1
    assert "two problems with one id" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


def test_duplicates_and_contamination_are_dropped(tmp_path: Path) -> None:
    import shutil

    hello = SAMPLES / "hello"
    shutil.copytree(hello, tmp_path / "first")
    shutil.copytree(hello, tmp_path / "again")  # exact duplicate: same statement and tests
    shutil.copytree(hello, tmp_path / "near")
    tex = tmp_path / "near/problem_statement/problem.en.tex"
    tex.write_text(tex.read_text().replace("Politeness is a virtue.", "Politeness matters a lot."))
    packages = [str(tmp_path / n) for n in ("first", "again", "near")]
    assert main([*packages, "-o", str(tmp_path / "out"), "-q"]) == 0
    report = json.loads((tmp_path / "out/build_report.json").read_text())
    assert report["rows"] == {"train": 1}
    assert report["dropped"] == {"duplicate in the input": 2}
    statements = tmp_path / "contaminated.jsonl"
    statements.write_text(json.dumps({"statement": tex.read_text()}) + "\n")
    assert main([packages[0], "-o", str(tmp_path / "clean"), "-q",
                 "--decontaminate-against", str(statements)]) == 0
    assert json.loads((tmp_path / "clean/build_report.json").read_text())["dropped"] == {
        "contaminated": 1}
    assert main([packages[2], "-o", str(tmp_path / "dedup"), "-q",
                 "--dedup-against", str(tmp_path / "out")]) == 0
    assert json.loads((tmp_path / "dedup/build_report.json").read_text())["dropped"] == {
        "duplicate of an existing dataset": 1}


def test_output_loads_in_pyarrow_duckdb_and_datasets(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    import duckdb

    original = tmp_path / "ds"
    write_dataset(original, count=8)
    assert export([str(original), str(tmp_path / "pk"), "-q"]) == 0
    out = tmp_path / "back"
    assert main([*sorted(str(p) for p in (tmp_path / "pk").iterdir()), "-o", str(out), "-q"]) == 0
    train = out / "problems-train.parquet"
    count = pq.read_table(train).num_rows
    assert count == sum(1 for _ in Dataset(original).statements("train"))
    rows = duckdb.sql(f"SELECT problem_id, time_limit_s FROM '{train}' ORDER BY problem_id").fetchall()
    assert len(rows) == count and all(limit == 1.0 for _, limit in rows)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_CACHE", str(tmp_path / "hf-cache"))
    import datasets

    loaded = datasets.load_dataset("parquet", data_files={"train": str(train)}, split="train")
    assert loaded.num_rows == count and loaded.column_names == [
        "problem_id", "statement", "tests_json", "time_limit_s", "origin_json"]
    assert json.loads(loaded[0]["tests_json"])


def test_rows_from_the_dataset_pass_every_filter(tmp_path: Path) -> None:
    original = tmp_path / "ds"
    write_dataset(original, count=8)
    assert export([str(original), str(tmp_path / "pk"), "-q"]) == 0
    packages = sorted(str(p) for p in (tmp_path / "pk").iterdir())
    # Against itself every row is a duplicate; rows that came from the dataset still go back.
    assert main([*packages, "-o", str(tmp_path / "back"), "-q",
                 "--dedup-against", str(original)]) == 0
    report = json.loads((tmp_path / "back/build_report.json").read_text())
    assert report["dropped"] == {} and sum(report["rows"].values()) == len(packages)


@pytest.mark.slow
def test_conversion_on_a_local_ray_cluster(tmp_path: Path) -> None:
    original = tmp_path / "ds"
    write_dataset(original, count=4)
    assert export([str(original), str(tmp_path / "pk"), "-q"]) == 0
    packages = sorted(str(p) for p in (tmp_path / "pk").iterdir())
    hello = str(SAMPLES / "hello")  # this one runs its reference in a sandbox on the node
    assert main([*packages, hello, "-o", str(tmp_path / "back"), "-q", "--ray", "local"]) == 0
    report = json.loads((tmp_path / "back/build_report.json").read_text())
    assert sum(report["rows"].values()) == len(packages) + 1 and report["dropped"] == {}
    hello_id = problem_id((SAMPLES / "hello/problem_statement/problem.en.tex").read_text())
    assert Dataset(tmp_path / "back").problem("train", hello_id) is not None


def test_json_says_which_package_became_which_row_and_why_others_were_dropped(
    tmp_path: Path, capsys: Capture
) -> None:
    hello, average = str(SAMPLES / "hello"), str(SAMPLES / "average")
    out = tmp_path / "ds"
    assert main([average, hello, "-o", str(out), "--json", "-q"]) == 0
    report = json.loads(capsys.readouterr().out)
    (row,) = report["problems"]
    assert row == {"problem_id": Dataset(out).ids("train")[0], "package": hello,
                   "split": "train"}  # fmt: skip
    assert [d["package"] for d in report["drops"]] == [average]
    assert (report["out"], report["rows"]) == (str(out), {"train": 1})
    assert report["dropped"] == {report["drops"][0]["reason"]: 1}


@pytest.mark.parametrize(
    ("solution", "dropped"),
    [
        ('print(f"Hello {input().strip()}!")\nexit()\n', {}),
        ("import sys, threading\ndef main():\n    print(f'Hello {input().strip()}!')\n"
         "threading.Thread(target=main).start()\n", {}),
        ('name = raw_input()\nprint "Hello %s!" % name\n',
         {"Python 2 reference; this judge runs Python 3": 1}),
    ],
    ids=["exit", "thread", "python-2"],
)
def test_a_reference_is_run_as_python3_runs_it(
    tmp_path: Path, capsys: Capture, solution: str, dropped: dict[str, int]
) -> None:
    """A package whose accepted Python solution ends with exit() (or works in a thread
    never joined) is kept, as python3 runs it right; a Python 2 one is dropped for that,
    not as 'accepted submissions disagree'."""
    package = tmp_path / "hello"
    shutil.copytree(SAMPLES / "hello", package)
    (package / "submissions/accepted/hello.py").write_text(solution)
    assert main([str(package), "-o", str(tmp_path / "ds"), "--json", "-q"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["dropped"] == dropped
    assert len(report["problems"]) == (0 if dropped else 1)
    if dropped:
        assert report["drops"][0]["detail"] == "submissions/accepted/hello.py: a print statement"


def test_test_bytes_travel_exactly_carriage_returns_included(tmp_path: Path,
                                                            capsys: Capture) -> None:
    """Issue 60: a CR LF input became LF in the dataset; a correct program that sees the
    CR (the reference's answer was computed on the real input) scored 0.0 from it."""
    from helpers.dataset_gen import write_rows

    from problemtools_py.cli.gradecode import main as gradecode

    tests = [("5\r\n", "8\n"), ("1\r\n2\n", "4\r\n")]
    (pid,) = write_rows(tmp_path / "ds", [("Print the number plus 3 ($1 \\le n \\le 9$).",
                                          "print(int(input()) + 3)\n", tests)])  # fmt: skip
    assert export([str(tmp_path / "ds"), str(tmp_path / "pk"), "-q"]) == 0
    assert (tmp_path / "pk" / pid / "data/secret/001.in").read_bytes() == b"5\r\n"
    # (a package like any other: no sidecar with the row, the default output validator)
    (tmp_path / "pk" / pid / ".dataset.json").unlink()
    shutil.rmtree(tmp_path / "pk" / pid / "output_validator")
    argv = [str(tmp_path / "pk" / pid), "-o", str(tmp_path / "back"), "-q", "--min-tests", "1"]
    assert main(argv) == 0
    back = Dataset(tmp_path / "back").problem("train", pid)
    assert back is not None and list(back.tests) == tests
    sees_cr = "import sys\nraw = sys.stdin.read()\nprint(int(raw.split()[0]) + 3 if '\\r' in raw else 0)"
    line = {"problem_id": pid, "completion": f"```python\n{sees_cr}\n```"}
    (tmp_path / "in.jsonl").write_text(json.dumps(line) + "\n")
    capsys.readouterr()
    assert gradecode([str(tmp_path / "back"), str(tmp_path / "in.jsonl"), "-q"]) == 0
    assert json.loads(capsys.readouterr().out)["reward"] == 1.0
