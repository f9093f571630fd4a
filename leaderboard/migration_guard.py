"""Refuse to migrate a database that stopped partway through the old migration chain.

The season's migrations were squashed into ``0001_squashed_0032`` and the old files
deleted. A database that ran all of them counts the squashed one as applied; one that ran
only some would otherwise be told "no migrations" and silently keep a half-built schema.
"""

from importlib import import_module

from django.core.checks import Error, Tags, register
from django.db import connections
from django.db.migrations.recorder import MigrationRecorder

SQUASHED = "leaderboard.migrations.0001_squashed_0032"


def old_chain() -> set[str]:
    """The names of the migrations the squashed one replaces."""
    return {name for _app, name in import_module(SQUASHED).Migration.replaces}


def recorded(alias: str) -> set[str]:
    """The leaderboard migrations a database has recorded (none when it has no table yet)."""
    recorder = MigrationRecorder(connections[alias])
    if not recorder.has_table():
        return set()
    return set(recorder.migration_qs.filter(app="leaderboard").values_list("name", flat=True))


@register(Tags.database)
def old_chain_finished(app_configs=None, databases=None, **kwargs) -> list[Error]:
    """An error per database that ran some of the old chain but not all of it."""
    errors = []
    chain = old_chain()
    for alias in databases or []:
        done = recorded(alias) & chain
        if done and done != chain:
            errors.append(
                Error(
                    f"database {alias!r} ran {len(done)} of the {len(chain)} squashed leaderboard migrations; "
                    "migrate it to 0032_merge_parallel_work with the release before the squash first",
                    hint="docs/deployment.md, 'Upgrading past the squashed migrations'",
                    id="leaderboard.E001",
                )
            )
    return errors
