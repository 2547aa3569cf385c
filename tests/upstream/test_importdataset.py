"""importdataset end to end: real rows in the sources' layouts, references run in the
sandbox, the card's steps counted in its order, the files round-tripping, packages that
verify, and a run killed mid-way finished by running it again."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from helpers.upstream_rows import (
    DIFF,
    OWN_CHECKER,
    SUM,
    SUM_PY2,
    WRONG_CPP,
    ccplus_row,
    codeforces_row,
    deepcoder_row,
    statement,
    submission_row,
    sum_tests,
    taco_row,
    write_jsonl,
    write_parquet,
)

from problemtools_py.cli import (
    auditdata,
    importdataset,
    kattis2parquet,
    parquet2kattis,
    verifyproblem,
)

BIN = Path(sys.executable).parent
SLOW = "for _ in range(4_000_000):\n    pass\n" + SUM
SEVERAL = " If there are multiple answers, print any of them."


def mixed_rows() -> list[dict[str, Any]]:
    """16 rows: 3 curated, and each drop reason a known number of times."""
    rows = [
        taco_row(statement("k1"), [SUM_PY2, SUM], sum_tests()),  # curated
        {"question": "Q", "input_output": "{"},  # unreadable
        taco_row(statement("call"), ["def f(a):\n    return a\n"], [([1], [1])], fn_name="f"),
        taco_row(statement("s1", extra=SEVERAL), [SUM], sum_tests()),  # several answers
        taco_row(statement("k2"), [SUM], sum_tests(7)),  # curated
        taco_row(statement("s2", extra=" Print any valid one."), [SUM], sum_tests()),
        taco_row(statement("c1"), [SUM], [("1 2\n", "4\n"), *sum_tests()]),  # contradicts
        taco_row(statement("lcb"), [SUM], sum_tests()),  # in the LiveCodeBench file
        taco_row(statement("k1").upper(), [SUM], sum_tests()),  # exact duplicate of k1
        # a near duplicate of k2
        taco_row(statement("k2").replace("Print their sum", "Output the sum"), [SUM], sum_tests()),
        taco_row(statement("p2"), [SUM_PY2], sum_tests()),  # no passing Python 3 reference
        taco_row(statement("wrong"), [DIFF], sum_tests()),  # ... nor here
        taco_row(statement("slow"), [SLOW], sum_tests(5)),  # reference too slow
        taco_row(statement("dis"), [SUM, DIFF], sum_tests()),  # references disagree
        taco_row(statement("few"), [SUM], sum_tests(3)),  # too few tests
        taco_row(statement("k3"), [SUM, "# another\n" + SUM], sum_tests(), time_limit="3 s"),
    ]
    return rows


EXPECTED = [
    ("loaded", 16), ("dropped: unreadable upstream row", 1),
    ("dropped: not selected (the card's choice of the source's rows)", 0),
    ("dropped: upstream tests not validated", 0),
    ("dropped: call-based tests (the card's rows are stdin/stdout)", 1),
    ("dropped: statement allows several answers", 2),
    ("dropped: tests contradict a statement example", 1),
    ("dropped: overlaps LiveCodeBench", 1), ("dropped: duplicate", 2),
    ("problems after dedup", 8), ("dropped: no passing Python 3 reference", 2),
    ("dropped: figure in statement, no reference", 0),
    ("dropped: reference too slow", 1), ("dropped: references disagree", 1),
    ("dropped: too few tests", 1), ("curated", 3),
]  # fmt: skip


def run(*argv: str) -> int:
    return importdataset.main([*argv, "-q"])


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("import")
    rows = write_jsonl(root / "taco.jsonl", mixed_rows())
    lcb = write_jsonl(root / "lcb.jsonl", [{"question_id": "q1",
                                            "question_content": statement("lcb")}])  # fmt: skip
    assert run("taco", str(rows), "-o", str(root / "out"), "--packages", str(root / "pk"),
               "--livecodebench", str(lcb), "--max-reference-seconds", "0.03",
               "-j", "2") == 0  # fmt: skip
    return root


def test_each_step_counted_in_the_cards_order(imported: Path) -> None:
    report = json.loads((imported / "out" / "build_report.json").read_text())
    assert [(s["step"], s["count"]) for s in report["build"]] == EXPECTED
    assert report["build"][-1]["by_source"] == {"taco": 3}
    drops = [json.loads(line) for line in (imported / "out" / "drops.jsonl").read_text().splitlines()]
    assert [d["row"] for d in drops][:3] == ["taco.jsonl:line 2", "taco.jsonl:line 3",
                                              "taco.jsonl:line 4"]  # (input order)  # fmt: skip
    python2 = next(d for d in drops if d["row"] == "taco.jsonl:line 11")
    assert "1 Python 2" in python2["detail"]


def test_the_rows_follow_the_card(imported: Path) -> None:
    rows = pq.read_table(imported / "out" / "problems-train.parquet").to_pylist()
    assert [r["problem_id"] for r in rows] == sorted(r["problem_id"] for r in rows)
    by_name = {json.loads(r["origin_json"])["row"]: r for r in rows}
    assert set(by_name) == {"taco.jsonl:line 1", "taco.jsonl:line 5", "taco.jsonl:line 16"}
    k3 = json.loads(by_name["taco.jsonl:line 16"]["origin_json"])
    assert k3["upstream_time_limit_s"] == 3.0 and k3["reference_kind"] == "python_reference"
    assert by_name["taco.jsonl:line 16"]["time_limit_s"] == 10.0  # (4 x 3 s, at most 10)
    assert by_name["taco.jsonl:line 1"]["time_limit_s"] == 4.0
    refs = pq.read_table(imported / "out" / "references.parquet").to_pylist()
    assert {r["code"] for r in refs} <= {SUM, "# another\n" + SUM}


def test_the_packages_verify_and_convert_back(imported: Path, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    packages = sorted((imported / "pk").iterdir())
    assert len(packages) == 3
    assert any((p / "submissions/accepted/reference_2.py").is_file() for p in packages)
    assert all((p / "data/sample/example-1.in").read_text() == "1 2\n" for p in packages)
    assert verifyproblem.main([str(p) for p in packages] + ["-q"]) == 0
    capsys.readouterr()
    assert auditdata.main([str(packages[0]), "--mutants", "3", "--json", "-q"]) in (0, 1)
    audit = json.loads(capsys.readouterr().out)["problems"][0]
    assert audit["reference"] == "submissions/accepted/reference.py"
    assert any(p["kind"] == "mutant" and p["rejected_by"] for p in audit["programs"])
    assert kattis2parquet.main([*map(str, packages), "-o", str(tmp_path / "back"), "-q"]) == 0
    assert parquet2kattis.main([str(imported / "out"), str(tmp_path / "pk2")]) == 0
    again = sorted((tmp_path / "pk2").iterdir())
    assert kattis2parquet.main([*map(str, again), "-o", str(tmp_path / "back2"), "-q"]) == 0
    for name in ("problems-train.parquet", "references.parquet"):
        made = (imported / "out" / name).read_bytes()
        assert (tmp_path / "back" / name).read_bytes() == made
        assert (tmp_path / "back2" / name).read_bytes() == made


def test_on_a_local_ray_cluster_the_files_are_a_local_runs(imported: Path) -> None:
    assert run("taco", str(imported / "taco.jsonl"), "-o", str(imported / "out-ray"),
               "--livecodebench", str(imported / "lcb.jsonl"), "--max-reference-seconds",
               "0.03", "--ray", "local") == 0  # fmt: skip
    for name in ("problems-train.parquet", "references.parquet", "build_report.json",
                 "drops.jsonl"):  # fmt: skip
        assert (imported / "out-ray" / name).read_bytes() == (imported / "out" / name).read_bytes()


def test_deepcoder_rows_import(tmp_path: Path) -> None:
    tests = [{"type": "stdin_stdout", "input": i, "output": o} for i, o in sum_tests()]
    rows = [deepcoder_row(statement("pi1"), [SUM], tests),
            deepcoder_row(statement("pi2"), [SUM_PY2], tests)]  # fmt: skip
    source = write_parquet(tmp_path / "train-00000.parquet", rows)
    assert run("deepcoder-primeintellect", str(source), "-o", str(tmp_path / "out")) == 0
    report = json.loads((tmp_path / "out" / "build_report.json").read_text())
    assert report["build"][-1] == {"step": "curated", "count": 1,
                                   "by_source": {"primeintellect": 1}}  # fmt: skip


def test_codeforces_rows_with_references_and_upstream_tests_only(tmp_path: Path) -> None:
    rows = write_parquet(tmp_path / "train.parquet", [
        codeforces_row("100/A", "a", sum_tests()),  # a Python 3 reference passes
        codeforces_row("100/B", "b", sum_tests()),  # none: upstream tests only
        codeforces_row("100/C", "c", sum_tests()),  # a wrong one: dropped
        codeforces_row("100/D", "d", sum_tests(), rating=3000),  # (not selected)
        codeforces_row("100/E", "e", sum_tests(), note="As the picture shows: <image>")])  # fmt: skip
    subs = write_parquet(tmp_path / "accepted.parquet", [
        submission_row("100/A", SUM), submission_row("100/C", DIFF)])  # fmt: skip
    assert run("codeforces", str(rows), "--submissions", str(subs), "--allow-no-reference",
               "-o", str(tmp_path / "out")) == 0  # fmt: skip
    report = json.loads((tmp_path / "out" / "build_report.json").read_text())
    counts = {s["step"]: s["count"] for s in report["build"]}
    assert counts["dropped: not selected (the card's choice of the source's rows)"] == 1
    assert counts["dropped: no passing Python 3 reference"] == 1 and counts["curated"] == 2
    assert counts["dropped: figure in statement, no reference"] == 1  # (100/E: tests alone)
    rows_out = pq.read_table(tmp_path / "out" / "problems-train.parquet").to_pylist()
    kinds = {json.loads(r["origin_json"])["id"]: json.loads(r["origin_json"])["reference_kind"]
             for r in rows_out}  # fmt: skip
    assert kinds == {"100/A": "python_reference", "100/B": "upstream_tests_only"}
    origin = json.loads(rows_out[0]["origin_json"])
    assert origin["contest_date"] == "2023-04-01" and origin["rating"] == 1500
    assert origin["upstream_time_limit_s"] == 1.0


def test_python2_references_converted_with_2to3(tmp_path: Path) -> None:
    rows = write_jsonl(tmp_path / "taco.jsonl", [
        taco_row(statement("py2"), [SUM_PY2], sum_tests()),
        taco_row(statement("py3"), [SUM_PY2, SUM], sum_tests())])  # fmt: skip
    assert run("taco", str(rows), "--convert-python2", "-o", str(tmp_path / "out")) == 0
    rows_out = pq.read_table(tmp_path / "out" / "problems-train.parquet").to_pylist()
    kinds = sorted(json.loads(r["origin_json"])["reference_kind"] for r in rows_out)
    assert kinds == ["py2to3", "python_reference"]
    refs = {r["code"] for r in pq.read_table(tmp_path / "out" / "references.parquet").to_pylist()}
    assert refs == {SUM, "a, b = list(map(int, input().split()))\nprint(a + b)\n"}


def test_rows_appended_never_move_an_earlier_row(tmp_path: Path) -> None:
    first = write_jsonl(tmp_path / "v1.jsonl", [
        taco_row(statement(f"v1-{i}"), [SUM], sum_tests()) for i in range(6)])  # fmt: skip
    assert run("taco", str(first), "-o", str(tmp_path / "v1"), "-j", "2") == 0
    later = write_jsonl(tmp_path / "v11.jsonl", [
        *(taco_row(statement(f"v11-{i}"), [SUM], sum_tests()) for i in range(5)),
        taco_row(statement("v1-3"), [SUM], sum_tests())])  # (a v1 problem again)  # fmt: skip
    assert run("taco", str(later), "--append-to", str(tmp_path / "v1"),
               "-o", str(tmp_path / "v11"), "-j", "2") == 0  # fmt: skip
    old = pq.read_table(tmp_path / "v1" / "problems-train.parquet").to_pylist()
    new = pq.read_table(tmp_path / "v11" / "problems-train.parquet").to_pylist()
    assert new[: len(old)] == old and len(new) == len(old) + 5
    appended = [r["problem_id"] for r in new[len(old):]]
    assert appended == sorted(appended) and min(appended) < max(r["problem_id"] for r in old)
    refs = pq.read_table(tmp_path / "v11" / "references.parquet").to_pylist()
    assert [r["problem_id"] for r in refs] == [r["problem_id"] for r in new]
    report = json.loads((tmp_path / "v11" / "build_report.json").read_text())
    assert report["rows"] == {"train": 11} and report["appended"][0]["rows"] == 5
    steps = {s["step"]: s["count"] for s in report["appended"][0]["build"]}
    assert steps["dropped: duplicate"] == 1
    from problemtools_py.dataset.reader import Dataset

    dataset = Dataset(tmp_path / "v11")
    assert all(dataset.problem("train", r["problem_id"]) is not None for r in new)
    assert parquet2kattis.main([str(tmp_path / "v11"), str(tmp_path / "pk")]) == 0
    packages = sorted(map(str, (tmp_path / "pk").iterdir()))
    assert kattis2parquet.main([*packages, "-o", str(tmp_path / "back"), "-q"]) == 0
    for name in ("problems-train.parquet", "references.parquet"):
        assert (tmp_path / "back" / name).read_bytes() == (tmp_path / "v11" / name).read_bytes()


def test_code_contests_plus_rows_with_their_checkers_and_wrong_programs(tmp_path: Path) -> None:
    crash = "import sys\nsys.exit(3)\n"
    rows = write_parquet(tmp_path / "train.parquet", [
        ccplus_row("cc1", sum_tests(), [("PY3", SUM)], (("CPP", WRONG_CPP), ("PY3", crash))),
        ccplus_row("cc2", sum_tests(), [("PY3", SUM)], checker=OWN_CHECKER),
        ccplus_row("cc3", sum_tests(), [("PY3", SUM)], true_negative_rate=0.4)])  # fmt: skip
    assert run("code-contests-plus", str(rows), "-o", str(tmp_path / "out"),
               "--packages", str(tmp_path / "pk")) == 0  # fmt: skip
    report = json.loads((tmp_path / "out" / "build_report.json").read_text())
    counts = {s["step"]: s["count"] for s in report["build"]}
    assert counts["dropped: upstream tests not validated"] == 1
    assert counts["dropped: statement allows several answers"] == 1 and counts["curated"] == 1
    drops = (tmp_path / "out" / "drops.jsonl").read_text()
    assert "its checker is no stock one the comparator reproduces" in drops
    (package,) = (tmp_path / "pk").iterdir()
    assert (package / "submissions/wrong_answer/wrong_1.cpp").read_text() == WRONG_CPP
    assert (package / "submissions/run_time_error/wrong_2.py").read_text() == crash
    assert verifyproblem.main([str(package), "-q"]) == 0


def slow_rows(count: int) -> list[dict[str, Any]]:
    busy = "for _ in range(1_500_000):\n    pass\n" + SUM
    return [taco_row(statement(f"r{i}"), [busy], sum_tests(5)) for i in range(count)]


def test_killed_and_run_again_it_ends_as_an_uninterrupted_run(tmp_path: Path) -> None:
    rows = slow_rows(8)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    whole = write_jsonl(tmp_path / "a" / "rows.jsonl", rows)
    cut = write_jsonl(tmp_path / "b" / "rows.jsonl", rows)
    assert run("taco", str(whole), "-o", str(tmp_path / "a" / "out"), "-j", "1") == 0
    argv = [str(BIN / "importdataset"), "taco", str(cut), "-o", str(tmp_path / "b" / "out"),
            "-j", "1", "-q"]  # fmt: skip
    journal = tmp_path / "b" / ".out.importing" / "journal.jsonl"
    process = subprocess.Popen(argv, start_new_session=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None:
        if journal.exists() and journal.read_text().count("\n") >= 2:
            break
        time.sleep(0.01)
    assert process.poll() is None, "the import ended before it could be killed"
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    assert not (tmp_path / "b" / "out").exists()
    done = journal.read_text().count("\n")
    assert 2 <= done < 8
    assert run("taco", str(cut), "-o", str(tmp_path / "b" / "out"), "-j", "1") == 0
    assert not journal.parent.exists()
    for name in ("problems-train.parquet", "references.parquet", "build_report.json",
                 "drops.jsonl"):  # fmt: skip
        assert (tmp_path / "b" / "out" / name).read_bytes() == (
            tmp_path / "a" / "out" / name
        ).read_bytes(), name


def test_another_import_never_takes_over_an_unfinished_one(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    rows = write_jsonl(tmp_path / "rows.jsonl", slow_rows(1))
    (tmp_path / ".out.importing").mkdir()
    (tmp_path / ".out.importing" / "run.json").write_text('{"source": "other"}\n')
    assert run("taco", str(rows), "-o", str(tmp_path / "out")) == 2
    assert "an unfinished import with other sources or options" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["taco", "missing.jsonl"], "missing.jsonl: no such file"),
        (["nosuch", "rows.jsonl"], "invalid choice"),
    ],
)
def test_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str],
                      said: str) -> None:  # fmt: skip
    write_jsonl(tmp_path / "rows.jsonl", [])
    argv = [str(tmp_path / a) if a.endswith(".jsonl") else a for a in argv]
    assert run(*argv, "-o", str(tmp_path / "out")) in (1, 2)
    assert said in capsys.readouterr().err


def test_an_input_validator_from_the_statements_bounds(tmp_path: Path) -> None:
    bounded = statement("bnd", extra=" Here $0 \\le a, b \\le 1000$.")
    rows = write_jsonl(tmp_path / "taco.jsonl", [taco_row(bounded, [SUM], sum_tests())])
    assert run("taco", str(rows), "-o", str(tmp_path / "out"), "--packages",
               str(tmp_path / "pk")) == 0  # fmt: skip
    (package,) = (tmp_path / "pk").iterdir()
    validator = package / "input_validators" / "bounds" / "validate.py"
    assert not (package / "input_validators" / "known_inputs").exists()
    verdicts = {}
    for name, stdin in [("test", "1 4\n"), ("unseen", "7 900\n"), ("over", "1 1001\n"),
                        ("negative", "-1 3\n"), ("spaces", "1  4\n"), ("one", "5\n"),
                        ("no newline", "1 4"), ("binary", "\xff")]:  # fmt: skip
        done = subprocess.run([sys.executable, str(validator)], input=stdin.encode("latin-1"),
                              capture_output=True, check=False)  # fmt: skip
        verdicts[name] = done.returncode
    assert verdicts == {"test": 42, "unseen": 42, "over": 43, "negative": 43, "spaces": 43,
                        "one": 43, "no newline": 43, "binary": 43}  # fmt: skip
    assert verifyproblem.main([str(package), "-q"]) == 0


def lcb_row(seed: str, tests: list[tuple[str, str]]) -> dict[str, Any]:
    """A LiveCodeBench row: public tests as JSON, private ones packed as it ships them."""
    import base64
    import pickle
    import zlib

    records = [{"input": i, "output": o, "testtype": "stdin"} for i, o in tests]
    packed = base64.b64encode(zlib.compress(pickle.dumps(json.dumps(records[2:])))).decode()
    return {"question_title": seed, "question_content": statement(seed), "platform": "atcoder",
            "question_id": seed, "contest_id": "abc1", "contest_date": "2024-01-01T00:00:00",
            "starter_code": "", "difficulty": "easy",
            "public_test_cases": json.dumps(records[:2]), "private_test_cases": packed,
            "metadata": "{}"}  # fmt: skip


@pytest.mark.parametrize("source", ["taco", "deepcoder-taco", "deepcoder-primeintellect",
                                    "primeintellect", "livecodebench", "codeforces",
                                    "code-contests-plus"])  # fmt: skip
def test_every_source_imports_into_packages_that_verify(source: str, tmp_path: Path) -> None:
    tests = sum_tests()
    extra: list[str] = []
    if source == "taco":  # (inputs and outputs as lists of lines, as APPS writes them)
        rows = [taco_row(statement("t"), [SUM], [(i.split("\n")[:1], [o.strip()]) for i, o in tests])]
    elif source == "deepcoder-taco":
        rows = [deepcoder_row(statement("dt"), [SUM], {"inputs": [i for i, _ in tests],
                                                      "outputs": [o for _, o in tests]})]  # fmt: skip
    elif source == "deepcoder-primeintellect":
        rows = [deepcoder_row(statement("dp"), [SUM], [{"type": "stdin_stdout", "input": i,
                                                        "output": o} for i, o in tests])]  # fmt: skip
    elif source == "primeintellect":  # (verification_info an object, as open-r1's copy has it)
        rows = [{"prompt": "Solve the following coding problem using the programming language "
                 f"python:\n\n{statement('pi')}", "gold_standard_solution": SUM,
                 "verification_info": {"language": "python", "test_cases": [
                     {"type": "stdin_stdout", "input": i, "output": o} for i, o in tests]},
                 "metadata": {"time_limit": "1 second"}, "problem_id": "vfc_1"}]  # fmt: skip
    elif source == "livecodebench":
        rows, extra = [lcb_row("lcb1", tests)], ["--allow-no-reference"]
    elif source == "codeforces":
        (tmp_path / "gen").mkdir()
        write_parquet(tmp_path / "gen" / "test_cases_7.parquet", [
            {"problem_id": "7/A", "test_case_i": k, "input": i, "output": o}
            for k, (i, o) in enumerate(tests[3:])])  # fmt: skip
        subs = write_parquet(tmp_path / "subs.parquet", [submission_row("7/A", SUM)])
        wrong = write_parquet(tmp_path / "wrong.parquet", [
            submission_row("7/A", WRONG_CPP, "GNU C++17", "WRONG_ANSWER")])  # fmt: skip
        rows = [codeforces_row("7/A", "cf", tests[:3])]
        extra = ["--submissions", str(subs), "--incorrect", str(wrong),
                 "--generated-tests", str(tmp_path / "gen")]  # fmt: skip
    else:
        rows = [ccplus_row("cc", tests, [("PY3", SUM)], (("CPP", WRONG_CPP),))]
    source_file = write_parquet(tmp_path / "rows.parquet", rows)
    assert run(source, str(source_file), *extra, "-o", str(tmp_path / "out"),
               "--packages", str(tmp_path / "pk")) == 0  # fmt: skip
    report = json.loads((tmp_path / "out" / "build_report.json").read_text())
    assert report["build"][-1]["count"] == 1, report["build"]
    (package,) = (tmp_path / "pk").iterdir()
    if source in ("codeforces", "code-contests-plus"):  # (their known-wrong programs)
        assert (package / "submissions/wrong_answer/wrong_1.cpp").read_text() == WRONG_CPP
    assert verifyproblem.main([str(package), "-q"]) == 0
    assert parquet2kattis.main([str(tmp_path / "out"), str(tmp_path / "back-pk")]) == 0
    back = [str(p) for p in (tmp_path / "back-pk").iterdir()]
    assert kattis2parquet.main([*back, "-o", str(tmp_path / "back"), "-q"]) == 0
    for name in ("problems-train.parquet", "references.parquet"):
        assert (tmp_path / "back" / name).read_bytes() == (tmp_path / "out" / name).read_bytes()


def test_files_of_one_name_keep_their_rows_apart(tmp_path: Path) -> None:
    tests = [{"type": "stdin_stdout", "input": i, "output": o} for i, o in sum_tests()]
    for config in ("taco", "primeintellect"):
        (tmp_path / config).mkdir()
        write_parquet(tmp_path / config / "train-00000-of-00001.parquet",
                      [deepcoder_row(statement(f"same-{config}"), [SUM], tests)])  # fmt: skip
    files = [str(tmp_path / c / "train-00000-of-00001.parquet") for c in ("taco", "primeintellect")]
    assert run("deepcoder-primeintellect", *files, "-o", str(tmp_path / "out")) == 0
    rows = pq.read_table(tmp_path / "out" / "problems-train.parquet").to_pylist()
    assert sorted(json.loads(r["origin_json"])["row"] for r in rows) == [f"{f}:0" for f in sorted(files)]


def test_a_source_changed_since_the_kill_is_another_import(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    rows = write_jsonl(tmp_path / "rows.jsonl", slow_rows(1))
    from problemtools_py.upstream.importer import ImportOptions
    from problemtools_py.upstream.journal import Journal

    Journal(tmp_path / "kept", ImportOptions("taco").run_key([rows])).close()  # (killed)
    assert run("taco", str(rows), "-o", str(tmp_path / "kept")) == 0  # (the same: resumed)
    Journal(tmp_path / "out", ImportOptions("taco").run_key([rows])).close()  # (killed)
    time.sleep(0.01)
    write_jsonl(rows, slow_rows(2))
    assert run("taco", str(rows), "-o", str(tmp_path / "out")) == 2
    assert "an unfinished import with other sources or options" in capsys.readouterr().err


def test_a_checker_of_its_own_kept_as_the_rows_judge(tmp_path: Path) -> None:
    from helpers.upstream_rows import WITHIN_ONE

    off_by_one = "a, b = map(int, input().split())\nprint(a + b + 1)\n"
    off_by_two = "a, b = map(int, input().split())\nprint(a + b + 2)\n"
    rows = write_parquet(tmp_path / "train.parquet", [
        ccplus_row("own", sum_tests(), [("PY3", off_by_one)],
                   (("PY3", off_by_two), ("PY3", SUM)), checker=WITHIN_ONE)])  # fmt: skip
    assert run("code-contests-plus", str(rows), "--keep-judges", "-o", str(tmp_path / "out"),
               "--packages", str(tmp_path / "pk")) == 0  # fmt: skip
    judged = pq.read_table(tmp_path / "out" / "judged-train.parquet").to_pylist()
    plain = pq.read_table(tmp_path / "out" / "problems-train.parquet").to_pylist()
    assert len(judged) == 1 and plain == []  # (the card's file holds no such row)
    assert json.loads(judged[0]["judge_json"])["kind"] == "custom"
    refs = pq.read_table(tmp_path / "out" / "references.parquet").to_pylist()
    assert [r["code"] for r in refs] == [off_by_one]  # (right by its checker, not by tokens)
    (package,) = (tmp_path / "pk").iterdir()
    assert (package / "output_validator" / "checker.h").read_text() == WITHIN_ONE
    assert (package / "submissions/wrong_answer/wrong_1.py").read_text() == off_by_two
    assert not (package / "submissions/wrong_answer/wrong_2.py").exists()  # (SUM passes)
    assert verifyproblem.main([str(package), "-q"]) == 0
    without = tmp_path / "without"
    assert run("code-contests-plus", str(rows), "-o", str(without)) == 0
    assert json.loads((without / "build_report.json").read_text())["build"][-1]["count"] == 0


def test_a_file_of_another_sources_layout_stops_at_once(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    rows = write_parquet(tmp_path / "taco.parquet", [taco_row(statement("x"), [SUM], sum_tests())])
    assert run("deepcoder-taco", str(rows), "-o", str(tmp_path / "out")) == 2
    said = capsys.readouterr().err
    assert "taco.parquet: not in deepcoder-taco's layout: its rows have no 'problem'" in said
    assert "input_output" in said and "is it another SOURCE?" in said
    assert not (tmp_path / ".out.importing").exists() and not (tmp_path / "out").exists()
    assert run("taco", str(rows), "-o", str(tmp_path / "out")) == 0  # (nothing left behind)


def test_a_row_on_its_tests_alone_keeps_its_own_checker(tmp_path: Path) -> None:
    from helpers.upstream_rows import WITHIN_ONE

    rows = write_parquet(tmp_path / "train.parquet", [
        ccplus_row("alone", sum_tests(), [], checker=WITHIN_ONE)])  # fmt: skip
    assert run("code-contests-plus", str(rows), "--keep-judges", "--allow-no-reference",
               "-o", str(tmp_path / "out")) == 0  # fmt: skip
    judged = pq.read_table(tmp_path / "out" / "judged-train.parquet").to_pylist()
    assert len(judged) == 1 and json.loads(judged[0]["judge_json"])["kind"] == "custom"
    assert json.loads(judged[0]["origin_json"])["reference_kind"] == "upstream_tests_only"
    assert pq.read_table(tmp_path / "out" / "problems-train.parquet").num_rows == 0


def test_a_missing_input_stops_before_a_journal_is_made(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    rows = write_jsonl(tmp_path / "rows.jsonl", [taco_row(statement("m"), [SUM], sum_tests())])
    missing = tmp_path / "no-such-dataset"
    assert run("taco", str(rows), "--dedup-against", str(missing), "-o",
               str(tmp_path / "out")) == 2  # fmt: skip
    assert f"{missing}: no such file or dataset" in capsys.readouterr().err
    assert not (tmp_path / ".out.importing").exists()
    assert run("taco", str(rows), "-o", str(tmp_path / "out")) == 0
