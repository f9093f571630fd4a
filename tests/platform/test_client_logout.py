"""``gec-submit logout`` revokes the token on the server and forgets it locally;
a token the server already dropped is forgotten all the same."""

import json

import pytest

from leaderboard_client import credentials
from leaderboard_client.cli import main

from .conftest import client_login, make_user


@pytest.fixture
def server(live_server, client_home):
    make_user("leaver")
    return live_server.url


def login(server, monkeypatch) -> str:
    client_login(server, "leaver", "pw-leaver", monkeypatch)
    return credentials.token_for(server)


def test_logout_revokes_on_the_server_and_forgets_the_token(server, monkeypatch, capsys):
    from rest_framework.authtoken.models import Token

    key = login(server, monkeypatch)
    assert main(["list"]) == 0
    assert main(["logout"]) == 0
    printed = capsys.readouterr().out
    assert "token revoked" in printed and "removed" in printed
    assert not Token.objects.filter(key=key).exists()
    assert credentials.token_for(server) is None and json.loads(credentials.store_path().read_text())["tokens"] == {}
    assert main(["--token", key, "list"]) == 3 and "401" in capsys.readouterr().err


def test_logout_after_a_revocation_elsewhere_still_forgets(server, monkeypatch, capsys):
    from rest_framework.authtoken.models import Token

    key = login(server, monkeypatch)
    Token.objects.filter(key=key).delete()
    assert main(["logout"]) == 0
    assert "no longer accepted" in capsys.readouterr().out and credentials.token_for(server) is None
    login(server, monkeypatch)  # a stale token never stands in the way of logging in again
