"""The difficulty heat map: gold chunks coloured by GoToScorer weight, hardest first.

Gotou et al. (2020), section 3: the weight of gold chunk i is w_i = a - (n_i + b)/(N + c)
(1 - n_i/N by default), where n_i counts the pool members that got the chunk right. The
platform keeps n_i and N in the database (``GoldChunk``, ``Pool``), so the map is a read
of those rows and changes whenever the pool does. The per-type table is the paper's
Table 4 (``scoring.gotoscorer.category_difficulty``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from scoring import gotoscorer

from ..models import GoldChunk

INSERTION_MARK = "\u2038"  # a caret where the reference inserts tokens


def chunk_weights(n: np.ndarray, pool_size: int, gts_abc: Sequence[float]) -> np.ndarray | None:
    """w_i of every chunk, or None while the pool is empty (no weight is defined)."""
    if pool_size <= 0:
        return None
    return gotoscorer.difficulty_weights(n, pool_size, gotoscorer.WeightParams(*gts_abc))


def matches_type(etype: str, wanted: str) -> bool:
    """``wanted`` is a type at any ERRANT category level (R, VERB:FORM or R:VERB:FORM)."""
    return wanted in (etype, *(gotoscorer.difficulty.category(etype, level) for level in (1, 2)))


def colour(weight: float | None) -> str:
    """Pale (easy, w = 0) to deep red (hard, w = 1); grey when no weight exists yet."""
    if weight is None:
        return "background:#eee"
    w = min(max(weight, 0.0), 1.0)
    return f"background:hsl(0,85%,{95 - 60 * w:.0f}%);color:{'#fff' if w > 0.55 else '#222'}"


def sentence_rows(
    sources: Sequence[Sequence[str]], chunks: list[tuple], weights: np.ndarray | None, pool_size: int
) -> list[dict]:
    """Per sentence with a gold edit: its chunks as display segments and its difficulty.

    ``chunks`` are ``(sentence, start, end, correction, type, modified, n)`` in corpus
    order. A sentence's difficulty is the weight of its hardest gold edit.
    """
    sentences: dict[int, dict] = {}
    for k, (sentence, start, end, correction, etype, modified, n) in enumerate(chunks):
        tokens = sources[sentence]
        source = " ".join(tokens[start:end])
        if not modified:
            if source:
                sentences.setdefault(sentence, {"segments": [], "edits": []})["segments"].append(
                    {"text": source, "edit": False}
                )
            continue
        weight = None if weights is None else float(weights[k])
        segment = {
            "text": source or INSERTION_MARK,
            "edit": True,
            "source": source,
            "correction": correction,
            "type": etype,
            "n": n,
            "pool_size": pool_size,
            "weight": weight,
            "style": colour(weight),
        }
        entry = sentences.setdefault(sentence, {"segments": [], "edits": []})
        entry["segments"].append(segment)
        entry["edits"].append(segment)
    rows = []
    for sentence, entry in sentences.items():
        if not entry["edits"]:
            continue
        hardest = max((e["weight"] for e in entry["edits"] if e["weight"] is not None), default=None)
        rows.append({"sentence": sentence, "line": sentence + 1, "difficulty": hardest, **entry})
    rows.sort(key=lambda r: (r["difficulty"] is None, -(r["difficulty"] or 0.0), r["sentence"]))
    return rows


def difficulty_table(chunks: list[tuple], weights: np.ndarray | None, level: int) -> list[dict]:
    """Mean, std and frequency of the weights per error type, hardest type first."""
    if weights is None:
        return []
    gold = [gotoscorer.GoldChunk(s, 0, start, end, "", c, t, m) for s, start, end, c, t, m, _ in chunks]
    return gotoscorer.category_difficulty(gold, weights, level)


CHUNK_FIELDS = ("sentence", "start", "end", "correction", "error_type", "modified", "n")


def heatmap(
    phase, pool_size: int, sources: Sequence[Sequence[str]], *, error_type: str = "", level: int = 3, shown: int = 0
) -> dict:
    """Everything the page shows: the ``shown`` hardest sentences (0: all), how many there
    are, the type menu, the table. ``sources``: the tokens of the phase's source sentences
    (the stored gold's). The order, the menu and the table need the gold edits alone (one
    chunk in ten); every chunk is read only for the sentences shown, so a page of 40 reads
    ~2,000 chunks, not 60,000."""
    chunks = GoldChunk.objects.filter(phase=phase).with_n().order_by("position")
    gts_abc = phase.task.scoring_options().gts_abc
    edits = list(chunks.filter(modified=True).values_list(*CHUNK_FIELDS))
    weights = chunk_weights(_n(edits), pool_size, gts_abc)
    order = hardest_first(edits, weights, error_type)
    page = order[:shown] if shown else order
    shown_chunks = list(chunks.filter(sentence__in=page).values_list(*CHUNK_FIELDS)) if page else []
    shown_weights = chunk_weights(_n(shown_chunks), pool_size, gts_abc)
    return {
        "sentences": sentence_rows(sources, shown_chunks, shown_weights, pool_size),
        "n_sentences": len(order),
        "types": sorted({c[4] for c in edits}),
        "table": difficulty_table(edits, weights, level),
        "pool_size": pool_size,
        "n_chunks": len(edits),
    }


def hardest_first(edits: list[tuple], weights: np.ndarray | None, error_type: str) -> list[int]:
    """The sentences with a gold edit (of ``error_type``, when given), hardest first: by the
    weight of their hardest edit, then in corpus order (:func:`sentence_rows`' order)."""
    hardest: dict[int, float] = {}
    wanted: set[int] = set()
    for k, (sentence, _start, _end, _correction, etype, _modified, _n) in enumerate(edits):
        weight = 0.0 if weights is None else float(weights[k])  # no weights: corpus order
        hardest[sentence] = max(hardest.get(sentence, weight), weight)
        if not error_type or matches_type(etype, error_type):
            wanted.add(sentence)
    return sorted(wanted, key=lambda s: (-hardest[s], s))


def _n(chunks: list[tuple]) -> np.ndarray:
    return np.fromiter((c[6] for c in chunks), dtype=np.int64, count=len(chunks))
