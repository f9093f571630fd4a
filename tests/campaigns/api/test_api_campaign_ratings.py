"""Mode rating over the API: scales checked at creation, ``next/`` with the scales,
``judgments/`` refusing any value off its scale, the figures per system and scale, the
controls that trust a careful annotator and flag a careless one, the ratings CSV that
``scoring human --ratings`` reads back to the same figures, import, and the schemes of the
meta-evaluation."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from leaderboard.campaigns.insights.campaigns import campaign_schemes, scheme_campaigns
from leaderboard.models import Assignment, Campaign, Screen
from scoring.human.ratings import rate_systems, read_ratings
from tests.campaigns.support import accept_invitations, annotator

pytestmark = pytest.mark.django_db
BASE = "/api/tasks/insight/campaigns/"
SCALES = [{"name": "grammaticality", "min": 1, "max": 4}, {"name": "fluency", "min": 1, "max": 4}]


def client_of(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


@pytest.fixture
def organizer(insight_task):
    return client_of(insight_task["organizer"])


def create(organizer, capture, **extra):
    body = {
        "name": "essays",
        "mode": "rating",
        "scales": SCALES,
        "annotators": ["ann1", "ann2"],
        "outputs_per_screen": 1,
        "screens_per_annotator": 15,
        "controls": 0.34,
        "threshold": 0.05,
        **extra,
    }
    annotator("ann1"), annotator("ann2")
    with capture(execute=True):
        return organizer.post(BASE, body, format="json")


@pytest.fixture
def campaign(organizer, django_capture_on_commit_callbacks):
    answer = create(organizer, django_capture_on_commit_callbacks)
    assert answer.status_code == 201, answer.content
    found = Campaign.objects.get(name="essays")
    with django_capture_on_commit_callbacks(execute=True):
        accept_invitations(found)
    return found


def careful(row: Screen) -> dict:
    """Fewer edits rate higher; a degraded copy rates 1."""
    return {
        o["key"]: {s["name"]: 1 if o["control_of"] else max(2, 4 - len(o["edits"]) // 2) for s in SCALES}
        for o in row.outputs
    }


def careless(row: Screen) -> dict:
    """Degraded copies rated best, the rest worst."""
    return {o["key"]: {s["name"]: 4 if o["control_of"] else 1 for s in SCALES} for o in row.outputs}


def rate_all(user, capture, how) -> int:
    client, count = client_of(user), 0
    while (answer := client.get(BASE + "essays/next/")).status_code == 200:
        body = answer.json()
        row = Screen.objects.get(assignments__pk=body["item"])
        with capture(execute=True):
            posted = client.post(BASE + "essays/judgments/", {"item": body["item"], "ratings": how(row)}, format="json")
        assert posted.status_code == 201, posted.content
        count += 1
    assert answer.status_code == 204
    return count


def test_scales_are_checked_at_creation(organizer, django_capture_on_commit_callbacks):
    bad = [{"name": "Fluency", "min": 4, "max": 1}, {"name": "x", "min": 1, "max": 4, "colour": "red"}]
    answer = create(organizer, django_capture_on_commit_callbacks, scales=bad)
    text = json.dumps(answer.json())
    assert answer.status_code == 400 and "scales[0].name" in text and "scales[0]: min and max" in text
    assert "scales[1]" in text
    answer = create(organizer, django_capture_on_commit_callbacks, mode="ranking", name="r")
    assert answer.status_code == 400 and "only a campaign in mode rating has scales" in json.dumps(answer.json())
    answer = create(organizer, django_capture_on_commit_callbacks, name="one", mode="ranking", scales=None)
    assert answer.status_code == 400  # scales: null is no list
    body = {"name": "one", "annotators": ["ann1"], "screens_per_annotator": 2, "outputs_per_screen": 1}
    answer = organizer.post(BASE, body, format="json")
    assert answer.status_code == 400 and "outputs_per_screen: from 2 to 10 outside mode rating" in json.dumps(
        answer.json()
    )
    answer = create(organizer, django_capture_on_commit_callbacks, name="few", screens_per_annotator=6, controls=0.2)
    assert answer.status_code == 400 and "paired sign test" in json.dumps(answer.json())  # 1 control: p = 0.5


def test_slider_by_default(organizer, django_capture_on_commit_callbacks):
    body = {"name": "da", "mode": "rating", "annotators": ["ann1"], "screens_per_annotator": 3, "outputs_per_screen": 2}
    annotator("ann1")
    with django_capture_on_commit_callbacks(execute=True):
        assert organizer.post(BASE, body, format="json").status_code == 201
    assert Campaign.objects.get(name="da").scales == [{"name": "quality", "min": 0, "max": 100}]


def test_next_gives_the_scales_and_one_essay(campaign):
    body = client_of(annotator("ann1")).get(BASE + "essays/next/").json()
    assert body["mode"] == "rating" and body["scales"] == SCALES
    assert len(body["outputs"]) == 1 and set(body["outputs"][0]) == {"key", "text", "edits"}


def test_controls_are_their_own_screens_in_the_same_queue(campaign):
    copies = Screen.objects.filter(campaign=campaign, is_control=True)
    assert copies.exists()
    for copy in copies:
        degraded = [o for o in copy.outputs if o["control_of"]]
        assert len(degraded) == 1 and len(copy.outputs) == 1
        owner = Assignment.objects.get(screen=copy).annotator
        originals = Screen.objects.filter(
            campaign=campaign, line=copy.line, is_control=False, assignments__annotator=owner
        )
        assert any(o["systems"] == degraded[0]["original_systems"] for s in originals for o in s.outputs)
        queue = list(Assignment.objects.filter(campaign=campaign, annotator=owner).order_by("position"))
        at = next(k for k, a in enumerate(queue) if a.screen_id == copy.pk)
        of = [k for k, a in enumerate(queue) if a.screen.line == copy.line and a.screen_id != copy.pk]
        assert of and min(abs(k - at) for k in of) > 1  # never next to its original


def test_a_value_off_its_scale_is_named(campaign):
    client = client_of(annotator("ann1"))
    body = client.get(BASE + "essays/next/").json()
    key = body["outputs"][0]["key"]
    answer = client.post(
        BASE + "essays/judgments/",
        {"item": body["item"], "ratings": {key: {"grammaticality": 5, "fluency": True, "style": 2}}},
        format="json",
    )
    text = json.dumps(answer.json())
    assert answer.status_code == 400
    assert f"{key}'s grammaticality must be a number from 1 to 4 (got 5)" in text
    assert f"{key}'s fluency must be a number from 1 to 4 (got true)" in text.replace("True", "true")
    assert "no scale style" in text
    answer = client.post(BASE + "essays/judgments/", {"item": body["item"], "ranks": {key: 1}}, format="json")
    assert answer.status_code == 400 and "takes ratings" in json.dumps(answer.json())


def test_figures_controls_export_and_the_library_agree(campaign, organizer, django_capture_on_commit_callbacks):
    capture = django_capture_on_commit_callbacks
    rate_all(annotator("ann1"), capture, careful)
    rate_all(annotator("ann2"), capture, careless)
    summary = organizer.get(BASE + "essays/").json()
    assert summary["mode"] == "rating" and summary["scales"] == SCALES
    trusted = {a["user"]: a["trusted"] for a in summary["annotators"]}
    assert trusted == {"ann1": True, "ann2": False}
    assert summary["excluded"]["untrusted_judgments"] > 0
    some = next(iter(summary["systems"].values()))
    assert set(some["scales"]) == {"grammaticality", "fluency"}
    assert set(some["scales"]["fluency"]) == {"mean", "z", "n", "cluster", "interval"}
    assert set(summary["agreement"]["alpha"]) == {"grammaticality", "fluency"}
    exported = organizer.get(BASE + "essays/judgments.csv")
    assert exported.status_code == 200 and exported.content.startswith(b"annotator,item,system,scale,value\r\n")
    again = rate_systems(read_ratings(exported.content)).as_json()
    assert again["systems"] == summary["systems"] and again["ratings"] == summary["ratings"]
    assert organizer.get(BASE + "essays/judgments.xml").status_code == 400
    schemes = campaign_schemes(scheme_campaigns(campaign.phase, unpublished=True))
    assert set(schemes) == {"essays:grammaticality", "essays:fluency"}
    assert schemes["essays:fluency"] == {s: v["scales"]["fluency"]["z"] for s, v in summary["systems"].items()}
    assert summary["correlations"] and all(
        set(e) == {"grammaticality", "fluency"} for e in summary["correlations"].values()
    )
    meta = organizer.get("/api/tasks/insight/meta-evaluation/").json()
    assert {"essays:grammaticality", "essays:fluency"} <= {s for per in meta["system"].values() for s in per}
    xml = b'<appraise-results><ranking-item src-id="1" user="x"></ranking-item></appraise-results>'
    answer = upload(organizer, "essays", xml.decode(), filename="rankings.xml")
    assert answer.status_code == 400 and "import its ratings as CSV" in json.dumps(answer.json())


def test_only_annotators_rate(campaign):
    assert client_of().get(BASE + "essays/next/").status_code in (401, 403)
    assert client_of(annotator("outsider")).get(BASE + "essays/next/").status_code == 403


def upload(client, name, text, filename="ratings.csv"):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return client.post(
        BASE + f"{name}/import/", {"file": SimpleUploadedFile(filename, text.encode())}, format="multipart"
    )


def test_import_ratings_makes_a_rating_campaign(insight_task, organizer, django_capture_on_commit_callbacks):
    names = [s.system_name for s in insight_task["submissions"].values()][:3]
    rows = ["annotator,item,system,scale,value"] + [
        f"{a},{i},{s},fluency,{v}" for a in ("x", "y") for i in (1, 2, 3) for s, v in zip(names, (4, 3, 1))
    ]
    with django_capture_on_commit_callbacks(execute=True):
        answer = upload(organizer, "file-da", "\n".join(rows) + "\n")
    assert answer.status_code == 201, answer.content
    assert answer.json() == {
        "name": "file-da",
        "imported": 18,
        "left_out": 0,
        "replaced": 0,
        "message": "18 ratings imported into campaign file-da",
    }
    found = Campaign.objects.get(name="file-da")
    assert found.mode == "rating" and found.scales == [{"name": "fluency", "min": 1, "max": 4}]
    summary = organizer.get(BASE + "file-da/").json()
    assert summary["systems"][names[0]]["scales"]["fluency"] == {
        "mean": 4.0,
        "z": pytest.approx(1.069045, abs=1e-6),
        "n": 6,
        "cluster": 1,
        "interval": [4.0, 4.0],
    }
    assert summary["agreement"]["alpha"]["fluency"] == 1.0
    again = upload(organizer, "file-da", "\n".join(rows) + "\n")
    assert again.status_code == 400 and "x's ratings of item 1 were imported already" in json.dumps(again.json())
    bad = f"annotator,item,system,scale,value\nx,1,nobody,fluency,3\nx,99999,{names[0]},fluency,9\n"
    answer = upload(organizer, "file-da", bad)
    text = json.dumps(answer.json())
    assert answer.status_code == 400 and "nobody" in text and "99999" in text and "off the fluency scale" in text
    assert '"line": 2' in text and '"line": 3' in text


def test_several_outputs_a_screen_and_their_copy(organizer, django_capture_on_commit_callbacks):
    """With three outputs a screen, a control's copy screen shows the same three, one degraded."""
    answer = create(organizer, django_capture_on_commit_callbacks, name="three", outputs_per_screen=3)
    assert answer.status_code == 201, answer.content
    campaign = Campaign.objects.get(name="three")
    copies = list(Screen.objects.filter(campaign=campaign, is_control=True))
    assert copies
    for copy in copies:
        kept = sorted(tuple(o["systems"]) for o in copy.outputs if not o["control_of"])
        degraded = [o for o in copy.outputs if o["control_of"]]
        assert len(degraded) == 1 and [o["key"] for o in copy.outputs] == ["A", "B", "C"][: len(copy.outputs)]
        owner = Assignment.objects.get(screen=copy).annotator
        originals = [
            s
            for s in Screen.objects.filter(
                campaign=campaign, line=copy.line, is_control=False, assignments__annotator=owner
            )
            if sorted(tuple(o["systems"]) for o in s.outputs) == sorted([*kept, tuple(degraded[0]["original_systems"])])
        ]
        assert originals, "the copy's screen shows its original's outputs"
