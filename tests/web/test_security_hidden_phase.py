"""Hidden means hidden: a blind test phase whose results only organizers see leaks
nothing, in any state, through any page, fragment, endpoint or export.

A matrix: every URL of the site (``tests.web.site_urls``: new pages are covered as they are
added) x the phase's states (open, frozen, ended, revealed) x who asks (an anonymous
visitor, a signed-in user without a team, alice's team). Canaries mark what must stay
hidden: the references, bob's outputs, his superseded and failed uploads (file name,
description, error), and while the results are hidden the systems' names, the pool's
version and counts, and whether a blind upload has been scored. The organizer's answers
must contain the canaries, so the test would notice a leak.
"""

import datetime as dt
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from leaderboard.models import Phase, Pool, Submission
from tests.conftest import SUBSET_OUTPUTS, ensure_cleme2_results, insight_head, insight_metrics, remove_insight_task
from tests.web.site_urls import fill, patterns, site_urls
from tests.web.test_security_private_data import with_canary

SLUG, KIND, LINES = "vault", "test", 6
REFERENCE = "zqvref"
BOB_OUTPUT, BOB_OLD_OUTPUT = "zqvbobout", "zqvbobold"
BOB_UPLOADS = ("zqvbobfile", "zqvbobdesc", "zqvboberror")  # a superseded and a failed upload's details
SYSTEM_NAMES = ("zqvsysalice", "zqvsysbob")

# What each state does to the phase (visibility "organizers", blind).
STATES = {
    "open": {},
    "frozen": {"frozen_at": timezone.now()},
    "ended": {"ends_at": timezone.now() - dt.timedelta(hours=1)},
    "revealed": {"revealed": True},
}
VIEWERS = ("anonymous", "outsider", "alice")
CSRF_TOKEN = re.compile(rb'(?<=name="csrfmiddlewaretoken" value=")[^"]+')


@pytest.fixture(scope="module")
def vault(django_db_setup, django_db_blocker):
    from leaderboard.services.hosting.task_creation import create_task
    from leaderboard.services.scoring_jobs.submission import score_submission
    from leaderboard.services.submissions.intake import accept_submission

    with django_db_blocker.unblock():
        source = insight_head(SUBSET_OUTPUTS / "INPUT.txt", LINES)
        task = create_task(
            SLUG,
            title="Vault",
            source=source,
            metrics=insight_metrics(),
            kind=KIND,
            blind=True,
            results_visibility=Phase.Visibility.ORGANIZERS,
            references=[("REF0", with_canary(source, REFERENCE))],
        )
        phase = task.phases.get()
        organizer = User.objects.create_user("vault-organizer", password="pw")
        task.organizers.add(organizer)
        User.objects.create_user("vault-outsider", password="pw")
        alice, bob = (User.objects.create_user(f"vault-{name}", password="pw") for name in ("alice", "bob"))

        def upload(user, system, text, **fields):
            return accept_submission(
                phase, user, system_name=system, content=text.encode(), enforce_limits=False, queue=False, **fields
            )

        t5 = insight_head(SUBSET_OUTPUTS / "T5.txt", LINES)
        bart = insight_head(SUBSET_OUTPUTS / "BART.txt", LINES)
        submissions = {
            "alice": upload(alice, SYSTEM_NAMES[0], with_canary(t5, "zqvaliceout"), filename="a.txt"),
            "bob-old": upload(
                bob,
                SYSTEM_NAMES[1],
                with_canary(bart, BOB_OLD_OUTPUT),
                filename=f"{BOB_UPLOADS[0]}.txt",
                description=BOB_UPLOADS[1],
            ),
            "bob": upload(bob, SYSTEM_NAMES[1], with_canary(bart, BOB_OUTPUT), filename="b.txt"),
        }
        for submission in submissions.values():
            score_submission(submission.pk)
        ensure_cleme2_results(submissions.values())
        submissions["bob-failed"] = upload(
            bob, "retry", bart, filename=f"{BOB_UPLOADS[0]}2.txt", description=BOB_UPLOADS[1]
        )
        Submission.objects.filter(pk=submissions["bob-failed"].pk).update(
            status=Submission.Status.FAILED, error=BOB_UPLOADS[2]
        )
        submissions["alice-queued"] = upload(alice, "waiting", t5, filename="c.txt")
    data = {"task": task, "phase": phase, "organizer": organizer, "submissions": submissions}
    yield data
    with django_db_blocker.unblock():
        remove_insight_task(data)
        User.objects.filter(username__startswith="vault-").delete()


