"""Near-duplicate statements: 13-gram containment over the v1-normalised words.

The containment of A in B is the share of A's word 13-grams that also occur in B; A is a
near duplicate of B when it is at least 0.3 (either way round). Statements shorter than
13 words have no 13-grams and are compared exactly."""

from __future__ import annotations

import json
import zlib
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from pathlib import Path

import pyarrow.parquet as pq

from problemtools_py.dataset.ids import normalize_v1
from problemtools_py.errors import FatalError

N = 13
THRESHOLD = 0.3


def ngrams(statement: str, n: int = N) -> set[int]:
    words = normalize_v1(statement).split()
    return {zlib.crc32(" ".join(words[i : i + n]).encode()) for i in range(len(words) - n + 1)}


class NgramIndex:
    def __init__(self) -> None:
        self.grams: dict[str, set[int]] = {}
        self.exact: dict[str, str] = {}
        self.postings: defaultdict[int, list[str]] = defaultdict(list)

    def add(self, key: str, statement: str) -> None:
        grams = ngrams(statement)
        self.grams[key] = grams
        self.exact.setdefault(normalize_v1(statement), key)
        for gram in grams:
            self.postings[gram].append(key)

    def find(self, statement: str) -> tuple[str, float] | None:
        """The indexed statement this one nearly duplicates, with the containment."""
        exact = self.exact.get(normalize_v1(statement))
        if exact is not None:
            return exact, 1.0
        grams = ngrams(statement)
        if not grams:
            return None
        shared: Counter[str] = Counter()
        for gram in grams:
            shared.update(self.postings.get(gram, ()))
        for key, count in shared.most_common():
            containment = max(count / len(grams), count / max(1, len(self.grams[key])))
            if containment >= THRESHOLD:
                return key, containment
            break
        return None


def statements_of(path: Path) -> Iterator[tuple[str, str]]:
    """(key, statement) pairs from a dataset directory, a parquet file with a ``statement``
    column, or JSONL with a ``statement`` field per line."""
    if path.is_dir():
        for file in sorted(path.glob("problems-*.parquet")):
            yield from statements_of(file)
        return
    if path.suffix == ".parquet":
        table = pq.read_table(path, columns=["statement"])
        for index, value in enumerate(table.column("statement").to_pylist()):
            if isinstance(value, str):
                yield f"{path.name}:{index}", value
        return
    try:
        lines: Iterable[str] = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise FatalError(f"cannot read statements: {exc}", path=path) from exc
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)["statement"]
        except (ValueError, KeyError, TypeError):
            raise FatalError(
                'each line must be a JSON object with a "statement"', path=path, line=number
            ) from None
        yield f"{path.name}:{number}", str(value)
