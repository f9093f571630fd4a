"""A public phase's live state as files the proxy serves: what every open task page polls.

A page polls its phase's version (``/tasks/<slug>/version/?phase=<key>``) and, when it
changed, the board (``/tasks/<slug>/rows/?phase=<key>``). For a phase whose results are
public both answers are the same for everyone, so they are written here, as Django
answers an anonymous GET of them, under ``GEC_LIVE_DIR/public/<slug>/<key>/`` (``rows.html``,
then ``version``), and nginx answers every such poll from the file (docker/nginx): no
request reaches Django, none waits on a cache lock, however many pages are open.

Whoever changes what the files say rewrites them once the change has committed: a new
board version (leaderboard/board_version.py), a phase or task saved (its visibility, its
dates, its key: :func:`connect`'s receivers). A phase that is not public has no files:
hiding one removes them at once (before its commit, and again after), so from then on
every poll reaches Django, which answers each viewer as they may see it. A writer that
raced a hide cannot leave a public file behind: it renders first, then writes holding
the phase's row, reading it again there (a hide's save waits for that write and removes
the files after it). The sweeper mends what no service announced (results revealed
when a phase ended, its references then shown).
"""

from __future__ import annotations

import functools
import logging
import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.http import HttpRequest, QueryDict
from django.urls import resolve, reverse

from ...board_version import board_version, version_moved
from ...models import Phase, SharedTask
from .channels import enabled

log = logging.getLogger(__name__)
FOLDER = "public"
FILES = (("task-rows", "rows.html"), ("task-version", "version"))  # the board first: a new version finds it there


@dataclass(frozen=True)
class State:
    """What the files of a phase say, as read from the database."""

    slug: str
    key: str
    public: bool
    version: int


def root() -> Path:
    return Path(settings.GEC_LIVE_DIR) / FOLDER


def folder(slug: str, key: str) -> Path:
    return root() / slug / key


def after_commit(phase_id: int) -> None:
    """:func:`refresh_phase` once the current transaction commits (at once outside one)."""
    if enabled():
        transaction.on_commit(functools.partial(_safely, refresh_phase, phase_id))


def refresh_phase(phase_id: int) -> None:
    """Write the phase's files as its state now says (its parent's, for a corpus of one),
    or remove them when it is not public."""
    parent = Phase.every.filter(pk=phase_id).values_list("parent_id", flat=True).first()
    _settle(parent or phase_id)


def refresh_task(task_id: int) -> None:
    """Every phase of the task, and no folder under the task's slug but its public phases'
    (a key renamed leaves none behind)."""
    slug = SharedTask.objects.filter(pk=task_id).values_list("slug", flat=True).first()
    for phase_id in Phase.objects.filter(task_id=task_id).values_list("pk", flat=True):
        _settle(phase_id)
    if slug is not None:
        _remove_strays(slug)


def refresh_all() -> int:
    """Every task's files, and no folder of a slug no task has any more: the sweeper's
    mending (results revealed when a phase ended). Returns how many phases are public."""
    if not enabled():
        return 0
    for task_id in SharedTask.objects.values_list("pk", flat=True):
        refresh_task(task_id)
    slugs = set(SharedTask.objects.values_list("slug", flat=True))
    for entry in _entries(root()):
        if entry.name not in slugs:
            _remove(Path(entry.path))
    return sum(1 for task in _entries(root()) for _ in _entries(Path(task.path)))


def withdraw(phase: Phase) -> None:
    """Remove the phase's files now (a hide, before it commits: nothing public is served
    while it does; :func:`refresh_phase` removes them again after)."""
    if enabled() and phase.parent_id is None:
        _remove(folder(phase.task.slug, phase.kind))


def _settle(phase_id: int) -> None:
    """Render the answers as the phase stands, then write them while holding its row
    (``FOR NO KEY UPDATE``): a hide's save waits for the write and removes the files
    after it, and a write that starts after a hide finds the phase hidden. Written only
    when nothing moved meanwhile; else the refresh that the move asked for writes them."""
    state = _state(phase_id)
    if state is None:
        return
    answers = _answers(state) if state.public else None
    with transaction.atomic():
        now = _state(phase_id, lock=True)
        if now is not None and not now.public:
            _remove(folder(now.slug, now.key))
        elif now == state and answers is not None:
            place = folder(state.slug, state.key)
            for name, body in answers:
                _replace(place / name, body)
    if now is None or (now.slug, now.key) != (state.slug, state.key):
        _remove(folder(state.slug, state.key))  # renamed or gone since: the old name says nothing


