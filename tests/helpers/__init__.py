"""What the tests share and are not tests: package builders, broken-package tables, the
sandbox kit, generated datasets, trainers' rows, a loopback model server, the fidelity
references. Imported as ``helpers.<module>`` (tests/ is on the path, see conftest.py)."""
