"""``generatedata --fuzz --add``: the cases fuzzing found recorded in
``generators/generators.yaml`` (its comments and layout kept), each its generator command
with the seed written out, under ``data: fuzz: data:`` by the names they have in
``data/fuzz/`` (``"1": random_list.py 10 100 577090037``), so that ``generatedata`` makes
them again, byte for byte. (BAPCtools' ``bt fuzz`` appends to a numbered list there; a
numbered list's cases are numbered across the whole file, so every other case's name
would change with the width of the numbers: a map leaves them alone.)"""

from __future__ import annotations

from pathlib import Path

from ruamel.yaml.comments import CommentedMap

from problemtools_py import atomicfile
from problemtools_py.convert.roundtrip import dump, load_map, put
from problemtools_py.errors import FatalError
from problemtools_py.findings import ExitCode

YAML_REL = "generators/generators.yaml"


def add_fuzz_cases(root: Path, found: list[tuple[str, str]]) -> None:
    """Record ``found`` (name in data/fuzz/, command) in data.fuzz.data."""
    path = root / YAML_REL
    data = load_map(path.read_text(encoding="utf-8"), str(path))
    cases = _map(_map(_map(data, "data", path), "fuzz", path), "data", path)
    for name, command in found:
        put(cases, name, command)
    atomicfile.write_bytes(path, dump(data).encode("utf-8"))


def _map(data: CommentedMap, key: str, path: Path) -> CommentedMap:
    found = data.get(key)
    if found is None:
        found = CommentedMap()
        put(data, key, found)
    if not isinstance(found, CommentedMap):
        raise FatalError(f"{key} must be a map to add fuzzed cases to", path=path,
                         exit_code=ExitCode.FINDINGS)  # fmt: skip
    return found
