"""What organizers and participants look at, as plain functions over stored results.

Nothing here scores again: every table, tie group, heat-map row and sentence view is
computed from the per-sentence statistics and scores the platform stored when the
submission was scored (``MetricResult``) and from the pool's success counts.
"""
