"""gradecode --ray on a real three-node Ray cluster started on this machine (see
raynodes): the head and two workers of one CPU each, each worker in a mount namespace
where the dataset's and the packages' directory is hidden (only the driver's node holds
them). With no -j every node grades; the workers get the tests from the driver; a
worker whose raylet is killed mid-run has its completions graded elsewhere, each once;
rewards are a local run's."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from helpers.dataset_gen import write_rows
from helpers.raynodes import RayNodes

from problemtools_py.cli.gradecode import main as gradecode

pytest.importorskip("ray")

SPIN = ("import time\nstart = time.process_time()\nwhile time.process_time() - start < {s}:\n"
        "    pass\n")  # fmt: skip
ROWS = [(f"Print the number plus {k} ($1 \\le n \\le 100$).", f"print(int(input()) + {k})\n",
         [(f"{n}\n", f"{n + k}\n") for n in range(3)]) for k in range(4)]  # fmt: skip


SAMPLES = Path(__file__).resolve().parents[2] / "sample_problems"


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RayNodes, Path, list[str]]]:
    hidden = tmp_path_factory.mktemp("driver-only")  # (ds/ and pkgs/ only the driver sees)
    # (a roomy limit: a HOG line's page faults on a fresh VM's memory cost up to 3 s of
    # system CPU per GiB, and its verdict here is about memory, not time)
    ids = write_rows(hidden / "ds", ROWS, time_limit=4.0)
    nodes = RayNodes()
    try:
        nodes.start_head(1)
        nodes.add_worker("node_w1", 1, hidden=[hidden])
        nodes.add_worker("node_w2", 1, hidden=[hidden])
        nodes.wait_nodes(3)
        yield nodes, hidden / "ds", ids
    finally:
        nodes.stop()


HOG = "x = bytearray(600 << 20)\nfor i in range(0, len(x), 4096):\n    x[i] = 1\n"


def _completions(path: Path, ids: list[str], spin: float, count: int) -> None:
    lines = []
    for n in range(count):
        k = n % len(ids)
        right = f"print(int(input()) + {k})\n" if n % 3 else "print(0)\n"
        code = SPIN.format(s=spin) + right
        line = {"problem_id": ids[k], "completion": f"```python\n{code}```", "n": n}
        if n % 8 == 7:  # (a line's memory limit travels with it to the node: issue 58)
            line.update(completion=f"```python\n{HOG}{right}```", memory_mb=256)
        lines.append(line)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))


def _graded(path: Path) -> list[tuple[int, float, str]]:
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    return [(r["n"], r["reward"], r["status"]) for r in rows]


def _ray(nodes: RayNodes, argv: list[str], *, env: dict[str, str] | None = None,
         auto: bool = False) -> subprocess.Popen[str]:  # fmt: skip
    """gradecode --ray with the cluster's address, or ``auto`` (Ray finds it: here in
    RAY_ADDRESS, as on a node of the cluster)."""
    env = {**(env or nodes.env), **({"RAY_ADDRESS": nodes.address} if auto else {})}
    return subprocess.Popen([sys.executable, "-m", "problemtools_py.cli.gradecode", *argv,
                             "--ray", "auto" if auto else nodes.address, "-q"], env=env,
                            stderr=subprocess.PIPE, text=True)  # fmt: skip


def _graded_here(ds: Path, ids: list[str], tmp_path: Path, spin: float, count: int) -> Path:
    """The completions (in.jsonl), and their grades by a local run (local.jsonl)."""
    source = tmp_path / "in.jsonl"
    _completions(source, ids, spin, count)
    assert gradecode([str(ds), str(source), "-q", "-o", str(tmp_path / "local.jsonl")]) == 0
    return source


def test_every_node_grades_and_the_hidden_one_gets_the_tests(
    cluster: tuple[RayNodes, Path, list[str]], tmp_path: Path
) -> None:
    nodes, ds, ids = cluster
    source = _graded_here(ds, ids, tmp_path, 0.05, 96)
    run = _ray(nodes, [str(ds), str(source), "-o", str(tmp_path / "ray.jsonl")], auto=True)
    _, err = run.communicate(timeout=600)
    assert run.returncode == 0, err
    assert _graded(tmp_path / "ray.jsonl") == _graded(tmp_path / "local.jsonl")
    assert {s for n, _, s in _graded(tmp_path / "ray.jsonl") if n % 8 == 7} == {"memory"}
    said = next(line for line in err.splitlines() if "Ray nodes" in line)
    assert "graded on 3 Ray nodes" in said, err
    assert said.count("dataset here") == 1 and said.count("tests sent") == 2, said


def test_a_node_lost_mid_run_has_its_completions_graded_elsewhere(
    cluster: tuple[RayNodes, Path, list[str]], tmp_path: Path
) -> None:
    nodes, ds, ids = cluster
    source = _graded_here(ds, ids, tmp_path, 0.25, 48)
    run = _ray(nodes, [str(ds), str(source), "-o", str(tmp_path / "ray.jsonl")])
    time.sleep(8)  # (the actors up and grading: 48 x 0.25 s of CPU on 3 CPUs takes longer)
    assert run.poll() is None
    before = nodes.alive()
    os.kill(nodes.raylet_of("node_w1"), signal.SIGKILL)
    try:
        _, err = run.communicate(timeout=900)
    finally:  # (the cluster as the other tests of the module know it, whatever their order)
        nodes.add_worker("node_w1_again", 1, hidden=[ds.parent])
        nodes.wait_nodes(before)
    assert run.returncode == 0, err
    graded = _graded(tmp_path / "ray.jsonl")
    assert [n for n, _, _ in graded] == list(range(48))  # (each once, in order)
    assert graded == _graded(tmp_path / "local.jsonl")


def test_an_unreachable_head_is_one_line(tmp_path: Path) -> None:
    from helpers.raynodes import free_port

    source = tmp_path / "in.jsonl"
    source.write_text("")
    ds = tmp_path / "ds"
    write_rows(ds, ROWS[:1])
    run = subprocess.run([sys.executable, "-m", "problemtools_py.cli.gradecode", str(ds),
                          str(source), "--ray", f"127.0.0.1:{free_port()}", "-q"],
                         capture_output=True, text=True, timeout=300)  # fmt: skip
    assert run.returncode == 2
    assert "no Ray cluster answers at 127.0.0.1:" in run.stderr, run.stderr
    assert "Traceback" not in run.stderr


def test_a_missing_token_is_named(cluster: tuple[RayNodes, Path, list[str]],
                                  tmp_path: Path) -> None:  # fmt: skip
    nodes, ds, ids = cluster
    source = tmp_path / "in.jsonl"
    _completions(source, ids, 0.0, 2)
    env = {k: v for k, v in nodes.env.items() if not k.startswith("RAY_AUTH")}
    env["HOME"] = str(tmp_path)  # (no ~/.ray/auth_token either)
    run = _ray(nodes, [str(ds), str(source)], env=env)
    _, err = run.communicate(timeout=300)
    assert run.returncode == 2
    assert "RAY_AUTH_TOKEN" in err and "ray get-auth-token" in err, err
    assert "Traceback" not in err


def test_kattis2parquet_on_the_cluster_builds_the_local_dataset(
    cluster: tuple[RayNodes, Path, list[str]], tmp_path: Path
) -> None:
    """The packages are where only the driver's node sees them."""
    import shutil

    nodes, ds, _ids = cluster
    packages = ds.parent / "pkgs"
    from problemtools_py.dataset.distributed import CACHE, package_digest

    for name in ("hello", "different", "bigsum", "divisor", "average", "subtasks"):
        shutil.copytree(SAMPLES / name, packages / name)
    cache = Path(tempfile.gettempdir()) / CACHE
    digests = [package_digest(p) for p in sorted(packages.iterdir())]
    for digest in digests:
        shutil.rmtree(cache / digest, ignore_errors=True)
    build = [sys.executable, "-m", "problemtools_py.cli.kattis2parquet", str(packages), "-q",
             "--min-tests", "1"]  # fmt: skip
    local = subprocess.run([*build, "-o", str(tmp_path / "local")], env=nodes.env,
                           capture_output=True, text=True, timeout=900)  # fmt: skip
    assert local.returncode == 0, local.stderr
    remote = subprocess.run([*build, "-o", str(tmp_path / "ray"), "--ray", nodes.address],
                            env=nodes.env, capture_output=True, text=True, timeout=900)  # fmt: skip
    assert remote.returncode == 0, remote.stderr
    names = sorted(p.name for p in (tmp_path / "local").iterdir())
    assert names == sorted(p.name for p in (tmp_path / "ray").iterdir())
    for name in names:
        assert (tmp_path / "ray" / name).read_bytes() == (tmp_path / "local" / name).read_bytes(), name
    # the node that cannot see the packages unpacked the ones it converted
    assert any((cache / digest).is_dir() for digest in digests)


