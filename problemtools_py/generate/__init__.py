"""Test data that writes itself: ``generators/generators.yaml`` read into a plan
(:mod:`.parse`), then run in the sandbox into ``data/`` (:mod:`.runner`)."""
