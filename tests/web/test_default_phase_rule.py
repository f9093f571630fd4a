"""The phase meant when none is named: the open one whose results are public; an upload
never defaults to a hidden phase (``current_of``, ``submission_phase_of``)."""

import datetime as dt

import pytest
from django.utils import timezone

from leaderboard.models import Phase
from leaderboard.models.shared_tasks import PhaseNotNamed, current_of, submission_phase_of

NOW = timezone.now()


def phase(kind, *, days_ago=1, ends_in=None, frozen=False, pk=1):
    p = Phase(kind=kind, starts_at=NOW - dt.timedelta(days=days_ago), results_visibility=Phase.default_visibility(kind))
    p.ends_at = NOW + dt.timedelta(days=ends_in) if ends_in is not None else None
    p.frozen_at = NOW if frozen else None
    p.pk = pk
    return p


def test_dev_and_test_open_means_dev_everywhere():
    dev, test = phase("dev", days_ago=10, pk=1), phase("test", days_ago=1, pk=2)
    assert current_of([dev, test]) is dev
    assert submission_phase_of([dev, test]) is dev


def test_a_revealed_test_phase_is_public_too():
    dev, test = phase("dev", days_ago=10, pk=1), phase("test", days_ago=1, pk=2)
    test.revealed = True
    assert current_of([dev, test]) is test


def test_only_hidden_phases_open_the_upload_must_name_one():
    dev, test = phase("dev", days_ago=10, frozen=True, pk=1), phase("test", days_ago=1, pk=2)
    assert current_of([dev, test]) is test  # pages show it, saying its results are hidden
    with pytest.raises(PhaseNotNamed) as refused:
        submission_phase_of([dev, test])
    assert refused.value.choices == [test]
    assert "test (results hidden until the organizers reveal them)" in str(refused.value)


def test_two_public_phases_open_the_upload_must_name_one():
    a, b = phase("dev", days_ago=10, pk=1), phase("dev-2", days_ago=1, pk=2)
    with pytest.raises(PhaseNotNamed) as refused:
        submission_phase_of([a, b])
    assert [p.kind for p in refused.value.choices] == ["dev", "dev-2"]


def test_nothing_open_falls_back_to_the_latest_started():
    dev = phase("dev", days_ago=10, ends_in=-1, pk=1)
    assert current_of([dev]) is dev and submission_phase_of([dev]) is dev
    assert current_of([]) is None