def _state(phase_id: int, *, lock: bool = False) -> State | None:
    phases = Phase.objects.select_related("task")
    if lock:
        phases = phases.select_for_update(no_key=True, of=("self",))
    phase = phases.filter(pk=phase_id).first()
    if phase is None:
        return None
    return State(phase.task.slug, phase.kind, phase.results_public(), board_version(phase.pk))


def _answers(state: State) -> list[tuple[str, bytes]] | None:
    """Django's anonymous answers to the phase's polls, by file name; None when one is
    not a public 200 (then nothing is served from files)."""
    answers = []
    for url_name, name in FILES:
        body = _public_answer(url_name, state.slug, state.key)
        if body is None:
            return None
        answers.append((name, body))
    return answers


def _public_answer(url_name: str, slug: str, key: str) -> bytes | None:
    """The body Django answers an anonymous GET of ``url_name`` for the phase, when it is
    marked public (the same for everyone); None otherwise."""
    path = reverse(url_name, args=[slug])
    match = resolve(path)
    request = HttpRequest()
    request.method, request.path, request.path_info = "GET", path, path
    request.GET = QueryDict(f"phase={key}")
    request.META = {"SERVER_NAME": "live-files", "SERVER_PORT": "80"}
    request.user = AnonymousUser()
    response = match.func(request, *match.args, **match.kwargs)
    if response.status_code != 200 or "public" not in response.get("Cache-Control", ""):
        return None
    return response.content


def _replace(path: Path, body: bytes) -> None:
    """``path`` holds ``body`` at once (written aside, then renamed); left alone when it did."""
    try:
        if path.read_bytes() == body:
            return
    except OSError:
        path.parent.mkdir(parents=True, exist_ok=True)
    aside = path.with_name(f".{path.name}.{os.getpid()}.{time.monotonic_ns()}")
    aside.write_bytes(body)
    os.replace(aside, path)


def _remove(place: Path) -> None:
    """The folder goes at once: renamed aside (one step), then deleted; when it cannot be
    renamed, its files are deleted one by one, the version first."""
    aside = place.with_name(f".gone-{place.name}-{os.getpid()}-{time.monotonic_ns()}")
    try:
        os.rename(place, aside)
    except FileNotFoundError:
        return
    except OSError:
        for _url_name, name in reversed(FILES):
            (place / name).unlink(missing_ok=True)
        return
    shutil.rmtree(aside, ignore_errors=True)


def _remove_strays(slug: str) -> None:
    public = {phase.kind for phase in Phase.objects.filter(task__slug=slug) if phase.results_public()}
    for entry in _entries(root() / slug):
        if entry.name not in public:
            _remove(Path(entry.path))


def _entries(place: Path) -> list[os.DirEntry]:
    try:
        return [entry for entry in os.scandir(place) if not entry.name.startswith(".")]
    except FileNotFoundError:
        return []


def _safely(refresh, *args) -> None:
    """A full disk, a missing directory or a failed render leaves the files as they were
    (a hide has removed them already), never fails the change that asked."""
    try:
        refresh(*args)
    except Exception:
        log.exception("the public live files could not be written (GEC_LIVE_DIR)")


# -- receivers: a phase or a task saved or deleted ----------------------------------------


def _phase_saved(sender, instance: Phase, **kwargs) -> None:
    if not enabled():
        return
    if kwargs.get("created") is False and not instance.results_public():
        _safely(withdraw, instance)
    transaction.on_commit(functools.partial(_safely, refresh_task, instance.task_id))


def _phase_deleted(sender, instance: Phase, **kwargs) -> None:
    if enabled():
        transaction.on_commit(functools.partial(_safely, refresh_task, instance.task_id))


def _task_saved(sender, instance: SharedTask, **kwargs) -> None:
    if enabled():
        transaction.on_commit(functools.partial(_safely, refresh_all))


def _version_moved(sender, phase_id: int, **kwargs) -> None:
    after_commit(phase_id)


def connect() -> None:
    """Listen for new board versions and for saved and deleted phases and tasks (called
    when the app is ready)."""
    version_moved.connect(_version_moved, dispatch_uid="live-files-version-moved")
    post_save.connect(_phase_saved, sender=Phase, dispatch_uid="live-files-phase-saved")
    post_delete.connect(_phase_deleted, sender=Phase, dispatch_uid="live-files-phase-deleted")
    post_save.connect(_task_saved, sender=SharedTask, dispatch_uid="live-files-task-saved")
    post_delete.connect(_task_saved, sender=SharedTask, dispatch_uid="live-files-task-deleted")
