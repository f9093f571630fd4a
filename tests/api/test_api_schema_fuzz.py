"""The API does what ``/api/schema/`` says: schemathesis, every check, against a live
gunicorn on the test database, as a visitor, as a participant and as the task's organizer.

Every operation the schema lists is exercised (nothing here names one), each with a
bounded, seeded number of cases: documented examples, schemathesis' coverage cases
(each parameter missing, wrong, at its bounds) and a few generated ones. The checks
include status codes, content types, headers and bodies against their schemas, invalid
input refused, valid input accepted, unsupported methods and authentication ignored.
Values only stored data makes valid (the task's slug, a submission id, score paths,
credentials) come from the test's data (:func:`data_values`), so the cases reach the
views rather than a 404. Takes about a minute: the three runs go at once.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest
from django.db import connection

from tests.conftest import ROOT
from tests.support import needs

pytestmark = [
    pytest.mark.timeout(300),
    needs.postgresql(connection.vendor),  # a live server shares the test database only on PostgreSQL
]

SLUG = "conformance"
SOURCE = "this are a example .\nhe go to school yesterday .\nshe have two cat .\n"
REFERENCE = "this is an example .\nhe went to school yesterday .\nshe has two cats .\n"
OUTPUT = "this is a example .\nhe went to school yesterday .\nshe has two cat .\n"
TRACK = "open"
USERNAME, PASSWORD = "conformance-team", "pw-team"
CAMPAIGN = "people"
CHECKS = "all"
MAX_EXAMPLES = 4  # generated cases per operation, besides the coverage phase's
VIEWERS = ("anonymous", "participant", "organizer")
UPLOADS_PER_DAY = 2  # then 429: each accepted upload is scored inside the request (settings_test)
MAX_RESPONSE_SECONDS = 60  # a hang, not a busy machine (the first upload loads spaCy)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until_answering(url: str, process: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"gunicorn exited with {process.returncode}")
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"gunicorn did not answer {url} within {timeout} s")


@pytest.fixture
def live_api(viewers, tmp_path):
    """``gunicorn leaderboard.wsgi`` on the test database, DEBUG off as in production; after
    the data (so it stops before the test database is emptied)."""
    database = connection.settings_dict
    port = free_port()
    env = {key: value for key, value in os.environ.items() if key not in ("CELERY_BROKER_URL", "REDIS_URL")} | {
        # this session's settings (scoring inline, plain HTTP, password hashes)
        "DJANGO_SETTINGS_MODULE": "leaderboard.settings_test",
        "DATABASE_URL": f"postgresql://{database['USER']}@{database['HOST']}:{database['PORT']}/{database['NAME']}",
        "DEBUG": "0",
        # every anonymous case reaches its view however fast the machine is (429s come from
        # the password and upload limits)
        "GEC_ANON_API_RATE": "100000/min",
    }
    log = open(tmp_path / "gunicorn.log", "wb")
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "leaderboard.wsgi",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "1",
            "--threads",
            "4",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        url = f"http://127.0.0.1:{port}"
        wait_until_answering(f"{url}/api/schema/", process)
        yield url
    finally:
        os.killpg(process.pid, signal.SIGINT)  # gunicorn's quick shutdown
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        log.close()


@pytest.fixture
def viewers(transactional_db):
    """Committed (the server's connections see them): a task, its organizer, a team with a
    scored submission, and the team's upload to a blind phase (its status is "received");
    the tokens by viewer."""
    from django.contrib.auth.models import User
    from rest_framework.authtoken.models import Token

    from leaderboard.services.hosting.task_creation import create_task
    from leaderboard.services.scoring_jobs.submission import score_submission
    from leaderboard.services.submissions.intake import accept_submission

    task = create_task(
        SLUG,
        title="Conformance",
        source=SOURCE,
        references=[("REF0", REFERENCE)],
        metrics=["errant", "gotoscorer"],
        tracks=[TRACK],
        max_per_day=UPLOADS_PER_DAY,
    )
    blind = create_task(
        f"{SLUG}-blind",
        source=SOURCE,
        references=[("REF0", REFERENCE)],
        metrics=["gotoscorer"],
        kind="test",
        blind=True,
        results_visibility="organizers",
    )
    organizer = User.objects.create_user("conformance-organizer", password="pw-organizer")
    task.organizers.add(organizer)
    participant = User.objects.create_user(USERNAME, password=PASSWORD)
    submissions = [
        accept_submission(
            t.phases.get(),
            participant,
            system_name="system",
            filename="system.txt",
            content=OUTPUT.encode(),
            track=track,
            queue=False,
        )
        for t, track in ((task, TRACK), (blind, ""))
    ]
    submissions.append(
        accept_submission(  # an organizers' baseline: its board row has no rank
            task.phases.get(),
            organizer,
            system_name="copy",
            filename="copy.txt",
            content=SOURCE.encode(),
            is_baseline=True,
            enforce_limits=False,
            queue=False,
        )
    )
    second = accept_submission(
        task.phases.get(),
        User.objects.create_user("conformance-second", password="pw-second"),
        system_name="other",
        filename="other.txt",
        content=SOURCE.encode(),
        track=TRACK,
        queue=False,
    )
    for submission in [*submissions, second]:
        score_submission(submission.pk)
    uploads = corpora_uploads(organizer, participant)
    # a human evaluation campaign the participant annotates (prepared inline: GEC_TASK_MODE is sync here)
    from leaderboard.campaigns.services.create import CampaignSettings, create_campaign
    from tests.campaigns.support import accept_invitations

    campaign = create_campaign(
        task,
        organizer,
        CampaignSettings(
            name=CAMPAIGN, annotators=[USERNAME], screens_per_annotator=3, systems=[submissions[0].pk, second.pk]
        ),
    )
    accept_invitations(campaign)
    revoker = User.objects.create_user("conformance-revoker", password="pw-revoker")
    users = {"organizer": organizer, "participant": participant, "revoker": revoker}
    tokens = {name: Token.objects.create(user=user).key for name, user in users.items()}
    return {"tokens": tokens, "submission": submissions[0].pk, "upload": uploads[-1]}


def corpora_uploads(organizer, participant) -> list[int]:
    """A task of two corpora (MULTI_SLUG) whose board holds a baseline zip and the
    participant's zip of both corpora, then one of one corpus: the ids of the uploads."""
    from leaderboard.models import Submission
    from leaderboard.services.scoring_jobs.submission import score_submission
    from leaderboard.services.submissions.intake import accept_submission
    from tests.support.corpora_support import corpora_task, corpus, text, zipped

    phase = corpora_task(MULTI_SLUG, [corpus(name, name[:2], source, ref) for name, (source, ref) in CORPORA.items()])
    phase.task.organizers.add(organizer)
    files = [
        (organizer, True, {f"{name}.txt": text(source) for name, (source, _) in CORPORA.items()}, ""),
        (participant, False, {f"{name}.txt": text(ref) for name, (_, ref) in CORPORA.items()}, ""),
        (participant, False, text(CORPORA[CORPUS][0]).encode(), CORPUS),
    ]
    uploads = []
    for user, baseline, content, corpus_name in files:
        upload = accept_submission(
            phase,
            user,
            system_name="zip",
            filename=f"{corpus_name or 'all'}.{'txt' if corpus_name else 'zip'}",
            content=content if corpus_name else zipped(content),
            corpus=corpus_name,
            is_baseline=baseline,
            enforce_limits=False,
            queue=False,
        )
        for output in Submission.objects.filter(parent=upload):
            score_submission(output.pk)
        uploads.append(upload.pk)
    return uploads


MULTI_SLUG = "conformance-corpora"
CORPORA = {
    "cs-natwebinf": (
        ["Včera jsem se učil matematyku .", "To je dobrý nápad ."],
        ["Včera jsem se učil matematiku .", "To je dobrý nápad ."],
    ),
    "uk-ua-gec": (["Я вчора ходив до школа .", "Це гарна ідея ."], ["Я вчора ходив до школи .", "Це гарна ідея ."]),
}
CORPUS = "uk-ua-gec"
# Operations whose stored-data values are those of the phase of several corpora: its
# board (baseline and entry rows with their corpora) and the participant's upload of
# one corpus there (its entry whole, per-sentence results per corpus).
ON_CORPORA = {
    "/api/tasks/{slug}/leaderboard/": {"path.slug": MULTI_SLUG},
    "/api/submissions/{id}/": {"path.id": "upload"},
    "/api/submissions/{id}/sentences/": {"path.id": "upload", "query.corpus": CORPUS},
}


def data_values(submission: int) -> dict:
    """Parameters whose valid values are stored data, not a shape a schema can state:
    each is given a value the data holds (bad values of each: test_security_bad_parameters.py)."""
    return {
        "path.slug": SLUG,
        "path.id": submission,
        "path.campaign": CAMPAIGN,
        "query.systems": str(submission),
        "query.metric": "errant.cs.f",
        "query.metrics": "errant.cs.f,gotoscorer.f",
        "query.table_metric": "errant",
        "query.types": "errant",  # annotator: only on gold with its annotators' own types
        "query.track": TRACK,
        "body.track": TRACK,
        "body.username": USERNAME,
        "body.password": PASSWORD,
        "body.file": OUTPUT,
    }


# An upload's file is judged against the task's source (line count, encoding, tokens): a
# file the schema allows may still be a 400 with its problems by line.
# So is a campaign (its annotators are accounts, its systems submissions of the phase), a
# judgment or a skip (its item one of the annotator's screens, its ranks that screen's
# outputs), an import (its systems the phase's), an invitation (its invitees well formed)
# and a reassignment (both invitations the campaign's); so is a task's new headline metric.
JUDGED_BY_CONTENT = [
    "/api/tasks/{slug}/",  # PATCH: a headline must be one of the task's score paths
    "/api/tasks/{slug}/submissions/",
    "/api/tasks/{slug}/campaigns/",
    "/api/tasks/{slug}/campaigns/{campaign}/judgments/",
    "/api/tasks/{slug}/campaigns/{campaign}/skip/",
    "/api/tasks/{slug}/campaigns/{campaign}/import/",
    "/api/tasks/{slug}/campaigns/{campaign}/invitations/",
    "/api/tasks/{slug}/campaigns/{campaign}/invitations/{invitation}/reassign/",
]


def schemathesis_config(submission: int, upload: int) -> str:
    lines = ["[parameters]", *(f"{json.dumps(k)} = {json.dumps(v)}" for k, v in data_values(submission).items())]
    for path, values in ON_CORPORA.items():
        given = {**data_values(submission), **{k: upload if v == "upload" else v for k, v in values.items()}}
        lines += [
            "[[operations]]",
            f"include-path = {json.dumps(path)}",
            "parameters = {" + ", ".join(f"{json.dumps(k)} = {json.dumps(v)}" for k, v in given.items()) + "}",
        ]
    for path in JUDGED_BY_CONTENT:
        lines += [
            "[[operations]]",
            f"include-path = {json.dumps(path)}",
            'checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "401", "403", "404", "409", "429"]',
        ]
    return "\n".join(lines) + "\n"


# Operations that end the credentials a run uses (revoking its token), or what the other
# runs use (deleting the campaign): the viewers' runs leave them out, and a user of their
# own (no organizer: refused the deletion) runs them, so the other runs keep their tokens.
ENDS_THE_SESSION = ["DELETE /api/auth/token/", "DELETE /api/tasks/{slug}/campaigns/{campaign}/"]


def schemathesis_command(url: str, config, token: str | None, *selection: str) -> list[str]:
    command = [
        sys.executable,
        "-m",
        "schemathesis.cli",
        "--config-file",
        str(config),
        "run",
        f"{url}/api/schema/",
        "--checks",
        CHECKS,
        "--max-examples",
        str(MAX_EXAMPLES),
        "--seed",
        "1",
        "--generation-database",
        "none",
        "--workers",
        "1",
        "--no-color",
        "--request-timeout",
        str(MAX_RESPONSE_SECONDS + 30),
        "--max-response-time",
        str(MAX_RESPONSE_SECONDS),
        *selection,
    ]
    return command + (["--header", f"Authorization: Token {token}"] if token else [])


def operations(url: str) -> set[str]:
    with urllib.request.urlopen(f"{url}/api/schema/?format=json", timeout=30) as response:
        paths = json.load(response)["paths"]
    return {f"{method.upper()} {route}" for route, methods in paths.items() for method in methods}


def test_every_operation_answers_as_documented(live_api, viewers, tmp_path):
    """One schemathesis run per viewer, all at once (each mostly waits for the server)."""
    config = tmp_path / "schemathesis.toml"
    config.write_text(schemathesis_config(viewers["submission"], viewers["upload"]))
    apart = [name for name in ENDS_THE_SESSION if name in operations(live_api)]
    commands = {
        viewer: schemathesis_command(
            live_api, config, viewers["tokens"].get(viewer), *(f"--exclude-name={name}" for name in apart)
        )
        for viewer in VIEWERS
    }
    if apart:
        commands["revoker"] = schemathesis_command(
            live_api, config, viewers["tokens"]["revoker"], *(f"--include-name={name}" for name in apart)
        )
    runs = {}
    for name, command in commands.items():
        output = open(tmp_path / f"{name}.txt", "w+")
        # in tmp_path: schemathesis keeps a cache in its working directory
        runs[name] = (
            subprocess.Popen(command, cwd=tmp_path, stdout=output, stderr=subprocess.STDOUT, text=True),
            output,
        )
    failed = {}
    for name, (process, output) in runs.items():
        process.wait(timeout=240)
        output.seek(0)
        if process.returncode != 0:
            failed[name] = output.read()[-15000:]
        output.close()
    assert not failed, "\n".join(f"==== as {name} ====\n{text}" for name, text in failed.items())


# -- bodies no schema describes: nested a thousand deep, and over the size limit -----------
# schemathesis generates what the schema allows and a little around it; these are what an
# attacker sends instead. Each operation that takes a body gets, from every viewer: JSON
# nested 1,000 deep, the same inside each of its properties (a username, a judgment's
# ranks), and a JSON and a form body one byte over GEC_MAX_JSON_BODY_BYTES. Every answer is
# a 4xx, small and quick: never a 500, never the body echoed back.
DEEP = 1000
MAX_ERROR_BYTES = 20_000


def path_values(submission: int) -> dict[str, str]:
    # An invitation that need not exist: a hostile body is refused before it is looked up.
    return {"slug": SLUG, "id": str(submission), "campaign": CAMPAIGN, "name": "overview", "invitation": "1"}


def body_operations(url: str, submission: int) -> list[tuple[str, str, list[str]]]:
    """``(method, path with its values, top-level property names)`` of every operation
    whose schema takes a request body."""
    with urllib.request.urlopen(f"{url}/api/schema/?format=json", timeout=30) as response:
        schema = json.load(response)
    components = schema.get("components", {}).get("schemas", {})
    found = []
    for route, methods in schema["paths"].items():
        for method, operation in methods.items():
            if "requestBody" not in operation:
                continue
            properties = set()
            for content in operation["requestBody"]["content"].values():
                body = content.get("schema", {})
                body = components.get(body.get("$ref", "").rsplit("/", 1)[-1], body)
                properties |= set(body.get("properties", {}))
            found.append((method.upper(), route.format(**path_values(submission)), sorted(properties)))
    return found


def send(url: str, method: str, path: str, body: bytes, content_type: str, token: str | None):
    """(status, body, seconds) of one request on a connection of its own."""
    import http.client
    from urllib.parse import urlsplit

    address = urlsplit(url)
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=MAX_RESPONSE_SECONDS)
    headers = {"Content-Type": content_type, "Connection": "keep-alive"}
    if token:
        headers["Authorization"] = f"Token {token}"
    started = time.monotonic()
    try:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        return response.status, response.read(), time.monotonic() - started
    finally:
        connection.close()


