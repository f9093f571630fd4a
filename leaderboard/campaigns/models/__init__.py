"""The slice's models (app label ``leaderboard``, imported by ``leaderboard/models/__init__.py``)."""
