"""The files a phase offers its participants: its inputs, and its references when the
organizers publish them (``leaderboard.access`` decides who gets which)."""
from __future__ import annotations

from ..models import Phase


def phase_inputs(phase: Phase) -> list[tuple[str, str]]:
    """``[(file name, text)]``: one source file per corpus of the phase."""
    return [(f"{phase.task.slug}-{phase.kind}.src.txt", phase.dataset.source)]


def phase_references(phase: Phase) -> list[tuple[str, str]]:
    """``[(file name, text)]``: one file per reference, or the phase's M2 file."""
    stem = f"{phase.task.slug}-{phase.kind}"
    references = phase.dataset.references
    if phase.dataset.from_m2:
        return [(f"{stem}.m2", references[0]["text"])]
    return [(f"{stem}.ref{k}.txt", ref["text"]) for k, ref in enumerate(references)]
