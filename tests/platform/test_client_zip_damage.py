"""``gec-submit submit`` with a damaged zip (issue 33, item 4): the server's 400 comes
back as exit 2 with the zip and the member named on stderr, for every kind of damage
(an encrypted member, corrupt deflate data, a cut archive, a bad CRC, a file twice)."""
import pytest

from leaderboard.models import Submission
from leaderboard_client.cli import main
from tests.corpora_support import LANGUAGES, corpora_task, corpus, text
from tests.zip_damage import KINDS, SAYS, damaged

from .conftest import client_login, make_user

CS_SOURCE, CS_REF = LANGUAGES["cs"]
UK_SOURCE, UK_REF = LANGUAGES["uk"]
OUTPUTS = {"cs-natwebinf.txt": text(CS_REF).encode(), "uk-ua-gec.txt": text(UK_REF).encode()}


@pytest.fixture
def server(live_server, client_home, monkeypatch):
    corpora_task("corpora", [corpus("cs-natwebinf", "cs", CS_SOURCE, CS_REF), corpus("uk-ua-gec", "uk", UK_SOURCE, UK_REF)])
    make_user("remote")
    client_login(live_server.url, "remote", "pw-remote", monkeypatch)
    return live_server.url


def test_a_damaged_zip_is_exit_2_naming_the_zip_and_the_member(server, tmp_path, capsys):
    for kind in KINDS:
        archive = tmp_path / "all.zip"
        archive.write_bytes(damaged(kind, OUTPUTS, "uk-ua-gec.txt"))
        assert main(["submit", "corpora", str(archive), "--system", "zip"]) == 2, kind
        err = capsys.readouterr().err
        assert "the file was not accepted:" in err and "all.zip: " in err and SAYS[kind] in err, (kind, err)
        if kind != "truncated":
            assert "uk-ua-gec.txt" in err, (kind, err)
    assert not Submission.objects.exists()
