"""``manage.py create_task SLUG --corpora DIR``: a phase of several corpora from a folder
laid out as a gold bundle, each corpus prepared with its own language."""

import json

import pytest
from django.core.management import CommandError, call_command

from leaderboard.models import SharedTask
from tests.corpora_support import LANGUAGES, text

pytestmark = pytest.mark.django_db


def folder(tmp_path, **corpora):
    for name, (lang, (source, reference)) in corpora.items():
        (tmp_path / name).mkdir()
        (tmp_path / name / "source.txt").write_text(text(source))
        (tmp_path / name / "ref1.txt").write_text(text(reference))
        (tmp_path / name / "corpus.json").write_text(json.dumps({"language": lang, "pipeline": "tokens"}))
    return tmp_path


def test_a_task_of_corpora_from_a_folder(tmp_path, capsys):
    gold = folder(tmp_path, **{"sv-swell": ("sv", LANGUAGES["sv"]), "zh-hsk": ("zh", LANGUAGES["zh"])})
    call_command("create_task", "nordic", "--corpora", str(gold), "--metrics", "errant,gleu")
    assert (
        "phase dev of 2 corpora: sv-swell (sv, 2 lines, 1 ref.), zh-hsk (zh, 2 lines, 1 ref.)"
        in capsys.readouterr().out
    )
    phase = SharedTask.objects.get(slug="nordic").phases.get()
    assert [(c.corpus, c.dataset.lang, c.dataset.pipeline, c.dataset.is_prepared) for c in phase.corpora()] == [
        ("sv-swell", "sv", "tokens", True),
        ("zh-hsk", "zh", "tokens", True),
    ]
    with pytest.raises(CommandError, match="exists"):
        call_command("create_task", "nordic", "--corpora", str(gold))


def test_a_bad_corpus_names_its_file_and_line(tmp_path):
    gold = folder(tmp_path, **{"sv-swell": ("sv", LANGUAGES["sv"])})
    (gold / "sv-swell" / "ref1.txt").write_text("one line\n")
    with pytest.raises(CommandError, match="sv-swell/ref1.txt: line 1: "):
        call_command("create_task", "bad", "--corpora", str(gold))
    assert not SharedTask.objects.exists()
