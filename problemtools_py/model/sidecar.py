"""parquet2kattis' sidecar: "dataset.json" in legacy packages (Kattis problemtools rejects
a file name starting with a dot), ".dataset.json" (auxiliary) in the others."""

from __future__ import annotations

SIDECARS = ("dataset.json", ".dataset.json")


def sidecar_name(modern: bool) -> str:
    return SIDECARS[1] if modern else SIDECARS[0]
