"""Prepare a task's dataset once and restore it cheaply in every scoring process."""

from __future__ import annotations

import scoring

from ...models import Dataset, ParsedLine
from ...models.shared_tasks import input_limits
from .bounded import Bounded

FETCH_BATCH = 900  # keys per query (under SQLite's parameter limit)

CACHED_DATASETS = 8  # prepared datasets a process keeps (tens of MB each with their parses)
_cache: Bounded[int, scoring.Dataset] = Bounded(CACHED_DATASETS)


def prepare_dataset(name: str, source: str, references: list[tuple[str, str]], *, tokenize: bool = False) -> Dataset:
    """Validate, parse and annotate source and references, and store the result.

    ``references`` is ``[(name, text), ...]``. Raises :class:`scoring.InputError` with
    every bad line of every file.
    """
    prepared = parse_text_gold(source, references, tokenize=tokenize)
    return _store(name, prepared, source, [{"name": n, "text": t} for n, t in references], from_m2=False)


def prepare_dataset_m2(name: str, m2_text: str) -> Dataset:
    """A dataset from one M2 file: each annotator id is a reference (docs/contracts.md section 1)."""
    prepared = parse_m2_gold(m2_text)
    return _store(name, prepared, m2_source(prepared), [{"name": "m2", "text": m2_text}], from_m2=True)


def parse_text_gold(
    source: str,
    references: list[tuple[str, str]],
    *,
    tokenize: bool = False,
    limits: scoring.Limits | None = None,
    **language,
) -> scoring.Dataset:
    """``language``: ``lang`` and ``pipeline`` (:meth:`Dataset.language`); English by default.
    ``limits``: the site's (:func:`~leaderboard.models.shared_tasks.input_limits`) unless given."""
    limits = limits or input_limits()
    source_lines = scoring.read_text(source.encode(), name="source", limits=limits)
    reference_lines = [
        scoring.read_text(text.encode(), name=ref_name, expected_lines=len(source_lines), limits=limits)
        for ref_name, text in references
    ]
    return scoring.Dataset.from_text(
        source_lines, reference_lines, names=[n for n, _ in references], tokenize_input=tokenize, **language
    )


def parse_m2_gold(m2_text: str, *, limits: scoring.Limits | None = None, **language) -> scoring.Dataset:
    limits = limits or input_limits()
    return scoring.Dataset.from_m2(scoring.read_m2(m2_text.encode(), name="m2", limits=limits), **language)


def m2_source(prepared: scoring.Dataset) -> str:
    return "\n".join(" ".join(tokens) for tokens in prepared.sources) + "\n"


def prepare_stored(dataset: Dataset, *, tokenize: bool = False) -> scoring.Dataset:
    """Parse a dataset stored unprepared (gold an organizer uploaded on a page) and keep
    the prepared bytes; runs in the worker queue."""
    if dataset.from_m2:
        prepared = parse_m2_gold(dataset.references[0]["text"], limits=dataset.limits(), **dataset.language())
    else:
        references = [(r["name"], r["text"]) for r in dataset.references]
        prepared = parse_text_gold(
            dataset.source, references, tokenize=tokenize, limits=dataset.limits(), **dataset.language()
        )
    dataset.prepared, dataset.n_sentences, dataset.n_references = (
        prepared.to_bytes(),
        len(prepared),
        prepared.n_references,
    )
    dataset.save(update_fields=["prepared", "n_sentences", "n_references"])
    _cache.put(dataset.pk, prepared)
    return prepared


def _store(name: str, prepared: scoring.Dataset, source: str, references: list[dict], *, from_m2: bool) -> Dataset:
    dataset = Dataset.objects.create(
        name=name,
        source=source,
        references=references,
        from_m2=from_m2,
        prepared=prepared.to_bytes(),
        n_sentences=len(prepared),
        n_references=prepared.n_references,
    )
    prepared.lines.store = DatabaseLineStore(dataset.pk)
    _cache.put(dataset.pk, prepared)
    return dataset


def load_dataset(dataset: Dataset | int) -> scoring.Dataset:
    """The prepared dataset, restored from its stored bytes once per process."""
    pk = dataset if isinstance(dataset, int) else dataset.pk
    cached = _cache.get(pk)
    if cached is None:
        prepared = bytes(Dataset.objects.values_list("prepared", flat=True).get(pk=pk))
        cached = scoring.Dataset.from_bytes(prepared)
        if cached.made_by_another_pipeline:
            cached = prepare_again(pk, tokenize=cached.tokenize)
        cached.lines.store = DatabaseLineStore(pk)
        _cache.put(pk, cached)
    return cached


def prepare_again(pk: int, *, tokenize: bool) -> scoring.Dataset:
    """Parse and annotate a stored dataset afresh, dropping its stored line parses: the
    text pipeline changed since it was prepared (docs/languages.md, "The signature").
    Scores made before keep their figures until rescored (``manage.py rescore <task slug>``)."""
    ParsedLine.objects.filter(dataset_id=pk).delete()
    return prepare_stored(Dataset.objects.get(pk=pk), tokenize=tokenize)


def save_prepared(dataset_id: int, prepared: scoring.Dataset) -> None:
    """Store the prepared dataset again, with what metrics added to it since."""
    Dataset.objects.filter(pk=dataset_id).update(prepared=prepared.to_bytes())


class DatabaseLineStore:
    """The dataset's parsed lines in the database (``scoring.line_cache.LineStore``)."""

    def __init__(self, dataset_id: int):
        self.dataset_id = dataset_id

    def fetch(self, keys: list[str]) -> dict[str, bytes]:
        found: dict[str, bytes] = {}
        for i in range(0, len(keys), FETCH_BATCH):
            rows = ParsedLine.objects.filter(dataset_id=self.dataset_id, key__in=keys[i : i + FETCH_BATCH]).values_list(
                "key", "parse"
            )
            found.update((key, bytes(parse)) for key, parse in rows)
        return found

    def save(self, parses: dict[str, bytes]) -> None:
        rows = [ParsedLine(dataset_id=self.dataset_id, key=key, parse=parse) for key, parse in parses.items()]
        ParsedLine.objects.bulk_create(
            rows, batch_size=500, ignore_conflicts=True
        )  # another worker may have saved it first
