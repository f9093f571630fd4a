"""Rank a campaign's systems from its judgments (in the worker, never in a request).

1. Controls: on each judged control screen, did the annotator rank the degraded output
   below its original? Per annotator, the one-sided sign test's p-value; trusted at
   p <= the campaign's threshold. Annotators who had no control screen (judgments
   imported from a file) are not tested.
2. What counts: the trusted annotators' judgments, each without its control output,
   as :class:`scoring.meta.RankingItem` (``src-id`` the 1-based line, systems by name).
3. ``scoring.human.rank_systems``: Expected Wins, TrueSkill, rank ranges, clusters,
   agreement; each system's Expected Wins on the 1,000 resampled judgments (``samples``,
   for the meta-evaluation's intervals); then every metric's correlation with EW and TS over the ranked systems
   (``scoring.meta.meta_evaluate`` on the stored statistics, as the meta-evaluation does).
4. A ranking gives the phase an (empty) judgments row if it has none: the organizers'
   meta-evaluation counts the campaign as soon as it is ranked, published or not.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.utils import timezone

import scoring
from scoring import build_metrics
from scoring.meta import HumanJudgments, meta_evaluate

from ...board_version import board_changed
from ...models import Campaign, MetricResult
from ..insights.judgments import count_judgments, system_labels
from ..registry import mode_of
from .judgments import ensure_judgments

log = logging.getLogger(__name__)
BOOTSTRAP = 1000
CORRELATION_SAMPLES = 1000
CORRELATION_SEED = 12345
MIN_SYSTEMS_FOR_CORRELATION = 3


def correlations(campaign: Campaign, ranking: dict, labels: dict[int, str]) -> dict:
    """``{score path: {"EW": entry, "TS": entry}}`` over the ranked systems (3 or more)."""
    ranked = {name: values for name, values in ranking["systems"].items()}
    ids = {name: pk for pk, name in labels.items() if name in ranked}
    if len(ids) < MIN_SYSTEMS_FOR_CORRELATION:
        return {}
    statistics: dict[str, dict] = {name: {} for name in ids}
    by_id = {pk: name for name, pk in ids.items()}
    for pk, metric, stats in MetricResult.objects.filter(submission_id__in=by_id).values_list(
        "submission_id", "metric", "statistics"
    ):
        statistics[by_id[pk]][metric] = stats
    task = campaign.task
    metrics = build_metrics(task.metric_names(), campaign.phase.scoring_options())
    sampled = ranking.get("samples", {}).get("expected_wins", {})
    human = HumanJudgments(
        schemes={
            "EW": {name: ranked[name]["expected_wins"] for name in ids},
            "TS": {name: ranked[name]["trueskill"] for name in ids},
        },
        scheme_samples={"EW": sampled} if sampled else {},
    )
    try:
        table = meta_evaluate(statistics, metrics, human, samples=CORRELATION_SAMPLES, seed=CORRELATION_SEED)
    except (scoring.InputError, ValueError, KeyError, IndexError) as error:
        log.warning("campaign %s: no correlations: %s", campaign.pk, error)
        return {}
    return table["system"]


def expected_wins_samples(items: list, seed: int) -> dict[str, list[float]]:
    """Each system's Expected Wins on the bootstrap samples of the judgments that gave its
    rank range (the same draws), for the meta-evaluation's intervals (5 decimals)."""
    from scoring.human.comparisons import expand
    from scoring.human.rank_ranges import bootstrap_expected_wins

    comparisons = expand(items)
    if not len(comparisons):
        return {}
    sampled = bootstrap_expected_wins(comparisons, BOOTSTRAP, seed).round(5)
    return {name: sampled[:, k].tolist() for k, name in enumerate(comparisons.systems)}


def ranking_results(campaign: Campaign) -> dict:
    """The campaign page's and API's figures of a ranking campaign, as JSON (its mode's
    :meth:`~leaderboard.campaigns.registry.CampaignMode.results`; a rating campaign's are
    :mod:`.rating_results`')."""
    from scoring.human import rank_systems  # SciPy and trueskill: only in the worker

    submissions = list(campaign.systems.select_related("team").order_by("pk"))
    labels = system_labels(submissions)
    counted = count_judgments(campaign, labels)
    results: dict = {
        "systems": {},
        "clusters": [],
        "agreement": {"inter": None, "intra": None},
        "rankings": 0,
        "signature": "",
    }
    message = ""
    if counted.items:
        try:
            results.update(rank_systems(counted.items, bootstrap=BOOTSTRAP, seed=campaign.seed).as_json())
            results["samples"] = {"expected_wins": expected_wins_samples(counted.items, campaign.seed)}
        except (scoring.InputError, ValueError) as error:
            message = f"no ranking yet: {error}"
    else:
        message = "no ranking yet: no judgment counts (none yet, or only untrusted annotators')"
    annotators = []
    users = list(campaign.annotators.order_by("username").values_list("username", flat=True))
    users += sorted(u for u in counted.screens if u not in users)
    for user in users:
        entry = counted.controls.get(user)
        annotators.append(
            {
                "user": user,
                "screens": counted.screens.get(user, 0),
                "controls": 0 if entry is None else entry["below"] + entry["above"] + entry["tie"],
                "p_value": None if entry is None else entry["p_value"],
                "trusted": user not in counted.untrusted,
            }
        )
    results.update(
        {
            "counted_annotators": results.pop("annotators", 0),
            "annotators": annotators,
            "controls": [{"user": u, **e} for u, e in sorted(counted.controls.items())],
            "excluded": {"untrusted_judgments": counted.excluded_judgments},
            "system_ids": {name: pk for pk, name in labels.items()},
            "correlations": correlations(campaign, results, labels) if results["systems"] else {},
            "threshold": campaign.threshold,
            "message": message,
        }
    )
    return results


def ranking_failed(campaign_id: int, version: int, error: Exception) -> None:
    """The campaign's page says that its ranking failed and why (the judgments are kept, and
    the next judgment ranks again); it never waits on a ranking that will not come."""
    log.exception("ranking campaign %s failed", campaign_id)
    Campaign.objects.filter(pk=campaign_id, ranked_version__lte=version).update(
        ranked_version=version,
        ranked_at=timezone.now(),
        message=f"Ranking the judgments failed ({type(error).__name__}: {str(error)[:300]}); "
        "the judgments are kept, and the next change ranks them again.",
    )


def refresh_ranking(campaign_id: int) -> bool:
    """Rank again when judgments arrived since the last ranking; True when it did."""
    Campaign.objects.filter(pk=campaign_id).update(rank_queued=False)
    campaign = Campaign.objects.select_related("task", "phase").get(pk=campaign_id)
    if campaign.ranked_version >= campaign.version and campaign.results is not None:
        return False
    version = campaign.version
    try:
        results = mode_of(campaign).results(campaign)
    except Exception as error:
        ranking_failed(campaign_id, version, error)
        return False
    results["version"] = version
    with transaction.atomic():  # the results and the pool's new version are seen together
        stored = Campaign.objects.filter(pk=campaign_id, ranked_version__lte=version).update(
            results=results,
            ranked_version=version,
            ranked_at=timezone.now(),
            message="",
        )
        if stored and results["systems"]:
            ensure_judgments(campaign.phase_id)  # the organizers' meta-evaluation counts it
        if stored and campaign.published:
            board_changed(campaign.phase_id)  # the board's human column changed
    return True
