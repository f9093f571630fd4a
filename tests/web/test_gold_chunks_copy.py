"""Gold chunks written by COPY (PostgreSQL) are the rows the library's chunks say, to the
character: corrections holding COPY's own markers (a backslash, ``\\N``, the letters of its
escapes) and any script come back as written, in corpus order. (A real tab never reaches
it: the M2 reader makes it a space.)"""

import pytest

from leaderboard.models import GoldChunk
from leaderboard.services.data.datasets import load_dataset
from leaderboard.services.hosting.task_creation import create_task
from scoring.gotoscorer import gold_chunks

pytestmark = pytest.mark.django_db

ODD = ["\\N", "a\\tb", "back\\slash", "ü ñ 漢字 👍", "x\\ny", "NULL", ""]


def m2_with(corrections: list[str]) -> str:
    blocks = []
    for k, correction in enumerate(corrections):
        blocks.append(f"S Sentence number {k} is here .\nA 1 2|||R:NOUN|||{correction}|||REQUIRED|||-NONE-|||0\n")
    return "\n".join(blocks)


def test_copied_chunks_are_the_library_s():
    text = m2_with(ODD)
    task = create_task("copy-chunks", m2=text, metrics=["gotoscorer"])
    phase = task.phases.get()
    stored = list(
        GoldChunk.objects.filter(phase=phase)
        .order_by("position")
        .values_list("position", "sentence", "start", "end", "correction", "error_type", "modified", "failures")
    )
    expected = [
        (k, c.sentence, c.start, c.end, c.correction, c.type, c.modified, 0)
        for k, c in enumerate(gold_chunks(load_dataset(phase.dataset), 0))
    ]
    assert stored == expected
    assert {c for _, _, _, _, c, _, modified, _ in stored if modified} >= {"\\N", "a\\tb", "ü ñ 漢字 👍"}
