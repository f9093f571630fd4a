"""Human evaluation's tests (the slice ``leaderboard/campaigns/``), one folder per area as ``tests/``."""