def test_a_node_that_joins_mid_run_grades_too(
    cluster: tuple[RayNodes, Path, list[str]], tmp_path: Path
) -> None:
    nodes, ds, ids = cluster
    before = nodes.alive()
    source = tmp_path / "in.jsonl"
    _completions(source, ids, 0.25, 60)
    run = _ray(nodes, [str(ds), str(source), "-o", str(tmp_path / "ray.jsonl")])
    time.sleep(4)
    nodes.add_worker("node_late", 1)
    try:
        _, err = run.communicate(timeout=900)
    finally:  # (the cluster as the other tests of the module know it, whatever their order)
        os.kill(nodes.raylet_of("node_late"), signal.SIGKILL)
        nodes.wait_nodes(before)
    assert run.returncode == 0, err
    assert [n for n, _, _ in _graded(tmp_path / "ray.jsonl")] == list(range(60))
    said = next(line for line in err.splitlines() if "Ray nodes" in line)
    assert f"graded on {before + 1} Ray nodes" in said, said


def _refused(tmp_path: Path, add: Callable[[RayNodes], None], languages: str) -> str:
    """The line a run on a head and one worker (made by ``add``) stops with."""
    ds = tmp_path / "ds"
    ids = write_rows(ds, ROWS[:1])
    source = tmp_path / "in.jsonl"
    _completions(source, ids, 0.0, 2)
    nodes = RayNodes()
    try:
        nodes.start_head(1)
        add(nodes)
        nodes.wait_nodes(2)
        run = _ray(nodes, [str(ds), str(source), "--languages", languages])
        _, err = run.communicate(timeout=300)
    finally:
        nodes.stop()
    assert run.returncode == 2 and "Traceback" not in err, err
    return next(line for line in err.splitlines() if "cannot grade on Ray node" in line)


