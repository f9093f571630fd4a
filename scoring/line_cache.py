"""Every distinct line a dataset has parsed and annotated, kept for the next system.

docs/metrics.md asks for one parse per line; across the systems of a task most
changed lines repeat (a reference line, or another system's same correction). A parse
depends only on the exact token sequence, and ERRANT's edits only on that and the
source sentence, so both are looked up by those keys before anything is parsed: the
references fill the cache when the dataset is prepared, every system adds its own lines.
A :class:`LineStore` (the platform's database) extends the cache across processes.

Each new line's parse is stored apart, as a one-document spaCy ``DocBin``'s bytes.
``DocBin.to_bytes`` packs with a new srsly ``Packer`` each call, and each new packer asks
srsly's encoder registry for its encoders, which scans the installed packages' entry
points: about nine tenths of a short line's cost, 6-8% of a large worker's time.
:class:`ParseSerialiser` builds the packer once and packs the message ``DocBin.to_bytes``
packs, so the bytes are the same; it checks that once, on the first document, against
``DocBin`` itself, and should a spaCy release lay the message out otherwise, uses
``DocBin``'s own ``to_bytes``, slower but never wrong.
"""

from __future__ import annotations

import functools
import hashlib
import threading
import zlib
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, Protocol

import numpy

from .errant.edits import Edit
from .nlp import import_spacy

MAX_LINES = 50_000  # a bound on memory for long-lived workers (a parse is ~10 kB)

Tokens = tuple[str, ...]


def line_key(tokens: Sequence[str]) -> str:
    """A fixed-length key of the exact token sequence (tokens never hold NUL)."""
    return hashlib.sha256("\0".join(tokens).encode()).hexdigest()


class LineStore(Protocol):
    """Serialised parses shared by every process scoring the same dataset."""

    def fetch(self, keys: list[str]) -> dict[str, bytes]: ...

    def save(self, parses: dict[str, bytes]) -> None: ...


# -- one parse as bytes ------------------------------------------------------------------
class ParseSerialiser:
    """``to_bytes(doc)`` equals ``DocBin(docs=[doc], store_user_data=False).to_bytes()``."""

    def __init__(self) -> None:
        import_spacy()
        import srsly.msgpack
        from spacy.tokens import DocBin

        self._packer = srsly.msgpack.Packer(use_bin_type=True)  # as srsly.msgpack_dumps packs
        self._docbin = DocBin
        self._lock = threading.Lock()  # a packer keeps its buffer between calls: one thread at a time
        self.same_as_docbin: bool | None = None  # known after the first document

    def docbin_bytes(self, doc) -> bytes:
        """spaCy's own bytes of the one-document DocBin (the slow path, and the check's reference)."""
        return self._docbin(docs=[doc], store_user_data=False).to_bytes()

    def to_bytes(self, doc) -> bytes:
        if self.same_as_docbin is None:  # the first document: compare once with spaCy's own
            found = self.docbin_bytes(doc)
            try:
                self.same_as_docbin = self._pack(doc) == found
            except (AttributeError, TypeError, ValueError):  # a DocBin without these fields
                self.same_as_docbin = False
            return found
        return self._pack(doc) if self.same_as_docbin else self.docbin_bytes(doc)

    def _pack(self, doc) -> bytes:
        """The message ``DocBin.to_bytes`` packs (spaCy 3.x, user data not stored), packed by the one packer."""
        docbin = self._docbin(docs=[doc], store_user_data=False)
        tokens = numpy.vstack(docbin.tokens) if docbin.tokens else numpy.asarray([])
        spaces = numpy.vstack(docbin.spaces) if docbin.spaces else numpy.asarray([])
        message = {
            "version": docbin.version,
            "attrs": docbin.attrs,
            "tokens": tokens.tobytes("C"),
            "spaces": spaces.tobytes("C"),
            "lengths": numpy.asarray([len(t) for t in docbin.tokens], dtype="int32").tobytes("C"),
            "strings": sorted(docbin.strings),
            "cats": docbin.cats,
            "flags": docbin.flags,
            "span_groups": docbin.span_groups,
        }
        with self._lock:
            packed = self._packer.pack(message)
        return zlib.compress(packed)


