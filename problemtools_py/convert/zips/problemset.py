"""A problem set in one zip, laid out as DOMjudge imports a contest and BAPCtools keeps
one: ``contest.yaml`` and ``problems.yaml`` at the top, each problem in ``<id>/``. An
existing ``problems.yaml``/``contest.yaml`` beside the problems (their common parent, as
in a BAPCtools contest directory) is kept, labels and colours included; otherwise the
problems get labels A, B, C... in the order given and distinct colours."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from problemtools_py.errors import FatalError
from problemtools_py.findings import ExitCode
from problemtools_py.model.problem import Problem

COLOURS = [("red", "#e6194b"), ("green", "#3cb44b"), ("yellow", "#ffe119"), ("blue", "#4363d8"),
           ("orange", "#f58231"), ("purple", "#911eb4"), ("cyan", "#42d4f4"),
           ("magenta", "#f032e6"), ("lime", "#bfef45"), ("pink", "#fabed4"), ("teal", "#469990"),
           ("lavender", "#dcbeff"), ("brown", "#9a6324"), ("beige", "#fffac8"),
           ("maroon", "#800000"), ("mint", "#aaffc3"), ("olive", "#808000"),
           ("apricot", "#ffd8b1"), ("navy", "#000075"), ("grey", "#a9a9a9")]  # fmt: skip


def _label(index: int) -> str:
    return chr(ord("A") + index) if index < 26 else f"Z{index - 25}"


def _existing(parent: Path, name: str) -> Any:
    import yaml

    from problemtools_py.yamlfile import load_bounded

    path = parent / name
    if not path.is_file():
        return None
    try:
        return load_bounded(path.read_text(encoding="utf-8"))
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise FatalError(f"cannot read it: {exc}", path=path, exit_code=ExitCode.FINDINGS) from None


def problemset_files(problems: list[Problem], contest_name: str | None) -> dict[str, bytes]:
    """``contest.yaml`` and ``problems.yaml`` for ``problems`` (in this order)."""
    import yaml

    ids = [p.short_name for p in problems]
    if len(set(ids)) != len(ids):
        raise FatalError("two problems share a short name: a set needs distinct ids")
    parent = Path(*Path(problems[0].root).resolve().parts[:-1])
    known = {}
    listed = _existing(parent, "problems.yaml")
    if isinstance(listed, list):
        known = {str(e.get("id")): e for e in listed if isinstance(e, dict)}
    rows = []
    for index, problem in enumerate(problems):
        colour, rgb = COLOURS[index % len(COLOURS)]
        names = problem.config.names
        row = {
            "id": problem.short_name,
            "label": _label(index),
            "name": names.get("en") or next(iter(names.values()), problem.short_name),
            "color": colour,
            "rgb": rgb,
        }
        row.update({k: v for k, v in known.get(problem.short_name, {}).items() if v is not None})
        rows.append(row)
    contest = _existing(parent, "contest.yaml")
    if not isinstance(contest, dict):
        contest = {"name": contest_name or "Problem Set"}
    elif contest_name:
        contest["name"] = contest_name
    return {
        "problems.yaml": yaml.safe_dump(rows, sort_keys=False, allow_unicode=True).encode(),
        "contest.yaml": yaml.safe_dump(contest, sort_keys=False, allow_unicode=True).encode(),
    }
