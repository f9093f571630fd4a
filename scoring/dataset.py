"""A shared task's fixed data: sources and references, prepared once.

Parsing the sources and annotating every reference is the expensive part of scoring;
it never changes for a dataset, so it is done once here (as sacreBLEU caches its
references) and saved with :meth:`Dataset.to_bytes` for the platform to store, with
the reference lines' parses: a system line equal to a reference line is then neither
parsed nor aligned (:mod:`scoring.line_cache`). A submission costs only the parse and
alignment of the lines no reference and no earlier system has.
"""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errant.annotation import annotate
from .errant.edits import Edit, apply_edits
from .errors import ProblemCollector
from .limits import DEFAULT_LIMITS, Limits
from .line_cache import LineCache
from .nlp import import_spacy
from .pipelines import get_pipeline
from .readers import M2Corpus, problem, read_m2, read_text

FORMAT_VERSION = 3
READABLE_FORMATS = (1, 2, 3)  # format 1 has no reference parses (made on demand); 1 and 2 are English ``full``


@dataclass
class Reference:
    """One annotator: corrected tokens and ERRANT edits per sentence.

    ``edits[i]`` is None where an M2 annotator has no ``A`` line for sentence ``i``
    (``errant_compare`` then skips it there); ``tokens[i]`` is then the source.
    """

    name: str
    tokens: list[list[str]]
    edits: list[list[Edit] | None]


