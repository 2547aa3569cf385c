"""``auditdata`` and ``generatedata --fuzz``: how strong a package's (or a dataset's) tests
are. Wrong programs (mutants of a reference, see mutants and mutants_c; the package's
own; given ones) run on every case (package: a package, dataset: a dataset's rows);
fresh random inputs (fuzz, shaped_cases) find what the tests miss. Judged by the one
engine below every product (judging), never through verifyproblem."""
