"""The corpus a campaign shows: on a phase of several corpora (MultiGEC-2025's shape) a
campaign names one (``"corpus": "cs-geccc"``), its screens are that corpus's texts, its
systems the phase's uploads, each read through its output for that corpus; on a phase of
one corpus it names none. An organizer who wants every corpus rated makes one campaign a
corpus, so each corpus has its own results (its own annotators, scales and controls)."""

from __future__ import annotations

from ...models import Phase, Submission


def corpus_names(phase: Phase) -> list[str]:
    return [p.corpus for p in phase.corpora()] if phase.is_multi_corpus else []


def checked_corpus(phase: Phase, corpus: object, problems: list[str]) -> str:
    """The corpus to store ('' on a phase of one corpus); every problem named."""
    names = corpus_names(phase)
    if not names:
        if corpus not in (None, ""):
            problems.append(f"corpus: the {phase.title} phase has one corpus; name none (got {corpus!r})")
        return ""
    if corpus in (None, ""):
        problems.append(f"corpus: the {phase.title} phase has several corpora; name one of {', '.join(names)}")
        return ""
    if corpus not in names:
        problems.append(f"corpus: the {phase.title} phase has no corpus {corpus!r} (its corpora: {', '.join(names)})")
        return ""
    return str(corpus)


def corpus_phase(campaign) -> Phase:
    """The phase whose dataset the campaign shows: the named corpus's, or the phase itself."""
    if not campaign.corpus:
        return campaign.phase
    return Phase.every.select_related("dataset").get(parent=campaign.phase_id, corpus=campaign.corpus)


def corpus_outputs(campaign, submissions: list[Submission]) -> dict[int, Submission]:
    """``{submission id: the submission whose lines are shown}``: itself, or on a phase of
    several corpora its output for the campaign's corpus (absent when it has none)."""
    if not campaign.corpus:
        return {s.pk: s for s in submissions}
    children = Submission.objects.filter(
        parent__in=[s.pk for s in submissions], phase__parent=campaign.phase_id, phase__corpus=campaign.corpus
    ).defer("content")
    return {child.parent_id: child for child in children if child.parent_id is not None}
