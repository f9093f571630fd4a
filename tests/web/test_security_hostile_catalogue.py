"""The hostile-input catalogue (tests/web/hostile.py) driven through every route of
leaderboard/urls.py and leaderboard/api/urls.py, enumerated from the URL resolver, and
through the import command: every answer is a 4xx or a success, never a 5xx. Each route
gets forms and JSON bodies whose every field holds a hostile value (Unicode digits,
±1e308, NaN, formula cells, ``@`` usernames, NUL, 100 KB strings), queries likewise, JSON
5,000 deep, a body in a compressing charset (a 415), a 70 MB body; the upload routes get
the 100,000-member zip, a zip bomb and a 40 MB ratings CSV. The seconds per route are
printed (``pytest -s``); the figures are in docs/security.md.

The fuzzers (tests/api/test_api_schema_fuzz.py) missed every one of these findings: they
send what the schema describes, this sends what an attacker would."""

from __future__ import annotations

import contextlib
import json
import time

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from leaderboard.models import Invitation
from tests.campaigns.support import make_campaign
from tests.web import hostile

pytestmark = pytest.mark.django_db
FIELDS = (
    "username password email password1 password2 name system_name description phase team from to invitees annotators "
    "scales screens_per_annotator outputs_per_screen redundancy repeats controls threshold mode seed practice "
    "guidelines item ranks ratings comment seconds answer replace systems metric page signup domains max_tokens text "
    "title max_team_size time_zone terms action value tokenize lang pipeline track kind key headline_metric"
).split()
QUERY = "phase metric page systems cat track limit offset cursor since version format after sort q".split()
SKIPPED = ("admin/", "schema/", "docs/", "redoc/")  # Django's admin and the schema viewers: no form of ours
UPLOADS = {"submit", "api-submit", "campaign-import", "api-campaign-import", "task-baseline", "phase-new", "phase-edit"}
TIMES: dict[str, float] = {}


def routes(resolver: URLResolver | None = None, prefix: str = "") -> list[tuple[str, URLPattern, str]]:
    """(name, pattern, route text) of every named route, the API's included."""
    found = []
    for entry in (resolver or get_resolver()).url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            found += routes(entry, route)
        elif entry.name and not route.startswith(SKIPPED):
            found.append((entry.name, entry, route))
    return found


ROUTES = routes()


@pytest.fixture(scope="module")
def world(insight_task, django_db_blocker):
    """A campaign with invitations on the insight task: the routes that take one get a real one."""
    with django_db_blocker.unblock():
        users_before = set(User.objects.values_list("pk", flat=True))
        campaign = make_campaign(
            insight_task["task"], insight_task["organizer"], lambda **_: contextlib.nullcontext(), accepted=False
        )
        invitation = Invitation.objects.filter(campaign=campaign).first()
    yield {
        "slug": "insight",
        "campaign": campaign.name,
        "name": campaign.name,
        "invitation": invitation.pk,
        "pk": next(iter(insight_task["submissions"].values())).pk,
        "token": invitation.token,
        "kind": "dev",
        "action": "hide",
        "what": "input",
        "filename": "x.json",
        "uidb64": "MQ",
    }
    with django_db_blocker.unblock():  # the campaign and its annotators: later modules start without them
        campaign.delete()
        User.objects.exclude(pk__in=users_before).delete()


def path_of(route: str, values: dict) -> str:
    """The route with its parameters filled from ``values``."""
    import re

    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(values.get(m.group(1), "x")), route)


def cycled(values: list, offset: int) -> dict:
    return {field: values[(k + offset) % len(values)] for k, field in enumerate(FIELDS)}


