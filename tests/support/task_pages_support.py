"""A tiny hand-written task for the tests of the task pages, terms, phase files, approval
and the participants' list: a dev phase (public results) and a test phase (results for
organizers only) on three sentences, an organizer, and two teams of one."""

from __future__ import annotations

import datetime as dt

from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

SLUG = "season"
SOURCE = "This are a sentence .\nShe go to school yesterday .\nIt is fine .\n"
REFERENCE = "This is a sentence .\nShe went to school yesterday .\nIt is fine .\n"
OUTPUT = "This is a sentence .\nShe goes to school yesterday .\nIt is fine .\n"
VIEWERS = ("anonymous", "participant", "other team", "organizer")

# What each state does to a phase.
STATES = {
    "upcoming": lambda now: {"starts_at": now + dt.timedelta(days=1)},
    "open": lambda now: {},
    "frozen": lambda now: {"frozen_at": now},
    "ended": lambda now: {"ends_at": now - dt.timedelta(hours=1)},
    "revealed": lambda now: {"ends_at": now - dt.timedelta(hours=1), "revealed": True},
}


def season_task(**task_fields):
    """The task with its dev and test phases, ``org`` organizing it, and teams ``P``
    (user ``pat``) and ``O`` (user ``oli``)."""
    from leaderboard.models import Phase, SharedTask
    from leaderboard.services.hosting.task_creation import add_phase, create_task
    from leaderboard.services.teams.actions import register_team

    task = create_task(
        SLUG,
        title="Season",
        source=SOURCE,
        references=[("REF0", REFERENCE)],
        metrics=["errant"],
        starts_at=timezone.now() - dt.timedelta(days=1),
    )
    add_phase(
        task,
        task.phases.get().dataset,
        kind="test",
        results_visibility=Phase.Visibility.ORGANIZERS,
        starts_at=timezone.now() - dt.timedelta(hours=1),
    )
    SharedTask.objects.filter(pk=task.pk).update(**task_fields)
    task.refresh_from_db()
    organizer = User.objects.create_user("org", "org@example.org", "pw")
    task.organizers.add(organizer)
    for name, team in (("pat", "P"), ("oli", "O")):
        register_team(User.objects.create_user(name, f"{name}@example.org", "pw"), task, team, enforce_signup=False)
    return task


def set_state(phase, state: str):
    from leaderboard.models import Phase

    Phase.objects.filter(pk=phase.pk).update(**STATES[state](timezone.now()))
    phase.refresh_from_db()
    return phase


def client_of(viewer: str) -> Client:
    """A web client signed in as ``viewer`` (one of :data:`VIEWERS`)."""
    client = Client()
    user = {"participant": "pat", "other team": "oli", "organizer": "org"}.get(viewer)
    if user:
        client.force_login(User.objects.get(username=user))
    return client


def api_client_of(viewer: str) -> Client:
    """An API client with ``viewer``'s token (no session), as ``gec-submit`` sends it."""
    from rest_framework.authtoken.models import Token

    user = {"participant": "pat", "other team": "oli", "organizer": "org"}.get(viewer)
    if not user:
        return Client()
    token, _ = Token.objects.get_or_create(user=User.objects.get(username=user))
    return Client(HTTP_AUTHORIZATION=f"Token {token.key}")