def missing_id() -> int:
    return Submission.objects.order_by("-pk").values_list("pk", flat=True).first() + 1000


def urls(vault) -> list[str]:
    """Every URL, with every submission id (and one that does not exist); each asked with
    ``?phase=`` and the pool's version as ``since`` (a 204 would confirm the version)."""
    ids = [str(s.pk) for s in vault["submissions"].values()] + [str(missing_id())]
    version = Pool.objects.get(phase=vault["phase"]).version
    result = []
    for url in site_urls({"slug": [SLUG], "pk": ids, "action": ["freeze"], "name": ["data", "terms"]}):
        if url == "/api/schema/":
            continue  # the OpenAPI document names the API's fields (pool_size among them), and holds no data
        query = f"?phase={KIND}&since={version}"
        result += [f"{url}{query}&format={fmt}" for fmt in ("csv", "md")] if "export" in url else [url + query]
    return result + [
        f"/tasks/{SLUG}/rows/?phase={KIND}&since={version}",
        f"/api/tasks/{SLUG}/difficulty/?phase={KIND}&sentence=0",
    ]


def client_for(viewer: str) -> Client:
    client = Client()
    if viewer != "anonymous":
        client.force_login(User.objects.get(username=f"vault-{viewer}"))
    return client


def enter(state: str, phase) -> None:
    Phase.objects.filter(pk=phase.pk).update(**STATES[state])


def hidden_markers(vault, results_public: bool) -> list[str]:
    """Strings no answer to a non-organizer may contain in this state."""
    markers = [REFERENCE, BOB_OUTPUT, BOB_OLD_OUTPUT, *BOB_UPLOADS]
    if not results_public:
        version = Pool.objects.get(phase=vault["phase"]).version
        markers += [
            SYSTEM_NAMES[1],
            f'data-version="{version}"',
            f'"version": {version}',
            "pool_size",
            'id="pool-size"',
            'data-pending="1"',
        ]
    return markers


@pytest.mark.django_db
@pytest.mark.parametrize("viewer", VIEWERS)
@pytest.mark.parametrize("state", STATES)
def test_nothing_hidden_leaves_the_server(vault, state, viewer):
    enter(state, vault["phase"])
    client = client_for(viewer)
    markers = hidden_markers(vault, results_public=state == "revealed") + channel_names(
        vault, "bob-old", "bob", "bob-failed"
    )
    if viewer != "alice":  # a team's channels are named only to its members
        markers += channel_names(vault, "alice", "alice-queued")
    if viewer != "alice" and state != "revealed":
        markers.append(SYSTEM_NAMES[0])
    for url in urls(vault):
        response = client.get(url)
        assert response.status_code < 500, f"{url}: {response.status_code}"
        body = response.content.decode(errors="replace")
        for marker in markers:
            assert marker not in body, f"{state}, {viewer}: {url} ({response.status_code}) shows {marker!r}"
        if state != "revealed" and response.status_code == 204:
            raise AssertionError(f"{state}, {viewer}: {url} answered 204 to the pool's version")


@pytest.mark.django_db
@pytest.mark.parametrize("viewer", VIEWERS)
@pytest.mark.parametrize("state", STATES)
def test_ids_of_uploads_one_may_not_know_answer_as_missing_ones(vault, state, viewer):
    """403 vs 404 would tell which ids exist: on every URL that takes a submission id,
    bob's uploads get the answer an id that does not exist gets."""
    enter(state, vault["phase"])
    client = client_for(viewer)
    unknown = ["bob-old", "bob-failed"] + ([] if state == "revealed" else ["bob"])
    routes = [route for route in patterns() if "<int:pk>" in route]
    assert len(routes) >= 2
    for route in routes:
        url = fill(route, {"slug": [SLUG], "pk": ["@pk@"], "action": ["freeze"]})[0]

        def answer(pk, url=url):
            """Status and body, with the path asked for (a 404 page may name it) and the
            CSRF token (masked anew for every page) blanked."""
            path = url.replace("@pk@", str(pk))
            response = client.get(path)
            return response.status_code, CSRF_TOKEN.sub(b"@csrf@", response.content.replace(path.encode(), b"@path@"))

        missing = answer(missing_id())
        assert missing[0] in (302, 401, 403, 404, 405), f"{route}: {missing[0]}"
        for name in unknown:
            assert answer(vault["submissions"][name].pk) == missing, f"{state}, {viewer}: {name} at {route}"


