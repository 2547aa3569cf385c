"""The fast tier keeps to itself (see conftest.py here)."""

from __future__ import annotations

import os
import subprocess

import pytest


def test_the_fast_tier_refuses_a_process() -> None:
    with pytest.raises(AssertionError, match="starts no process"):
        subprocess.run(["true"], check=False)
    with pytest.raises(AssertionError, match="starts no process"):
        os.fork()
