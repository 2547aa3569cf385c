"""``gradecode --ray ADDRESS``: grading on every node of a Ray cluster.

One actor per alive node (pinned to it) keeps a Grader and its sandbox pool, and grades
as many completions at once as the node has CPUs (``-j N`` caps the whole cluster,
shared by the nodes' CPUs). Nodes that join while the run goes on get an actor too.

No shared file system is needed: an actor whose node sees the dataset at the driver's
path, the same files (names, sizes and the last 64 KiB of each: the Parquet footers),
reads it there (the fast path); any other gets each problem's tests from the driver
through Ray's object store, put there once per problem and pulled once per node.

A problem's batches go to the node that already has its tests while that node has room,
else to the least busy node. A node lost mid-batch (its actor dies, or the node) has
its unfinished batches graded again elsewhere: a result comes only from a batch that
finished, so every completion is graded exactly once in the output, in input order."""

from __future__ import annotations

import hashlib
import os
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from problemtools_py.errors import FatalError
from problemtools_py.grading.grader import Grader
from problemtools_py.grading.problems import Fetched, Unavailable
from problemtools_py.grading.results import GradeResult, Settings
from problemtools_py.raycluster import connected

BATCH = 16  # completions of one problem sent together
TAIL = 64 << 10  # bytes of each file's end in a dataset's fingerprint
REFRESH = 2.0  # seconds between looks for nodes that joined or left
Batch = list[tuple[int, str, str, int | None]]  # (input index, problem_id, completion, MiB)


def fingerprint(root: Path) -> str:
    """What tells one node's copy of a dataset from another's, cheaply."""
    digest = hashlib.sha256()
    try:
        for path in sorted(p for p in root.iterdir() if p.is_file()):
            size = path.stat().st_size
            digest.update(f"{path.name}\0{size}\0".encode())
            with path.open("rb") as handle:
                handle.seek(max(0, size - TAIL))
                digest.update(handle.read())
    except OSError:
        return ""
    return digest.hexdigest()


CHECK = "cannot grade on"  # (what marks a node's own refusal in Ray's error text)
TOOLS = {"cpp": "g++", "c": "gcc", "java": "a JDK (openjdk-17-jdk-headless)",
         "kotlin": "kotlinc", "rust": "rustc", "go": "golang"}  # fmt: skip


def _missing(grader: Grader, settings: Settings) -> str:
    """The toolchains this node lacks for the languages asked for, or ""."""
    built = [code for code in settings.languages if code != "python3"]
    missing = [code for code in built if code not in grader.languages()] if built else []
    if not missing:
        return ""
    tools = ", ".join(f"{code}: {TOOLS.get(code, code)}" for code in missing)
    return f"no toolchain for {tools}; install it there or leave the language out of --languages"


def _ip() -> str:
    try:
        import ray

        found: Any = ray.util.get_node_ip_address
        return str(found())
    except Exception:  # (only for the message)
        return "?"


@dataclass(frozen=True)
class Withheld:
    """What the driver ships for a problem its source holds but cannot grade (a package
    kattis2parquet leaves out): why, so that a node answers as a local grader does."""

    reason: str


class Shipped:
    """A node's problems as the driver sends them (a grader's ProblemSource)."""

    def __init__(self) -> None:
        self.found: dict[str, Fetched | Withheld] = {}

    def fetch(self, pid: str) -> Fetched | None:
        found = self.found.get(pid)
        if isinstance(found, Withheld):
            raise Unavailable(found.reason)
        return found

    def ids(self) -> set[str]:
        return set(self.found)

    def close(self) -> None:
        pass


