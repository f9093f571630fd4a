"""``create_task``: a hidden test phase with dates and limits, and phases added to an existing task."""

import datetime as dt

import pytest
from django.core.management import CommandError, call_command

from leaderboard.models import Phase, SharedTask
from tests.conftest import SUBSET_OUTPUTS, SUBSET_REFS, insight_head

pytestmark = pytest.mark.django_db
LINES = 6


@pytest.fixture
def gold(tmp_path):
    files = {"source": tmp_path / "source.txt", "refs": [tmp_path / "REF0.txt", tmp_path / "REF1.txt"]}
    files["source"].write_text(insight_head(SUBSET_OUTPUTS / "INPUT.txt", LINES))
    for path, ref in zip(files["refs"], SUBSET_REFS):
        path.write_text(insight_head(ref, LINES))
    return files


def args(gold):
    return ["--source", str(gold["source"]), *sum((["--ref", str(p)] for p in gold["refs"]), []), "--metrics", "errant"]


def test_a_test_phase_is_hidden_with_its_end_and_limits(gold):
    call_command(
        "create_task",
        "conll",
        *args(gold),
        "--phase",
        "test",
        "--ends",
        "2027-03-01T12:00",
        "--blind",
        "--max-per-day",
        "2",
        "--max-total",
        "5",
    )
    phase = SharedTask.objects.get(slug="conll").phases.get()
    assert (phase.kind, phase.results_visibility, phase.blind, phase.max_per_day, phase.max_total) == (
        "test",
        "organizers",
        True,
        2,
        5,
    )
    assert phase.ends_at == dt.datetime(2027, 3, 1, 12, tzinfo=dt.UTC)


def test_visibility_can_be_chosen_and_a_dev_phase_is_public(gold):
    call_command("create_task", "conll", *args(gold))
    assert Phase.objects.get().results_visibility == "public"
    call_command(
        "create_task",
        "conll",
        "--add-phase",
        "--phase",
        "test",
        "--visibility",
        "after_end",
        "--ends",
        "2027-03-01T12:00+01:00",
    )
    test = Phase.objects.get(kind="test")
    assert test.results_visibility == "after_end" and test.ends_at == dt.datetime(2027, 3, 1, 11, tzinfo=dt.UTC)


def test_add_phase_reuses_the_tasks_gold_or_takes_new_gold(gold):
    call_command("create_task", "conll", *args(gold))
    call_command("create_task", "conll", "--add-phase", "--phase", "test")
    call_command("create_task", "conll", "--add-phase", "--phase", "test-2", *args(gold)[:-2])
    dev, test, test2 = (Phase.objects.get(kind=k) for k in ("dev", "test", "test-2"))
    assert (
        test.dataset_id == dev.dataset_id and test2.dataset_id != dev.dataset_id and test2.dataset.n_sentences == LINES
    )
    assert test.results_visibility == test2.results_visibility == "organizers"


def test_clear_errors_instead_of_an_integrity_error(gold):
    call_command("create_task", "conll", *args(gold))
    with pytest.raises(CommandError, match="already has a phase dev"):
        call_command("create_task", "conll", "--add-phase", "--phase", "dev")
    with pytest.raises(CommandError, match="task conll exists; add a phase with --add-phase"):
        call_command("create_task", "conll", *args(gold), "--phase", "test")
    with pytest.raises(CommandError, match="no task nope"):
        call_command("create_task", "nope", "--add-phase", "--phase", "test")
    assert Phase.objects.count() == 1
