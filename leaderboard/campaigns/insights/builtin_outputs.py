"""The ids of a rating campaign's built-in outputs (ORIGINAL, REFERENCE: below zero, as no
submission has them) and their labels: read where ratings are counted, set by the
service that prepares the screens (:mod:`leaderboard.campaigns.services.builtin`)."""

from __future__ import annotations

BUILTIN = {"ORIGINAL": -1, "REFERENCE": -2}


def builtin_labels(campaign) -> dict[int, str]:
    """``{id: name}`` of the campaign's built-in outputs."""
    return {BUILTIN[name]: name for name in campaign.builtin or [] if name in BUILTIN}
