"""413 over the size limit; 429 over the per-day or total limit; failures do not count."""

from django.core.files.uploadedfile import SimpleUploadedFile

from leaderboard.models import Submission


def upload(client, text, system="sys"):
    return client.post(
        "/api/tasks/small/submissions/",
        {"file": SimpleUploadedFile("o.txt", text.encode()), "system_name": system},
        format="multipart",
    )


def test_over_the_size_limit_is_413(small_texts, phase, alice_client):
    phase.max_upload_mb = 0.0001  # about 100 bytes
    phase.save()
    response = upload(alice_client, small_texts["T5"])
    assert response.status_code == 413
    assert "bytes" in response.json()["errors"][0]["message"]
    assert not Submission.objects.exists()


def test_total_limit_is_429_and_failed_ones_do_not_count(small_texts, phase, alice_client):
    phase.max_total = 1
    phase.save()
    assert upload(alice_client, small_texts["T5"]).status_code == 201
    Submission.objects.update(status=Submission.Status.FAILED)
    assert upload(alice_client, small_texts["BART"]).status_code == 201
    response = upload(alice_client, small_texts["T5"])
    assert response.status_code == 429
    assert "submissions" in response.json()["errors"][0]["message"]


def test_per_day_limit_is_429(small_texts, phase, alice_client):
    phase.max_per_day = 1
    phase.save()
    assert upload(alice_client, small_texts["T5"]).status_code == 201
    assert upload(alice_client, small_texts["BART"]).status_code == 429