def hostile_bodies(properties: list[str], limit: int) -> list[tuple[str, bytes, str]]:
    deep = "[" * DEEP + "1" + "]" * DEEP
    bodies = [("nested 1,000 deep", deep.encode(), "application/json")]
    bodies += [
        (f"{name} nested 1,000 deep", f'{{"{name}": {deep}}}'.encode(), "application/json") for name in properties
    ]
    padding = "x" * limit
    bodies += [
        ("one byte over the limit (JSON)", json.dumps({"x": padding})[: limit + 1].encode(), "application/json"),
        ("one byte over the limit (form)", ("x=" + padding)[: limit + 1].encode(), "application/x-www-form-urlencoded"),
    ]
    return bodies


def test_deep_and_oversized_bodies_are_refused_with_a_4xx(live_api, viewers):
    from django.conf import settings

    limit = settings.GEC_MAX_JSON_BODY_BYTES  # the server's: the same settings and environment
    operations_with_bodies = body_operations(live_api, viewers["submission"])
    assert any(path == "/api/auth/token/" for _, path, _ in operations_with_bodies)
    wrong = []
    for viewer in VIEWERS:
        token = viewers["tokens"].get(viewer)
        for method, path, properties in operations_with_bodies:
            for what, body, content_type in hostile_bodies(properties, limit):
                status, answer, seconds = send(live_api, method, path, body, content_type, token)
                if not 400 <= status < 500 or len(answer) > MAX_ERROR_BYTES or seconds > 10:
                    wrong.append(f"{viewer}: {method} {path}, {what}: {status}, {len(answer)} bytes, {seconds:.1f} s")
                elif "over the limit" in what and status not in (401, 403, 404, 413, 415, 429):
                    wrong.append(f"{viewer}: {method} {path}, {what}: {status}, read past the limit")
    assert not wrong, "\n".join(wrong[:40])
