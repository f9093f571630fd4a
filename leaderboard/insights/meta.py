"""The meta-evaluation of a judged phase, from stored statistics, kept until results change.

Systems are the phase's scored submissions whose system name the judgments know (the
latest one per name); they are also GoToScorer's pool here, as in
``python -m scoring meta``. The table (``scoring.meta.meta_evaluate``, 1,000 samples,
seed 12345) is stored on the :class:`~leaderboard.models.Judgments` row with a key of
the results it used, so a new result, a rescore or new judgments recompute it, from
statistics only, and nothing else does. Every published human evaluation campaign of the
phase adds its Expected Wins and TrueSkill as schemes ``NAME:EW`` and ``NAME:TS``
(unpublished ones stay on their own page: the meta-evaluation opens to everyone once the
task ends).
"""
from __future__ import annotations

import hashlib

from django.db.models import Count, Max

from scoring import build_metrics
from scoring.meta import HumanJudgments, meta_evaluate

from ..models import Campaign, Judgments, MetricResult, SharedTask, Submission
from .campaigns import campaign_schemes

SAMPLES = 1000
SEED = 12345


def judgments_of(task: SharedTask, kind: str | None = None) -> Judgments | None:
    """The task's judged phase (of that kind), or None."""
    found = Judgments.objects.filter(phase__task=task).select_related("phase__task", "phase__dataset").order_by("phase__starts_at")
    return (found.filter(phase__kind=kind) if kind else found).first()


def human_of(judgments: Judgments) -> HumanJudgments:
    """The phase's stored judgments, with every published campaign's EW and TS as schemes
    (``NAME:EW``, ``NAME:TS``)."""
    human = judgments.human()
    human.schemes = {**human.schemes, **campaign_schemes(judgments.phase)}
    return human


def judged_submissions(judgments: Judgments) -> dict[str, Submission]:
    """``{system name: latest scored submission}`` for every name the judgments know."""
    human = human_of(judgments)
    names = {n for scores in human.schemes.values() for n in scores}
    names |= {system for items in human.rankings.values() for item in items for system, _ in item.ranks}
    chosen: dict[str, Submission] = {}
    scored = Submission.objects.filter(phase=judgments.phase, status=Submission.Status.SCORED, system_name__in=names).order_by("created_at", "pk")
    for submission in scored:
        chosen[submission.system_name] = submission
    return dict(sorted(chosen.items()))


def results_key(judgments: Judgments, submissions: dict[str, Submission]) -> str:
    """Changes whenever a result of these submissions, or the judgments, change."""
    ids = sorted(s.pk for s in submissions.values())
    latest = MetricResult.objects.filter(submission_id__in=ids).aggregate(n=Count("pk"), at=Max("updated_at"))
    campaigns = list(Campaign.objects.filter(phase=judgments.phase, published=True).order_by("pk").values_list("pk", "ranked_version"))
    text = f"{ids}|{latest['n']}|{latest['at']}|{judgments.updated_at.isoformat()}|{SAMPLES}|{SEED}|{campaigns}"
    return hashlib.sha256(text.encode()).hexdigest()


def meta_table(judgments: Judgments) -> dict:
    """The meta-evaluation table of CLI ``--json``'s shape, recomputed only when stale."""
    submissions = judged_submissions(judgments)
    key = results_key(judgments, submissions)
    if judgments.table is not None and judgments.table_key == key:
        return judgments.table
    statistics: dict[str, dict] = {name: {} for name in submissions}
    by_id = {s.pk: name for name, s in submissions.items()}
    for submission_id, metric, stats in MetricResult.objects.filter(submission_id__in=by_id).values_list("submission_id", "metric", "statistics"):
        statistics[by_id[submission_id]][metric] = stats
    task = judgments.phase.task
    metrics = build_metrics(task.metric_names(), task.scoring_options())
    table = meta_evaluate(statistics, metrics, human_of(judgments), samples=SAMPLES, seed=SEED) if statistics else None
    if table is not None:
        scoring_signature = next(iter(submissions.values())).signature
        table["signature"] = f"{scoring_signature}|{table['signature']}" if scoring_signature else table["signature"]
    judgments.table, judgments.table_key = table, key
    judgments.save(update_fields=["table", "table_key"])
    return table
