"""M2 / MaxMatch (Dahlmeier & Ng, NAACL 2012), exactly as m2scorer 3.2 counts it.

MaxMatch scores a system against gold edits without knowing the system's edits: it
builds a lattice of every edit sequence that turns the source into the output along an
optimal Levenshtein alignment (:mod:`.lattice`), gives arcs that match a gold edit a large
negative weight, and takes the shortest path: the edit sequence that agrees with the
gold standard most, with the fewest edits among those (:mod:`.search`). That is done per
annotator; one annotator per sentence is then chosen over running corpus totals
(:mod:`.score`).

m2scorer 3.2 computes the lattice's transitive arcs with a Floyd-Warshall triple loop over
all vertex triples and the path with Bellman-Ford rounds over all arcs: 1,400 s for one
CoNLL-2014 sentence. The counts here are identical, at a cost linear in the arcs:

* the triple loop visits intermediate vertices in lexicographic cell order, which is the
  order edges run in, so when it reaches k every arc into k is final and every arc out of
  k is still a single step. It is therefore a forward extension: each arc into k extended
  by each step out of k, replacing the arc u -> w only when strictly shorter. Done in
  m2scorer's order, this also reproduces the edge list (its length is the weight of a
  matched arc, its order decides ties) and the removal of unchanged arcs.
* the shortest-path distances are one pass in topological order (the same floating-point
  sums); when several arcs offer a vertex's final distance, Bellman-Ford keeps the one
  whose offer it scanned first (round, then position in the edge list), and that scan
  order is replayed on just those arcs.

Both steps run in C where a compiler is found (``lattice_kernel.c``, :mod:`.compiled`):
the same steps and float additions on flat arrays, bit-identical to the Python engine
(:mod:`.lattice`, :mod:`.path`), which stays the fallback (``GEC_M2_KERNEL=python``).

``tests/scoring/test_m2_parity.py`` pins the SEEDA golden figures. During development a direct
transcription of m2scorer 3.2's loops (itself equal to the golden per-sentence file) gave
the same edit sequences and counts on every sentence and annotator of the 15 full
CoNLL-2014 systems.
"""
