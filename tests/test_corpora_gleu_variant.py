"""A phase chooses its GLEU: the official compute_gleu or the PyPI gleu tool as
MultiGEC-2025 ran it; its submissions are scored, and signed, with that variant."""
import pytest
from django.contrib.auth.models import User

import scoring
from leaderboard.models import MetricResult
from leaderboard.services.intake import accept_submission
from tests.corpora_support import LANGUAGES, corpora_task, corpus, text, zipped

pytestmark = pytest.mark.django_db
SOURCE = ["Я вчора ходив до школа .", "Це гарна ідея .", "Він читав книга ."]
REF1 = ["Я вчора ходив до школи .", "Це гарна ідея .", "Він читав книгу ."]
REF2 = ["Вчора я ходив до школи .", "Це гарна ідея .", "Він читав книжку ."]
HYP = ["Я вчора ходив до школи .", "Це гарна ідея .", "Він читав книга ."]


@pytest.mark.parametrize("variant", ["official", "multigec"])
def test_the_phase_variant_scores_and_signs(variant, django_capture_on_commit_callbacks):
    phase = corpora_task(f"gleu-{variant}", [corpus("uk-a", "uk", SOURCE, REF1, REF2), corpus("cs-b", "cs", *LANGUAGES["cs"])], metrics=("gleu",), gleu_variant=variant)
    with django_capture_on_commit_callbacks(execute=True):
        upload = accept_submission(phase, User.objects.create_user("ana"), system_name="s", filename="s.zip", content=zipped({"uk-a.txt": text(HYP)}))
    output = upload.corpus_outputs.get()
    stored = MetricResult.objects.get(submission=output, metric="gleu").scores["score"]
    dataset = scoring.Dataset.from_text(SOURCE, [REF1, REF2], lang="uk")
    expected = scoring.score_systems(dataset, [scoring.hypothesis_from_lines(dataset, HYP, "s")], ["gleu"], scoring.ScoringOptions(gleu_variant=variant))
    assert stored == pytest.approx(expected.systems["s"]["gleu"]["score"])
    assert f"variant:{variant}" in output.signature
