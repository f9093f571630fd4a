"""Fixtures of the platform tests: a small task cut from the CoNLL-2014 gold the repository
ships (with systems simulated as the demo's, under SEEDA's names), users, clients."""

from __future__ import annotations

import io

import pytest

from tests.conftest import shipped_text

SMALL_LINES = 20
SMALL_SYSTEMS = ("T5", "BART", "GECToR-BERT")
SMALL_METRICS = ["errant", "gotoscorer"]


@pytest.fixture(scope="session")
def small_texts() -> dict[str, str]:
    """Source, two references and three systems of :data:`SMALL_LINES` sentences."""
    texts = {"source": shipped_text("INPUT", SMALL_LINES)}
    texts.update({name: shipped_text(name, SMALL_LINES) for name in ("REF0", "REF1", *SMALL_SYSTEMS)})
    return texts


@pytest.fixture
def small_task(db, small_texts):
    from leaderboard.services.hosting.task_creation import create_task

    return create_task(
        "small",
        title="Small",
        source=small_texts["source"],
        metrics=SMALL_METRICS,
        references=[("REF0", small_texts["REF0"]), ("REF1", small_texts["REF1"])],
    )


@pytest.fixture
def phase(small_task):
    return small_task.phases.get()


@pytest.fixture
def client_home(monkeypatch, tmp_path):
    """gec-submit with a config directory of its own and no server or token from the environment."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    for name in ("GEC_SERVER", "GEC_TOKEN"):
        monkeypatch.delenv(name, raising=False)


def client_login(server: str, username: str, password: str, monkeypatch) -> None:
    """``gec-submit login``, the password given on standard input."""
    from leaderboard_client.cli import main

    monkeypatch.setattr("sys.stdin", io.StringIO(password + "\n"))
    assert main(["--server", server, "login", username, "--password-stdin"]) == 0


def make_user(name: str):
    from django.contrib.auth.models import User

    return User.objects.create_user(name, password="pw-" + name)


@pytest.fixture
def corpora_server(live_server, client_home, monkeypatch) -> str:
    """Task ``corpora`` with a phase of two corpora, ``cs-natwebinf`` and ``uk-ua-gec``
    (:data:`tests.support.corpora_support.LANGUAGES`' Czech and Ukrainian), and gec-submit logged
    in to the live server as ``remote``; the server's URL."""
    from tests.support.corpora_support import LANGUAGES, corpora_task, corpus

    corpora_task(
        "corpora", [corpus("cs-natwebinf", "cs", *LANGUAGES["cs"]), corpus("uk-ua-gec", "uk", *LANGUAGES["uk"])]
    )
    make_user("remote")
    client_login(live_server.url, "remote", "pw-remote", monkeypatch)
    return live_server.url


@pytest.fixture
def alice(db):
    return make_user("alice")


def client_for(user):
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


@pytest.fixture
def alice_client(alice):
    return client_for(alice)


@pytest.fixture
def on_commit(django_capture_on_commit_callbacks):
    """Run ``transaction.on_commit`` callbacks (the queueing) as the block ends, as a
    real commit would; the test's own transaction never commits."""

    def run():
        return django_capture_on_commit_callbacks(execute=True)

    return run


@pytest.fixture
def workers(tmp_path, settings):
    """A real Celery worker (solo pool) on the test database; killed at the end."""
    from .workers import started_workers

    group = started_workers(tmp_path, settings)
    yield group
    group.stop_all()
