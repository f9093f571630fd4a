"""GoToScorer's gold chunks with their success counts, as ``GET .../difficulty/`` lists them."""

from __future__ import annotations

from django.shortcuts import get_object_or_404

from ..models import GoldChunk, Phase, Pool

CHUNK_FIELDS = ("position", "sentence", "start", "end", "correction", "error_type", "modified", "n")


def pool_size(phase: Phase) -> int:
    """The number of systems in the phase's pool (404 for a phase without one)."""
    # django-stubs types get_object_or_404 for model querysets only; Django takes a flat values_list too
    sizes = Pool.objects.values_list("size", flat=True)
    return get_object_or_404(sizes, phase=phase)  # type: ignore[type-var,return-value]


def chunk_rows(phase: Phase, sentence: int = -1, *, after: int = -1, limit: int = 0) -> list[dict]:
    """Every gold chunk of the phase in order (or one sentence's), with its success count
    ``n``; a page: those past position ``after``, at most ``limit`` (0: all), read by the
    (phase, position) index."""
    chunks = GoldChunk.objects.filter(phase=phase).with_n().order_by("position")
    if sentence >= 0:
        chunks = chunks.filter(sentence=sentence)
    if after >= 0:
        chunks = chunks.filter(position__gt=after)
    if limit:
        chunks = chunks[:limit]
    return [dict(zip(CHUNK_FIELDS, values)) for values in chunks.values_list(*CHUNK_FIELDS)]


def pool_or_404(phase: Phase) -> Pool:
    """The phase's GoToScorer pool (Http404 before any system joined it)."""
    return get_object_or_404(Pool, phase=phase)
