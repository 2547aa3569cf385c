"""``newproblem`` and ``newcontest``: new packages that verify clean at once (skeleton;
the files of each problem type in skeleton_texts and skeleton_games)."""
