"""raycluster: why a Ray cluster cannot be joined, in one line. The version mismatch is
Ray's own exception (made by Ray's own check, against a cluster that says it runs
another version: no second Ray install on this machine); the other cases run against
real clusters in tests/grading/test_cluster.py."""

from __future__ import annotations

import pytest

from problemtools_py.errors import FatalError
from problemtools_py.raycluster import _reachable, _why

ray = pytest.importorskip("ray")


def test_another_ray_version_says_what_to_install() -> None:
    from ray._private.utils import check_version_info, compute_version_info

    ours, python = compute_version_info()
    with pytest.raises(RuntimeError) as raised:
        check_version_info({"ray_version": "2.41.0", "python_version": python}, "here")
    said = _why("10.0.0.5:6379", raised.value)
    assert said == ("the Ray cluster at 10.0.0.5:6379 runs another Ray or Python version than "
                    f"this machine; install the cluster's here: pip install ray==2.41.0 with "
                    f"Python {python}")  # fmt: skip
    assert ours != "2.41.0"


def test_no_local_cluster_for_auto() -> None:
    said = _why("auto", ConnectionError("Could not find any running Ray instance. Please "
                                        "specify the one to connect to"))  # fmt: skip
    assert "no Ray cluster runs on this machine" in said and "ray start --head" in said


def test_nothing_listening_is_said_before_rays_retries() -> None:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # (bound, not listening: refused)
        with pytest.raises(FatalError, match=f"no Ray cluster answers at ray://127.0.0.1:{port}"):
            _reachable(f"ray://127.0.0.1:{port}")
    _reachable("auto")  # (no host:port: Ray finds the cluster itself)
