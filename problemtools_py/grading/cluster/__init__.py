"""Grading on a Ray cluster: nodes (``gradecode --ray``: one actor per node, lines
sent in order, results written as they come) and actors (``gradeserver --ray``: the
service's workers as actors, each with a Grader of its own)."""
