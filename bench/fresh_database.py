"""A new PostgreSQL database for a benchmark that writes its rows straight into the
platform's tables: dropped and re-created at 127.0.0.1:5432, Django pointed at it with the
production settings (tasks run inline unless the bench passes :data:`JOBS_SENT`), migrated."""

from __future__ import annotations

import os

SERVER = "postgresql://postgres@127.0.0.1:5432"
# The jobs a step asks for (a join asks for the boards' groups) sent to a broker in memory
# and never run, as a web process or worker sends them on a site: the step is timed alone.
JOBS_SENT = {"GEC_TASK_MODE": "celery", "CELERY_BROKER_URL": "memory://"}


def reset_database(name: str) -> None:
    """Drop database ``name`` (closing its connections) and create it empty."""
    import psycopg

    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        connection.execute(f"CREATE DATABASE {name}")


def drop_database(name: str) -> None:
    """Drop database ``name``, closing its connections: a benchmark's cleanup."""
    import psycopg

    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def fresh_database(name: str, **environment: str) -> None:
    """:func:`reset_database`, then Django set up on it (``environment`` adds settings, such
    as ``GEC_POOL``) and migrated; the repository must be on ``sys.path``."""
    reset_database(name)
    os.environ.update(
        {
            "DATABASE_URL": f"{SERVER}/{name}",
            "DJANGO_SETTINGS_MODULE": "leaderboard.settings",
            "DEBUG": "0",
            "SECRET_KEY": "bench",
            "GEC_TASK_MODE": "sync",
            **environment,
        }
    )
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
