"""``load_demo`` attaches SEEDA's human judgments to the SEEDA demo (also to one loaded
before it did), so that demo has a meta-evaluation page; no server path is shown."""

import pytest

from leaderboard.management.commands.load_demo import SEEDA_SLUG, Command
from leaderboard.models import Dataset, Judgments, Phase, SharedTask
from tests.conftest import SEEDA

pytestmark = pytest.mark.django_db


def test_the_seeda_demo_gets_the_human_judgments(settings):
    settings.SHARED_DIR = SEEDA.parent.parent
    task = SharedTask.objects.create(slug=SEEDA_SLUG, title="SEEDA demo")
    dataset = Dataset.objects.create(
        task=task, name="subset", source="", references=[], n_sentences=391, n_references=2
    )
    Phase.objects.create(task=task, dataset=dataset)
    Command().load_seeda()
    judgments = Judgments.objects.get(phase__task=task).human()
    assert set(judgments.schemes) == {"TS_sent", "EW_sent", "TS_edit", "EW_edit"} and set(judgments.rankings) == {
        "sent",
        "edit",
    }
    assert "base" in judgments.system_sets
    files = Judgments.objects.get(phase__task=task).files
    assert "seeda/scores/human/TS_sent.txt" in files and not any(f.startswith("/") for f in files)
