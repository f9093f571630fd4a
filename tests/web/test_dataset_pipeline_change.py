"""A prepared dataset remembers which text pipeline made its parses (the signature, with
the tagger's version and data); restored under another one (a tagger added, as Czech,
Icelandic and German got theirs; a package upgraded) it says so, and the platform makes
it again from the stored gold, dropping the line parses stored for it."""

import io
import json
import zipfile

import pytest

from leaderboard.models import ParsedLine
from leaderboard.services.data import datasets
from leaderboard.services.data.bounded import Bounded
from scoring import Dataset

SOURCE, CORRECTION = "Šel jsem do kino .", "Šel jsem na film ."


def with_meta(data: bytes, **changes) -> bytes:
    """The prepared bytes with ``dataset.json``'s fields changed (``None`` removes one)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as old, zipfile.ZipFile(out, "w") as new:
        for item in old.infolist():
            content = old.read(item)
            if item.filename == "dataset.json":
                meta = json.loads(content)
                for key, value in changes.items():
                    meta.pop(key, None) if value is None else meta.__setitem__(key, value)
                content = json.dumps(meta).encode()
            new.writestr(item, content)
    return out.getvalue()


def test_a_dataset_knows_the_pipeline_that_made_it():
    prepared = Dataset.from_text([SOURCE], [[CORRECTION]], lang="cs", pipeline="lemmas").to_bytes()
    assert not Dataset.from_bytes(prepared).made_by_another_pipeline
    assert Dataset.from_bytes(
        with_meta(
            prepared,
            signature="spacy:3.8.18|tokenizer:blank-cs|lemmas:simplemma-2.0.0|lang:cs|pipeline:lemmas|types:scoring",
        )
    ).made_by_another_pipeline
    assert Dataset.from_bytes(
        with_meta(prepared, signature=None)
    ).made_by_another_pipeline  # saved before signatures: made again
    english = Dataset.from_text(["This are a test ."], [["This is a test ."]]).to_bytes()
    assert not Dataset.from_bytes(
        with_meta(english, signature=None)
    ).made_by_another_pipeline  # English full: unchanged, trusted


@pytest.mark.django_db
def test_the_platform_prepares_a_dataset_made_by_another_pipeline_again(monkeypatch):
    stored = datasets.prepare_dataset("cs-old", SOURCE + "\n", [("ref1", CORRECTION + "\n")])
    stored.lang, stored.pipeline = "cs", "lemmas"
    stale = Dataset.from_text([SOURCE], [[CORRECTION]], lang="cs", pipeline="tokens")  # edits typed without a tagger
    stale.pipeline = "lemmas"
    stored.prepared = with_meta(
        stale.to_bytes(),
        signature="spacy:3.8.18|tokenizer:blank-cs|lemmas:simplemma-2.0.0|lang:cs|pipeline:lemmas|types:scoring",
    )
    stored.save()
    ParsedLine.objects.create(dataset_id=stored.pk, key="stale", parse=b"")
    monkeypatch.setattr(datasets, "_cache", Bounded(datasets.CACHED_DATASETS))  # a fresh worker
    restored = datasets.load_dataset(stored.pk)
    assert [e.type for e in restored.references[0].edits[0]] == ["R:ADP", "R:NOUN"]  # not the stale R:OTHER
    assert not ParsedLine.objects.filter(dataset_id=stored.pk, key="stale").exists()
    stored.refresh_from_db()
    assert not Dataset.from_bytes(bytes(stored.prepared)).made_by_another_pipeline  # saved: made again once
