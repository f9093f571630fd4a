"""A failure the file caused counts against the team's limits; one the platform caused
does not (failed uploads could be repeated without end)."""

import pytest

from leaderboard.models import Submission
from leaderboard.services.scoring_jobs.submission import INPUT, PLATFORM, fail_submission, score_submission
from leaderboard.services.submissions.intake import OverLimit, check_limits, team_of


def submit(phase, team, content: bytes) -> Submission:
    return Submission.objects.create(
        phase=phase, team=team, system_name="s", filename="s.txt", content=content, size=len(content)
    )


@pytest.fixture
def limited(phase):
    phase.max_total = 1
    phase.save()
    return phase


def test_a_file_the_scorer_refuses_fails_as_input_and_counts(limited, alice):
    team = team_of(alice, limited.task)
    submission = submit(limited, team, b"too short\n")
    assert score_submission(submission.pk) == "failed"
    submission.refresh_from_db()
    assert submission.failure_cause == "input" and "line" in submission.error
    with pytest.raises(OverLimit):
        check_limits(limited, team)


def test_memory_exhausted_while_scoring_is_the_files_fault(limited, alice, small_texts, monkeypatch):
    import scoring

    def exhausted(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(scoring, "read_hypothesis", exhausted)
    submission = submit(limited, team_of(alice, limited.task), small_texts["T5"].encode())
    assert score_submission(submission.pk) == "failed"
    submission.refresh_from_db()
    assert submission.failure_cause == "input" and "more memory than a worker has" in submission.error


def test_a_platform_failure_does_not_count(limited, alice):
    team = team_of(alice, limited.task)
    fail_submission(submit(limited, team, b"x\n").pk, "internal error while scoring: database gone", cause=PLATFORM)
    check_limits(limited, team)  # still free to submit
    fail_submission(submit(limited, team, b"x\n").pk, "the scoring worker stopped twice", cause=INPUT)
    with pytest.raises(OverLimit):
        check_limits(limited, team)
