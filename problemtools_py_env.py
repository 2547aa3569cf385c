"""The verifiers taskset id ``problemtools-py-env`` (verifiers imports a taskset by a
top-level module name): problemtools_py.verifiers_env's taskset, exported as verifiers
asks."""

from problemtools_py.verifiers_env import CodeTaskset

__all__ = ["CodeTaskset"]
