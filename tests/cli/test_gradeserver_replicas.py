"""``gradeserver --replicas 2`` on loopback: two services behind one port (the kernel
spreads connections), 512 concurrent clients and 2,048 requests (none lost, none twice,
every reward the real gradecode's), each replica's own /metrics on port + k showing
its share and its load, and one SIGTERM that stops them all, leaving nothing behind."""

from __future__ import annotations

import asyncio
import re
import signal
import subprocess
from pathlib import Path

from aiohttp import ClientSession

from tests.cli.test_gradeserver import BIN, _load, dataset, graded_by_gradecode  # noqa: F401
from tests.grading.test_grader import nobody


def test_512_clients_across_two_replicas(dataset: Path, tmp_path: Path) -> None:  # noqa: F811
    items, expected = graded_by_gradecode(dataset, tmp_path, 2048)
    server = subprocess.Popen(
        [str(BIN / "gradeserver"), str(dataset), "--port", "0", "--replicas", "2", "-j", "1",
         "--queue", "64"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    try:
        assert server.stdout is not None
        said = server.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)", said)
        assert match is not None, said
        port = int(match[1])
        ready = [server.stdout.readline() for _ in range(2)]
        assert all("listening on" in line for line in ready), ready
        url = f"http://127.0.0.1:{port}"
        answers, busy = asyncio.run(_load(url, items, clients=512))
        assert answers == expected and sorted(answers) == list(range(2048))
        shares = asyncio.run(_shares(port))
        assert all(share > 0 for share in shares), shares  # (both served)
        assert sum(shares) == 2048 + busy
    finally:
        server.send_signal(signal.SIGTERM)
        _, err = server.communicate(timeout=120)
    assert server.returncode == 0, err
    assert nobody() == []


async def _shares(port: int) -> list[int]:
    """Each replica's /grade requests, from its own /metrics (on port + k)."""
    found = []
    async with ClientSession() as client:
        for k in (1, 2):
            async with client.get(f"http://127.0.0.1:{port + k}/metrics") as response:
                text = await response.text()
            assert f'gradeserver_load{{replica="{k}"}}' in text, text
            match = re.search(rf'requests_total{{endpoint="/grade",replica="{k}"}} (\d+)', text)
            found.append(int(match[1]) if match else 0)
    return found
