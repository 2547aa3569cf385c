"""Converting packages on a Ray cluster (``kattis2parquet --ray ADDRESS``): each package is
a Ray task that converts it where it runs (its own sandbox pool when programs must run);
the driver keeps a bounded window of tasks in flight and assembles the rows in input
order.

No shared file system is needed. The driver sends each task the package's content
digest (every file's path, mode and bytes) and, through Ray's object store, a tar of it;
a node that has the package at the driver's path with that digest converts it there
(the fast path: the tar is never pulled), any other unpacks the tar once into a cache of
its own (``<tmp>/ptpy-ray-packages/<digest>/<name>``) and converts that. The row names
the driver's path as its source either way, so the dataset is byte for byte a local
build's."""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import tarfile
import tempfile
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from problemtools_py.dataset.build import BuildOptions, Conversion, convert
from problemtools_py.raycluster import connected
from problemtools_py.sandbox.pool import SandboxPool
from problemtools_py.window import ordered_window

CACHE = "ptpy-ray-packages"


def package_digest(root: Path) -> str:
    """The digest of a package's files: relative path, mode and bytes of each (a link
    by its target)."""
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file() or p.is_symlink()):
        rel = path.relative_to(root).as_posix()
        if path.is_symlink():
            digest.update(f"L\0{rel}\0{os.readlink(path)}\0".encode())
            continue
        digest.update(f"F\0{rel}\0{path.stat().st_mode & 0o777}\0".encode())
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def _tar(root: Path) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w") as tar:
        tar.add(root, arcname=root.name, recursive=True)
    return out.getvalue()


def _unpacked(name: str, digest: str, data: bytes) -> Path:
    """The package from its tar, in this node's cache (unpacked once)."""
    cache = Path(tempfile.gettempdir()) / CACHE / digest
    if (cache / name).is_dir():
        return cache / name
    cache.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{digest}.", dir=cache.parent))
    try:
        with tarfile.open(fileobj=io.BytesIO(data)) as tar:
            for member in tar.getmembers():  # (the driver's own tar; checked all the same)
                parts = Path(member.name).parts
                if member.name.startswith("/") or ".." in parts or parts[:1] != (name,):
                    raise OSError(f"a package's tar holds {member.name!r}")
                if not (member.isfile() or member.isdir() or member.issym()):
                    raise OSError(f"a package's tar holds {member.name!r}, not a file")
            tar.extractall(staging)
        os.replace(staging, cache)
    except OSError:
        shutil.rmtree(staging, ignore_errors=True)
        if not (cache / name).is_dir():
            raise
    return cache / name


def _convert_on_node(
    path: str, digest: str, shipped: list[Any], options: BuildOptions
) -> Conversion:
    import ray

    root = Path(path)
    if not (root.is_dir() and package_digest(root) == digest):
        root = _unpacked(root.name, digest, ray.get(shipped[0]))
    with SandboxPool(2) as pool:
        found = convert(root, pool, options)
    if found.row is not None:  # (named by the driver's path, as a local build names it)
        found = replace(found, row=replace(found.row, source=path))
    return found


def ray_outcomes(
    address: str, packages: list[Path], options: BuildOptions, window: int = 64
) -> Iterator[tuple[Path, Conversion]]:
    with connected(address) as ray:
        task = ray.remote(_convert_on_node)

        def submit(path: Path) -> Any:
            root = path.resolve()
            shipped = [ray.put(_tar(root))]  # (inside a list: pulled only when needed)
            return task.remote(str(root), package_digest(root), shipped, options)

        yield from ordered_window(packages, submit, ray.get, window)
