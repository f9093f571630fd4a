"""Delete a campaign (its screens, queues and judgments go with it), as its organizers may
outside the admin.

A published campaign's column leaves the board: the board's version moves on so every
cached board and export is fetched again. The meta-evaluation's tables are keyed by the
campaigns they counted: the worker computes them again without it once this commits.
"""

from __future__ import annotations

from django.db import transaction

from ...board_version import board_changed
from ...models import Campaign
from .meta_tables import refresh_meta_tables


def delete_campaign(campaign: Campaign) -> dict[str, int]:
    """Delete it; returns what went with it (``screens``, ``judgments``)."""
    with transaction.atomic():
        gone = {"screens": campaign.screens.count(), "judgments": campaign.judgments.count()}
        phase_id, published = campaign.phase_id, campaign.published
        Campaign.objects.filter(pk=campaign.pk).delete()
        if published:
            board_changed(phase_id)
        transaction.on_commit(lambda: refresh_meta_tables.enqueue(phase_id))
    return gone