def test_a_node_without_a_compiler_is_named(tmp_path: Path) -> None:
    """A worker where g++ is /dev/null (in a mount namespace of its own)."""
    import shutil

    gxx = shutil.which("g++")
    assert gxx is not None
    line = _refused(tmp_path, lambda nodes: nodes.add_worker(
        "node_nocc", 1, masked=[Path(gxx).resolve()]), "python3,cpp")  # fmt: skip
    assert "no toolchain for cpp: g++" in line


def test_a_node_without_root_is_named(tmp_path: Path) -> None:
    """A worker whose Ray runs as nobody."""
    line = _refused(tmp_path, lambda nodes: nodes.add_user_worker("node_user", 1), "python3")
    assert "not root" in line


def test_a_package_that_cannot_be_converted_is_unknown_on_every_node(
    cluster: tuple[RayNodes, Path, list[str]], tmp_path: Path
) -> None:
    """Issue 60: a directory of packages with one kattis2parquet leaves out. The workers
    do not see the packages; the driver ships why, and its lines are unknown_problem (no
    reward) on every node, as a local run has them; the rest graded."""
    import shutil

    from problemtools_py.grading import Grader

    nodes, ds, _ = cluster
    root = ds.parent / "pkgs-one-broken"  # (hidden from the workers, as ds is)
    shutil.copytree(SAMPLES / "hello", root / "hello")
    shutil.copytree(SAMPLES / "hello", root / "broken")
    (root / "broken" / "submissions" / "accepted").rename(root / "broken" / "gone")
    (root / "broken" / "problem_statement" / "problem.en.tex").write_text(
        "\\problemname{Broken}\nSay hello to someone else.\n")  # fmt: skip
    with Grader(root, jobs=1) as grader:
        ids = sorted(grader.problems.ids())
    good = "```python\nprint(f'Hello {input()}!')\n```"
    lines = [{"problem_id": pid, "completion": good, "n": n} for n, pid in enumerate(ids * 24)]
    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert gradecode([str(root), str(source), "-q", "-o", str(tmp_path / "local.jsonl")]) == 1
    run = _ray(nodes, [str(root), str(source), "-o", str(tmp_path / "ray.jsonl")])
    _, err = run.communicate(timeout=600)
    assert run.returncode == 1, err
    local = [json.loads(x) for x in (tmp_path / "local.jsonl").read_text().splitlines()]
    ray = [json.loads(x) for x in (tmp_path / "ray.jsonl").read_text().splitlines()]
    assert [(r["n"], r["status"], r["message"]) for r in ray] == [
        (r["n"], r["status"], r["message"]) for r in local]  # fmt: skip
    assert sorted({r["status"] for r in ray}) == ["ok", "unknown_problem"]
    said = next(line for line in err.splitlines() if "Ray nodes" in line)
    assert "tests sent" in said, said  # (a worker got the package's reason shipped)
