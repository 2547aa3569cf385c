"""``verifyproblem --write-time-limit``: the limit verification derived from the accepted
submissions, written into the package so that every judge (and the next verification)
uses it: 2023-07 and later in ``problem.yaml`` as ``limits.time_limit`` (its comments,
key order and quoting kept: see convert.roundtrip); legacy, whose ``problem.yaml`` has no
such key, as a ``.timelimit`` file (DOMjudge's and this project's reading of legacy)."""

from __future__ import annotations

from pathlib import Path

from ruamel.yaml.comments import CommentedMap

from problemtools_py import atomicfile
from problemtools_py.convert.roundtrip import dump, load_map, put
from problemtools_py.model import load_problem


def write_time_limit(root: Path, seconds: float, fixed_by_option: bool) -> str:
    """Write ``seconds`` as the package's time limit, unless it fixes one already (or
    ``-t`` fixed it for this run); what was done, for the message."""
    problem = load_problem(root)
    declared = problem.declared_time_limit
    if fixed_by_option:
        return "not written: -t fixed the time limit of this run"
    if declared is not None:
        return f"not written: the package fixes its time limit ({declared.source})"
    value: float | int = int(seconds) if float(seconds).is_integer() else seconds
    if problem.legacy:
        path = root / ".timelimit"
        atomicfile.write_bytes(path, f"{value}\n".encode())
        return f"wrote the time limit {value} s to {path}"
    path = root / "problem.yaml"
    data = load_map(path.read_text(encoding="utf-8"), str(path))
    limits = data.get("limits")
    if not isinstance(limits, CommentedMap):
        limits = CommentedMap()
        put(data, "limits", limits)
    put(limits, "time_limit", value)
    atomicfile.write_bytes(path, dump(data).encode("utf-8"))
    return f"wrote limits.time_limit: {value} to {path}"
