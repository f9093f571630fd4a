"""A pool metric's board rows, bootstrap-sampled all at once (GoToScorer's tie groups).

A GoToScorer weight follows the pool (w_i = 1 - n_i/N), so no row's samples can be kept
from one refresh to the next (:mod:`.sampled` keeps those of the other metrics). What a
refresh needs is small all the same: each member's outcome bits, packed, as the pool
stores them (:class:`~leaderboard.models.PoolMember`, ~15 KB a member on CoNLL-2014),
and n_i with each gold chunk's sentence, read in one statement each. The library then
samples every member in one matrix product (``scoring.pooled_sampled_scores``): each
member once per refresh, the same figures as resampling each from its statistics.

A row whose submission is not in the pool (none should be: the board is the pool) is
resampled from its stored statistics, as before.
"""

from __future__ import annotations

import numpy as np
from django.db import connection

from scoring import ChunkLayout, PoolCounts, known_metric_of, pooled_sampled_scores, resampling
from scoring.bootstrap import SampledScores, sampled_scores

from ..models import GoldChunk, MetricResult, Pool, PoolMember


def pool_layout(phase) -> tuple[PoolCounts, ChunkLayout] | None:
    """n_i and N of the phase's pool with the chunks' sentences and gold flags, read in one
    statement (so of the same moment); None before the pool has gold chunks. On
    PostgreSQL as three arrays (60,000 chunks: 13 ms, where one row a chunk took 0.4 s)."""
    if connection.vendor == "postgresql":
        found = _arrays(phase.pk)
    else:
        rows = list(
            GoldChunk.objects.filter(phase=phase)
            .order_by("position")
            .values_list("failures", "sentence", "modified", "phase__pool__size")
        )
        found = None
        if rows:
            failed, lines, modified, sizes = zip(*rows, strict=True)
            found = list(failed), list(lines), [k for k, flag in enumerate(modified) if flag], sizes[0]
    if found is None:
        return None
    failures, sentences, modified_positions, size = found
    sentence_ids = np.asarray(sentences, dtype=np.int64)
    gold_modified = np.zeros(len(sentence_ids), dtype=bool)
    gold_modified[np.asarray(modified_positions, dtype=np.int64)] = True
    pool = PoolCounts(size - np.asarray(failures, dtype=np.int64), size)
    return pool, ChunkLayout(gold_modified, sentence_ids, int(sentence_ids.max()) + 1)


def _arrays(phase_id: int) -> tuple[list, list, list, int] | None:
    """(f_i, sentence, positions of the gold-modified chunks, N) in chunk order, one row."""
    chunk, pool = GoldChunk._meta.db_table, Pool._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT array_agg(g.failures ORDER BY g.position), array_agg(g.sentence ORDER BY g.position), "
            f"array_agg(g.position) FILTER (WHERE g.modified), max(p.size) FROM {chunk} g "
            f"JOIN {pool} p ON p.phase_id = g.phase_id WHERE g.phase_id = %s",
            [phase_id],
        )
        failures, sentences, modified, size = cursor.fetchone()
    return None if failures is None else (failures, sentences, modified or [], size)


def pooled_sampled(phase, rows: list[dict], path: str, *, samples: int, seed: int) -> dict[int, SampledScores | None]:
    """``{submission_id: SampledScores}`` of ``path`` for the rows with a value (None: no
    statistics give it), every pool member sampled in one pass."""
    wanted = [r["submission_id"] for r in rows if r["value"] is not None]
    found = pool_layout(phase)
    if found is None or not wanted:
        return dict.fromkeys(wanted)
    pool, layout = found
    width = (len(pool.n) + 7) // 8
    members = [
        (sid, bytes(modified), bytes(correct))
        for sid, modified, correct in PoolMember.objects.filter(submission_id__in=wanted).values_list(
            "submission_id", "modified", "correct"
        )
        if len(modified) == len(correct) == width  # else of other gold chunks: resampled below, as before
    ]
    options = phase.scoring_options()
    sampled = pooled_sampled_scores(
        path,
        options,
        pool,
        layout,
        _packed([m for _, m, _ in members], width),
        _packed([c for _, _, c in members], width),
        samples=samples,
        seed=seed,
    )
    kept: dict[int, SampledScores | None] = dict(zip([sid for sid, _, _ in members], sampled or [], strict=True))
    others = [sid for sid in wanted if sid not in kept]
    statistics = MetricResult.objects.filter(submission_id__in=others, metric=known_metric_of(path).name)
    for sid, stats in statistics.values_list("submission_id", "statistics"):
        alone = resampling(path, stats, options, pool)
        kept[sid] = None if alone is None else sampled_scores(alone, path, samples=samples, seed=seed)
    return {sid: kept.get(sid) for sid in wanted}


def _packed(values: list[bytes], width: int) -> np.ndarray:
    """Packed bit rows of ``width`` bytes as one ``(rows, width)`` uint8 array."""
    return np.frombuffer(b"".join(values), dtype=np.uint8).reshape(len(values), width)
