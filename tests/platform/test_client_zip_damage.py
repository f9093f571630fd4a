"""``gec-submit submit`` with a damaged zip: the server's 400 comes
back as exit 2 with the zip and the member named on stderr, for every kind of damage
(an encrypted member, corrupt deflate data, a cut archive, a bad CRC, a file twice)."""

from leaderboard.models import Submission
from leaderboard_client.cli import main
from tests.support.corpora_support import LANGUAGES, text
from tests.support.zip_damage import KINDS, SAYS, damaged

CS_REF = LANGUAGES["cs"][1]
UK_REF = LANGUAGES["uk"][1]
OUTPUTS = {"cs-natwebinf.txt": text(CS_REF).encode(), "uk-ua-gec.txt": text(UK_REF).encode()}


def test_a_damaged_zip_is_exit_2_naming_the_zip_and_the_member(corpora_server, tmp_path, capsys):
    for kind in KINDS:
        archive = tmp_path / "all.zip"
        archive.write_bytes(damaged(kind, OUTPUTS, "uk-ua-gec.txt"))
        assert main(["submit", "corpora", str(archive), "--system", "zip"]) == 2, kind
        err = capsys.readouterr().err
        assert "the file was not accepted:" in err and "all.zip: " in err and SAYS[kind] in err, (kind, err)
        if kind != "truncated":
            assert "uk-ua-gec.txt" in err, (kind, err)
    assert not Submission.objects.exists()