def requests_for(name: str, path: str):
    """(case, method, path, body, content type or None) an attacker would send."""
    for k in range(4):
        yield f"form {k}", "post", path, cycled(hostile.VALUES, 7 * k), None
    for k in range(3):
        yield f"json {k}", "post", path, json.dumps(cycled(hostile.JSON_VALUES, 5 * k)), "application/json"
    for k in range(2):
        query = {q: hostile.VALUES[(j + 3 * k) % len(hostile.VALUES)] for j, q in enumerate(QUERY)}
        yield f"query {k}", "get", path, query, None
    yield "deep json", "post", path, hostile.deep_json(), "application/json"
    yield "bz2 charset", "post", path, b"BZh91AY&SY", "application/json; charset=bz2"
    yield "70 MB body", "post", path, hostile.huge_body(), "application/x-www-form-urlencoded"
    if name in UPLOADS:
        yield "100k-member zip", "post", path, {**cycled(hostile.VALUES, 0), "file": zip_file("many.zip")}, None
        yield "zip bomb", "post", path, {"file": bomb_file(), "bundle": bomb_file(), "name": "b"}, None
        yield "40 MB ratings", "post", path, {"file": csv_file(hostile.big_ratings_csv())}, None


def zip_file(name: str):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, hostile.many_member_zip(), "application/zip")


def bomb_file():
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile("bomb.zip", hostile.bomb_zip(), "application/zip")


def csv_file(data: bytes):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile("ratings.csv", data, "text/csv")


def send(client: Client, method: str, path: str, body, content_type: str | None):
    if method == "get":
        return client.get(path, body)
    if content_type is None:
        return client.post(path, body)
    return client.generic("POST", path, body if isinstance(body, bytes) else body.encode(), content_type=content_type)


@pytest.mark.parametrize(("name", "route"), [(n, r) for n, _, r in ROUTES], ids=[n for n, _, _ in ROUTES])
def test_no_hostile_request_is_a_5xx(name, route, world, insight_task):
    organizer, anonymous = Client(raise_request_exception=False), Client(raise_request_exception=False)
    organizer.force_login(insight_task["organizer"])
    path = path_of(route, world)
    failures, started = [], time.perf_counter()
    for case, method, target, body, content_type in requests_for(name, path):
        for who, client in (("organizer", organizer), ("anonymous", anonymous)):
            if who == "anonymous" and not case.startswith("form"):
                continue
            answer = send(client, method, target, body, content_type)
            if answer.status_code >= 500:
                failures.append(f"{who} {case}: {answer.status_code}")
            if case == "bz2 charset" and answer.status_code != 415:
                failures.append(f"{who} {case}: {answer.status_code}, not 415")
    TIMES[name] = time.perf_counter() - started
    print(f"{name}: {TIMES[name]:.2f} s")
    assert not failures, f"{path}: {failures}"


HOSTILE_FILES = {
    "unicode digit item": "annotator,item,system,scale,value\nann,²,X,fluency,3\n",
    "1e308 value": "annotator,item,system,scale,value\nann,1,X,fluency,1e308\n",
    "formula scale": "annotator,item,system,scale,value\nann,1,X,=1+2,3\n",
    "nan value": "annotator,item,system,scale,value\nann,1,X,fluency,NaN\n",
    "deep xml": "<a>" * 5000 + "</a>" * 5000,
    "entity xml": '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><x>&a;</x>',
}


@pytest.mark.parametrize("what", list(HOSTILE_FILES))
def test_the_import_command_exits_2_with_a_message_on_every_hostile_file(what, insight_task, tmp_path):
    suffix = ".xml" if "xml" in what else ".csv"
    path = tmp_path / f"hostile{suffix}"
    path.write_text(HOSTILE_FILES[what], encoding="utf-8")
    with pytest.raises(CommandError) as raised:
        call_command("import_judgments", "insight", str(path), "--campaign", "hostile")
    assert raised.value.returncode == 2 and str(raised.value)


def test_the_import_command_refuses_a_40_mb_ratings_file(insight_task, tmp_path):
    path = tmp_path / "big.csv"
    path.write_bytes(hostile.big_ratings_csv())
    started = time.perf_counter()
    with pytest.raises(CommandError, match="the limit is"):
        call_command("import_judgments", "insight", str(path), "--campaign", "hostile")
    print(f"40 MB ratings CSV refused in {time.perf_counter() - started:.2f} s")
