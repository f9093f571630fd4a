"""``python -m scoring``: the command line (options, reading inputs, the prepared-dataset file).

``main`` scores system outputs; ``meta`` and ``human`` are sub-commands kept in their
own packages and loaded only when asked for."""
