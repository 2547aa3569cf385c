"""Problem ids (rule ``v1``) and the SFT/RL share.

``v1``: lower-case the statement; replace every LaTeX command (a backslash followed by ASCII
letters) with a space; replace every run of characters other than ``a-z0-9`` with a space;
collapse to single spaces and strip. The id is the first 16 hex digits of the sha256 of
the result (UTF-8). A problem is for SFT when ``int(id, 16) < 0x9999999999999999``."""

from __future__ import annotations

import re

from problemtools_py.digests import sha256_hex

PROBLEM_ID_RULE = "v1"
SFT_BOUND = 0x9999999999999999
_COMMAND = re.compile(r"\\[A-Za-z]+")
_OTHER = re.compile(r"[^a-z0-9]+")
ID_PATTERN = re.compile(r"^[0-9a-f]{16}$")


def normalize_v1(statement: str) -> str:
    text = statement.lower()
    text = _COMMAND.sub(" ", text)
    text = _OTHER.sub(" ", text)
    return " ".join(text.split())


def problem_id(statement: str) -> str:
    return sha256_hex(normalize_v1(statement).encode("utf-8"))[:16]


def share(pid: str) -> str:
    """``"sft"`` or ``"rl"`` for a problem id."""
    return "sft" if int(pid, 16) < SFT_BOUND else "rl"
