"""GoToScorer as a registered pool metric (Gotou et al., COLING 2020; ``gotutiyan/GTS``).

Statistics are a system's outcome bits on every gold chunk of reference ``gts_ref``
(see :mod:`scoring.gotoscorer`); the weights need the whole pool, so scores come from
:meth:`GoToScorer.score_pool` over every system given, as GTS weighs all its ``-hyp``
systems together.
"""
from __future__ import annotations

from ..dataset import Dataset
from ..gotoscorer import Pool, WeightParams, corpus_chunks, decode, encode, reference_edits, scores_from_sums, system_outcomes
from ..hypothesis import Hypothesis
from ..paths import ScorePath, expand
from .base import Metric, register

GTS_KEYS = ("p", "r", "f", "accuracy", "tp", "fp", "fn", "tn")


@register
class GoToScorer(Metric):
    """Difficulty-weighted P, R, F and accuracy over a pool of systems."""

    name = "gotoscorer"
    pooled = True
    label = "GTS"
    headline = (ScorePath("gotoscorer.f", "GTS F"), ScorePath("gotoscorer.accuracy", "GTS Acc"))
    count_keys = frozenset({"tp", "fp", "fn", "tn"})
    lower_is_better = frozenset({"fp", "fn"})

    @classmethod
    def score_paths(cls) -> tuple[str, ...]:
        return tuple(expand(["gotoscorer", "gotoscorer.unweighted"], GTS_KEYS))

    def __init__(self, options):
        super().__init__(options)
        self._gold: tuple[Dataset, list] | None = None
        self.pool_size: int | None = None  # of the last pool scored, for the signature

    @property
    def params(self) -> WeightParams:
        return WeightParams(*self.options.gts_abc)

    def gold(self, dataset: Dataset) -> list:
        """Per-sentence gold chunks of reference ``gts_ref``, made once per dataset."""
        if self._gold is None or self._gold[0] is not dataset:
            self._gold = (dataset, corpus_chunks(dataset.sources, reference_edits(dataset, self.options.gts_ref)))
        return self._gold[1]

    def prepare(self, dataset: Dataset) -> None:
        self.gold(dataset)

    def statistics(self, dataset: Dataset, hypothesis: Hypothesis) -> dict:
        gold = self.gold(dataset)
        return {"ref": self.options.gts_ref, **encode(gold, system_outcomes(gold, dataset.sources, hypothesis.edits))}

    def score(self, statistics: dict) -> dict:
        """A system alone is a pool of one."""
        return self.score_pool({"": statistics})[""]

    def score_pool(self, statistics: dict[str, dict]) -> dict[str, dict]:
        if not statistics:
            return {}
        first = next(iter(statistics.values()))
        for name, stats in statistics.items():
            if stats["ref"] != first["ref"] or stats["gold"] != first["gold"]:
                raise ValueError(f"GoToScorer statistics of {name!r} were made against other gold chunks than the rest of the pool")
        decoded = {name: decode(stats) for name, stats in statistics.items()}
        gold_modified = next(iter(decoded.values()))[0]
        pool = Pool.of(gold_modified, {name: outcomes for name, (_, outcomes) in decoded.items()}, self.params)
        self.pool_size = pool.size
        return {name: self.member_result(pool.sums(name), pool.size, first["ref"]) for name in statistics}

    def member_result(self, sums, size: int, ref: int) -> dict:
        """One member's ``gotoscorer`` object from its class sums and the pool size N.

        The platform calls this too, with sums over the n_i it keeps in PostgreSQL.
        """
        beta, params = self.options.beta, self.params
        weighted = scores_from_sums(sums, size, weighted=True, beta=beta, params=params)
        unweighted = scores_from_sums(sums, size, weighted=False, beta=beta, params=params)
        main = weighted if self.options.gts_weighted else unweighted
        result = {**main, "weighted": self.options.gts_weighted, "pool_size": size, "ref": ref}
        if self.options.gts_weighted:
            result["unweighted"] = unweighted
        return result

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
