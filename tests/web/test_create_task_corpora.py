"""``manage.py create_task SLUG --corpora DIR``: a phase of several corpora from a folder
laid out as a gold bundle, each corpus prepared with its own language."""

import json

import pytest
from django.core.management import CommandError, call_command

from leaderboard.models import Phase, SharedTask
from tests.support.corpora_support import LANGUAGES, text

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


def test_a_task_of_corpora_takes_multigecs_gleu_and_headline_from_a_folder_or_a_zip(tmp_path):
    """As docs/multigec.md says: a task made from a bundle is scored with the PyPI gleu
    tool and ranked by GLEU, as MultiGEC-2025 was, unless the command says otherwise."""
    import zipfile

    (tmp_path / "gold").mkdir()
    gold = folder(tmp_path / "gold", **{"sv-swell": ("sv", LANGUAGES["sv"]), "zh-hsk": ("zh", LANGUAGES["zh"])})
    bundle = tmp_path / "gold.zip"
    with zipfile.ZipFile(bundle, "w") as archive:
        for path in sorted(gold.rglob("*")):
            if path.is_file():
                archive.write(path, path.relative_to(gold).as_posix())
    call_command("create_task", "from-folder", "--corpora", str(gold), "--metrics", "errant,gleu")
    call_command("create_task", "from-zip", "--corpora", str(bundle), "--metrics", "errant,gleu")
    for slug in ("from-folder", "from-zip"):
        task = SharedTask.objects.get(slug=slug)
        assert (task.gleu_variant, task.headline_metric) == ("multigec", "gleu.score"), slug
        assert {p.gleu_variant for p in Phase.every.filter(task=task)} == {"multigec"}  # the phase and its corpora
    call_command(
        "create_task", "told", "--corpora", str(gold), "--gleu-variant", "official", "--headline", "errant.cs.f"
    )
    told = SharedTask.objects.get(slug="told")
    assert (told.gleu_variant, told.headline_metric, told.phases.get().gleu_variant) == (
        "official",
        "errant.cs.f",
        "official",
    )
    call_command("create_task", "no-gleu", "--corpora", str(gold), "--metrics", "errant")
    assert SharedTask.objects.get(slug="no-gleu").headline_metric == ""  # GLEU is not scored: the registry's default


def test_plain_gold_takes_the_official_gleu_and_the_default_headline(tmp_path):
    (tmp_path / "source.txt").write_text(text(LANGUAGES["sv"][0]))
    (tmp_path / "ref.txt").write_text(text(LANGUAGES["sv"][1]))
    gold = ["--source", str(tmp_path / "source.txt"), "--ref", str(tmp_path / "ref.txt")]
    call_command("create_task", "plain", *gold, "--metrics", "errant,gleu")
    plain = SharedTask.objects.get(slug="plain")
    assert (plain.gleu_variant, plain.headline_metric, plain.phases.get().gleu_variant) == ("official", "", "official")
    call_command("create_task", "plain", "--add-phase", "--phase", "test", "--gleu-variant", "multigec")
    assert plain.phases.get(kind="test").gleu_variant == "multigec"
    with pytest.raises(CommandError, match="--headline is the task's"):
        call_command("create_task", "plain", "--add-phase", "--phase", "test-2", "--headline", "gleu.score")
