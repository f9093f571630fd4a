"""A rating campaign on the MultiGEC demo's Czech essays (a phase of three corpora), through
the API as MultiGEC-2025's organizers would run one: the corpus named, ORIGINAL and
REFERENCE rated beside the systems, two 1-4 scales, controls; a careful rater trusted and a
random, a constant and a longest-output rater flagged; publishing refused until a rating
counts."""

from __future__ import annotations

import json
import random

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from leaderboard.campaigns.services.controls import token_distance
from leaderboard.management.commands.load_demo import MULTIGEC_SLUG, Command
from leaderboard.models import Campaign, Phase, Screen
from leaderboard.services.data.datasets import load_dataset
from tests.campaigns.support import accept_invitations, annotator

pytestmark = pytest.mark.django_db
BASE = f"/api/tasks/{MULTIGEC_SLUG}/campaigns/"
SCALES = [{"name": "grammaticality", "min": 1, "max": 4}, {"name": "fluency", "min": 1, "max": 4}]
RATERS = ("careful", "random", "constant", "longest")


def client_of(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def demo(django_capture_on_commit_callbacks):
    Command().load_multigec()
    boss = User.objects.create_user("boss", is_staff=True)
    for name in RATERS:
        annotator(name)
    return client_of(boss)


def body(**extra) -> dict:
    return {
        "name": "czech-essays",
        "mode": "rating",
        "corpus": "cs-geccc",
        "builtin": ["ORIGINAL", "REFERENCE"],
        "scales": SCALES,
        "annotators": list(RATERS),
        "outputs_per_screen": 1,
        "redundancy": 1,
        "screens_per_annotator": 20,
        "controls": 0.3,
        **extra,
    }


def rater(kind: str, references: list[list[list[str]]]):
    """How each simulated rater rates a screen's text; none looks at how copies are made."""
    rng = random.Random(kind)

    def rate(screen: Screen, text: str) -> dict:
        tokens = text.split()
        if kind == "random":
            return {s["name"]: rng.randint(1, 4) for s in SCALES}
        if kind == "constant":
            return {s["name"]: 3 for s in SCALES}
        if kind == "longest":
            value = 2.5 + 20 * (len(tokens) / max(1, len(screen.source.split())) - 1)
            return {s["name"]: min(4, max(1, round(value))) for s in SCALES}
        density = min(token_distance(tokens, ref[screen.line]) / max(1, len(ref[screen.line])) for ref in references)
        return {s["name"]: min(4, max(1, round(4 - 3 * min(1.0, density / 0.15)))) for s in SCALES}

    return rate


def rate_queue(user: User, rate, capture) -> int:
    client, count = client_of(user), 0
    while (answer := client.get(BASE + "czech-essays/next/")).status_code == 200:
        shown = answer.json()
        screen = Screen.objects.get(assignments__pk=shown["item"])
        ratings = {o["key"]: rate(screen, o["text"]) for o in shown["outputs"]}
        with capture(execute=True):
            posted = client.post(
                BASE + "czech-essays/judgments/", {"item": shown["item"], "ratings": ratings}, format="json"
            )
        assert posted.status_code == 201, posted.content
        count += 1
    assert answer.status_code == 204
    return count


def test_a_rating_campaign_on_one_corpus_of_the_multigec_demo(demo, django_capture_on_commit_callbacks):
    capture = django_capture_on_commit_callbacks
    with capture(execute=True):
        missing = demo.post(BASE, body(corpus=""), format="json")
        unknown = demo.post(BASE, body(corpus="de-merlin"), format="json")
    assert missing.status_code == 400 and "name one of cs-geccc, is-iceec, uk-ua-gec" in json.dumps(missing.json())
    assert unknown.status_code == 400 and "no corpus 'de-merlin'" in json.dumps(unknown.json())
    with capture(execute=True):
        made = demo.post(BASE, body(), format="json")
    assert made.status_code == 201, made.content
    campaign = Campaign.objects.get(name="czech-essays")
    assert campaign.status == "ready", campaign.message
    assert campaign.corpus == "cs-geccc" and campaign.builtin == ["ORIGINAL", "REFERENCE"]
    with capture(execute=True):
        accept_invitations(campaign)
    refused = demo.post(BASE + "czech-essays/publish/", {"published": True}, format="json")
    assert refused.status_code == 409 and "no annotator has rated a screen yet" in json.dumps(refused.json())

    czech = Phase.every.get(parent=campaign.phase, corpus="cs-geccc")
    dataset = load_dataset(czech.dataset_id)
    sources = [" ".join(tokens) for tokens in dataset.sources]
    assert all(s.source in sources[s.line] or s.source == sources[s.line] for s in campaign.screens.all())
    references = [ref.tokens for ref in dataset.references]
    for name in RATERS:
        assert rate_queue(User.objects.get(username=name), rater(name, references), capture) >= 20

    summary = demo.get(BASE + "czech-essays/").json()
    trusted = {a["user"]: a["trusted"] for a in summary["annotators"]}
    assert trusted == {"careful": True, "random": False, "constant": False, "longest": False}, summary["controls"]
    assert summary["builtin"] == {"ORIGINAL": "the uncorrected input", "REFERENCE": "the corpus's first reference"}
    systems = summary["systems"]
    assert {"ORIGINAL", "REFERENCE"} <= set(systems) and systems["REFERENCE"]["builtin"]
    grammar = {s: e["scales"]["grammaticality"] for s, e in systems.items()}
    assert grammar["REFERENCE"]["mean"] == max(e["mean"] for e in grammar.values())
    assert grammar["ORIGINAL"]["mean"] < grammar["REFERENCE"]["mean"]
    assert all(e["interval"][0] <= e["mean"] <= e["interval"][1] for e in grammar.values())
    assert "careful" in summary["agreement"]["intra_alpha_by_annotator"]["grammaticality"]
    assert "ORIGINAL" not in summary["correlations"] and "REFERENCE" in summary["paired"]["grammaticality"]
    essay_level = summary["essay_correlations"]["gleu.score"]["grammaticality"]
    assert essay_level["points"] > 20 and essay_level["pearson"] is not None
    low, high = essay_level["interval"]["pearson"]
    assert low <= essay_level["pearson"] <= high
    published = demo.post(BASE + "czech-essays/publish/", {"published": True}, format="json")
    assert published.status_code == 200 and published.json()["published"] is True
