"""The heat map reads every chunk only of the sentences it shows (the order, the type menu
and the table come from the gold edits): the same page as building every sentence's row
from every chunk and cutting the list, for any page size and type."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from leaderboard.insights.heatmap import (
    CHUNK_FIELDS,
    chunk_weights,
    difficulty_table,
    heatmap,
    matches_type,
    sentence_rows,
)
from leaderboard.models import GoldChunk
from leaderboard.services.data.datasets import load_dataset

pytestmark = pytest.mark.django_db


def every_chunk_page(phase, pool_size, sources, error_type, level, shown):
    """The former heat map: every chunk read, every sentence's row built, then cut."""
    chunks = list(GoldChunk.objects.filter(phase=phase).with_n().order_by("position").values_list(*CHUNK_FIELDS))
    weights = chunk_weights([c[6] for c in chunks], pool_size, phase.task.scoring_options().gts_abc)
    rows = sentence_rows(sources, chunks, weights, pool_size)
    if error_type:
        rows = [r for r in rows if any(matches_type(e["type"], error_type) for e in r["edits"])]
    return {
        "sentences": rows[:shown] if shown else rows,
        "n_sentences": len(rows),
        "types": sorted({c[4] for c in chunks if c[5]}),
        "table": difficulty_table(chunks, weights, level),
        "pool_size": pool_size,
        "n_chunks": sum(1 for c in chunks if c[5]),
    }


@pytest.mark.parametrize(("error_type", "level", "shown"), [("", 3, 2), ("", 1, 0), ("R", 2, 1), ("M:DET", 3, 3)])
def test_the_same_page_as_reading_every_chunk(insight_task, error_type, level, shown):
    phase = insight_task["phase"]
    sources = load_dataset(phase.dataset_id).sources
    size = phase.pool.size
    expected = every_chunk_page(phase, size, sources, error_type, level, shown)
    assert heatmap(phase, size, sources, error_type=error_type, level=level, shown=shown) == expected


def test_a_page_reads_the_chunks_of_its_sentences_only(insight_task):
    phase = insight_task["phase"]
    sources = load_dataset(phase.dataset_id).sources
    with CaptureQueriesContext(connection) as read:
        page = heatmap(phase, phase.pool.size, sources, shown=1)
    assert len(page["sentences"]) == 1 and len(read.captured_queries) == 2
    assert '"modified"' in read.captured_queries[0]["sql"] and "IN (" in read.captured_queries[1]["sql"]
