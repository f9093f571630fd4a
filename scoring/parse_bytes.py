"""One spaCy parse as the bytes of a one-document ``DocBin``, made with one msgpack packer.

``DocBin.to_bytes`` packs with a new srsly ``Packer`` each call, and each new packer asks
srsly's encoder registry for its encoders, which scans the installed packages' entry
points (importlib.metadata): about four fifths of the cost of a short line's bytes, and
6-8% of a large worker's time when every new line's parse is stored apart
(:class:`scoring.line_cache.LineCache`). :class:`ParseSerialiser` builds the packer once
and packs the message ``DocBin.to_bytes`` packs, so the bytes are the same. It checks
that once, on the first document it is given, against ``DocBin`` itself: should a spaCy
release lay the message out otherwise, ``DocBin``'s own ``to_bytes`` is used, slower but
never wrong.
"""

from __future__ import annotations

import functools
import threading
import zlib

import numpy

from .nlp import import_spacy


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