class NodeGrader:
    """The actor on one node (see the module's text). A node that cannot grade as asked
    (not root, a language's toolchain missing) fails to start, saying which and why."""

    def __init__(self, dataset: str | None, mark: str, settings: Settings, jobs: int) -> None:
        where = f"{CHECK} Ray node {socket.gethostname()} ({_ip()})"
        if os.geteuid() != 0:  # (before any sandbox starts: it would fail its own way)
            raise RuntimeError(
                f"{where}: not root, and the sandbox needs root: run its `ray start` as root"
            )
        here = dataset is not None and bool(mark) and fingerprint(Path(dataset)) == mark
        self.local = here
        self.grader = Grader(dataset if here else None, settings, jobs)
        why = _missing(self.grader, settings)
        if why:
            self.grader.close()
            raise RuntimeError(f"{where}: {why}")
        self.shipped = Shipped()
        if not here:
            self.grader.problems = self.shipped
        self._lock = threading.Lock()

    def has_dataset(self) -> bool:
        return self.local

    def grade_batch(
        self, batch: Batch, problem: Fetched | Withheld | None
    ) -> list[tuple[int, dict[str, Any]]]:
        if problem is not None:
            with self._lock:
                self.shipped.found[batch[0][1]] = problem
                while len(self.shipped.found) > 256:
                    self.shipped.found.pop(next(iter(self.shipped.found)))
        return [
            (i, self.grader.grade(pid, code, memory_mb=mb).as_dict()) for i, pid, code, mb in batch
        ]

    def close(self) -> None:
        self.grader.close()


@dataclass
class Node:
    """The driver's view of one node's actor."""

    node_id: str
    actor: Any
    slots: int  # batches it grades at once
    started: Any  # ObjectRef of its has_dataset(): the actor is up when it resolves
    local: bool = False  # whether it reads the dataset itself (see Cluster._ready)
    running: int = 0
    graded: int = 0  # completions whose results came back from it


@dataclass
class View:
    """What a caller is told of the cluster while it grades: the nodes grading, and at
    the end each node's part (its id's start, whether it read the dataset, completions)."""

    nodes: int = 0
    parts: list[tuple[str, bool, int]] = field(default_factory=list)


class Cluster:
    """The actors, one per node, and where each batch goes."""

    def __init__(self, ray: Any, dataset: Path, settings: Settings, jobs: int | None) -> None:
        self.ray, self.settings, self.jobs = ray, settings, jobs
        self.dataset = str(dataset.resolve())
        self.mark = fingerprint(dataset)
        self.nodes: dict[str, Node] = {}
        self.home: dict[str, str] = {}  # problem_id -> node that has its tests
        self.gone: set[str] = set()
        self.left: list[Node] = []  # the nodes that left the run
        self.refresh()
        if not self.nodes:
            raise FatalError("the Ray cluster has no node with a CPU to grade on")

    def refresh(self) -> None:
        """An actor for each node that joined; none kept for a node that left."""
        alive = {n["NodeID"]: n for n in self.ray.nodes() if n.get("Alive")}
        for node_id in list(self.nodes):
            if node_id not in alive:
                self.drop(node_id)
        cpus = {nid: int(n.get("Resources", {}).get("CPU", 0)) for nid, n in alive.items()}
        total = sum(cpus.values())
        started = []
        for node_id, count in cpus.items():
            if node_id in self.nodes or node_id in self.gone or count <= 0:
                continue
            share = count if self.jobs is None else max(1, round(self.jobs * count / total))
            started.append(self._start(node_id, share))
        for node in started:  # (their actors start at once; each is asked if it is up)
            self._ready(node)

    def _ready(self, node: Node) -> None:
        """The node's actor up (and whether it reads the dataset itself), or the one
        line saying why the node cannot grade; a node lost meanwhile is left out."""
        try:
            node.local = bool(self.ray.get(node.started, timeout=300))
        except self.ray.exceptions.RayError as exc:  # (its actor could not start there)
            said = [line for line in str(exc).splitlines() if CHECK in line]
            if said:
                raise FatalError(said[-1].split("RuntimeError: ")[-1].strip()) from None
            self.gone.add(node.node_id)
            return
        self.nodes[node.node_id] = node

    def _start(self, node_id: str, slots: int) -> Node:
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        where = NodeAffinitySchedulingStrategy(node_id, soft=False)
        actor = (
            self.ray.remote(NodeGrader)
            .options(num_cpus=0, max_concurrency=slots + 1, scheduling_strategy=where)
            .remote(self.dataset, self.mark, self.settings, slots)
        )
        return Node(node_id, actor, slots, actor.has_dataset.remote())

    def drop(self, node_id: str) -> None:
        node = self.nodes.pop(node_id, None)
        if node is not None:
            self.left.append(node)
        self.gone.add(node_id)
        self.home = {pid: nid for pid, nid in self.home.items() if nid != node_id}

    def place(self, pid: str) -> Node | None:
        """The node for a batch of ``pid``: its home while it has room, else the one
        with the most room; None when every node is full."""
        home = self.nodes.get(self.home.get(pid, ""))
        if home is not None and home.running < home.slots:
            return home
        free = [n for n in self.nodes.values() if n.running < n.slots]
        if not free:
            return None
        chosen = max(free, key=lambda n: (n.slots - n.running) / n.slots)
        self.home[pid] = chosen.node_id
        return chosen

    def parts(self) -> list[tuple[str, bool, int]]:
        every = [*self.nodes.values(), *self.left]
        return [(n.node_id[:8], n.local, n.graded) for n in every if n.graded]

    def close(self) -> None:
        closing = [n.actor.close.remote() for n in self.nodes.values()]
        if closing:
            self.ray.wait(closing, num_returns=len(closing), timeout=60)


