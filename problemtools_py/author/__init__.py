"""The problem author's own commands beside verifyproblem: ``runsubmission`` (one program
on chosen cases, shown as a contestant would see it) and ``conteststats`` (a contest's
packages at a glance, from their verifications)."""
