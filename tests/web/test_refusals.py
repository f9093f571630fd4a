"""A service's refusal carries its HTTP status (leaderboard/refusals.py): the upload page
and the API read it from the error, so the mapping is written once."""

import ast
from pathlib import Path

from leaderboard.refusals import Refusal
from leaderboard.services.submissions.intake import OverLimit, PhaseClosed, UploadTooLarge
from leaderboard.services.teams.actions import TeamError
from leaderboard.services.teams.terms import TermsNotAccepted

ROOT = Path(__file__).resolve().parents[2]


def test_each_upload_refusal_carries_its_status():
    statuses = {cls: cls.status for cls in (UploadTooLarge, OverLimit, PhaseClosed, TeamError, TermsNotAccepted)}
    assert all(issubclass(cls, Refusal) for cls in statuses)
    assert statuses == {UploadTooLarge: 413, OverLimit: 429, PhaseClosed: 403, TeamError: 403, TermsNotAccepted: 403}


def test_no_view_maps_a_refusal_to_a_status_itself():
    """Neither the upload page nor the API names the refusals' classes to pick a status."""
    for path in ("leaderboard/views/pages.py", "leaderboard/api/views.py"):
        tree = ast.parse((ROOT / path).read_text())
        caught = {
            ast.unparse(handler.type)
            for handler in ast.walk(tree)
            if isinstance(handler, ast.ExceptHandler) and handler.type is not None
        }
        assert not caught & {"UploadTooLarge", "OverLimit", "(PhaseClosed, TeamError, TermsNotAccepted)"}, path
