"""What free text a participant or organizer sets may hold: how long it may be, and, for
names shown to others (teams, systems, users, tasks, phases, tracks), no invisible
characters.

A description of a million characters was stored and served in full, and names could
hold U+202E (right-to-left override), which makes a board line read as something else.
The limits are field validators (model forms, the admin and ``full_clean`` run them),
the same validators serve the forms and serializers that are not model forms, and
descriptions are also capped by a database constraint.
"""

from __future__ import annotations

import unicodedata

from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator

NAME_MAX = 100  # team, system and phase names
TITLE_MAX = 200  # a task's title
TRACK_MAX = 32  # one track's name
TRACKS_MAX = 20  # tracks per task
TASK_DESCRIPTION_MAX = 20_000
SUBMISSION_DESCRIPTION_MAX = 2_000

# Unicode's control (Cc), format (Cf: the bidirectional controls U+202A-U+202E,
# U+2066-U+2069, U+200E, U+200F, U+061C, zero-width characters, soft hyphen, BOM),
# separator (Zl, Zp), private-use (Co) and surrogate (Cs) categories: none prints a glyph
# of its own, so in a name each can only hide or reorder what is seen.
INVISIBLE_CATEGORIES = {"Cc", "Cf", "Zl", "Zp", "Co", "Cs"}


def invisible_characters(value: str) -> list[str]:
    """The invisible characters of ``value``, each as ``U+202E (RIGHT-TO-LEFT OVERRIDE)``."""
    found = dict.fromkeys(c for c in value if unicodedata.category(c) in INVISIBLE_CATEGORIES)
    return [f"U+{ord(c):04X} ({unicodedata.name(c, 'unnamed')})" for c in found]


def visible_name(value: str) -> None:
    """Validator of names others read: refuses bidirectional controls and other invisible characters."""
    found = invisible_characters(value)
    if found:
        raise ValidationError(
            f"a name may not hold invisible or direction-changing characters: {', '.join(found)}; remove them",
            code="invisible_characters",
        )


def at_most(limit: int) -> MaxLengthValidator:
    """A length validator whose message says the limit and the length given."""
    return MaxLengthValidator(limit, message="at most %(limit_value)s characters, please (this has %(show_value)s)")


def valid_tracks(value) -> None:
    """A task's tracks: a list of at most ``TRACKS_MAX`` visible names of at most ``TRACK_MAX`` characters."""
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise ValidationError("tracks are a list of names", code="invalid")
    if len(value) > TRACKS_MAX:
        raise ValidationError(f"at most {TRACKS_MAX} tracks, please (this has {len(value)})", code="max_tracks")
    for track in value:
        if len(track) > TRACK_MAX:
            raise ValidationError(
                f"track {track[:TRACK_MAX]!r}...: a track name has at most {TRACK_MAX} characters", code="max_length"
            )
        visible_name(track)


def field_problems(model, field_name: str, value) -> list[str]:
    """What the model field's validators say about ``value``, each message led by the
    field's name: for services, which raise their own errors, and for the models' checks
    to hold on rows written without a form."""
    field = model._meta.get_field(field_name)
    try:
        field.run_validators(value)
    except ValidationError as error:
        return [f"{field.verbose_name}: {message}" for message in error.messages]
    return []
