"""Near-duplicate statements: 13-gram containment over the v1-normalised words.

The containment of A in B is the share of A's word 13-grams that also occur in B; A is a
near duplicate of B when it is at least 0.3 (either way round). Statements shorter than
13 words have no 13-grams and are compared exactly."""

from __future__ import annotations

import hashlib
import json
import zlib
from array import array
from collections import Counter
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
    """Statements by their 13-grams, compact enough for the card's scale (21,294 rows of
    some 300 grams each): each (gram, statement) pair is two 32-bit numbers in an
    open-addressing table (``array``s, linear probing, kept at most half full), about
    16 bytes a pair where a dict of sets took ~70; a statement keeps its key, its number
    of grams and the sha256 of its normalised text (the exact match)."""

    def __init__(self) -> None:
        self.keys: list[str] = []
        self.sizes = array("I")
        self.exact: dict[bytes, int] = {}
        self._grams = array("I", bytes(4 * 1024))  # (a gram is stored as crc32 | 1: 0 is empty)
        self._docs = array("I", bytes(4 * 1024))
        self._used = 0

    def add(self, key: str, statement: str) -> None:
        doc = len(self.keys)
        self.keys.append(key)
        grams = ngrams(statement)
        self.sizes.append(len(grams))
        self.exact.setdefault(_digest(statement), doc)
        if 2 * (self._used + len(grams)) > len(self._grams):
            self._grow(self._used + len(grams))
        for gram in grams:
            self._put(gram | 1, doc)

    def _put(self, gram: int, doc: int) -> None:
        mask = len(self._grams) - 1
        slot = (gram * 0x9E3779B1) & mask
        while self._grams[slot]:
            slot = (slot + 1) & mask
        self._grams[slot], self._docs[slot] = gram, doc
        self._used += 1

    def _grow(self, needed: int) -> None:
        size = len(self._grams)
        while size < 2 * needed:
            size *= 2
        old_grams, old_docs = self._grams, self._docs
        self._grams, self._docs = array("I", bytes(4 * size)), array("I", bytes(4 * size))
        self._used = 0
        for gram, doc in zip(old_grams, old_docs, strict=True):  # (no list of the pairs)
            if gram:
                self._put(gram, doc)

    def _holders(self, gram: int) -> Iterator[int]:
        mask = len(self._grams) - 1
        slot = (gram * 0x9E3779B1) & mask
        while stored := self._grams[slot]:
            if stored == gram:
                yield self._docs[slot]
            slot = (slot + 1) & mask

    def find(self, statement: str) -> tuple[str, float] | None:
        """The indexed statement this one nearly duplicates, with the containment (either
        way round, the larger; the first indexed of equals), or None."""
        exact = self.exact.get(_digest(statement))
        if exact is not None:
            return self.keys[exact], 1.0
        grams = {gram | 1 for gram in ngrams(statement)}  # (as stored: see add)
        if not grams:
            return None
        shared: Counter[int] = Counter()
        for gram in grams:
            shared.update(set(self._holders(gram)))
        best: tuple[float, int] | None = None
        for doc, count in shared.items():
            containment = max(count / len(grams), count / max(1, self.sizes[doc]))
            if containment >= THRESHOLD and (
                best is None or (containment, -doc) > (best[0], -best[1])
            ):
                best = (containment, doc)
        return (self.keys[best[1]], best[0]) if best is not None else None


def _digest(statement: str) -> bytes:
    return hashlib.sha256(normalize_v1(statement).encode()).digest()


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
