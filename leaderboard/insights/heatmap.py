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


def filter_type(rows: list[dict], wanted: str) -> list[dict]:
    return [r for r in rows if any(matches_type(e["type"], wanted) for e in r["edits"])] if wanted else rows


def difficulty_table(chunks: list[tuple], weights: np.ndarray | None, level: int) -> list[dict]:
    """Mean, std and frequency of the weights per error type, hardest type first."""
    if weights is None:
        return []
    gold = [gotoscorer.GoldChunk(s, 0, start, end, "", c, t, m) for s, start, end, c, t, m, _ in chunks]
    return gotoscorer.category_difficulty(gold, weights, level)


def heatmap(phase, pool_size: int, sources: Sequence[Sequence[str]], *, error_type: str = "", level: int = 3) -> dict:
    """Everything the page shows: the sentences (hardest first), the type menu, the table.
    ``sources``: the tokens of the phase's source sentences (the stored gold's)."""
    chunks = list(
        GoldChunk.objects.filter(phase=phase)
        .with_n()
        .order_by("position")
        .values_list("sentence", "start", "end", "correction", "error_type", "modified", "n")
    )
    weights = chunk_weights(
        np.fromiter((c[6] for c in chunks), dtype=np.int64, count=len(chunks)),
        pool_size,
        phase.task.scoring_options().gts_abc,
    )
    rows = sentence_rows(sources, chunks, weights, pool_size)
    types = sorted({c[4] for c in chunks if c[5]})
    return {
        "sentences": filter_type(rows, error_type),
        "types": types,
        "table": difficulty_table(chunks, weights, level),
        "pool_size": pool_size,
        "n_chunks": sum(1 for c in chunks if c[5]),
    }
