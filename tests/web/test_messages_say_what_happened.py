"""Messages that say what really happened: "check your email" says, in
the embedded mode (no mail server: mails are printed), that the link is in the server's
terminal; the upload page tells a team that awaits approval so, not that its file was
refused."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from leaderboard.models import SharedTask, Team
from leaderboard.services.accounts.signup import CONSOLE_MAIL
from tests.support.task_pages_support import OUTPUT, SLUG, client_of, season_task

pytestmark = pytest.mark.django_db
SMTP = "django.core.mail.backends.smtp.EmailBackend"


@pytest.mark.parametrize("path", ["/accounts/signup/sent/", "/accounts/password_reset/done/"])
def test_check_your_email_says_where_the_link_is(client, settings, path):
    settings.EMAIL_BACKEND = CONSOLE_MAIL
    page = client.get(path).content.decode()
    assert 'id="mail-printed"' in page and "in the terminal it runs in" in page
    settings.EMAIL_BACKEND = SMTP
    assert 'id="mail-printed"' not in client.get(path).content.decode()


def test_an_address_change_says_where_the_link_is(client, settings, django_user_model):
    settings.EMAIL_BACKEND = CONSOLE_MAIL
    client.force_login(django_user_model.objects.create_user("mia", "mia@example.org", "pw"))
    answer = client.post("/accounts/profile/", {"email": "mia@example.net", "notify_by_email": "on"}, follow=True)
    assert "the link is there" in answer.content.decode()


def test_a_team_awaiting_approval_is_not_told_its_file_was_refused():
    season_task(signup=SharedTask.Signup.APPROVAL)
    Team.objects.filter(name="P").update(approved=False)
    answer = client_of("participant").post(
        f"/tasks/{SLUG}/submit/?phase=dev", {"system_name": "s", "file": SimpleUploadedFile("s.txt", OUTPUT.encode())}
    )
    page = answer.content.decode()
    assert answer.status_code == 403 and "waits for the organizers&#x27; approval before it may submit" in page
    assert "not accepted" not in page
