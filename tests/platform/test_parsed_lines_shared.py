"""Workers share parsed lines through the database: a restarted worker (an empty
process cache) scoring a line another worker parsed does not parse it again."""

import pytest

from leaderboard.models import ParsedLine
from leaderboard.services.data import datasets
from leaderboard.services.data.bounded import Bounded
from leaderboard.services.scoring_jobs.submission import score_submission
from leaderboard.services.submissions.intake import accept_submission
from scoring.nlp import parse_tokens
from scoring.pipelines import get_pipeline


@pytest.mark.django_db
def test_a_restarted_worker_reuses_stored_parses(phase, alice, small_texts, monkeypatch):
    first = accept_submission(
        phase,
        alice,
        system_name="T5",
        filename="T5.txt",
        content=small_texts["T5"].encode(),
        enforce_limits=False,
        queue=False,
    )
    assert score_submission(first.pk) == "scored"
    assert ParsedLine.objects.filter(dataset_id=phase.dataset_id).exists()
    monkeypatch.setattr(datasets, "_cache", Bounded(datasets.CACHED_DATASETS))  # a fresh process
    parsed = []

    def counting(lines):
        parsed.extend(lines)
        return parse_tokens(lines)

    monkeypatch.setattr(get_pipeline("en", "full"), "parse", counting)
    second = accept_submission(
        phase,
        alice,
        system_name="T5 again",
        filename="T5.txt",
        content=small_texts["T5"].encode(),
        enforce_limits=False,
        queue=False,
    )
    assert score_submission(second.pk) == "scored"
    assert parsed == []
    assert second.results.get(metric="errant").statistics == first.results.get(metric="errant").statistics
