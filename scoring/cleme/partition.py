"""Chunk partition: cut the source and every target into chunks with shared boundaries.

CLEME (Ye et al., EMNLP 2023, section 3.1; reference ``cleme_utils.py``). The edits of
the hypothesis and of every reference are pooled and sorted by source start; intervals
that overlap or touch (``start <= end so far``) merge, so ``[2,3] + [3,4] -> [2,4]`` and
``[2,3] + [3,3] -> [2,3]``. Walking the source then yields, identically for every
target, *dummy* chunks (a zero-length merged interval), *corrected* chunks (a merged
interval) and *unchanged* chunks (the gaps between them).

A target *changes* a chunk when one of its own edits lies in it; its tokens there are
the chunk's source tokens with that target's edits applied. The reference code slices
the whole corrected sentence through a source-to-target token map instead; both give
the same tokens, since a target's edits never cross a merged interval's boundary.
"""

from __future__ import annotations

from typing import NamedTuple

from ..errant.edits import NOOP, Edit

Span = tuple[int, int]


class Partition(NamedTuple):
    """Chunk spans over the source, and per target the tokens of the chunks it changes."""

    spans: list[Span]
    changed: list[dict[int, list[str]]]  # per target: chunk index -> corrected tokens


def chunk_edits(edits: list[Edit] | None) -> list[Edit]:
    """The edits that make a target's chunks, sorted by source start (stable).

    Every edit but ``noop`` counts, UNK included: the reference M2 readers apply them all.
    """
    if not edits:
        return []
    return sorted((e for e in edits if e.start >= 0 and e.type != NOOP), key=lambda e: e.start)


def merged_intervals(edit_lists: list[list[Edit]]) -> list[list[int]]:
    """The shared edit intervals: every target's edits pooled, overlapping or touching ones merged."""
    pooled = sorted((e.start, e.end) for edits in edit_lists for e in edits)
    merged: list[list[int]] = []
    for start, end in pooled:
        if merged and start <= merged[-1][1]:
            if end > merged[-1][1]:
                merged[-1][1] = end
        else:
            merged.append([start, end])
    return merged


def chunk_spans(n_tokens: int, intervals: list[list[int]]) -> tuple[list[Span], list[int]]:
    """Walk the source: dummy, corrected and unchanged chunks, and the chunk index of each interval."""
    spans: list[Span] = []
    interval_chunk: list[int] = []
    position = 0
    for start, end in intervals:
        if position < start:
            spans.append((position, start))  # unchanged chunk
        interval_chunk.append(len(spans))
        spans.append((start, end))  # dummy (start == end) or corrected chunk
        position = end
    if position < n_tokens:
        spans.append((position, n_tokens))
    return spans, interval_chunk


def partition(source: list[str], edit_lists: list[list[Edit]]) -> Partition:
    """Chunk the source and every target (``edit_lists`` already filtered by :func:`chunk_edits`)."""
    intervals = merged_intervals(edit_lists)
    spans, interval_chunk = chunk_spans(len(source), intervals)
    changed: list[dict[int, list[str]]] = []
    for edits in edit_lists:
        by_chunk: dict[int, list[Edit]] = {}
        k = 0
        for edit in edits:
            while intervals[k][1] < edit.start:  # sorted, disjoint, non-touching intervals
                k += 1
            by_chunk.setdefault(interval_chunk[k], []).append(edit)
        changed.append({index: apply_in_chunk(source, spans[index], group) for index, group in by_chunk.items()})
    return Partition(spans, changed)


def apply_in_chunk(source: list[str], span: Span, edits: list[Edit]) -> list[str]:
    """The chunk's source tokens with a target's edits applied, by source start with a
    running offset, as the M2 readers build targets (``reader_m2.parse_edit_lines``)."""
    start, end = span
    tokens = source[start:end]
    offset = -start
    for edit in edits:
        correction = edit.correction.split()
        tokens[edit.start + offset : edit.end + offset] = correction
        offset += len(correction) - (edit.end - edit.start)
    return tokens


def target_tokens(source: list[str], edits: list[Edit] | None) -> list[str]:
    """A target's whole corrected sentence as the chunk partition sees it (all edits but noop)."""
    return apply_in_chunk(source, (0, len(source)), chunk_edits(edits))
