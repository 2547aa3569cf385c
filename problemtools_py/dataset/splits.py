"""The dataset's splits, in a module of their own so that the command lines know them
without importing pyarrow."""

from __future__ import annotations

SPLITS = ("train", "eval", "qualification")
