"""CLEME2.0's similarity weights (Ye et al., 2024, section 3.3; HEAD ``weigher_similarity.py``).

A TP, FP or FN chunk ``c`` weighs, against reference ``r``,

    w = |F1(X', ref_r) - F1(source, ref_r)|

with X' the source where only chunk ``c`` is corrected: with the hypothesis's tokens
(TP, FP) or with ``r``'s (FN). Much of this never changes for a dataset, so it is
computed once per dataset and process (:class:`DatasetSimilarity`): the references'
embeddings, F1(source, ref_r), and F1 of every X' a reference's own chunk makes. An FN
chunk is never touched by the hypothesis's edits, so its span is a chunk of the
references-only partition and its X' is among those; many TP chunks are too. These F1
tables are plain floats, saved in the dataset's ``tables`` (the platform stores them with
the prepared dataset), so a cold worker loads them and embeds no reference X' at all. A
submission then embeds only the X' of its own other changes, and what it learns is kept
for the next submission (systems share many corrections: a quarter of the CoNLL-14
systems' new X' were made by an earlier one), up to :data:`LEARNED_LIMIT` characters of X'
(an essay's X' are whole essays: counted in X', a worker would keep gigabytes).
"""

from __future__ import annotations

import weakref

from ..dataset import Dataset
from ..similarity.bertscore import SentenceSimilarity, model_label
from ..similarity.encoders import engine_name
from .matching import kept_references
from .partition import chunk_edits, partition, target_tokens

LEARNED_LIMIT = 30_000_000  # characters of X' (with their F1 lists) kept from submissions


def pseudo_hypothesis(source: list[str], start: int, end: int, tokens: list[str]) -> str:
    """X': the source with only this chunk corrected; an empty X' becomes the source (HEAD)."""
    text = " ".join(source[:start] + tokens + source[end:])
    return text or " ".join(source)


class DatasetSimilarity:
    """Per sentence, F1 of known X' against each kept reference (the source included)."""

    def __init__(self, dataset: Dataset, model: str, layers: int | None):
        self.similarity = SentenceSimilarity(model, layers)
        self.sources = [" ".join(source) for source in dataset.sources]
        self.references: list[list[str]] = []
        candidates: list[set[str]] = []
        for i, source in enumerate(dataset.sources):
            edits = [dataset.references[k].edits[i] for k in kept_references(dataset, i)]
            self.references.append([" ".join(target_tokens(source, e)) for e in edits])
            spans, changed = partition(source, [chunk_edits(e) for e in edits])
            own = {self.sources[i]}
            for ref in changed:
                own.update(pseudo_hypothesis(source, *spans[index], tokens) for index, tokens in ref.items())
            candidates.append(own)
        self.similarity.keep(ref for refs in self.references for ref in refs)
        key = table_key(model, layers)
        if key not in dataset.tables:
            dataset.tables[key] = self._score(candidates)
        self.known: list[dict[str, list[float]]] = dataset.tables[key]
        self.anchors = [known[source] for known, source in zip(self.known, self.sources)]
        self.learned: list[dict[str, list[float]]] = [{} for _ in self.sources]
        self.learned_count = 0

    def forget(self) -> None:
        """Drop what submissions taught (a cold start, as for a fresh worker process)."""
        self.learned = [{} for _ in self.sources]
        self.learned_count = 0

    def _score(self, candidates: list[set[str]]) -> list[dict[str, list[float]]]:
        """F1 of every candidate of sentence ``i`` against each of its kept references."""
        pairs = [
            (cand, ref) for i, cands in enumerate(candidates) for cand in sorted(cands) for ref in self.references[i]
        ]
        flat = iter(self.similarity.f1(pairs))
        return [
            {cand: [next(flat) for _ in self.references[i]] for cand in sorted(cands)}
            for i, cands in enumerate(candidates)
        ]

    def weights(self, requests: list[tuple[int, str]]) -> list[list[float]]:
        """For each ``(sentence, X')``, ``|F1(X', ref_r) - F1(source, ref_r)|`` per kept reference.

        An X' the model reads as the source (its chunk lies past the model's length) is
        the source: its weight is exactly 0, never the float noise of another batch."""
        missing: list[set[str]] = [set() for _ in self.sources]
        fresh: list[dict[str, list[float]]] = [{} for _ in self.sources]
        source_ids: dict[int, list[int]] = {}
        for i, cand in requests:
            if cand not in self.known[i] and cand not in self.learned[i] and cand not in fresh[i]:
                if i not in source_ids:
                    source_ids[i] = self.similarity.token_ids(self.sources[i])
                if self.similarity.token_ids(cand) == source_ids[i]:
                    fresh[i][cand] = self.anchors[i]
                else:
                    missing[i].add(cand)
        for table, scored in zip(fresh, self._score(missing)):
            table.update(scored)
        result = []
        for i, cand in requests:
            f1 = next(table[cand] for table in (self.known[i], self.learned[i], fresh[i]) if cand in table)
            result.append([abs(value - anchor) for value, anchor in zip(f1, self.anchors[i])])
        self._learn(fresh)
        return result

    def _learn(self, fresh: list[dict[str, list[float]]]) -> None:
        added = sum(len(cand) for new in fresh for cand in new)
        if self.learned_count + added > LEARNED_LIMIT:
            self.forget()
        for learned, new in zip(self.learned, fresh):
            learned.update(new)
        self.learned_count += added


_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def table_key(model: str, layers: int | None) -> str:
    """Where the reference X' F1 table lives in ``Dataset.tables``: per model and engine
    (the engines differ in float rounding)."""
    return f"cleme2-similarity|{model_label(model)}|layers:{layers}|engine:{engine_name()}"


def dataset_similarity(dataset: Dataset, model: str, layers: int | None) -> DatasetSimilarity:
    """The dataset's :class:`DatasetSimilarity` for this model, built once per process."""
    per_model = _CACHE.setdefault(dataset, {})
    if (model, layers) not in per_model:
        per_model[(model, layers)] = DatasetSimilarity(dataset, model, layers)
    return per_model[(model, layers)]


def add_similarity_weights(dataset: Dataset, statistics: dict, model: str, layers: int | None) -> None:
    """Append to every chunk record its weight against each kept reference.

    X' comes from the hypothesis's tokens when the hypothesis changes the chunk (TP,
    FP) and from reference r's when it does not (FN for r). A chunk that is TN for r
    under both assumptions weighs 1 (TN chunks always count 1).
    """
    cache = dataset_similarity(dataset, model, layers)
    requests: list[tuple[int, str]] = []
    slots = []  # (weights list, reference position, request index)
    for i, records in enumerate(statistics["chunks"]):
        source = dataset.sources[i]
        for record in records:
            start, end, hyp, refs = record[1:5]
            weights = [1.0] * len(refs)
            for r, tokens in enumerate(refs):
                chunk = hyp if hyp is not None else tokens
                if chunk is not None:
                    slots.append((weights, r, len(requests)))
                    requests.append((i, pseudo_hypothesis(source, start, end, chunk.split())))
            record.append(weights)
    computed = cache.weights(requests)
    for weights, r, k in slots:
        weights[r] = computed[k][r]
