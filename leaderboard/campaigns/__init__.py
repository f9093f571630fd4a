"""Human evaluation as one slice: campaigns, invitations, judgments and the meta-evaluation
of the metrics against them (docs/architecture.md, "Slices").

``models/`` (app label ``leaderboard``), ``registry.py`` and ``modes/`` (a mode is a
strategy), ``services/``, the reads ``insights/`` and ``selectors/``, ``board.py`` (the
columns a published campaign adds to the board: the slice's one interface to it), and the
entry points ``api/`` and ``views/``; its templates and script are under ``templates/``
and ``static/``.
"""
