"""A system output, read and annotated once against a prepared :class:`Dataset`."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .dataset import Dataset
from .errant.annotation import annotate
from .errant.edits import Edit, apply_edits
from .errors import ProblemCollector
from .limits import DEFAULT_LIMITS, Limits
from .readers import as_bytes, read_m2, read_text

M2_SUFFIXES = (".m2", ".errant")


@dataclass
class Hypothesis:
    """Corrected tokens and ERRANT edits per sentence of one system."""

    name: str
    tokens: list[list[str]]
    edits: list[list[Edit]]
    docs: list | None = None  # parses of changed sentences (None = equal to the source), on first use
    lines: list[str] | None = None  # the output lines as read (GLEU splits them its own way)
    memo: dict = field(default_factory=dict, repr=False, compare=False)  # results two metrics share (CLEME's chunks)

    def parses(self, dataset: Dataset) -> list:
        """A spaCy parse of every output sentence: the source's where unchanged, else
        the dataset's cached parse of that line (made once, by whichever system or
        reference had it first)."""
        if self.docs is None:
            changed = [i for i, (t, s) in enumerate(zip(self.tokens, dataset.sources)) if t != s]
            self.docs = [None] * len(self.tokens)
            for i, doc in zip(changed, dataset.lines.parse([self.tokens[i] for i in changed])):
                self.docs[i] = doc
        return [doc if doc is not None else src for doc, src in zip(self.docs, dataset.source_docs)]


def hypothesis_from_lines(
    dataset: Dataset, lines: list[str], name: str, *, limits: Limits = DEFAULT_LIMITS
) -> Hypothesis:
    """Annotate plain-text output lines (already validated) against the dataset, with its
    language's text pipeline."""
    tokens = dataset.split(lines, limits, name)
    edits = annotate(dataset.sources, tokens, dataset.source_parses, dataset.lines)
    return Hypothesis(name, tokens, edits, lines=list(lines))


def read_hypothesis(
    dataset: Dataset,
    source: bytes | str | Path,
    name: str,
    *,
    filename: str | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> Hypothesis:
    """Read and annotate one system output; M2 (``.m2``/``.errant``) uses its edits as given.

    Raises :class:`InputError` naming every bad line, including any over ``limits``
    (see :func:`readers.read_text` and :func:`readers.read_m2`).
    """
    data, path_name = as_bytes(source)
    display = filename or path_name or name
    if display.lower().endswith(M2_SUFFIXES):
        return _hypothesis_from_m2(dataset, data, name, display, limits)
    lines = read_text(data, name=display, expected_lines=len(dataset), limits=limits)
    return hypothesis_from_lines(dataset, lines, name, limits=limits)


def _hypothesis_from_m2(dataset: Dataset, data: bytes, name: str, display: str, limits: Limits) -> Hypothesis:
    corpus = read_m2(data, name=display, expected_lines=len(dataset), limits=limits)
    problems = ProblemCollector(display)
    for line, got, want in zip(corpus.line_numbers, corpus.sources, dataset.sources):
        if got != want:
            problems.add(line, "this source sentence differs from the task's source at the same position")
    problems.raise_if_any()
    system = corpus.annotator_ids[0] if corpus.annotator_ids else 0
    edits = [block.get(system) or [] for block in corpus.annotations]
    tokens = [apply_edits(src, e) for src, e in zip(corpus.sources, edits)]
    return Hypothesis(name, tokens, edits)
