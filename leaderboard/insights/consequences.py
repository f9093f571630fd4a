"""What an irreversible-looking action will do, in numbers, for its confirmation page.

Revealing, freezing, rescoring, withdrawing and deleting each ask before acting
(a page that works without JavaScript, then a POST with ``confirmed``); the sentence
they show is written here from the current counts.
"""

from __future__ import annotations

from django.db.models import Count, Q

from ..models import Submission


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _counts(submissions) -> dict:
    return submissions.aggregate(
        submissions=Count("pk"),
        teams=Count("team", distinct=True),
        scored=Count("pk", filter=Q(status=Submission.Status.SCORED)),
        pending=Count("pk", filter=Q(status__in=(Submission.Status.QUEUED, Submission.Status.RUNNING))),
        on_board=Count("pk", filter=Q(pool_membership__isnull=False, hidden=False)),
    )


def participant_submissions(phase):
    return Submission.objects.filter(phase=phase, is_baseline=False)


def reveal(phase) -> str:
    c = _counts(participant_submissions(phase))
    return (
        f"Reveal the {phase.title} phase's results: {plural(c['scored'], 'scored submission')} of "
        f"{plural(c['teams'], 'team')} "
        f"become public ({c['on_board']} on the board), to participants and anonymous visitors alike. "
        "You can hide them again, but anyone may have seen or copied them by then."
    )


def freeze(phase) -> str:
    c = _counts(participant_submissions(phase))
    pending = f"; {plural(c['pending'], 'submission')} still queued or running will be scored" if c["pending"] else ""
    return (
        f"Freeze the {phase.title} phase: no team may submit until you unfreeze it "
        f"({plural(c['teams'], 'team')} have made {plural(c['submissions'], 'submission')} so far{pending})."
    )


def rescore(task) -> str:
    submissions = Submission.objects.filter(phase__task=task)
    n = submissions.count()
    phases = submissions.values("phase").distinct().count()
    return (
        f"Rescore everything: {plural(n, 'submission')} in {plural(phases, 'phase')} (baselines included) are "
        "scored again "
        "from their stored files; boards and ranks may change, and each phase's page shows the new scores as they land."
    )


def withdraw(submission) -> str:
    counted = Submission.objects.filter(pk=submission.pk, pool_membership__isnull=False).exists()
    board = (
        "it leaves the board and the GoToScorer pool" if counted else "it is not on the board now and will not count"
    )
    return (
        f"Withdraw submission {submission.pk} ({submission.system_name}): {board}; "
        "your team's other submissions follow the phase's counting rule. You can restore it while the phase is open."
    )


def delete(submission) -> str:
    return (
        f"Delete submission {submission.pk} ({submission.system_name}, failed): its file and error message are removed "
        "for good. This cannot be undone."
    )
