"""The campaign modes, one module each (:mod:`leaderboard.campaigns.registry`): importing
this package registers them."""

from . import edits, ranking, rating

__all__ = ["edits", "ranking", "rating"]
