"""The compact 13-gram index answers as the plain computation over sets does."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from problemtools_py.dataset.dedup import THRESHOLD, NgramIndex, ngrams
from problemtools_py.dataset.ids import normalize_v1

WORDS = [f"w{i}" for i in range(40)]


def naive(indexed: list[tuple[str, str]], statement: str) -> tuple[str, float] | None:
    for key, text in indexed:
        if normalize_v1(text) == normalize_v1(statement):
            return key, 1.0
    mine = ngrams(statement)
    best: tuple[float, int] | None = None
    for number, (_, text) in enumerate(indexed):
        theirs = ngrams(text)
        shared = len(mine & theirs)
        if not mine or not shared:
            continue
        containment = max(shared / len(mine), shared / max(1, len(theirs)))
        if containment >= THRESHOLD and (best is None or containment > best[0]):
            best = (containment, number)
    return (indexed[best[1]][0], best[0]) if best is not None else None


@st.composite
def corpora(draw: st.DrawFn) -> tuple[list[str], list[str]]:
    pick = random.Random(draw(st.integers(0, 2**32)))
    texts = [" ".join(pick.choice(WORDS) for _ in range(pick.randint(5, 80)))
             for _ in range(draw(st.integers(1, 25)))]  # fmt: skip
    queries = []
    for _ in range(10):
        words = pick.choice(texts).split()
        cut = pick.randint(0, len(words))
        queries.append(" ".join(words[:cut] + [pick.choice(WORDS) for _ in range(pick.randint(0, 30))]))
    return texts, queries


@settings(max_examples=60, deadline=None)
@given(corpora())
def test_the_index_finds_what_the_sets_find(corpus: tuple[list[str], list[str]]) -> None:
    texts, queries = corpus
    index, indexed = NgramIndex(), []
    for number, text in enumerate(texts):
        index.add(f"k{number}", text)
        indexed.append((f"k{number}", text))
    for query in queries + texts:
        assert index.find(query) == naive(indexed, query)


def test_the_table_grows_past_its_first_size() -> None:
    index = NgramIndex()
    for number in range(300):
        index.add(str(number), " ".join(f"t{number}x{i}" for i in range(40)))
    assert index.find(" ".join(f"t123x{i}" for i in range(40))) == ("123", 1.0)
    assert index.find(" ".join(f"t7x{i}" for i in range(15, 40))) == ("7", 1.0)
    assert index.find("nothing like any of them at all, not one word of theirs here") is None
