"""Mode ranking: annotators rank a screen's outputs (sentence level, Appraise's relative ranking).

Its figures are Expected Wins and TrueSkill with clusters (``scoring human``); a published
campaign adds one board column of Expected Wins, named as the campaign.
"""

from __future__ import annotations

from ..registry import BoardColumn, CampaignMode
from ..services.human_ranking import ranking_results
from ..services.judging import JudgmentError, record_judgment
from ..services.prepare import prepare_campaign
from ..services.sampling import output_key


class Ranking(CampaignMode):
    name = "ranking"

    def key(self, index: int) -> str:
        """The letter of a screen's ``index``-th output: A, B, C, ..."""
        return output_key(index)

    def plan(self, campaign) -> str:
        return prepare_campaign(campaign, key=self.key)

    def record(self, campaign, user, data: dict):
        if "ratings" in data:
            raise JudgmentError(
                [f"ratings: only a campaign in mode rating takes ratings (this one's mode is {campaign.mode})"]
            )
        if "ranks" not in data:
            raise JudgmentError(["ranks: required: {output key: rank}"])
        return record_judgment(campaign, user, data["item"], data["ranks"], data.get("edits"), data.get("duration"))

    def results(self, campaign) -> dict:
        return {**ranking_results(campaign), "edit_marks": {}}

    def columns(self, name: str, scales: list[dict] | None, systems: dict) -> list[BoardColumn]:
        cells = {
            system: {"expected_wins": values.get("expected_wins"), "cluster": values.get("cluster")}
            for system, values in systems.items()
        }
        return [BoardColumn(name, "EW", cells)]
