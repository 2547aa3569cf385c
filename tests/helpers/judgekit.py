"""Shared fixtures for tests that compile and run programs."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from problemtools_py.judge.compile import Builder, Executable
from problemtools_py.judge.languages import Languages
from problemtools_py.sandbox.pool import SandboxPool
from problemtools_py.sandbox.results import Limits

COMPILE_LIMITS = Limits(cpu_seconds=60, memory_bytes=2 << 30, output_bytes=1 << 20, processes=256)


class Kit:
    def __init__(self, pool: SandboxPool, builder: Builder, languages: Languages) -> None:
        self.pool, self.builder, self.languages = pool, builder, languages

    def build(self, name: str, source: str | bytes, lang: str | None = None) -> Executable:
        language = self.languages.get(lang) if lang else self.languages.detect([name])
        assert language is not None, name
        data = source.encode() if isinstance(source, str) else source
        build = self.builder.build(language, {name: data})
        assert build.executable is not None, build.message
        return build.executable

    def build_file(self, path: Path) -> Executable:
        return self.build(path.name, path.read_bytes())


@pytest.fixture(scope="session")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Kit]:
    cache = tmp_path_factory.mktemp("cache")
    with SandboxPool(4) as pool:
        yield Kit(pool, Builder(pool, COMPILE_LIMITS, cache), Languages.load())
