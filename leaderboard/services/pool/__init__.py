"""GoToScorer's pool: who is in it (the phase's counting rule), its rows written at the
cost of what changed, and the difficulty counts kept in the database."""
