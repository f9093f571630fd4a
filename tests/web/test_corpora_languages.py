"""All 12 MultiGEC-2025 languages and Chinese through the platform: a task of one corpus
per language, one zip upload, every corpus scored with its language and on the board."""

import pytest
from django.contrib.auth.models import User

from leaderboard.models import Submission
from leaderboard.services.submissions.intake import accept_submission
from leaderboard.standings import board_rows
from tests.support.corpora_support import LANGUAGES, corpora_task, language_corpus, text, zipped

pytestmark = pytest.mark.django_db


@pytest.mark.slow  # every language's pipeline loaded and scored: over a minute
def test_every_language_is_scored_and_shown(client, django_capture_on_commit_callbacks):
    phase = corpora_task("thirteen", [language_corpus(lang) for lang in LANGUAGES])
    assert {c.corpus: c.dataset.lang for c in phase.corpora()} == {f"{lang}-test": lang for lang in LANGUAGES}
    user = User.objects.create_user("ana")
    files = {f"{lang}-test.txt": text(reference) for lang, (_, reference) in LANGUAGES.items()}
    with django_capture_on_commit_callbacks(execute=True):  # the queue's turn (sync mode scores inline)
        upload = accept_submission(phase, user, system_name="perfect", filename="perfect.zip", content=zipped(files))
    upload.refresh_from_db()
    assert upload.status == Submission.Status.SCORED, upload.error
    outputs = upload.corpus_outputs.select_related("phase__dataset")
    assert sorted(o.phase.dataset.lang for o in outputs) == sorted(LANGUAGES)
    assert all(o.status == Submission.Status.SCORED for o in outputs)
    [row] = board_rows(phase.pk, "errant.cs.f")
    assert row["submission_id"] == upload.pk and set(row["corpora"]) == {f"{lang}-test" for lang in LANGUAGES}
    for lang in LANGUAGES:
        scores = row["corpora"][f"{lang}-test"]
        assert scores["errant"]["cs"]["f"] == pytest.approx(1.0), lang  # the reference itself: every edit found
        assert scores["gleu"]["score"] > 0.5, lang
    assert row["value"] == pytest.approx(1.0)  # the macro average
    page = client.get("/tasks/thirteen/").content.decode()
    for lang in LANGUAGES:
        assert f'data-corpus="{lang}-test"' in page
