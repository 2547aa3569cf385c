"""Submissions of a 2025-09 package where legacy tools look for them: one in a directory
legacy lacks (``rejected/``, ``brute_force/``, a ``submissions.yaml`` category) moves to
the legacy directory of its claim; a claim no directory carries stays in the file's own
``@EXPECTED_RESULTS@`` tag at ``submissions/`` (the seed's legacy reads it), or, for
DOMjudge, is written into the file as that tag."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import PurePosixPath

from problemtools_py.convert.versions.upgrade import claim_of, directory_of
from problemtools_py.convert.versions.upgrade_config import Note
from problemtools_py.model.expectations import LEGACY_CLAIMS
from problemtools_py.model.problem import Problem, Submission
from problemtools_py.verdicts import Verdict, domjudge_name

LEGACY_DIRS = frozenset(LEGACY_CLAIMS)
COMMENT = {"python3": "#", "python2": "#", "ruby": "#", "bash": "#", "c": "//", "cpp": "//",
           "java": "//", "kotlin": "//", "javascript": "//", "go": "//", "rust": "//",
           "csharp": "//", "scala": "//", "swift": "//"}  # fmt: skip


@dataclass
class Moved:
    """Submissions moved into legacy's verdict directories: the files, the sources taken, notes."""

    files: dict[str, bytes | str] = field(default_factory=dict)
    taken: set[str] = field(default_factory=set)
    notes: list[Note] = field(default_factory=list)


def _files(submission: Submission) -> tuple[str, ...]:
    return submission.program.files if submission.program.is_dir else (submission.rel,)


def _tagged(problem: Problem, submission: Submission, moved: Moved) -> bytes | None:
    """The submission's one file with its claim as a DOMjudge tag on top, or None."""
    permitted, required = (
        claim_of(submission.expectation) if submission.expectation else (None, None)
    )
    comment = COMMENT.get(submission.program.language or "")
    if submission.program.is_dir or comment is None:
        return None
    verdicts = [domjudge_name(Verdict(v)) for v in (required or permitted or ())]
    if not verdicts:
        return None
    line = f"{comment} @EXPECTED_RESULTS@: {', '.join(verdicts)}\n".encode()
    moved.notes.append(Note("changed", submission.rel, f"its claim as {line.decode().strip()}"))
    return line + (problem.root / submission.rel).read_bytes()


def downgrade_submissions(problem: Problem, tag_claims: bool) -> Moved:
    moved = Moved()
    if problem.file("submissions/submissions.yaml") is not None:
        moved.notes.append(
            Note(
                "dropped",
                "submissions/submissions.yaml",
                "legacy has no such file: each submission's directory is its claim",
            )
        )
        moved.taken.add("submissions/submissions.yaml")
    for submission in problem.submissions:
        if submission.category in LEGACY_DIRS:
            continue
        claim = claim_of(submission.expectation) if submission.expectation else (None, None)
        directory = directory_of(claim)
        name = PurePosixPath(submission.rel).name
        moved.taken |= set(_files(submission)) | {submission.rel}
        if directory != "rejected":
            target = f"submissions/{directory}/{name}"
        elif submission.tags:  # its own tag says it
            target = f"submissions/{name}"
        else:
            tagged = _tagged(problem, submission, moved) if tag_claims else None
            if tagged is None:
                moved.notes.append(
                    Note(
                        "unmappable",
                        submission.rel,
                        "its claim has no legacy directory (legacy has no rejected/)",
                    )
                )
            else:
                moved.files[f"submissions/{name}"] = tagged
            continue
        for rel in _files(submission):
            moved.files[target + rel[len(submission.rel) :]] = rel
        moved.notes.append(
            Note("changed", submission.rel, f"now {target}: the legacy directory of its claim")
        )
    return moved
