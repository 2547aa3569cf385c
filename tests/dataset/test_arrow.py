"""The commands' pyarrow, imported without numpy: it reads the dataset without loading
numpy, and numpy still imports afterwards; where numpy is already loaded, nothing changes."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
from helpers.packages import run_python

SCRIPT = """
import sys
from problemtools_py.dataset.arrow import import_without_numpy
{before}
import_without_numpy()
import pyarrow.parquet as pq
rows = pq.ParquetFile(sys.argv[1]).read_row_group(0).to_pylist()
loaded = "numpy" in sys.modules
import numpy
print(rows[0]["problem_id"], loaded, numpy.__name__)
"""


def run(tmp_path: Path, before: str) -> str:
    path = tmp_path / "t.parquet"
    pq.write_table(pa.Table.from_pylist([{"problem_id": "ab", "tests_json": "[]"}]), path)
    done = run_python(SCRIPT.format(before=before), str(path))
    return done.stdout.strip()


def test_pyarrow_reads_without_numpy(tmp_path: Path) -> None:
    assert run(tmp_path, "") == "ab False numpy"


def test_a_process_with_numpy_keeps_it(tmp_path: Path) -> None:
    assert run(tmp_path, "import numpy") == "ab True numpy"
