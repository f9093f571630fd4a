"""Per-sentence downloads carry each line's source and the submission's output, and the
references' text only for those who may see the references."""

import csv
import io

import pytest
from django.contrib.auth.models import User

from tests.conftest import SUBSET_OUTPUTS, SUBSET_REFS, insight_head

pytestmark = pytest.mark.django_db


def rows(client, pk):
    response = client.get(f"/api/submissions/{pk}/sentences/?format=csv")
    assert response.status_code == 200
    return list(csv.DictReader(io.StringIO(response.content.decode())))


def test_source_and_hypothesis_text_for_the_team(insight_task, client):
    t5 = insight_task["submissions"]["T5"]
    client.force_login(User.objects.get(username="alice"))
    table = rows(client, t5.pk)
    assert table[0]["source"] == insight_head(SUBSET_OUTPUTS / "INPUT.txt", 1).strip()
    assert table[0]["hypothesis"] == insight_head(SUBSET_OUTPUTS / "T5.txt", 1).strip()
    assert not any(name.startswith("reference") for name in table[0])  # the dev phase is open: references stay hidden
    assert "errant f" in table[0]


def test_organizers_get_the_references_too(insight_task, client):
    t5 = insight_task["submissions"]["T5"]
    client.force_login(User.objects.get(username="insight-organizer"))
    table = rows(client, t5.pk)
    assert [name for name in table[0] if name.startswith("reference")] == [f"reference {p.stem}" for p in SUBSET_REFS]
    assert table[0][f"reference {SUBSET_REFS[0].stem}"] == insight_head(SUBSET_REFS[0], 1).strip()
