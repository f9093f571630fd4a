"""Whether a campaign may be published: a rating campaign none of whose ratings counts
(no rating yet, or every annotator untrusted by the controls) would put empty columns on
the board, so publishing it is refused with the reason and what to do."""

from __future__ import annotations

from ...models import Campaign
from ...refusals import Refusal
from ..insights.judgments import system_labels
from ..insights.ratings import count_ratings
from ..registry import mode_of
from .builtin import builtin_labels


class NothingToPublish(Refusal):
    status = 409


def check_publishable(campaign: Campaign) -> None:
    """Raise :class:`NothingToPublish` for a rating campaign with no counted rating."""
    if not mode_of(campaign).rates:
        return
    submissions = list(campaign.systems.select_related("team").order_by("pk"))
    counted = count_ratings(campaign, system_labels(submissions) | builtin_labels(campaign))
    if counted.ratings:
        return
    if not counted.screens:
        reason = "no annotator has rated a screen yet"
    else:
        untrusted = ", ".join(sorted(counted.untrusted))
        reason = (
            f"every rating is left out: the controls trusted no annotator who rated ({untrusted} rated their "
            f"copies no lower than the originals at p <= {campaign.threshold})"
        )
    raise NothingToPublish(
        f"campaign {campaign.name} has no counted rating to publish: {reason}; wait for ratings, invite more "
        "annotators, or raise the threshold"
    )
