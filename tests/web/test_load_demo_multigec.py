"""``load_demo`` loads the multilingual demo beside the English one: three open corpora
in three languages in one phase, the simulated systems uploaded as zips of corpus files
and scored, a board per corpus with the macro average; loading again changes nothing."""

import pytest

from leaderboard.management.commands.load_demo import MULTIGEC_SLUG, Command
from leaderboard.models import SharedTask
from leaderboard.standings import board_rows

pytestmark = pytest.mark.django_db


def test_the_multilingual_demo(client):
    Command().load_multigec()
    task = SharedTask.objects.get(slug=MULTIGEC_SLUG)
    phase = task.phases.get()
    assert {c.corpus: c.dataset.lang for c in phase.corpora()} == {
        "cs-geccc": "cs",
        "is-iceec": "is",
        "uk-ua-gec": "uk",
    }
    assert phase.gleu_variant == "multigec"
    rows = board_rows(phase.pk, "errant.cs.f")
    assert {r["system_name"] for r in rows} == {"copy", "cautious", "balanced", "eager"} and rows[-1][
        "system_name"
    ] == "copy"  # the do-nothing baseline last
    assert all(r["value"] is not None and set(r["corpora"]) == {"cs-geccc", "is-iceec", "uk-ua-gec"} for r in rows)
    page = client.get(f"/tasks/{MULTIGEC_SLUG}/").content.decode()
    assert "Macro average" in page and 'data-corpus="uk-ua-gec"' in page
    assert ">base</span>" in page and ">None<" not in page  # the baseline's rank cell
    board = client.get(f"/api/tasks/{MULTIGEC_SLUG}/leaderboard/").json()  # ranked by GLEU, as MultiGEC-2025
    assert board["metric"] == "gleu.score" == client.get(f"/api/tasks/{MULTIGEC_SLUG}/").json()["ranked_by"]
    values = [r["value"] for r in board["rows"] if not r["baseline"]]
    assert values == sorted(values, reverse=True)
    upload = board["rows"][0]["submission_id"]  # a zip on a public board: its scores for everyone
    detail = client.get(f"/api/submissions/{upload}/").json()
    assert detail["scores"]["gleu"]["score"] == pytest.approx(board["rows"][0]["value"]) and set(detail["corpora"]) == {
        "cs-geccc",
        "is-iceec",
        "uk-ua-gec",
    }
    Command().load_multigec()
    assert SharedTask.objects.filter(slug=MULTIGEC_SLUG).count() == 1