def channel_names(vault, *uploads: str) -> list[str]:
    """The names of the live channels of these uploads and of their teams (services/boards/channels.py)."""
    from leaderboard.services.boards.channels import submission_channel, team_channel

    chosen = [vault["submissions"][name] for name in uploads]
    return [submission_channel(s.pk).token for s in chosen] + [
        team_channel(s.team_id, s.phase_id).token for s in chosen
    ]


@pytest.mark.django_db
@pytest.mark.parametrize("state", STATES)
def test_a_teams_channels_hold_nothing_hidden(vault, state):
    """What alice's pages poll from the proxy (her team's rows, her uploads' statuses) holds
    no more than her pages do: a blind phase's hidden results are "received", finished."""
    from leaderboard.services.boards.channels import submission_channel, team_channel
    from leaderboard.services.boards.publish import publish_phase

    enter(state, vault["phase"])
    publish_phase(vault["phase"].pk)  # what a reveal, a hide or the sweeper after an end writes (reads write nothing)
    client = client_for("alice")
    alice = vault["submissions"]["alice"]
    page = client.get(f"/tasks/{SLUG}/?phase={KIND}").content.decode()
    assert team_channel(alice.team_id, alice.phase_id).token in page  # and name them (to her only: the matrix above)
    for name in ("alice", "alice-queued"):
        client.get(f"/tasks/{SLUG}/submissions/{vault['submissions'][name].pk}/")
    bodies = [team_channel(alice.team_id, alice.phase_id).path.read_text()]
    bodies += [submission_channel(vault["submissions"][name].pk).path.read_text() for name in ("alice", "alice-queued")]
    for body in bodies:
        for marker in hidden_markers(vault, results_public=state == "revealed"):
            assert marker not in body, f"{state}: a channel shows {marker!r}"
    expected = "scored" if state == "revealed" else "received"
    assert f'"status": "{expected}"' in bodies[1] and f'data-status="{expected}"' in bodies[0]


@pytest.mark.django_db
def test_a_blind_team_sees_its_upload_received_and_nothing_more(vault):
    client = client_for("alice")
    detail = client.get(f"/api/submissions/{vault['submissions']['alice'].pk}/").json()
    assert detail["status"] == "received" and detail["scores"] == {} and detail["signature"] == ""
    board = client.get(f"/tasks/{SLUG}/rows/?phase={KIND}").content.decode()
    assert re.search(r'data-version="own-[0-9a-f]+"', board)
    own = client.get(f"/tasks/{SLUG}/own/?phase={KIND}").content.decode()
    assert 'data-pending="0"' in own and "received" in own
    assert (
        client.get(
            f"/tasks/{SLUG}/rows/?phase={KIND}&since=" + re.search(r'data-version="([^"]+)"', board).group(1)
        ).status_code
        == 204
    )


@pytest.mark.django_db
def test_the_canaries_would_be_noticed(vault):
    enter("frozen", vault["phase"])
    client = client_for("organizer")
    bodies = "".join(client.get(url).content.decode(errors="replace") for url in urls(vault))
    version = Pool.objects.get(phase=vault["phase"]).version
    for marker in (REFERENCE, BOB_OUTPUT, *BOB_UPLOADS, *SYSTEM_NAMES, f'data-version="{version}"', "pool_size"):
        assert marker in bodies, marker


@pytest.mark.django_db
def test_references_are_public_once_the_phase_has_ended_and_its_results_are_revealed(vault):
    Phase.objects.filter(pk=vault["phase"].pk).update(ends_at=timezone.now() - dt.timedelta(hours=1), revealed=True)
    response = Client().get(f"/api/tasks/{SLUG}/difficulty/?phase={KIND}")
    assert response.status_code == 200 and REFERENCE in response.content.decode()
    assert BOB_OUTPUT not in Client().get(f"/tasks/{SLUG}/cleme2/{vault['submissions']['bob'].pk}/").content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("state", STATES)
def test_my_submissions_api_says_which_counts_only_when_the_pages_may(vault, state):
    """``counts`` follows access.may_see_counted: in this blind phase it stays null until
    the results are revealed; without blindness a team under "latest" sees its own."""
    enter(state, vault["phase"])
    client = client_for("alice")

    def counts():
        rows = client.get(f"/api/me/submissions/?task={SLUG}").json()["submissions"]
        return {row["id"]: row["counts"] for row in rows}

    alice = vault["submissions"]["alice"].pk
    assert counts()[alice] is (True if state == "revealed" else None)
    Phase.objects.filter(pk=vault["phase"].pk).update(blind=False)
    try:
        assert counts()[alice] is True
    finally:
        Phase.objects.filter(pk=vault["phase"].pk).update(blind=True)
