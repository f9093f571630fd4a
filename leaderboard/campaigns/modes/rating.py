"""Mode rating: annotators rate each output on the campaign's named scales (direct assessment).

A screen shows one output; its figures are each scale's mean per-annotator z-score with
WMT's clusters; a published campaign adds one board column per scale, ``campaign:scale``.
"""

from __future__ import annotations

from ..registry import BoardColumn, CampaignMode
from ..services.judging import JudgmentError
from ..services.rating_results import rating_results
from ..services.rating_screens import prepare_ratings
from ..services.ratings import record_ratings


class Rating(CampaignMode):
    name = "rating"
    rates = True
    template = "campaigns/rate.html"

    def plan(self, campaign) -> str:
        return prepare_ratings(campaign)

    def record(self, campaign, user, data: dict):
        if "ranks" in data or "edits" in data:
            raise JudgmentError(["ranks: a campaign in mode rating takes ratings: {output key: {scale: value}}"])
        return record_ratings(campaign, user, data["item"], data.get("ratings"), data.get("duration"))

    def results(self, campaign) -> dict:
        return {**rating_results(campaign), "edit_marks": {}}

    def columns(self, name: str, scales: list[dict] | None, systems: dict) -> list[BoardColumn]:
        columns = []
        for scale in [s["name"] for s in scales or []]:
            cells = {system: cell(values, scale) for system, values in systems.items()}
            columns.append(BoardColumn(f"{name}:{scale}", "z", cells, scale))
        return columns


def cell(values: dict, scale: str) -> dict | None:
    """A system's figures on one scale: the z-score, the raw mean, the cluster."""
    figures = (values.get("scales") or {}).get(scale)
    return {"z": figures.get("z"), "mean": figures.get("mean"), "cluster": figures.get("cluster")} if figures else None
