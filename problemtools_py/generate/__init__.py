"""``generatedata``: test data that writes itself: ``generators/generators.yaml`` read into a plan
(:mod:`.parse`), then run in the sandbox into ``data/`` (:mod:`.runner`)."""

DEFAULT_SECONDS = 60.0  # CPU seconds a generator or solution may use per test case
