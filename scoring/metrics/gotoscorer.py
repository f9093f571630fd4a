"""GoToScorer as a registered pool metric (Gotou et al., COLING 2020; ``gotutiyan/GTS``).

Statistics are a system's outcome bits on every gold chunk of reference ``gts_ref``
(see :mod:`scoring.gotoscorer`); the weights need the whole pool, so scores come from
:meth:`GoToScorer.score_pool` over every system given, as GTS weighs all its ``-hyp``
systems together.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import numpy as np

from ..bootstrap import SampledScores
from ..dataset import Dataset
from ..gotoscorer import Pool, WeightParams, corpus_chunks, decode, reference_edits, score_table, scores_from_sums
from ..gotoscorer.outcomes import bits, outcome_bits
from ..gotoscorer.resampling import sentence_ids, sentence_rows
from ..gotoscorer.sampled import ChunkLayout, sampled_totals
from ..gotoscorer.scores import success_counts
from ..hypothesis import Hypothesis
from ..paths import ScorePath, expand
from .base import Metric, PoolCounts, Resampling, register

GTS_KEYS = ("p", "r", "f", "accuracy", "tp", "fp", "fn", "tn")
RESAMPLED_KEYS = ("p", "r", "f", "accuracy")
CLASSES_READ = {
    "p": (0, 1),
    "r": (0, 2),
    "f": (0, 1, 2),
    "accuracy": (0, 3),
}  # of TP, FP, FN, wrong (TN: all - wrong - TP)
_FIELDS = ",".join(f'"{key}":%r' for key in GTS_KEYS)  # one scores object's fields, json.dumps' text
_plain_text: dict[tuple, str] = {}  # (beta, class counts) -> unweighted fields: a pure function, never stale


@register
class GoToScorer(Metric):
    """Difficulty-weighted P, R, F and accuracy over a pool of systems."""

    name = "gotoscorer"
    pooled = True
    label = "GTS"
    headline = (ScorePath("gotoscorer.f", "GTS F"), ScorePath("gotoscorer.accuracy", "GTS Acc"))
    count_keys = frozenset({"tp", "fp", "fn", "tn"})
    lower_is_better = frozenset({"fp", "fn"})
    resampled = tuple(expand(["gotoscorer", "gotoscorer.unweighted"], RESAMPLED_KEYS))
    sentence_columns = ("needed", "corrected", "wrong")

    @classmethod
    def sentence_rows(cls, statistics: dict, beta: float) -> list[list]:
        """The gold chunks that needed a correction, how many of those the system got right,
        and its changes judged wrong (Gotou et al., 2020, section 3), unweighted: the weights
        depend on the pool and change with it."""
        rows = []
        for gold, modified, correct in zip(statistics["gold"], statistics["modified"], statistics["correct"]):
            needed = [g == "1" for g in gold]
            right = [c == "1" for c in correct]
            changed = [m == "1" for m in modified]
            corrected = sum(n and r for n, r in zip(needed, right))
            rows.append([sum(needed), corrected, sum(m and not r for m, r in zip(changed, right))])
        return rows

    @classmethod
    def score_paths(cls) -> tuple[str, ...]:
        return tuple(expand(["gotoscorer", "gotoscorer.unweighted"], GTS_KEYS))

    def __init__(self, options):
        super().__init__(options)
        self.pool_size: int | None = None  # of the last pool scored, for the signature

    @property
    def params(self) -> WeightParams:
        return WeightParams(*self.options.gts_abc)

    def _gold_of(self, dataset: Dataset) -> dict:
        """Gold chunks of reference ``gts_ref``, their bits and the outcome memo: made once
        per dataset and process (kept in ``dataset.memo`` for the next system)."""

        def make() -> dict:
            chunks = corpus_chunks(dataset.sources, reference_edits(dataset, self.options.gts_ref))
            return {
                "chunks": chunks,
                "bits": [bits(c.modified for c in sentence) for sentence in chunks],
                "outcomes": {},
            }

        return dataset.remembered(("gotoscorer.gold", self.options.gts_ref), make)

    def gold(self, dataset: Dataset) -> list:
        """Per-sentence gold chunks of reference ``gts_ref``, made once per dataset."""
        return self._gold_of(dataset)["chunks"]

    def prepare(self, dataset: Dataset) -> None:
        self._gold_of(dataset)

    def statistics(self, dataset: Dataset, hypothesis: Hypothesis) -> dict:
        gold = self._gold_of(dataset)
        modified, correct = outcome_bits(gold["chunks"], dataset.sources, hypothesis.edits, gold["outcomes"])
        return {"ref": self.options.gts_ref, "gold": list(gold["bits"]), "modified": modified, "correct": correct}

    def score(self, statistics: dict) -> dict:
        """A system alone is a pool of one."""
        return self.score_pool({"": statistics})[""]

    def score_pool(self, statistics: dict[str, dict]) -> dict[str, dict]:
        if not statistics:
            return {}
        first = next(iter(statistics.values()))
        for name, stats in statistics.items():
            if stats["ref"] != first["ref"] or stats["gold"] != first["gold"]:
                raise ValueError(
                    f"GoToScorer statistics of {name!r} were made against other gold chunks than the rest of the pool"
                )
        decoded = {name: decode(stats) for name, stats in statistics.items()}
        gold_modified = next(iter(decoded.values()))[0]
        pool = Pool.of(gold_modified, {name: outcomes for name, (_, outcomes) in decoded.items()}, self.params)
        self.pool_size = pool.size
        names, counts, n_sums = pool.sums_table()
        return dict(zip(names, self.member_results(counts, n_sums, pool.size, first["ref"]), strict=True))

    def member_result(self, sums, size: int, ref: int) -> dict:
        """One member's ``gotoscorer`` object from its class sums and the pool size N: the
        scalar definition that :meth:`member_results` and :meth:`results_json` (what the
        pool and the platform use) equal to the bit (tests/scoring/test_gotoscorer_score_table.py).
        """
        beta, params = self.options.beta, self.params
        weighted = scores_from_sums(sums, size, weighted=True, beta=beta, params=params)
        unweighted = scores_from_sums(sums, size, weighted=False, beta=beta, params=params)
        main = weighted if self.options.gts_weighted else unweighted
        result = {**main, "weighted": self.options.gts_weighted, "pool_size": size, "ref": ref}
        if self.options.gts_weighted:
            result["unweighted"] = unweighted
        return result

    # -- resampling inside the pool -------------------------------------------------------
    def pool_counts(self, statistics: Sequence[dict]) -> PoolCounts:
        """n_i and N of the pool the given members make (the CLI's and meta-evaluation's
        pool: every system given); the platform reads its own from the database."""
        members = list(statistics)
        return PoolCounts(success_counts(decode(stats)[1].correct for stats in members), len(members))

    def member_resampling(self, statistics: dict, pool: PoolCounts) -> Resampling | None:
        """Per sentence, the member's class sizes and sums of n_i (see
        :mod:`scoring.gotoscorer.resampling`); None when its chunks are not the pool's."""
        gold_modified, outcomes = decode(statistics)
        if len(gold_modified) != len(pool.n):
            return None
        rows = sentence_rows(
            sentence_ids(statistics["gold"]),
            len(statistics["gold"]),
            gold_modified,
            outcomes.modified,
            outcomes.correct,
            pool.n,
        )
        return Resampling(rows, lambda totals: self.scores_of_totals(totals, pool.size))

    def scores_of_totals(self, totals: np.ndarray, pool_size: int) -> dict[str, np.ndarray]:
        """The :attr:`resampled` paths' scores of summed rows of
        :func:`~scoring.gotoscorer.resampling.sentence_rows`, ``(m, 10)``, in a pool of ``pool_size``."""
        options, params = self.options, self.params
        counts, n_sums = totals[:, :5], totals[:, 5:]
        main = score_table(counts, n_sums, pool_size, weighted=options.gts_weighted, beta=options.beta, params=params)
        found = {f"gotoscorer.{key}": main[key] for key in RESAMPLED_KEYS}
        if options.gts_weighted:
            plain = score_table(counts, n_sums, pool_size, weighted=False, beta=options.beta, params=params)
            found.update({f"gotoscorer.unweighted.{key}": plain[key] for key in RESAMPLED_KEYS})
        return found

    def members_sampled(
        self, path: str, pool: PoolCounts, layout: ChunkLayout, modified, correct, *, samples: int, seed: int
    ) -> list[SampledScores | None]:
        """Each member's :class:`~scoring.bootstrap.SampledScores` of ``path`` inside
        ``pool``, from packed bits (``numpy.packbits`` rows of ``modified`` and
        ``correct``), all members in one product (:mod:`scoring.gotoscorer.sampled`): what
        :meth:`member_resampling` then :func:`~scoring.bootstrap.sampled_scores` give, bit
        for bit, without a per-member pass over the chunks; None each where the scores have
        no ``path``."""
        if not len(modified) or path not in self.scores_of_totals(
            np.zeros((1, 10)), 1
        ):  # unweighted.* of an unweighted task
            return [None] * len(modified)
        observed, sampled = sampled_totals(
            layout.gold_modified,
            layout.sentences,
            layout.n_sentences,
            pool.n,
            pool.size,
            modified,
            correct,
            samples=samples,
            seed=seed,
            classes=CLASSES_READ[path.rsplit(".", 1)[1]],
        )
        members = len(observed)
        values = self.scores_of_totals(sampled.reshape(members * samples, -1), pool.size)[path]
        whole = self.scores_of_totals(observed, pool.size)[path]
        return [
            SampledScores(float(value), row) for value, row in zip(whole, values.reshape(members, samples), strict=True)
        ]

    def member_results(self, counts, n_sums, size: int, ref: int) -> list[dict]:
        """:meth:`member_result` for every row of :meth:`Pool.sums_table` at once: the
        arithmetic runs on arrays (bit-identical to the scalar path), the rest is building
        the dicts, which is all a re-derivation of 1,000 members then costs."""
        beta, params = self.options.beta, self.params
        unweighted = _rows(score_table(counts, n_sums, size, weighted=False, beta=beta, params=params))
        extra = {"weighted": self.options.gts_weighted, "pool_size": size, "ref": ref}
        if not self.options.gts_weighted:
            return [{**main, **extra} for main in unweighted]
        weighted = _rows(score_table(counts, n_sums, size, weighted=True, beta=beta, params=params))
        return [{**main, **extra, "unweighted": plain} for main, plain in zip(weighted, unweighted, strict=True)]

    def results_json(self, names, counts, n_sums, size: int, ref: int) -> str:
        """``json.dumps({str(name): member_result}, separators=(",", ":"))`` for the rows
        of :meth:`Pool.sums_table`, written from the score arrays through one format string
        per member instead of building and encoding dicts. Numbers are ``repr``'d as
        ``json.dumps`` does: the same text (tests/scoring/test_gotoscorer_score_table.py). The
        unweighted scores depend on the class counts and beta alone, never on the pool,
        so their text is made once per distinct counts (:func:`_plain_fields`)."""
        beta, params, weighted = self.options.beta, self.params, self.options.gts_weighted
        plain = _plain_fields(counts, beta)
        tail = f'"weighted":{json.dumps(weighted)},"pool_size":{int(size)},"ref":{int(ref)}'
        keys = [json.dumps(str(name)) for name in names]
        if not weighted:
            return "{" + ",".join([f"{key}:{{{fields},{tail}}}" for key, fields in zip(keys, plain, strict=True)]) + "}"
        table = score_table(counts, n_sums, size, weighted=True, beta=beta, params=params)
        member = "%s:{" + _FIELDS + "," + tail + ',"unweighted":{%s}}'
        columns = [table[key].tolist() for key in GTS_KEYS]
        return "{" + ",".join([member % row for row in zip(keys, *columns, plain, strict=True)]) + "}"

    def signature(self) -> str:
        if not self.options.gts_weighted:
            weights = "none"
        elif self.params == WeightParams():
            weights = "1-n/N"
        else:
            weights = "{}-(n+{})/(N+{})".format(*self.options.gts_abc)
        parts = [f"gotoscorer|ref:{self.options.gts_ref}|weights:{weights}"]
        if self.pool_size is not None:
            parts.append(f"pool:{self.pool_size}")
        return "|".join(parts)


def _rows(table: dict) -> list[dict]:
    """Columns of :func:`score_table` as one dict per member, Python numbers in GTS_KEYS order."""
    columns = [table[key].tolist() for key in GTS_KEYS]
    return [dict(zip(GTS_KEYS, row)) for row in zip(*columns)]


def _plain_fields(counts, beta: float) -> list[str]:
    """The unweighted scores' fields as JSON text for every row of ``counts``, each
    distinct row formatted once per process (at most 100,000 kept)."""
    rows = [(beta, *row) for row in counts.tolist()]
    missing = sorted({row for row in rows if row not in _plain_text})
    if missing:
        if len(_plain_text) + len(missing) > 100_000:
            _plain_text.clear()
        table = score_table(
            [row[1:] for row in missing],  # type: ignore[arg-type]  # lists: numpy reads them alike
            [[0] * len(row[1:]) for row in missing],  # type: ignore[arg-type]
            1,
            weighted=False,
            beta=beta,
        )
        columns = [table[key].tolist() for key in GTS_KEYS]
        _plain_text.update(zip(missing, [_FIELDS % values for values in zip(*columns, strict=True)], strict=True))
    return [_plain_text[row] for row in rows]
