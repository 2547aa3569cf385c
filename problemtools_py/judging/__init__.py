"""How a submission is judged on a package: the one engine below every product.

A :class:`~problemtools_py.judging.session.Session` (a package's workbench with a frozen
:class:`~problemtools_py.judging.session.Policy`: whose rules judge, whether every case
runs, the time limit's inputs) is what the engine asks of its caller. Then:
``submission_judge.SubmissionJudge`` runs a program on the cases (``rounds``: which, in
what order; ``sharing``: the case queue idle threads take from; ``breaks``: legacy's
stops at a group's first failure), ``answers.AnswerChecker`` judges each output with the
output validator, ``judged.JudgedCase`` is a case's outcome, ``scoring.Scorer`` grades
the outcomes over the test groups (``domjudge_scoring``: DOMjudge's rule) and
``visualize`` draws outputs. verifyproblem, runsubmission, auditdata, the RL grader of
problems with their own judge and kattis2parquet all judge through it."""
