"""The fields of an arc of the edit lattice: :mod:`.lattice` builds arcs, :mod:`.path` reads them.

An arc u -> w is a list [length, unchanged, start, positions, weight]: ``length`` counts
base edges, ``unchanged`` the unchanged tokens inside (an arc with unchanged == length
changes nothing), ``start`` is the source offset m2scorer gives the edit (see
:func:`.lattice.edit_start`), ``positions`` where the arc is listed in the edge list,
ascending (twice for an edge of both alignments, once per improvement of a merged arc),
``weight`` its weight when it matches no gold edit (see :func:`.lattice.default_weight`).
Lists, because a worst-case sentence has a quarter of a million arcs.
"""

LENGTH, UNCHANGED, START, POSITIONS, WEIGHT = range(5)
