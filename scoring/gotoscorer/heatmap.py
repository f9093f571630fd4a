"""Heat-map data: each sentence's gold chunks with their success count and weight.

This is what GTS shows in its chunk visualiser (``toolbox.chunk_visualizer``) and its
HTML heat map (``heatmap.py``): source text, gold correction, error type and weight per
chunk; the HTML map also marks unmodified chunks that some system changed wrongly
(``false_positives`` here). The rows are plain JSON so the platform can store them and
render them however it likes; :func:`render_chunk_visualiser` reproduces GTS's text.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .chunks import GoldChunk
from .scores import DEFAULT_PARAMS, WeightParams, difficulty_weights


def heatmap_rows(
    gold: Sequence[GoldChunk],
    n: np.ndarray,
    pool_size: int,
    *,
    params: WeightParams = DEFAULT_PARAMS,
    false_positives: np.ndarray | None = None,
) -> list[list[dict]]:
    """Per sentence, in order: ``{"start", "end", "source", "correction", "type",
    "modified", "n", "weight"[, "false_positives"]}`` for each gold chunk."""
    weights = difficulty_weights(n, pool_size, params)
    sentences: list[list[dict]] = []
    for i, chunk in enumerate(gold):
        if chunk.index == 0:
            sentences.append([])
        row = {
            "start": chunk.start,
            "end": chunk.end,
            "source": chunk.source,
            "correction": chunk.correction,
            "type": chunk.type,
            "modified": chunk.modified,
            "n": int(n[i]),
            "weight": float(weights[i]),
        }
        if false_positives is not None:
            row["false_positives"] = int(false_positives[i])
        sentences[-1].append(row)
    return sentences


def _cell(text: str, width: int) -> str:
    """Centre ``text`` in ``width`` columns, extra space to the right, then '|' (GTS)."""
    pad = (width - len(text)) // 2
    return " " * pad + text + " " * (pad + (width - len(text)) % 2) + "|"


def render_chunk_visualiser(sentences: Sequence[Sequence[dict]]) -> str:
    """GTS's ``-cv None`` output: orig/gold/weight/cat rows per sentence."""
    blocks = ["----- Chunk Visualizer -----"]
    for chunks in sentences:
        rows = {"orig:   ": "|", "gold:   ": "|", "weight: ": "|", "cat:    ": "|"}
        for chunk in chunks:
            texts = [chunk["source"], chunk["correction"], str(round(chunk["weight"], 2)), chunk["type"]]
            width = max(len(t) for t in texts)
            for label, text in zip(rows, texts):
                rows[label] += _cell(text, width)
        blocks.append("\n".join(label + row for label, row in rows.items()) + "\n")
    return "\n".join(blocks)
