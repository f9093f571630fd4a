"""A phase's references as files: organizers always; participants only when the organizers
publish a dev phase's references, and never a test phase's (a test key, or results not
public while open), whatever the phase's flag says, in every state."""

import pytest

from leaderboard.models import Phase
from tests.support.task_pages_support import (
    REFERENCE,
    SLUG,
    STATES,
    VIEWERS,
    api_client_of,
    client_of,
    season_task,
    set_state,
)

pytestmark = pytest.mark.django_db
SECRET_LINE = REFERENCE.splitlines()[1]


@pytest.fixture
def task(db):
    task = season_task()
    Phase.objects.filter(task=task).update(references_public=True)  # test included: the flag must not be enough
    return task


def answers(viewer: str, kind: str):
    yield client_of(viewer).get(f"/tasks/{SLUG}/references/?phase={kind}")
    yield api_client_of(viewer).get(f"/api/tasks/{SLUG}/references/?phase={kind}")


@pytest.mark.parametrize("state", STATES)
@pytest.mark.parametrize("viewer", VIEWERS)
def test_published_dev_references_follow_the_inputs_rule(task, viewer, state):
    set_state(task.phases.get(kind="dev"), state)
    for answer in answers(viewer, "dev"):
        if viewer == "organizer" or (viewer != "anonymous" and state != "upcoming"):
            assert answer.status_code == 200 and answer.content.decode() == REFERENCE
            assert answer["Content-Disposition"] == f'attachment; filename="{SLUG}-dev.ref0.txt"'
        else:
            assert answer.status_code in (401, 403) and SECRET_LINE.encode() not in answer.content


@pytest.mark.parametrize("state", STATES)
@pytest.mark.parametrize("viewer", VIEWERS)
def test_test_references_stay_with_the_organizers(task, viewer, state):
    set_state(task.phases.get(kind="test"), state)
    for answer in answers(viewer, "test"):
        if viewer == "organizer":
            assert answer.status_code == 200 and answer.content.decode() == REFERENCE
        else:
            assert answer.status_code in (401, 403) and SECRET_LINE.encode() not in answer.content


def test_a_dev_phase_with_hidden_results_counts_as_a_test(task):
    Phase.objects.filter(task=task, kind="dev").update(results_visibility=Phase.Visibility.AFTER_END)
    answer = client_of("participant").get(f"/tasks/{SLUG}/references/?phase=dev")
    assert answer.status_code == 403 and b"never published" in answer.content


def test_unpublished_dev_references_say_so(task):
    Phase.objects.filter(task=task).update(references_public=False)
    answer = api_client_of("participant").get(f"/api/tasks/{SLUG}/references/?phase=dev")
    assert answer.status_code == 403 and "have not published" in answer.json()["detail"]


def test_the_phase_form_refuses_to_publish_test_references(task):
    organizer = client_of("organizer")
    form = organizer.get(f"/tasks/{SLUG}/phases/test/edit/").context["form"]
    data = {k: v for k, v in form.initial.items() if v is not None and k not in ("references_public", "blind")}
    data.update(starts_at=form.initial["starts_at"], references_public="on")
    answer = organizer.post(f"/tasks/{SLUG}/phases/test/edit/", data)
    assert answer.status_code == 400 and "never publishes its references" in answer.content.decode()
    data["kind"] = "dev"
    answer = organizer.post(f"/tasks/{SLUG}/phases/dev/edit/", {**data, "results_visibility": "public"})
    assert answer.status_code == 302 and Phase.objects.get(task=task, kind="dev").references_public


def test_the_task_api_says_which_phases_publish_their_references(task):
    phases = api_client_of("anonymous").get(f"/api/tasks/{SLUG}/").json()["phases"]
    assert {p["kind"]: p["references_public"] for p in phases} == {"dev": True, "test": False}
