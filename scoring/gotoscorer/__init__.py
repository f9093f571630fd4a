"""GoToScorer (Gotou et al., COLING 2020): difficulty-weighted P, R, F0.5 and accuracy.

Every gold chunk (an edit, an untouched token, or an empty insertion slot between them)
is weighted by how many systems in a pool got it right: w_i = 1 - n_i/N (in general
a - (n_i + b)/(N + c)). It reproduces the reference code ``gotutiyan/GTS`` (commit
5d120c3); docs/metrics.md, GoToScorer lists the rules.

API for the platform
--------------------
(a) Gold chunks, computed once per task and reference::

        chunks = gold_chunks(dataset, ref_id)   # [GoldChunk(sentence, index, start, end,
                                                #   source, correction, type, modified)]

    ``source`` and ``correction`` are space-joined tokens; unmodified chunks have type ''
    and correction == source; an insertion slot has start == end and empty strings.
    Store them with a success count n (0 at first).

(b) A submission's outcome on each gold chunk, in corpus order, is the ``gotoscorer``
    metric's JSON statistics (``scoring.system_statistics``)::

        {"ref": 0, "gold": ["0010...", ...], "modified": [...], "correct": [...]}

    one '0'/'1' string per sentence, one character per gold chunk; ``gold`` repeats the
    chunks' modified flags so that stored statistics score on their own.
    ``decode(stats)`` gives ``(gold_modified, Outcomes(modified, correct))`` as bool arrays.
    On a join, n_i += correct_i for every chunk (SQL ``n = n + 1`` where correct).

(c) A member's scores from its outcome vectors, n and N (a pure function)::

        member_scores(gold_modified, modified, correct, n, N, weighted=True, beta=0.5)
        -> {"p", "r", "f", "accuracy", "tp", "fp", "fn", "tn"}

    It only needs, per class X in TP/FP/FN/TN, |X| and the integer sum of n_i over X
    (``outcome_sums``), since a weighted sum is |X| - (sum_X n_i)/N
    (``scores_from_sums``). Use those integers if the platform keeps sums in SQL.

(d) ``Pool``: ``Pool.of(gold_modified, {name: Outcomes})`` builds one from scratch;
    ``add(name, outcomes)``, ``remove(name)``, ``n``, ``size`` (N), ``weights()``,
    ``scores(name)``, ``all_scores()``, ``sums(name)``, ``false_positives`` (members that
    changed each chunk wrongly), ``sums_table()`` (every member's sums as arrays, for
    ``score_table``, the vectorised ``scores_from_sums``); ``Pool.from_packed`` builds
    one from ``numpy.packbits`` rows without a per-member loop. Joins and leaves update n, N and every member's sums
    with
    popcounts over packed bit arrays, and the result equals ``pool_scores`` (from scratch)
    of the final members exactly. The ``gotoscorer`` metric's ``score_pool`` uses it too.

Also: ``heatmap_rows`` (per sentence, each gold chunk's text, type, n and weight: the
difficulty heat map) and ``category_difficulty`` (mean/std/frequency of weights per
error type, cat 1/2/3).
"""

from .chunks import Chunk, GoldChunk, corpus_chunks, flatten, gold_chunks, reference_edits, sentence_chunks
from .difficulty import category_difficulty, format_difficulty
from .heatmap import heatmap_rows, render_chunk_visualiser
from .m2 import coder_edits
from .matching import judge_sentence
from .outcomes import Outcomes, decode, encode, system_outcomes
from .pool import Pool
from .scores import (
    DEFAULT_PARAMS,
    OutcomeSums,
    WeightParams,
    difficulty_weights,
    member_scores,
    outcome_sums,
    pool_scores,
    score_table,
    scores_from_sums,
    success_counts,
)

__all__ = [
    "Chunk",
    "GoldChunk",
    "corpus_chunks",
    "flatten",
    "gold_chunks",
    "reference_edits",
    "sentence_chunks",
    "category_difficulty",
    "format_difficulty",
    "heatmap_rows",
    "render_chunk_visualiser",
    "coder_edits",
    "judge_sentence",
    "Outcomes",
    "decode",
    "encode",
    "system_outcomes",
    "Pool",
    "DEFAULT_PARAMS",
    "OutcomeSums",
    "WeightParams",
    "difficulty_weights",
    "member_scores",
    "outcome_sums",
    "pool_scores",
    "score_table",
    "scores_from_sums",
    "success_counts",
]
