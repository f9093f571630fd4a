"""The green banner after an upload names the submission and follows its status (it polls
the team's channel file for it, which the proxy serves) instead of saying "queued" for ever."""

import json

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile

from leaderboard.services.boards.channels import submission_channel
from tests.conftest import SUBSET_OUTPUTS, insight_head

pytestmark = pytest.mark.django_db


def test_the_banner_follows_the_submission(insight_task, client):
    client.force_login(User.objects.get(username="alice"))
    upload = SimpleUploadedFile("bart.txt", insight_head(SUBSET_OUTPUTS / "BART.txt", 20).encode())
    html = client.post(
        "/tasks/insight/submit/?phase=dev", {"system_name": "again", "file": upload}, follow=True
    ).content.decode()
    banner = html.split('<ul class="messages">')[1].split("</ul>")[0]
    pk = int(banner.split('data-submission="')[1].split('"')[0])
    channel = submission_channel(pk).url
    assert f'data-follow="{channel}"' in banner and f"Submission {pk} is queued" in banner
    assert json.loads(client.get(channel).content) == {"id": pk, "status": "queued", "finished": False, "progress": 0.0}
    assert "data-follow" in html.split("<script>")[0] and "/static/leaderboard/live.js" in html
    from django.contrib.staticfiles import finders

    assert "banner.dataset.follow" in open(finders.find("leaderboard/live.js")).read()  # the one live module follows it
