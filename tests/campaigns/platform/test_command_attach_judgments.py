"""``manage.py attach_judgments``: scores and rankings stored once per phase; bad files named by line."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

from leaderboard.models import Judgments
from tests.conftest import unshipped
from tests.support.meta_support import HUMAN
from tests.support.meta_support_platform import RANKINGS


@unshipped
@pytest.mark.django_db
def test_seeda_files_attach_to_the_phase(insight_task, tmp_path):
    rankings = tmp_path / "judgments_sent.xml"
    rankings.write_bytes(RANKINGS)
    call_command(
        "attach_judgments",
        "insight",
        "--names",
        "seeda",
        "--system-set",
        "seeda",
        "--human",
        f"TS_sent={HUMAN / 'TS_sent.txt'}",
        "--judgments",
        str(rankings),
    )
    stored = Judgments.objects.get(phase=insight_task["phase"]).human()
    assert stored.schemes["TS_sent"]["REF-F"] == 0.992 and list(stored.system_sets) == [
        "base",
        "+INPUT",
        "+REF-F_GPT-3.5",
        "all",
    ]
    assert [item.src_id for item in stored.rankings["judgments_sent"]] == [3, 9]


@pytest.mark.django_db
def test_bad_files_are_named_by_line(insight_task, tmp_path):
    bad = tmp_path / "TS.txt"
    bad.write_text("T5 0.1\nBART x\n", encoding="utf-8")
    with pytest.raises(CommandError, match="TS.txt: line 2: 'x' is not a number"):
        call_command("attach_judgments", "insight", "--human", f"TS={bad}")
    far = tmp_path / "far.xml"
    far.write_text(
        '<r>\n<ranking-item src-id="400"><translation system="T5" rank="1"/></ranking-item>\n</r>\n', encoding="utf-8"
    )
    with pytest.raises(CommandError, match="line 2: src-id 400 is not a sentence of this dataset"):
        call_command("attach_judgments", "insight", "--judgments", str(far))
    assert not Judgments.objects.exists()
