"""BAPCtools' problems link BAPCtools' own headers from its checkout
(``input_validators/x/validation.h -> ../../../../bapctools/resources/headers/...``): such
a link is read, and named as BAPCtools' extension; every other link out of the package
stays refused (the attack: a package reading a host file into a build)."""

from __future__ import annotations

import os
from pathlib import Path

from problemtools_py.model.files import BT_RESOURCE_BYTES, walk_package


def _linked(tmp_path: Path, target: Path) -> bool:
    package = tmp_path / "problems" / "p"
    (package / "input_validators" / "v").mkdir(parents=True, exist_ok=True)
    link = package / "input_validators" / "v" / "validation.h"
    if link.is_symlink():
        link.unlink()
    link.symlink_to(os.path.relpath(target, link.parent))
    (entry,) = [e for e in walk_package(package) if e.rel.endswith("validation.h")]
    assert not entry.link_ok
    return entry.readable


def test_only_a_file_of_bapctools_own_is_read_out_of_the_package(tmp_path: Path) -> None:
    headers = tmp_path / "bapctools" / "resources" / "headers"
    headers.mkdir(parents=True)
    (headers / "validation.h").write_text("#pragma once\n")
    assert _linked(tmp_path, headers / "validation.h")
    assert not _linked(tmp_path, headers)  # (a directory)
    (headers / "big.h").write_bytes(b"x" * (BT_RESOURCE_BYTES + 1))
    assert not _linked(tmp_path, headers / "big.h")
    (tmp_path / "secret.txt").write_text("host file\n")
    assert not _linked(tmp_path, tmp_path / "secret.txt")
    assert not _linked(tmp_path, Path("/etc/passwd"))
    other = tmp_path / "resources" / "bapctools" / "x.h"  # (the names the wrong way round)
    other.parent.mkdir(parents=True)
    other.write_text("x\n")
    assert not _linked(tmp_path, other)
