"""``auditdata --augment K``: new secret test cases that reject the wrong programs the
tests let through: each a survivor's witness. A generator command (its seed written out)
is recorded in ``generators/generators.yaml`` under ``data: secret:`` as ``audit-<n>``
(its comments and layout kept), so that ``generatedata`` makes it, answered by the
package's solution, and every later run makes it again byte for byte; a witness that is
an input (shaped after the test cases, see audit.shaped_cases) is recorded as an
``in:`` entry, answered the same way. A package without generators gets the witness
case's own files, ``data/secret/audit-<n>.in`` and ``.ans``."""

from __future__ import annotations

from pathlib import Path

from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.scalarstring import LiteralScalarString

from problemtools_py import atomicfile
from problemtools_py.convert.roundtrip import child_map, dump, load_map, put
from problemtools_py.errors import FatalError
from problemtools_py.findings import ExitCode

YAML_REL = "generators/generators.yaml"
WHY = "add test cases to"


def add_secret_cases(root: Path, entries: list[str | bytes]) -> list[str]:
    """Record new cases of data/secret: a generator command (text), or an input given
    as it is (bytes: an ``in:`` entry, answered by the solution); their names."""
    path = root / YAML_REL
    data = load_map(path.read_text(encoding="utf-8"), str(path))
    secret = child_map(child_map(data, "data", path, WHY), "secret", path, WHY)
    cases = secret.get("data")
    if cases is None:
        cases = CommentedMap()
        put(secret, "data", cases)
    taken = _names(cases)
    names = []
    number = 1
    for given in entries:
        command = given if isinstance(given, str) else _given_input(given)
        while f"audit-{number}" in taken:
            number += 1
        name = f"audit-{number}"
        taken.add(name)
        names.append(name)
        if isinstance(cases, CommentedSeq):
            entry = CommentedMap()
            entry[name] = command
            cases.append(entry)
        elif isinstance(cases, CommentedMap):
            put(cases, name, command)
        else:
            raise FatalError(
                "data.secret.data must be a map or a list", path=path, exit_code=ExitCode.FINDINGS
            )
    atomicfile.write_bytes(path, dump(data).encode("utf-8"))
    return names


def _given_input(data: bytes) -> CommentedMap:
    entry = CommentedMap()
    entry["in"] = LiteralScalarString(data.decode("utf-8", "replace"))
    return entry


def _names(cases: object) -> set[str]:
    if isinstance(cases, CommentedMap):
        return {str(k) for k in cases}
    if isinstance(cases, CommentedSeq):
        return {str(k) for entry in cases if isinstance(entry, dict) for k in entry}
    return set()


def add_secret_files(root: Path, cases: list[dict[str, bytes]]) -> list[str]:
    """Each case's files as ``data/secret/audit-<n>.<ext>``; their names."""
    folder = root / "data" / "secret"
    taken = {p.name.split(".")[0] for p in folder.glob("audit-*")} if folder.is_dir() else set()
    names, number = [], 1
    for files in cases:
        while f"audit-{number}" in taken:
            number += 1
        name = f"audit-{number}"
        taken.add(name)
        for ext in (".in", ".ans"):
            if ext in files:
                atomicfile.write_bytes(folder / f"{name}{ext}", files[ext], parents=True)
        names.append(name)
    return names
