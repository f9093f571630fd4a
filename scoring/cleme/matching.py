"""Chunk outcomes: TP, FP_ne, FP_un, FN or TN for every chunk (CLEME section 3.2, CLEME2.0 section 3).

Two chunks are equal when their index and target tokens agree (the source span is the
same by construction). Per chunk ``i``:

* dependent (one outcome per reference ``r``): a changed hypothesis chunk is TP if it
  equals ``r``'s chunk, else FP; an unchanged one is FN if it differs from ``r``'s
  chunk, else TN;
* independent (one outcome for all references): changed -> TP if it equals ANY
  reference's chunk, else FP; unchanged -> FN only if ALL references changed it, else TN.

CLEME2.0 splits FP into FP_ne (the reference changed that chunk; independent: ANY
reference did) and FP_un (it did not). CLEME's FP is their sum.

The outcomes are the metric's per-sentence statistics. Only chunks that the hypothesis
or some reference changes are kept as records; the rest are TN for everyone and are
counted, not listed, which keeps a 1,312-sentence corpus at a few hundred kilobytes.
"""

from __future__ import annotations

from ..dataset import Dataset
from ..hypothesis import Hypothesis
from .partition import chunk_edits, partition, target_tokens

TP, FP_NE, FP_UN, FN, TN = "TP", "FP_ne", "FP_un", "FN", "TN"
OUTCOMES = (TP, FP_NE, FP_UN, FN, TN)

# One record per chunk changed by the hypothesis or a reference. ``hyp`` and each of
# ``refs`` are the space-joined tokens of a target that changes the chunk ("" = it
# deletes it), None where that target leaves it unchanged (its tokens are then the
# source's ``start:end``). ``dependent`` holds one outcome per kept reference.
CHUNK_FIELDS = ("index", "start", "end", "hyp", "refs", "dependent", "independent")
CHANGED = (TP, FP_NE, FP_UN, FN)  # the outcomes of a changed chunk, as the per-sentence download counts them


def chunk_outcome_rows(statistics: dict) -> list[list[int]]:
    """Per line, its chunks by outcome under the independent assumption (:data:`CHANGED`;
    Ye et al., 2024, section 3): the per-sentence download's CLEME and CLEME2.0 columns."""
    independent = CHUNK_FIELDS.index("independent")
    return [[sum(1 for r in records if r[independent] == c) for c in CHANGED] for records in statistics["chunks"]]


def all_kept_references(dataset: Dataset) -> list[list[int]]:
    """:func:`kept_references` of every sentence, made once per dataset (``dataset.memo``)."""
    return dataset.remembered("cleme.kept", lambda: [kept_references(dataset, i) for i in range(len(dataset))])


def kept_references(dataset: Dataset, i: int) -> list[int]:
    """The references CLEME compares sentence ``i`` with.

    Empty references (no tokens) are dropped, else the partition collapses; if every
    one is empty the first is kept (HEAD ``cleme_base.prepare_datasets``; v1 does the
    same for the CoNLL-14 data). An M2 annotator without a line for the sentence counts
    as making no edit.
    """
    everyone = list(range(dataset.n_references))
    source = dataset.sources[i]
    kept = [k for k in everyone if target_tokens(source, dataset.references[k].edits[i])]
    return kept or everyone[:1]


def sentence_chunks(source: list[str], hyp_edits, ref_edits: list) -> tuple[int, list[list], int, int]:
    """``(n_chunks, records, reference changed-chunk length sum, count)`` of one sentence.

    The length sum and count feed the length-weighting bias (the mean of max(source,
    target) length over every changed reference chunk of the corpus).
    """
    targets = [chunk_edits(hyp_edits)] + [chunk_edits(e) for e in ref_edits]
    spans, changed = partition(source, targets)
    hyp, refs = changed[0], changed[1:]
    length_sum = count = 0
    for ref in refs:
        for index, tokens in ref.items():
            start, end = spans[index]
            length_sum += max(end - start, len(tokens))
            count += 1
    touched = set(hyp)
    for ref in refs:
        touched.update(ref)
    records = []
    for index in sorted(touched):
        start, end = spans[index]
        source_tokens = source[start:end]
        hyp_tokens = hyp.get(index)
        ref_tokens = [ref.get(index) for ref in refs]
        ref_effective = [source_tokens if t is None else t for t in ref_tokens]
        if hyp_tokens is not None:
            dependent = [
                TP if hyp_tokens == t else (FP_NE if c is not None else FP_UN)
                for t, c in zip(ref_effective, ref_tokens)
            ]
            if hyp_tokens in ref_effective:
                independent = TP
            else:
                independent = FP_NE if any(t is not None for t in ref_tokens) else FP_UN
        else:
            dependent = [TN if t == source_tokens else FN for t in ref_effective]
            independent = FN if all(t is not None for t in ref_tokens) else TN
        records.append(
            [
                index,
                start,
                end,
                None if hyp_tokens is None else " ".join(hyp_tokens),
                [None if t is None else " ".join(t) for t in ref_tokens],
                dependent,
                independent,
            ]
        )
    return len(spans), records, length_sum, count


def chunk_statistics(dataset: Dataset, hypothesis: Hypothesis) -> dict:
    """Per-sentence chunk outcomes of one system, JSON-serialisable.

    ``length_bias`` is CLEME's ``l`` (section 3.3): it depends on the hypothesis too,
    since the hypothesis's edits widen the references' chunks.
    """
    refs, n_chunks, chunks = [], [], []
    length_sum = count = 0
    for i, (source, kept) in enumerate(zip(dataset.sources, all_kept_references(dataset))):
        n, records, s, c = sentence_chunks(source, hypothesis.edits[i], [dataset.references[k].edits[i] for k in kept])
        refs.append(list(kept))
        n_chunks.append(n)
        chunks.append(records)
        length_sum += s
        count += c
    # The reference averages an empty list (NaN) when no reference changes anything;
    # 0 keeps the weights finite there.
    bias = length_sum / count if count else 0.0
    return {"refs": refs, "n_chunks": n_chunks, "chunks": chunks, "length_bias": bias}


def shared_chunk_statistics(dataset: Dataset, hypothesis: Hypothesis) -> dict:
    """:func:`chunk_statistics`, made once per hypothesis and dataset for CLEME and
    CLEME2.0 alike. Each call returns its own top-level dict; the records inside are
    shared, so a caller that changes them (similarity weights) takes
    :func:`chunk_statistics` instead."""
    found = hypothesis.memo.get("cleme.chunks")
    if found is None or found[0] is not dataset:
        found = hypothesis.memo["cleme.chunks"] = (dataset, chunk_statistics(dataset, hypothesis))
    return dict(found[1])


def record_length(record: list) -> int:
    """The chunk length CLEME weighs: max(source, hypothesis) tokens of the hypothesis chunk."""
    span = record[2] - record[1]
    hyp = record[3]
    return span if hyp is None else max(span, len(hyp.split()))
