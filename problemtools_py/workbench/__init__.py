"""The workbench below the products: what verification, generation, dataset builds and
statement checks share to build and run a package's programs (``bench.Workbench``) and
the verdicts of deterministic runs kept by content (``cache.VerdictCache``)."""
