"""``gec-submit`` on a phase of several corpora: a zip of corpus files, or one corpus
with ``--corpus``; a bad line is printed with its corpus file and line."""

import os
import zipfile

from django.contrib.auth.models import User

from leaderboard_client.cli import main
from tests.support.corpora_support import LANGUAGES, text

CS_REF = LANGUAGES["cs"][1]
UK_SOURCE, UK_REF = LANGUAGES["uk"]


def test_a_zip_and_one_corpus_at_a_time(corpora_server, tmp_path, capsys):
    archive = tmp_path / "all.zip"
    with zipfile.ZipFile(archive, "w") as out:
        out.writestr("cs-natwebinf.txt", text(CS_REF))
        out.writestr("uk-ua-gec.txt", text(UK_REF))
    assert main(["submit", "corpora", str(archive), "--system", "zip", "--interval", "0.2"]) == 0
    assert "scored" in capsys.readouterr().out
    one = tmp_path / "uk.txt"
    one.write_text(UK_REF[0] + "\nЦе \x00\n")
    assert main(["submit", "corpora", str(one), "--system", "one", "--corpus", "uk-ua-gec"]) == 2
    assert "uk-ua-gec.txt: line 2: NUL" in capsys.readouterr().err
    one.write_text(text(UK_REF))
    assert main(["submit", "corpora", str(one), "--system", "one", "--corpus", "uk-ua-gec", "--interval", "0.2"]) == 0
    uploads = User.objects.get(username="remote").submission_set.filter(parent__isnull=True)
    assert sorted(s.system_name for s in uploads) == ["one", "zip"] and all(s.status == "scored" for s in uploads)


def test_submit_and_status_print_the_uploads_scores(corpora_server, tmp_path, capsys):
    """The macro average of the team's entry, each corpus's headline scores and the
    upload each came from; "uploaded as submission N" once."""
    archive = tmp_path / "all.zip"
    with zipfile.ZipFile(archive, "w") as out:
        out.writestr("cs-natwebinf.txt", text(CS_REF))
        out.writestr("uk-ua-gec.txt", text(UK_SOURCE))
    assert main(["submit", "corpora", str(archive), "--system", "zip", "--interval", "0.2"]) == 0
    out = capsys.readouterr().out
    assert out.count("uploaded as submission") == 1 and "scores hidden" not in out
    assert (
        "macro average over the corpora of your entry\n" in out and "  cs-natwebinf\n" in out and "  uk-ua-gec\n" in out
    )
    zip_id = int(out.split("uploaded as submission ")[1].split()[0])
    one = tmp_path / "uk.txt"
    one.write_text(text(UK_REF))
    assert main(["submit", "corpora", str(one), "--system", "one", "--corpus", "uk-ua-gec", "--interval", "0.2"]) == 0
    out = capsys.readouterr().out
    assert f"  cs-natwebinf (from submission {zip_id})\n" in out and "  uk-ua-gec\n" in out
    f_line = [line for line in out.splitlines() if "(errant.cs.f)" in line]
    assert f_line[0].split()[-1] == "1.0000"  # the macro average: cs from the zip and uk now both right
    one_id = int(out.split("uploaded as submission ")[1].split()[0])
    assert main(["status", str(one_id)]) == 0
    assert f"  cs-natwebinf (from submission {zip_id})\n" in capsys.readouterr().out


def test_the_leaderboard_ranks_by_the_tasks_headline(corpora_server, tmp_path, capsys):
    from leaderboard.models import SharedTask

    SharedTask.objects.filter(slug="corpora").update(headline_metric="gleu.score")
    archive = tmp_path / "all.zip"
    with zipfile.ZipFile(archive, "w") as out:
        out.writestr("cs-natwebinf.txt", text(CS_REF))
    assert main(["submit", "corpora", str(archive), "--system", "zip", "--interval", "0.2"]) == 0
    capsys.readouterr()
    assert main(["leaderboard", "corpora"]) == 0
    out = capsys.readouterr().out
    assert "ranked by gleu.score" in out and "    cs-natwebinf\n" in out and " missing    uk-ua-gec\n" in out


def test_list_says_each_starred_upload_counts_for_its_corpus(corpora_server, tmp_path, capsys):
    """An entry whose corpora came in two uploads stars both: the legend says why."""
    archive = tmp_path / "cs.zip"
    with zipfile.ZipFile(archive, "w") as out:
        out.writestr("cs-natwebinf.txt", text(CS_REF))
    assert main(["submit", "corpora", str(archive), "--system", "cs", "--interval", "0.2"]) == 0
    capsys.readouterr()
    assert main(["list", "corpora"]) == 0
    assert "(* = the submission that counts on the board)" in capsys.readouterr().out
    one = tmp_path / "uk.txt"
    one.write_text(text(UK_REF))
    assert main(["submit", "corpora", str(one), "--system", "uk", "--corpus", "uk-ua-gec", "--interval", "0.2"]) == 0
    capsys.readouterr()
    assert main(["list", "corpora"]) == 0
    out = capsys.readouterr().out
    assert sum(line.startswith("*") for line in out.splitlines()) == 2
    assert "(* = counts on the board for its corpus: an entry's corpora may come from several uploads)" in out


def test_status_shows_the_headline_first(corpora_server, tmp_path, capsys):
    from leaderboard.models import SharedTask

    SharedTask.objects.filter(slug="corpora").update(headline_metric="gleu.score")
    archive = tmp_path / "all.zip"
    with zipfile.ZipFile(archive, "w") as out:
        out.writestr("cs-natwebinf.txt", text(CS_REF))
        out.writestr("uk-ua-gec.txt", text(UK_REF))
    assert main(["submit", "corpora", str(archive), "--system", "zip", "--interval", "0.2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    average = lines.index("  macro average over the corpora of your entry")
    assert "(gleu.score)" in lines[average + 1]
    assert "(gleu.score)" in lines[lines.index("  cs-natwebinf") + 1]


def test_status_piped_into_a_reader_that_stops_exits_quietly(corpora_server, tmp_path, capsys):
    """``gec-submit status 30 | head -1``: the closed pipe is no unreachable server."""
    import subprocess
    import sys

    archive = tmp_path / "all.zip"
    with zipfile.ZipFile(archive, "w") as out:
        out.writestr("cs-natwebinf.txt", text(CS_REF))
    assert main(["submit", "corpora", str(archive), "--system", "zip", "--interval", "0.2"]) == 0
    upload = int(capsys.readouterr().out.split("uploaded as submission ")[1].split()[0])
    reader, writer = os.pipe()
    os.close(reader)  # the reader has gone before anything is written
    done = subprocess.run(
        [sys.executable, "-m", "leaderboard_client", "status", str(upload)],
        stdout=writer,
        stderr=subprocess.PIPE,
        timeout=60,
        check=False,
    )
    os.close(writer)
    assert done.stderr.decode() == "" and done.returncode == 0
