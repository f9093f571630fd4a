"""The files a phase offers its participants: its inputs, and its references when the
organizers publish them (``leaderboard.access`` decides who gets which).

A phase of several corpora offers one file per corpus, named as a zip submission names
it (``<corpus>.txt``), so a participant corrects the files in place and zips them back.
"""

from __future__ import annotations

from ...models import Phase


def phase_inputs(phase: Phase) -> list[tuple[str, str]]:
    """``[(file name, text)]``: one source file per corpus of the phase."""
    if not phase.is_multi_corpus:
        return [(f"{phase.task.slug}-{phase.kind}.src.txt", phase.gold.source)]
    return [(f"{c.corpus}.txt", c.gold.source) for c in phase.corpora()]


def phase_references(phase: Phase) -> list[tuple[str, str]]:
    """``[(file name, text)]``: one file per reference, or the M2 file, of every corpus."""
    if not phase.is_multi_corpus:
        return corpus_references(phase, f"{phase.task.slug}-{phase.kind}")
    return [file for c in phase.corpora() for file in corpus_references(c, c.corpus)]


def corpus_references(corpus: Phase, stem: str) -> list[tuple[str, str]]:
    references = corpus.gold.references
    if corpus.gold.from_m2:
        return [(f"{stem}.m2", references[0]["text"])]
    return [(f"{stem}.ref{k}.txt", ref["text"]) for k, ref in enumerate(references)]
