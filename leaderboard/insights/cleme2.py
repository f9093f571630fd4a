"""CLEME2.0 views: Hit/Error/Under/Over per system, and sentences with coloured chunks.

Ye et al. (2024), section 3: every chunk a hypothesis or a reference changes is TP (a
hit), FP_ne (an error: changed where a correction was needed, but wrongly), FP_un (an
over-correction: changed where nothing was needed) or FN (an under-correction).
Hit, Error and Under are shares of the chunks that needed a correction; Over is the
share of the system's changes that were not needed. Everything comes from the stored
scores and chunk statistics (``scoring.cleme``); no sentence is scored again.
"""

from __future__ import annotations

from collections.abc import Sequence

CLASSES = ("TP", "FP_ne", "FP_un", "FN")
CLASS_NAMES = {
    "TP": "hit",
    "FP_ne": "error (wrong correction)",
    "FP_un": "over-correction",
    "FN": "under-correction (missed)",
}
ASSUMPTIONS = ("dependent", "independent")
INSERTION_MARK = "\u2038"


def bars(rows: Sequence[dict], assumption: str = "dependent") -> list[dict]:
    """Per system: hit/error/under (shares of the needed corrections) and over, in percent."""
    result = []
    for row in rows:
        corpus = row["scores"].get("cleme2", {}).get(assumption, {}).get("corpus")
        if not corpus:
            continue
        result.append(
            {
                "submission_id": row["submission_id"],
                "team": row["team"],
                "system_name": row["system_name"],
                "baseline": row.get("baseline", False),
                "score": corpus["score"],
                **{k: 100 * corpus[k] for k in ("hit", "error", "under", "over")},
            }
        )
    return sorted(result, key=lambda r: -r["score"])


def segments(source: Sequence[str], records: Sequence[list], *, show_references: bool) -> list[dict]:
    """A sentence as display segments: plain source text and coloured chunks.

    A chunk the system changed shows the system's tokens (a deletion shows the source
    struck through); a missed one shows the source span. The references' targets go
    into the hover text only when ``show_references`` (organizers): participants never
    see a hidden reference.
    """
    result: list[dict]
    result, cursor = [], 0
    for index, start, end, hyp, refs, _dependent, independent in (r[:7] for r in sorted(records, key=lambda r: r[0])):
        if start > cursor:
            result.append({"text": " ".join(source[cursor:start]), "cls": ""})
        original = " ".join(source[start:end])
        if hyp is not None:
            text, deleted = (hyp, False) if hyp else (original, True)
            title = f"{original or '(nothing)'} \u2192 {hyp or '(deleted)'}"
        else:
            text, deleted = original or INSERTION_MARK, False
            title = original or "(insertion point)"
        cls = independent if independent in CLASSES else ""
        if not cls and not show_references:
            # TN here: only some reference changed the chunk; to a participant it is plain text
            if original:
                result.append({"text": original, "cls": ""})
            cursor = max(cursor, end)
            continue
        if cls:
            title = f"{CLASS_NAMES[cls]}: {title}"
        if show_references:
            wanted = "; ".join(f"ref {k}: {t if t is not None else '(unchanged)'}" for k, t in enumerate(refs))
            title = f"{title} | {wanted}"
        if text:
            result.append({"text": text, "cls": cls, "title": title, "deleted": deleted, "chunk": index})
        cursor = max(cursor, end)
    if cursor < len(source):
        result.append({"text": " ".join(source[cursor:]), "cls": ""})
    return result


def sentence_views(
    sources: Sequence[Sequence[str]], statistics: dict, *, show_references: bool, outcome: str = ""
) -> list[dict]:
    """Every sentence with a chunk of class ``outcome`` (any non-TN class when empty)."""
    wanted = (outcome,) if outcome in CLASSES else CLASSES
    views = []
    for i, records in enumerate(statistics["chunks"]):
        counts = {c: sum(1 for r in records if r[6] == c) for c in CLASSES}
        if not any(counts[c] for c in wanted):
            continue
        views.append(
            {
                "sentence": i,
                "line": i + 1,
                "counts": counts,
                "segments": segments(sources[i], records, show_references=show_references),
            }
        )
    return views
