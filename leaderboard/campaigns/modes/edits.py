"""Mode edits: annotators mark each listed edit valid or invalid, then rank the outputs.

A ranking campaign (:mod:`.ranking`) whose judgments also carry the edits' marks: its
figures add each system's valid edits and edit-level Expected Wins, and its output keys
skip I and V, the keys that mark an edit.
"""

from __future__ import annotations

from ..services.edit_marks import edit_marks
from ..services.human_ranking import ranking_results
from ..services.sampling import output_key
from .ranking import Ranking

MARK_KEYS = ("I", "V")  # v and i mark an edit valid and invalid, so no output is named so


class Edits(Ranking):
    name = "edits"
    marks_edits = True

    def key(self, index: int) -> str:
        """A, B, C, ... without I and V (ten outputs: A-H, J, K)."""
        letters = [output_key(k) for k in range(index + 3) if output_key(k) not in MARK_KEYS]
        return letters[index]

    def results(self, campaign) -> dict:
        return {**ranking_results(campaign), "edit_marks": edit_marks(campaign)}
