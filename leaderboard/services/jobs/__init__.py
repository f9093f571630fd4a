"""The sweeper, which re-queues work nobody finished (the job registry itself is
:mod:`leaderboard.queue`)."""
