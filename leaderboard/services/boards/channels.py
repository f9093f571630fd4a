"""Where a channel lives: a file under ``GEC_LIVE_DIR`` named by an unguessable token, and
the URL the proxy (or, without one, Django: views/live_files.py) serves it at.

The token is a keyed hash (the secret key) of what the channel is about and of who is in
the team, so only a page the server rendered for a member knows it, and a member who
leaves (or a newcomer) changes every name of the team's: from then on a leaver's old
names are files no longer written. A file holds only what every member may see. Files
are replaced whole (written aside, then renamed), so a poll never reads half of one, and
left alone when the content did not change. The sweeper removes the files no member's
page names any more (:func:`sweep`): a leaver's old names, a deleted team's or upload's.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

from ... import access
from ...models import Membership, Phase, Submission, Team

PREFIX = "/live/"
KINDS = {"team": ".html", "submission": ".json"}  # a team's rows under the board; one upload's status
NAME = re.compile(r"[0-9a-f]{32}")
GRACE_SECONDS = 60  # a file written since the sweep read the names (a new member's) is younger


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
    return access.team_member_ids(team_id or None)


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


def names_in_use() -> dict[str, set[str]]:
    """``{kind: file names}`` a member's page may name now: each team's rows in every
    phase of its task (corpus phases included) and each upload's status, under the
    team's members of today."""
    members: dict[int, list[int]] = defaultdict(list)
    tasks: dict[int, set[int]] = defaultdict(set)
    for team_id, user_id, task_id in Membership.objects.values_list("team_id", "user_id", "task_id"):
        members[team_id].append(user_id)
        tasks[team_id].add(task_id)
    for team_id, task_id in Team.objects.filter(pk__in=list(members)).values_list("pk", "task_id"):
        tasks[team_id].add(task_id)
    phases: dict[int, list[int]] = defaultdict(list)
    for task_id, phase_id in Phase.every.values_list("task_id", "pk"):
        phases[task_id].append(phase_id)
    sorted_members = {team_id: sorted(users) for team_id, users in members.items()}
    names: dict[str, set[str]] = {kind: set() for kind in KINDS}
    for team_id, users in sorted_members.items():
        for phase_id in {p for task_id in tasks[team_id] for p in phases.get(task_id, ())}:
            names["team"].add(Channel("team", _token("team", team_id, phase_id, users)).path.name)
    for submission_id, team_id in Submission.objects.values_list("pk", "team_id"):
        token = _token("submission", submission_id, sorted_members.get(team_id, []))
        names["submission"].add(Channel("submission", token).path.name)
    return names


def sweep(grace_seconds: float = GRACE_SECONDS) -> int:
    """Remove the channel files no member's page names any more, older than
    ``grace_seconds`` (a name made after :func:`names_in_use` read the members belongs to
    a file written since); returns how many. Their names never come back, so nothing
    would ever read them but whoever kept an old name: a leaver."""
    if not enabled():
        return 0
    keep = names_in_use()
    cutoff = time.time() - grace_seconds
    removed = 0
    for kind, names in keep.items():
        try:
            entries = list(os.scandir(Path(settings.GEC_LIVE_DIR) / kind))
        except FileNotFoundError:
            continue
        for entry in entries:
            if entry.name not in names and _older(entry, cutoff):
                try:
                    os.unlink(entry.path)
                except FileNotFoundError:  # another sweeper was first
                    continue
                removed += 1
    return removed


def _older(entry: os.DirEntry, cutoff: float) -> bool:
    try:
        return entry.is_file(follow_symlinks=False) and entry.stat(follow_symlinks=False).st_mtime < cutoff
    except FileNotFoundError:
        return False
