"""The leaderboard API's read path: one query per poll, the same auth answers DRF gave,
no per-type tables in the rows (docs/contracts.md section 3)."""

from django.core.cache import cache
from django.test import Client

from .conftest import client_for, make_user
from .test_api_leaderboard import scored_systems

URL = "/api/tasks/small/leaderboard/?metric=gotoscorer.f"


def test_a_poll_of_a_public_board_is_one_query(small_texts, phase, client, django_assert_num_queries):
    scored_systems(phase, small_texts, names=("T5", "BART"))
    cache.clear()
    first = client.get(URL)  # builds and caches the body
    with django_assert_num_queries(1):
        again = client.get(URL)
    assert again.status_code == 200 and again.content == first.content
    assert again["Content-Type"] == "application/json"


def test_rows_keep_the_contract_without_per_type_tables(small_texts, phase, client):
    scored_systems(phase, small_texts, names=("T5",))
    body = client.get("/api/tasks/small/leaderboard/?metric=errant.cs.f").json()
    assert body["metric"] == "errant.cs.f" and body["phase"] == "dev" and isinstance(body["version"], int)
    row = body["rows"][0]
    assert {"rank", "team", "system_name", "submission_id", "scores", "baseline", "scored_at"} <= set(row)
    errant = row["scores"]["errant"]
    assert errant["cs"]["f"] is not None and not any(k.startswith("per_type") for k in errant)


def test_a_new_pool_version_is_served_at_once(small_texts, phase, client):
    scored_systems(phase, small_texts, names=("T5",))
    assert len(client.get(URL).json()["rows"]) == 1
    scored_systems(phase, small_texts, names=("BART",))
    assert len(client.get(URL).json()["rows"]) == 2


def test_unknown_task_or_phase_is_404(small_task, client):
    assert client.get("/api/tasks/nope/leaderboard/").status_code == 404
    missing = client.get("/api/tasks/small/leaderboard/?phase=test")
    assert missing.status_code == 404 and "detail" in missing.json()


def test_a_bad_token_is_401_even_on_a_public_board(small_task, client):
    response = client.get(URL, HTTP_AUTHORIZATION="Token not-a-token")
    assert response.status_code == 401 and response["WWW-Authenticate"] == "Token"
    assert response.json() == {"detail": "Invalid token."}


def test_hidden_board_is_for_organizers_by_token_or_session(small_texts, phase, client):
    scored_systems(phase, small_texts, names=("T5",))
    phase.results_visibility = "organizers"
    phase.save()
    participant, organizer = make_user("participant"), make_user("organizer")
    phase.task.organizers.add(organizer)
    assert client.get(URL).status_code == 403
    assert client_for(participant).get(URL).status_code == 403
    by_token = client_for(organizer).get(URL)
    assert by_token.status_code == 200 and len(by_token.json()["rows"]) == 1
    assert "Authorization" in by_token["Vary"]
    session = Client()
    session.force_login(organizer)
    assert session.get(URL).status_code == 200
    staff = make_user("staff")
    staff.is_staff = True
    staff.save()
    session.force_login(staff)
    assert session.get(URL).status_code == 200


def test_after_end_board_opens_when_the_phase_ends(small_texts, phase, client):
    import datetime as dt

    from django.utils import timezone

    phase.results_visibility = "after_end"
    phase.save()
    assert client.get(URL).status_code == 403
    phase.ends_at = timezone.now() - dt.timedelta(minutes=1)
    phase.save()
    assert client.get(URL).status_code == 200


def test_other_methods_still_go_through_drf(small_task, client):
    assert client.post(URL).status_code == 405
    assert client.options(URL).status_code == 200


def prepared_board_statements() -> int:
    """The statements this connection holds prepared on the server (PostgreSQL)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_prepared_statements")
        return cursor.fetchone()[0]


def test_the_board_read_prepares_only_when_the_policy_allows(small_task, client, settings):
    """GEC_PREPARED_STATEMENTS=0 (a transaction-mode pooler): the poll leaves nothing
    prepared on the server; on, its one statement is prepared (docs/deployment.md)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    settings.GEC_PREPARED_STATEMENTS = False
    before = prepared_board_statements()
    assert client.get(URL).status_code == 200
    assert prepared_board_statements() == before
    settings.GEC_PREPARED_STATEMENTS = True
    assert client.get(URL).status_code == 200
    assert prepared_board_statements() == before + 1
