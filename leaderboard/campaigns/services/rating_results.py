"""A rating campaign's figures (in the worker, never in a request).

1. Controls and what counts: :func:`leaderboard.campaigns.insights.ratings.count_ratings`
   (untrusted annotators' ratings and the degraded copies left out).
2. ``scoring.human.ratings.rate_systems``: per system and scale the mean rating, the mean
   per-annotator z-score, the ratings counted and the cluster; Krippendorff's alpha per scale.
3. Every metric's correlation with each scale's z over the rated systems (3 or more), as
   the meta-evaluation computes it: each scale is a scheme; and at the essay level
   (:mod:`.essay_meta`): each metric's per-item score against each item's mean rating.
"""

from __future__ import annotations

import logging

import scoring
from scoring import build_metrics
from scoring.human.ratings import rate_systems
from scoring.meta import HumanJudgments, meta_evaluate

from ...models import Campaign, MetricResult
from ..insights.judgments import system_labels
from ..insights.ratings import count_ratings
from .builtin import builtin_labels, mark_builtin
from .corpus import corpus_outputs
from .essay_meta import essay_correlations

log = logging.getLogger(__name__)
CORRELATION_SAMPLES = 1000
CORRELATION_SEED = 12345
MIN_SYSTEMS_FOR_CORRELATION = 3


def scale_correlations(campaign: Campaign, systems: dict, labels: dict[int, str]) -> dict:
    """``{score path: {SCALE: entry}}`` over the rated systems."""
    ids = {name: pk for pk, name in labels.items() if name in systems and pk > 0}  # no built-in output
    if len(ids) < MIN_SYSTEMS_FOR_CORRELATION:
        return {}
    shown = corpus_outputs(campaign, list(campaign.systems.filter(pk__in=ids.values())))
    by_id = {shown[pk].pk: name for name, pk in ids.items() if pk in shown}  # a corpus's own scores
    statistics: dict[str, dict] = {name: {} for name in ids}
    for pk, metric, stats in MetricResult.objects.filter(submission_id__in=by_id).values_list(
        "submission_id", "metric", "statistics"
    ):
        statistics[by_id[pk]][metric] = stats
    schemes: dict[str, dict[str, float]] = {}
    for name in ids:
        for scale, figures in systems[name]["scales"].items():
            schemes.setdefault(scale, {})[name] = figures["z"]
    metrics = build_metrics(campaign.task.metric_names(), campaign.phase.scoring_options())
    try:
        table = meta_evaluate(
            statistics, metrics, HumanJudgments(schemes=schemes), samples=CORRELATION_SAMPLES, seed=CORRELATION_SEED
        )
    except (scoring.InputError, ValueError, KeyError, IndexError) as error:
        log.warning("campaign %s: no correlations: %s", campaign.pk, error)
        return {}
    return table["system"]


def annotator_rows(campaign: Campaign, counted) -> list[dict]:
    users = list(campaign.annotators.order_by("username").values_list("username", flat=True))
    users += sorted(u for u in counted.screens if u not in users)
    rows = []
    for user in users:
        entry = counted.controls.get(user)
        rows.append(
            {
                "user": user,
                "screens": counted.screens.get(user, 0),
                "controls": 0 if entry is None else len(entry["degraded"]),
                "p_value": None if entry is None else entry["p_value"],
                "trusted": user not in counted.untrusted,
            }
        )
    return rows


def rating_results(campaign: Campaign) -> dict:
    """The campaign page's and API's figures, as JSON."""
    submissions = list(campaign.systems.select_related("team").order_by("pk"))
    labels = system_labels(submissions) | builtin_labels(campaign)
    counted = count_ratings(campaign, labels)
    scales = [s["name"] for s in campaign.scales]
    results: dict = {"systems": {}, "scales": scales, "agreement": {"alpha": {}, "intra_alpha": {}}}
    message = ""
    if counted.ratings:
        figures = rate_systems(counted.ratings).as_json()
        results.update(figures)
        results["scales"] = [s["name"] for s in campaign.scales if s["name"] in figures["scales"]] or figures["scales"]
    else:
        message = "no figures yet: no rating counts (none yet, or only untrusted annotators')"
    results.update(
        {
            "rated_annotators": results.pop("annotators", 0),
            "ratings": results.get("ratings", 0),
            "annotators": annotator_rows(campaign, counted),
            "controls": [
                {"user": u, "originals": len(e["originals"]), "degraded": len(e["degraded"]), "p_value": e["p_value"]}
                | {"trusted": e["trusted"]}
                for u, e in sorted(counted.controls.items())
            ],
            "excluded": {"untrusted_judgments": counted.excluded_judgments},
            "system_ids": {name: pk for pk, name in labels.items()},
            "correlations": scale_correlations(campaign, results["systems"], labels) if results["systems"] else {},
            "essay_correlations": essay_correlations(campaign, counted.ratings, labels),
            "threshold": campaign.threshold,
            "message": message,
        }
    )
    mark_builtin(campaign, results)
    return results