@functools.cache
def serialiser() -> ParseSerialiser:
    """The process's one serialiser."""
    return ParseSerialiser()


def doc_to_bytes(doc) -> bytes:
    """One parse as a DocBin's bytes (:class:`ParseSerialiser`, built once per process)."""
    return serialiser().to_bytes(doc)


def docs_from_bytes(data: bytes, vocab) -> list:
    import_spacy()
    from spacy.tokens import DocBin

    return list(DocBin().from_bytes(data).get_docs(vocab))


class LineCache:
    """Parses by token sequence and ERRANT edits by (sentence, token sequence), made by
    one text pipeline (:mod:`scoring.pipelines`; default English ``full``)."""

    def __init__(self, store: LineStore | None = None, max_lines: int = MAX_LINES, pipeline=None):
        self.store = store
        self._pipeline = pipeline
        self.max_lines = max_lines
        self._docs: OrderedDict[Tokens, Any] = OrderedDict()
        self._edits: OrderedDict[tuple[int, Tokens], list[Edit]] = OrderedDict()
        self._pending: list[bytes] = []  # serialised parses not yet decoded (from storage)

    @property
    def pipeline(self):
        if self._pipeline is None:
            from .pipelines import get_pipeline

            self._pipeline = get_pipeline()
        return self._pipeline

    def __len__(self) -> int:
        self._decode_pending()
        return len(self._docs)

    # -- parses --------------------------------------------------------------------------
    def parse(self, token_lists: Sequence[Sequence[str]]) -> list:
        """A parse per token list; only sequences never seen before reach spaCy."""
        self._decode_pending()
        keys = [tuple(tokens) for tokens in token_lists]
        missing = list(dict.fromkeys(k for k in keys if k not in self._docs))
        if missing and self.store is not None:
            missing = self._fetch(missing)
        if missing:
            parsed = self.pipeline.parse(missing)
            for key, doc in zip(missing, parsed):
                self._docs[key] = doc
            if self.store is not None:
                self.store.save({line_key(key): doc_to_bytes(doc) for key, doc in zip(missing, parsed)})
        found = [self._docs[k] for k in keys]
        self._evict(self._docs)
        return found

    def _fetch(self, missing: list[Tokens]) -> list[Tokens]:
        """Take what the store has; returns the keys still missing."""
        by_key = {line_key(tokens): tokens for tokens in missing}
        assert self.store is not None  # called only with a store
        for data in self.store.fetch(list(by_key)).values():
            for doc in docs_from_bytes(data, self.pipeline.nlp.vocab):
                words = tuple(t.text for t in doc)
                if by_key.get(line_key(words)) == words:
                    self._docs[words] = doc
        return [tokens for tokens in missing if tokens not in self._docs]

    def add_serialised(self, data: bytes) -> None:
        """Parses saved by :meth:`to_bytes`, decoded on first use (that needs spaCy)."""
        self._pending.append(data)

    def _decode_pending(self) -> None:
        while self._pending:
            for doc in docs_from_bytes(self._pending.pop(), self.pipeline.nlp.vocab):
                self._docs.setdefault(tuple(t.text for t in doc), doc)

    def to_bytes(self) -> bytes:
        import_spacy()
        from spacy.tokens import DocBin

        self._decode_pending()
        return DocBin(docs=list(self._docs.values()), store_user_data=False).to_bytes()

    # -- edits ---------------------------------------------------------------------------
    def edits(self, sentence: int, tokens: Sequence[str]) -> list[Edit] | None:
        return self._edits.get((sentence, tuple(tokens)))

    def add_edits(self, sentence: int, tokens: Sequence[str], edits: list[Edit]) -> None:
        self._edits[(sentence, tuple(tokens))] = edits
        self._evict(self._edits)

    def _evict(self, entries: OrderedDict) -> None:
        while len(entries) > self.max_lines:
            entries.popitem(last=False)
