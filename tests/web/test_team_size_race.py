"""Joins sent at once never take a team past its size: the team's row is locked while
one joins. Real concurrency: threads with their own connections,
on PostgreSQL."""

import functools

from django.contrib.auth.models import User
from django.db import connection

from leaderboard.models import Membership
from leaderboard.services.teams import actions as teams
from tests.conftest import SUBSET_OUTPUTS, SUBSET_REFS, insight_head
from tests.support import needs
from tests.support.concurrency import at_once

JOINERS = 4


def test_parallel_joins_fill_the_last_place_once(transactional_db):
    from leaderboard.services.hosting.task_creation import create_task

    if connection.vendor != "postgresql":
        needs.missing("PostgreSQL at 127.0.0.1:5432: the race needs its row locks (scripts/services starts it)")
    task = create_task(
        "pairs",
        title="Pairs",
        source=insight_head(SUBSET_OUTPUTS / "INPUT.txt", 3),
        metrics=["errant"],
        references=[(p.stem, insight_head(p, 3)) for p in SUBSET_REFS],
    )
    teams.set_team_size(task, 2)
    team = teams.register_team(User.objects.create_user("lead", password="pw"), task, "Pair")
    joiners = [User.objects.create_user(f"j{k}", password="pw") for k in range(JOINERS)]

    def join(joiner):
        try:
            teams.join_team(joiner, task, team.invite_code)
            return "joined"
        except teams.TeamError as error:
            return str(error)

    outcomes = at_once([functools.partial(join, joiner) for joiner in joiners], timeout=60)
    assert outcomes.count("joined") == 1, outcomes
    assert all("is full" in o for o in outcomes if o != "joined")
    assert Membership.objects.filter(team=team).count() == 2
