"""My submissions and one submission's page: status, scores, which counts, per-type, CLEME2.0 sentences, per-sentence
downloads, actions."""

import csv
import io
import json

import pytest
from django.contrib.auth.models import User
from django.test import Client

from leaderboard.models import MetricResult, Submission
from leaderboard.services.submissions.intake import accept_submission
from tests.conftest import SUBSET_OUTPUTS, ensure_cleme2_results, insight_head

pytestmark = pytest.mark.django_db
LINES = 20  # the insight task's


@pytest.fixture
def alice(insight_task):
    client = Client()
    client.force_login(User.objects.get(username="alice"))
    return client


def test_the_list_shows_status_scores_and_which_counts(insight_task, alice):
    t5 = insight_task["submissions"]["T5"]
    html = alice.get("/tasks/insight/submissions/").content.decode()
    row = html.split(f'data-submission="{t5.pk}"')[1].split("</tr>")[0]
    assert 'data-status="scored"' in row and "ERRANT F 0." in row and "<b>counts</b>" in row
    assert "BART" not in html  # bob's


def test_a_failed_submission_shows_its_error_and_can_be_deleted(insight_task, alice):
    from leaderboard.services.scoring_jobs.submission import fail_submission

    phase = insight_task["phase"]
    content = insight_head(SUBSET_OUTPUTS / "BART.txt", LINES).encode()
    failed = accept_submission(
        phase, User.objects.get(username="alice"), system_name="broken", filename="b.txt", content=content, queue=False
    )
    fail_submission(failed.pk, "line 7: something the team can fix", cause="input")
    html = alice.get("/tasks/insight/submissions/").content.decode()
    assert "line 7: something the team can fix" in html
    assert alice.post(f"/tasks/insight/submissions/{failed.pk}/delete/", {"confirmed": "yes"}).status_code == 302
    assert not Submission.objects.filter(pk=failed.pk).exists()
    t5 = insight_task["submissions"]["T5"]
    refused = alice.post(
        f"/tasks/insight/submissions/{t5.pk}/delete/", {"confirmed": "yes"}, follow=True
    ).content.decode()
    assert "only a failed submission can be deleted" in refused and Submission.objects.filter(pk=t5.pk).exists()


def test_the_list_follows_a_pending_submission(insight_task, alice):
    content = insight_head(SUBSET_OUTPUTS / "BART.txt", LINES).encode()
    pending = accept_submission(
        insight_task["phase"],
        User.objects.get(username="alice"),
        system_name="slow",
        filename="s.txt",
        content=content,
        queue=False,
    )
    Submission.objects.filter(pk=pending.pk).update(status="running", progress=0.4)
    rows = alice.get("/tasks/insight/submissions/rows/").content.decode()
    assert 'data-pending="1"' in rows and "40%" in rows
    state = alice.get(f"/api/submissions/{pending.pk}/status/").json()
    assert state == {"id": pending.pk, "status": "running", "finished": False, "progress": 0.4}


def test_the_detail_page_has_every_score_the_per_type_table_and_sentences(insight_task, alice):
    t5 = insight_task["submissions"]["T5"]
    ensure_cleme2_results([t5])
    html = alice.get(f"/tasks/insight/submissions/{t5.pk}/").content.decode()
    assert 'id="scores"' in html and "errant.cs.f" in html and "gotoscorer.f" in html
    assert 'id="per-type"' in html and 'id="sentences"' in html and 'class="sentence"' in html
    assert 'id="per-sentence-csv"' in html and "counts" in html
    assert alice.get(f"/tasks/insight/submissions/{t5.pk}/?cat=3").status_code == 200


def test_per_sentence_csv_rows_sum_to_the_corpus_counts(insight_task, alice):
    t5 = insight_task["submissions"]["T5"]
    response = alice.get(f"/tasks/insight/submissions/{t5.pk}/per-sentence/?format=csv")
    assert response["Content-Type"].startswith("text/csv") and "attachment" in response["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert [int(r["line"]) for r in rows] == list(range(1, LINES + 1))
    corpus = MetricResult.objects.get(submission=t5, metric="errant").scores["cs"]
    for key in ("tp", "fp", "fn"):
        assert sum(int(r[f"errant {key}"]) for r in rows) == corpus[key]
    assert {"gotoscorer needed", "gotoscorer corrected"} <= set(rows[0])


def test_per_sentence_json_has_the_same_rows(insight_task, alice):
    t5 = insight_task["submissions"]["T5"]
    body = json.loads(alice.get(f"/tasks/insight/submissions/{t5.pk}/per-sentence/?format=json").content)
    assert len(body["rows"]) == LINES and body["columns"][0] == "line" and "errant f" in body["rows"][0]


def test_the_uploaded_file_comes_back(insight_task, alice):
    t5 = insight_task["submissions"]["T5"]
    assert alice.get(f"/tasks/insight/submissions/{t5.pk}/file/").content == bytes(
        Submission.objects.get(pk=t5.pk).content
    )


def test_withdraw_takes_it_off_the_board_and_restore_brings_it_back(insight_task, alice):
    t5 = insight_task["submissions"]["T5"]
    alice.post(f"/tasks/insight/submissions/{t5.pk}/withdraw/", {"confirmed": "yes"})
    assert (
        f'data-submission="{t5.pk}"'
        not in Client().get("/tasks/insight/").content.decode().split('id="leaderboard"')[1]
    )
    assert "withdrawn" in alice.get("/tasks/insight/submissions/").content.decode()
    alice.post(f"/tasks/insight/submissions/{t5.pk}/restore/")
    assert f'data-submission="{t5.pk}"' in Client().get("/tasks/insight/").content.decode()


def test_my_submissions_without_a_team_points_to_the_team_page(insight_task):
    client = Client()
    client.force_login(User.objects.create_user("loner", password="pw"))
    assert "register or join one" in client.get("/tasks/insight/submissions/").content.decode()
    assert Client().get("/tasks/insight/submissions/").status_code == 302
