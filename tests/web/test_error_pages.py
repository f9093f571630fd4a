"""403, 404 and 500 in the site's layout (DEBUG off); a 403 says who may see the page and until when."""

import datetime as dt

import pytest
from django.contrib.auth.models import User
from django.test import RequestFactory
from django.views.defaults import server_error

from leaderboard.services.hosting.task_creation import create_task
from tests.conftest import SUBSET_OUTPUTS, SUBSET_REFS, insight_head

pytestmark = pytest.mark.django_db
LINES = 4


@pytest.fixture
def hidden_test_phase(db):
    task = create_task(
        "errors",
        title="Errors",
        source=insight_head(SUBSET_OUTPUTS / "INPUT.txt", LINES),
        metrics=["errant", "gotoscorer"],
        references=[(p.stem, insight_head(p, LINES)) for p in SUBSET_REFS],
        kind="test",
        results_visibility="organizers",
        ends_at=dt.datetime(2027, 3, 1, 12, tzinfo=dt.UTC),
    )
    return task.phases.get()


def test_404_is_friendly_and_in_the_layout(client, settings):
    assert settings.DEBUG is False
    response = client.get("/tasks/no-such-task/")
    html = response.content.decode()
    assert (
        response.status_code == 404
        and "There is nothing here" in html
        and "GEC leaderboard" in html
        and "All shared tasks" in html
    )
    assert "Traceback" not in html and "URLconf" not in html


def test_403_says_who_may_see_the_heat_map_and_when(client, hidden_test_phase):
    client.force_login(User.objects.create_user("pat", password="pw"))
    response = client.get("/tasks/errors/difficulty/")
    assert response.status_code == 403
    assert (
        "The difficulty map shows the hidden references: organizers only until the test phase ends on "
        "2027-03-01 12:00 UTC"
        " and its results are revealed." in response.content.decode()
    )


def test_403_of_hidden_results_says_until_the_organizers_reveal_them(client, hidden_test_phase):
    response = client.get("/tasks/errors/per-type/")
    html = response.content.decode()
    assert (
        response.status_code == 403
        and "The results of the test phase are hidden: organizers only until the organizers reveal them." in html
    )
    assert "log in</a>" in html


def test_500_is_in_the_layout_without_a_request_context():
    response = server_error(RequestFactory().get("/"))
    html = response.content.decode()
    assert response.status_code == 500 and "Something went wrong on our side" in html and "GEC leaderboard" in html