def cluster_grade(
    address: str,
    dataset: Path,
    settings: Settings,
    items: Sequence[tuple[str, str, int | None]],
    jobs: int | None,
    fetch: Callable[[str], Fetched],
    view: View | None = None,
) -> Iterator[GradeResult]:
    """Each item's result, in input order (see the module's text); ``fetch`` gives a
    problem's tests on the driver, ``view`` is kept up to date."""
    with connected(address) as ray:
        cluster = Cluster(ray, dataset, settings, jobs)
        try:
            yield from _run(ray, cluster, _batches(items), fetch, view or View())
        finally:
            (view or View()).parts = cluster.parts()
            cluster.close()


def _batches(items: Sequence[tuple[str, str, int | None]]) -> deque[Batch]:
    by_problem: dict[str, Batch] = {}
    for index, (pid, completion, memory) in enumerate(items):
        by_problem.setdefault(pid, []).append((index, pid, completion, memory))
    return deque(g[i : i + BATCH] for g in by_problem.values() for i in range(0, len(g), BATCH))


def _run(
    ray: Any,
    cluster: Cluster,
    todo: deque[Batch],
    fetch: Callable[[str], Fetched],
    view: View,
) -> Iterator[GradeResult]:
    pending: dict[Any, tuple[Node, Batch]] = {}
    refs: dict[str, Any] = {}  # problem_id -> its tests in the object store
    done: dict[int, dict[str, Any]] = {}
    next_index, looked = 0, time.monotonic()
    while todo or pending:
        _give(ray, cluster, todo, pending, refs, fetch)
        view.nodes = len(cluster.nodes)
        if not pending:
            if not cluster.nodes:
                raise FatalError("every node of the Ray cluster is gone; nothing left to grade on")
            time.sleep(REFRESH)
            cluster.refresh()
            continue
        ready, _ = ray.wait(list(pending), num_returns=1, timeout=REFRESH)
        for ref in ready:
            node, batch = pending.pop(ref)
            node.running -= 1
            try:
                found = ray.get(ref)
            except ray.exceptions.RayError:  # (the actor or its node died: again elsewhere)
                cluster.drop(node.node_id)
                todo.appendleft(batch)
                continue
            node.graded += len(found)
            for index, result in found:
                done[index] = result
        while next_index in done:
            yield GradeResult.from_dict(done.pop(next_index))
            next_index += 1
        if time.monotonic() - looked > REFRESH:
            cluster.refresh()
            looked = time.monotonic()
            for ref, (node, batch) in list(pending.items()):
                if node.node_id not in cluster.nodes:  # (its node left: its result unread)
                    del pending[ref]
                    todo.appendleft(batch)


def _fetched(fetch: Callable[[str], Fetched], pid: str) -> Fetched | Withheld:
    try:
        return fetch(pid)
    except Unavailable as exc:  # (its completions get no reward; the batch goes on)
        return Withheld(str(exc))  # (its text as a local source gives it: the path too)


def _give(
    ray: Any,
    cluster: Cluster,
    todo: deque[Batch],
    pending: dict[Any, tuple[Node, Batch]],
    refs: dict[str, Any],
    fetch: Callable[[str], Fetched],
) -> None:
    """Batches to nodes with room (a node without the dataset gets the tests' ref)."""
    while todo:
        pid = todo[0][0][1]
        node = cluster.place(pid)
        if node is None:
            return
        batch = todo.popleft()
        shipped = None
        if not node.local:
            if pid not in refs:
                refs[pid] = ray.put(_fetched(fetch, pid))
            shipped = refs[pid]
        pending[node.actor.grade_batch.remote(batch, shipped)] = (node, batch)
        node.running += 1
