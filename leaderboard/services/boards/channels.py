"""Where a channel lives: a file under ``GEC_LIVE_DIR`` named by an unguessable token, and
the URL the proxy (or, without one, Django: views/live_files.py) serves it at.

The token is a keyed hash (the secret key) of what the channel is about and of who is in
the team, so only a page the server rendered for a member knows it, and a member who
leaves (or a newcomer) changes every name of the team's: from then on a leaver's old
names are files no longer written. A file holds only what every member may see. Files are replaced whole (written
aside, then renamed), so a poll
never reads half of one, and left alone when the content did not change.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

from ...models import Membership, Submission

PREFIX = "/live/"
KINDS = {"team": ".html", "submission": ".json"}  # a team's rows under the board; one upload's status
NAME = re.compile(r"[0-9a-f]{32}")


@dataclass(frozen=True)
class Channel:
    kind: str
    token: str

    @property
    def url(self) -> str:
        return f"{PREFIX}{self.kind}/{self.token}{KINDS[self.kind]}"

    @property
    def path(self) -> Path:
        return Path(settings.GEC_LIVE_DIR) / self.kind / f"{self.token}{KINDS[self.kind]}"


def _token(*about) -> str:
    message = ":".join(["gec-live", *map(str, about)]).encode()
    return hmac.new(settings.SECRET_KEY.encode(), message, hashlib.sha256).hexdigest()[:32]


def enabled() -> bool:
    """Channels are written and polled unless ``GEC_LIVE_DIR`` is empty (web and workers
    on machines that share no directory: pages then ask Django for their own)."""
    return bool(settings.GEC_LIVE_DIR)


def _members(team_id: int | None) -> list[int]:
    return sorted(Membership.objects.filter(team_id=team_id).values_list("user_id", flat=True)) if team_id else []


def team_channel(team_id: int, phase_id: int) -> Channel:
    """The team's newest rows in one phase, as its members see them."""
    return Channel("team", _token("team", team_id, phase_id, _members(team_id)))


def submission_channel(submission_id: int, team_id: int | None = None) -> Channel:
    """One upload's polled status (``{"id", "status", "finished", "progress"}``); its
    team's id is looked up when not given."""
    if team_id is None:
        team_id = Submission.objects.filter(pk=submission_id).values_list("team_id", flat=True).first()
    return Channel("submission", _token("submission", submission_id, _members(team_id)))


def write(channel: Channel, body: bytes) -> bool:
    """Replace the channel's file with ``body`` at once; False when it already held it."""
    path = channel.path
    try:
        if path.read_bytes() == body:
            return False
    except OSError:
        path.parent.mkdir(parents=True, exist_ok=True)
    aside = path.with_name(f".{path.name}.{os.getpid()}")
    aside.write_bytes(body)
    os.replace(aside, path)
    return True


def file_at(kind: str, filename: str) -> Path | None:
    """The file a ``/live/<kind>/<filename>`` request names, when the name is a channel's."""
    token, dot, extension = filename.partition(".")
    if not enabled() or kind not in KINDS or "." + extension != KINDS[kind] or not dot or not NAME.fullmatch(token):
        return None
    return Channel(kind, token).path
