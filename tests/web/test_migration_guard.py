"""A database stopped partway through the squashed chain is refused; a finished or fresh one is not."""

import pytest
from django.db import connection
from django.db.migrations.recorder import MigrationRecorder

from leaderboard.migration_guard import old_chain, old_chain_finished

pytestmark = pytest.mark.django_db


def record_only(names):
    recorded = MigrationRecorder(connection).migration_qs
    recorded.filter(app="leaderboard").delete()
    recorded.bulk_create([recorded.model(app="leaderboard", name=name) for name in names])


def test_the_squashed_file_replaces_all_29_old_migrations():
    chain = old_chain()
    assert len(chain) == 29
    assert {"0001_initial", "0026_metricresult_scores_summary", "0032_merge_parallel_work"} <= chain


def test_a_database_partway_through_the_old_chain_is_refused():
    record_only(sorted(old_chain())[:25])
    errors = old_chain_finished(databases=["default"])
    assert [e.id for e in errors] == ["leaderboard.E001"]
    assert "ran 25 of the 29" in errors[0].msg


def test_a_finished_or_squashed_database_passes():
    record_only(sorted(old_chain()) + ["0001_squashed_0032"])
    assert old_chain_finished(databases=["default"]) == []
    record_only(["0001_squashed_0032"])
    assert old_chain_finished(databases=["default"]) == []
