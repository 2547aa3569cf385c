"""Every run in a session starts from a state no earlier run touched (issue: state that
survived between tests and completions, and runs that sank later ones): its scratch file
systems are new whenever a run changed them, and nothing it did to them shows later."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from problemtools_py.sandbox.client import Sandbox
from problemtools_py.sandbox.protocol import Bind
from problemtools_py.sandbox.results import Limits

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="full isolation needs root")
LIMITS = Limits(cpu_seconds=10.0, memory_bytes=512 << 20, output_bytes=1 << 20)

SPOIL = """import os
os.chdir('/tmp')
for _ in range(3000):  # a tree deeper than shutil.rmtree's recursion limit
    os.mkdir('d')
    os.chdir('d')
os.chdir('/work')
full = 0
try:  # fill /tmp to the last byte
    for n in range(1000):
        with open(f'/tmp/fill{n}', 'wb') as f:
            for _ in range(16):
                f.write(b'x' * (1 << 20))
                full += 1
except OSError:
    pass
open('/dev/shm/sem.left', 'w').write('x')
os.setxattr('/work', 'user.note', b'the answer is 42')
os.utime('/work', (12345, 12345))
os.chmod('/work', 0o500)
print(full)
"""

CHECK = """import os, stat
st = os.stat('/work')
print(sorted(os.listdir('/tmp')), sorted(os.listdir('/work')), sorted(os.listdir('/dev/shm')))
print(oct(stat.S_IMODE(st.st_mode)), st.st_uid, os.listxattr('/work'), st.st_mtime > 12345)
with open('/tmp/big', 'wb') as f:
    for _ in range(32):
        f.write(b'y' * (1 << 20))
open('/work/out', 'w').write('ok')
print('wrote')
"""


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Sandbox]:
    tmp_path.chmod(0o755)
    (tmp_path / "spoil.py").write_text(SPOIL)
    (tmp_path / "check.py").write_text(CHECK)
    with Sandbox() as box, box.session(limits=LIMITS, binds=[Bind(str(tmp_path), "/prog")]):
        yield box


def test_a_run_that_spoils_its_scratch_space_spoils_nothing_for_the_next(session: Sandbox) -> None:
    spoiled = session.run(["python3", "/prog/spoil.py"], limits=LIMITS)
    assert spoiled.ok and int(spoiled.stdout) >= 48, spoiled.stderr  # MiB written to /tmp
    for _ in range(2):  # and again after a clean run
        checked = session.run(["python3", "/prog/check.py"], limits=LIMITS)
        assert checked.ok, checked.stderr
        assert checked.stdout.decode().splitlines() == [
            "[] [] []", f"0o755 {session.user[0]} [] True", "wrote"]


def test_an_untouched_scratch_space_is_kept_and_stays_clean(session: Sandbox) -> None:
    for _ in range(50):
        assert session.run(["true"], limits=LIMITS).ok
    checked = session.run(["python3", "/prog/check.py"], limits=LIMITS)
    assert checked.ok and checked.stdout.decode().splitlines()[0] == "[] [] []"
