"""POST /api/tasks/<slug>/submissions/ (docs/contracts.md section 3): 201, 400 by line, 401."""

from django.core.files.uploadedfile import SimpleUploadedFile

from leaderboard.models import MetricResult, Submission
from tests.conftest import jobs_queued


def upload(client, text, name="out.txt", system="sys", slug="small"):
    file = SimpleUploadedFile(name, text.encode() if isinstance(text, str) else text)
    return client.post(f"/api/tasks/{slug}/submissions/", {"file": file, "system_name": system}, format="multipart")


def test_accepted_upload_is_queued_after_commit(small_texts, phase, alice_client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:
        response = upload(alice_client, small_texts["T5"], system="T5")
    assert response.status_code == 201 and len(jobs_queued(callbacks)) == 1
    assert Submission.objects.get().status == "queued"


def test_accepted_upload_is_scored(small_texts, phase, alice_client, on_commit):
    with on_commit():
        response = upload(alice_client, small_texts["T5"], system="T5")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["status"] == "queued" and body["system_name"] == "T5"
    submission = Submission.objects.get(pk=body["id"])  # scored inline in the test settings
    assert submission.status == "scored" and submission.progress == 1.0
    assert set(MetricResult.objects.filter(submission=submission).values_list("metric", flat=True)) == {
        "errant",
        "gotoscorer",
    }
    detail = alice_client.get(f"/api/submissions/{submission.pk}/").json()
    assert detail["status"] == "scored" and 0 <= detail["scores"]["errant"]["cs"]["f"] <= 1
    assert detail["scores"]["gotoscorer"]["pool_size"] == 1


def test_bad_file_gets_every_problem_by_line_and_leaves_no_rows(small_texts, phase, alice_client):
    lines = small_texts["T5"].splitlines()
    lines[2] = "bad \x00 byte"
    lines[6] = "another \x07 bell"
    response = upload(alice_client, "\n".join(lines[:-1]) + "\n")
    assert response.status_code == 400
    problems = response.json()["errors"]
    assert {p["line"] for p in problems} >= {3, 7}
    assert any("lines" in p["message"] for p in problems)  # one line short
    assert not Submission.objects.exists() and not MetricResult.objects.exists()


def test_unauthenticated_upload_is_refused(small_texts, phase, client):
    response = client.post("/api/tasks/small/submissions/", {"system_name": "x"})
    assert response.status_code == 401


def test_unknown_task_is_404(alice_client, db):
    assert upload(alice_client, "x\n", slug="nope").status_code == 404