class Dataset:
    """Sources, references and the source parses, ready to score submissions against.

    ``lang`` and ``pipeline`` name the text pipeline (:mod:`scoring.pipelines`) that
    tokenizes, parses and types every line of the dataset and of its submissions; they
    are saved with it. ``pipeline=None`` is the language's richest.
    """

    def __init__(
        self,
        sources: list[list[str]],
        references: list[Reference],
        *,
        tokenize: bool = False,
        source_docs: list | None = None,
        docbin: bytes | None = None,
        lines: LineCache | None = None,
        lang: str = "en",
        pipeline: str | None = None,
    ):
        self.text_pipeline = get_pipeline(lang, pipeline)
        self.lang = lang
        self.pipeline = self.text_pipeline.name
        self.sources = sources
        self.references = references
        self.tokenize = tokenize
        self._source_docs = source_docs
        self._source_parsed: dict[int, object] = {}  # parses made so far, before all are asked for
        self._docbin = docbin
        self.lines = lines if lines is not None else LineCache(pipeline=self.text_pipeline)
        self.tables: dict[str, Any] = {}  # metrics' once-per-dataset results (JSON), saved with it
        self.fingerprint = ""  # what it was made from, when its maker records it (the CLI's --prepared)
        # Results derived from the sources and references alone, kept for the next
        # system scored in this process (metric objects are made per call); not saved.
        self.memo: dict[object, object] = {}

    # -- construction --------------------------------------------------------------
    @classmethod
    def from_text(
        cls,
        source_lines: Sequence[str],
        reference_lines: Sequence[Sequence[str]],
        *,
        names: Sequence[str] | None = None,
        tokenize_input: bool = False,
        lang: str = "en",
        pipeline: str | None = None,
        limits: Limits = DEFAULT_LIMITS,
    ) -> Dataset:
        """Parse the sources once and annotate every reference against them."""
        dataset = cls([], [], tokenize=tokenize_input, lang=lang, pipeline=pipeline)
        dataset.sources = sources = dataset.split(source_lines, limits, "source")
        for k, lines in enumerate(reference_lines):
            name = names[k] if names else f"ref{k}"
            tokens = dataset.split(lines, limits, name)
            edits: list[list[Edit] | None] = [*annotate(sources, tokens, dataset.source_parses, dataset.lines)]
            dataset.references.append(Reference(name, tokens, edits))
        dataset.annotated_references = True
        return dataset

    @classmethod
    def from_m2(cls, corpus: M2Corpus, *, lang: str = "en", pipeline: str | None = None) -> Dataset:
        """Gold edits as given, one reference per annotator id (docs/contracts.md section 1)."""
        references = []
        for annotator in corpus.annotator_ids:
            edits = [block.get(annotator) for block in corpus.annotations]
            tokens = [apply_edits(src, e or []) for src, e in zip(corpus.sources, edits)]
            references.append(Reference(f"annotator{annotator}", tokens, edits))
        dataset = cls(corpus.sources, references, lang=lang, pipeline=pipeline)
        dataset.reference_order = [[corpus.annotator_ids.index(a) for a in block] for block in corpus.annotations]
        return dataset

    @classmethod
    def from_files(
        cls,
        *,
        source: str | Path | None = None,
        refs: Sequence[str | Path] = (),
        m2: str | Path | None = None,
        tokenize_input: bool = False,
        limits: Limits = DEFAULT_LIMITS,
        lang: str = "en",
        pipeline: str | None = None,
    ) -> Dataset:
        """The dataset of the CLI's ``--source/--ref`` or ``--m2`` options."""
        if m2 is not None:
            return cls.from_m2(read_m2(m2, limits=limits), lang=lang, pipeline=pipeline)
        if source is None or not refs:
            raise problem(0, "give a source file with one or more reference files, or an M2 file")
        source_lines = read_text(source, limits=limits)
        ref_lines = [read_text(ref, expected_lines=len(source_lines), limits=limits) for ref in refs]
        return cls.from_text(
            source_lines,
            ref_lines,
            names=[Path(r).stem for r in refs],
            tokenize_input=tokenize_input,
            lang=lang,
            pipeline=pipeline,
            limits=limits,
        )

    # -- access ----------------------------------------------------------------------
    def split(self, lines: Sequence[str], limits: Limits = DEFAULT_LIMITS, name: str = "") -> list[list[str]]:
        """Tokens of text lines: the pipeline's tokenizer with ``tokenize``, else whitespace.

        The readers checked the whitespace tokens against ``limits``; a tokenizer can make
        more (Chinese: a token per character), so its lines are checked again here.
        """
        if not self.tokenize:
            return [line.split() for line in lines]
        tokens = self.text_pipeline.tokenize(lines)
        problems = ProblemCollector(name)
        for number, line in enumerate(tokens, start=1):
            if len(line) > limits.line_tokens:
                problems.add(
                    number,
                    f"the line has {len(line)} tokens after {self.lang} tokenization, over the limit of "
                    f"{limits.line_tokens} per line",
                )
        problems.raise_if_any()
        return tokens

    def signature(self) -> str:
        """The text pipeline's part of a score's signature (language, pipeline, versions)."""
        return self.text_pipeline.signature()

    def __len__(self) -> int:
        return len(self.sources)

    @property
    def n_references(self) -> int:
        return len(self.references)

    @property
    def source_docs(self) -> list:
        """spaCy parses of the sources: restored from storage, or parsed on first use."""
        if self._source_docs is None:
            if self._docbin is not None:
                import_spacy()
                from spacy.tokens import DocBin

                self._source_docs = list(DocBin().from_bytes(self._docbin).get_docs(self.text_pipeline.nlp.vocab))
            else:
                self._source_docs = self.source_parses(range(len(self.sources)))
        return self._source_docs

    def remembered(self, key, make):
        """``memo[key]``, made by ``make()`` the first time it is asked for."""
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = make()
        return found

    def source_parses(self, indices: Sequence[int]) -> list:
        """The parses of the sources at ``indices``. Before :attr:`source_docs` is asked
        for, only these are parsed (those not parsed yet, in one batch): a sentence that
        no reference and no system changes never needs its parse for ERRANT."""
        if self._source_docs is not None or self._docbin is not None:
            docs = self.source_docs
            return [docs[i] for i in indices]
        parsed = self._source_parsed
        missing = [i for i in dict.fromkeys(indices) if i not in parsed]
        for i, doc in zip(missing, self.text_pipeline.parse([self.sources[i] for i in missing])):
            parsed[i] = doc
        return [parsed[i] for i in indices]

    reference_order: list[list[int]] | None = None
    annotated_references = False  # edits made by ERRANT here (text), not given (M2)

    def references_in(self, i: int) -> list[int]:
        """Indices of the references annotating sentence ``i``, in file order.

        Text references are all present in their given order; an M2 block lists its
        annotators in the order their first ``A`` line appears, which is the order
        ``errant_compare`` tries them in (ties go to the first).
        """
        if self.reference_order is None:
            return list(range(len(self.references)))
        return self.reference_order[i]

    # -- storage ---------------------------------------------------------------------
    def to_bytes(self) -> bytes:
        """A zip of the tokens, reference edits, source parses and the parses of the
        lines cached so far (the reference lines, once prepared), as spaCy DocBins."""
        import_spacy()
        from spacy.tokens import DocBin

        meta = {
            "format": FORMAT_VERSION,
            "lang": self.lang,
            "pipeline": self.pipeline,
            "tokenize": self.tokenize,
            "fingerprint": self.fingerprint,
            "signature": self.signature(),
            "sources": self.sources,
            "reference_order": self.reference_order,
            "annotated_references": self.annotated_references,
            "references": [{"name": r.name, "tokens": r.tokens, "edits": r.edits} for r in self.references],
        }
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr("dataset.json", json.dumps(meta))
            archive.writestr("sources.spacy", DocBin(docs=self.source_docs, store_user_data=False).to_bytes())
            archive.writestr("lines.spacy", self.lines.to_bytes())
            archive.writestr("tables.json", json.dumps(self.tables))
        return buffer.getvalue()

    @classmethod
    def from_bytes(cls, data: bytes) -> Dataset:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            meta = json.loads(archive.read("dataset.json"))
            docbin = archive.read("sources.spacy")
            line_parses = archive.read("lines.spacy") if "lines.spacy" in archive.namelist() else None
            tables = json.loads(archive.read("tables.json")) if "tables.json" in archive.namelist() else {}
        if meta.get("format") not in READABLE_FORMATS:
            raise ValueError(f"prepared dataset format {meta.get('format')} is not {FORMAT_VERSION}: prepare it again")
        references = [
            Reference(r["name"], r["tokens"], [None if e is None else [Edit(*x) for x in e] for e in r["edits"]])
            for r in meta["references"]
        ]
        dataset = cls(
            meta["sources"],
            references,
            tokenize=meta["tokenize"],
            docbin=docbin,
            lang=meta.get("lang", "en"),
            pipeline=meta.get("pipeline", "full"),
        )
        dataset.reference_order = meta["reference_order"]
        dataset.annotated_references = meta.get("annotated_references", False)
        dataset.tables = tables
        dataset.fingerprint = meta.get("fingerprint", "")
        dataset.stored_signature = meta.get("signature")
        if line_parses is not None:
            dataset.lines.add_serialised(line_parses)
        if dataset.annotated_references:
            dataset.remember_reference_edits()
        return dataset

    stored_signature: str | None = None  # the text pipeline that made the stored parses

    @property
    def made_by_another_pipeline(self) -> bool:
        """True when the stored parses and reference edits were made by another version
        of the text pipeline (a tagger added or upgraded), so they must be made again:
        the signature saved with them differs from today's. A dataset saved before
        signatures were stored is trusted for English ``full`` (unchanged since) and made
        again otherwise."""
        if self.stored_signature is None:
            return not (self.lang == "en" and self.pipeline == "full")
        return self.stored_signature != self.signature()

    def remember_reference_edits(self) -> None:
        """Seed the line cache with the references' ERRANT edits (a system line equal to
        a reference line would get exactly these)."""
        for reference in self.references:
            for i, (tokens, edits) in enumerate(zip(reference.tokens, reference.edits)):
                if edits is not None and tokens != self.sources[i]:
                    self.lines.add_edits(i, tokens, edits)

    def save(self, path: str | Path) -> None:
        Path(path).write_bytes(self.to_bytes())

    @classmethod
    def load(cls, path: str | Path) -> Dataset:
        return cls.from_bytes(Path(path).read_bytes())
