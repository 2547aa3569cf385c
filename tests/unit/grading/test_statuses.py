"""grading/results.py: one status word per outcome, the dataset's names, as strings."""

from __future__ import annotations

import json
import pickle

from problemtools_py.grading.results import NO_REWARD, STATUS_OF, GradeResult, Status
from problemtools_py.verdicts import Verdict


def test_a_status_is_its_word_in_json_and_in_comparisons() -> None:
    result = GradeResult(0.0, Status.WRONG_ANSWER, test=3)
    assert json.loads(json.dumps(result.as_dict()))["status"] == "wrong_answer"
    assert result.status == "wrong_answer" and f"{result.status}" == "wrong_answer"


def test_a_result_from_another_process_has_its_status_back() -> None:
    for status in Status:
        sent = GradeResult(None if status in NO_REWARD else 0.0, status).as_dict()
        for found in (json.loads(json.dumps(sent)), pickle.loads(pickle.dumps(sent))):
            back = GradeResult.from_dict(found)
            assert back.status is status and back == GradeResult(sent["reward"], status)


def test_every_verdict_of_a_run_has_the_datasets_word() -> None:
    """The card's words for what a program did (judge errors are the grader's, not a run's)."""
    assert {v for v in Verdict if v is not Verdict.JE} == set(STATUS_OF)
    assert [STATUS_OF[v] for v in (Verdict.AC, Verdict.WA, Verdict.TLE)] == [
        "ok", "wrong_answer", "timeout"]  # fmt: skip
