"""The queue adapter (``queue``: Celery, a background thread or inline) and the sweeper
that re-queues work nobody finished. No domain service imports ``queue``."""
