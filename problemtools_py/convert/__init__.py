"""What writes into packages, grouped by what it is for: versions/ (upgradeproblem),
skeletons/ (newproblem, newcontest), zips/ (problem2zip); and beside them the edits
other commands make: augment (auditdata --augment), fuzzcases (generatedata --fuzz
--add), timelimits (verifyproblem --write-time-limit), roundtrip (YAML edited with its
comments kept)."""
