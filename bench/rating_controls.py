"""``python bench/controls.py --mode rating``: do a rating campaign's controls trust careful
raters and flag careless ones, on sentences and on essays?

Goal: in >= 95% of seeded campaigns a careful rater is trusted, and a random, a constant
and a longest-output rater are each flagged. Real outputs and references: CoNLL-2014's
test set (two annotators' references, the 13 official systems' outputs, ERRANT M2 in
``shared/data/cleme``). Tasks: single sentences (3 outputs a screen), 3-sentence texts and
~230-token essays (consecutive sentences of CoNLL-2014's essays joined, 1 output a screen,
as MultiGEC-2025 rated essays). Each campaign: one rater's ``--screens`` screens, a share
``--controls`` of them controls, planned by the platform (``sampling.plan_campaign``,
``rating_screens.refill``), copies made by ``controls.place_controls`` with
``rating_controls.rating_copy``, trust decided by the platform's paired sign test
(``insights.campaign_ratings.unit_value`` of two 1-4 scales, ``paired_control_p``).

Raters (none knows how copies are made; each rates every output on grammaticality and
fluency, 1-4):

* careful: grades by error density, the token edit distance to the nearest reference per
  reference token: 4 - 3 min(1, density / 0.15), plus Gaussian noise (sd 0.35) per scale, rounded;
* random: each value uniform in 1-4;
* constant: 3 everywhere;
* longest: longer outputs rated higher (2.5 + 20 x the output's length over the source's, less 1).
"""

from __future__ import annotations

import random
import time
from functools import lru_cache

SCALES = [{"name": "grammaticality", "min": 1, "max": 4}, {"name": "fluency", "min": 1, "max": 4}]
TASKS = {"sentences": (1, 3), "3-sentence texts": (3, 1), "230-token essays": (230, 1)}  # (size, outputs a screen)
RATERS = ("careful", "random", "constant", "longest")


def joined(sources, outputs, gold, size: int):
    """Texts of ``size`` consecutive sentences (``size`` > 10: of about that many tokens)."""
    groups, current, length = [], [], 0
    for line, source in enumerate(sources):
        current.append(line)
        length += len(source)
        if (size <= 10 and len(current) == size) or (size > 10 and length >= size):
            groups.append(current)
            current, length = [], 0

    def join(lists):
        return tuple(token for part in lists for token in part)

    new_sources = [join(sources[i] for i in g) for g in groups]
    new_outputs = {s: [list(join(lines[i] for i in g)) for g in groups] for s, lines in outputs.items()}
    new_gold = [[(join(gold[i][k][0] for i in g), []) for k in range(min(len(gold[i]) for i in g))] for g in groups]
    return new_sources, new_outputs, new_gold


def rater(kind: str, rng: random.Random, distance, source_length: int):
    def rate(tokens: tuple[str, ...], line: int) -> dict[str, float]:
        if kind == "random":
            return {s["name"]: float(rng.randint(1, 4)) for s in SCALES}
        if kind == "constant":
            return {s["name"]: 3.0 for s in SCALES}
        if kind == "longest":
            value = 2.5 + 20 * (len(tokens) / max(1, source_length(line)) - 1)
            return {s["name"]: float(min(4, max(1, round(value)))) for s in SCALES}
        density = distance(tokens, line)
        base = 4 - 3 * min(1.0, density / 0.15)
        return {s["name"]: float(min(4, max(1, round(base + rng.gauss(0, 0.35))))) for s in SCALES}

    return rate


def campaign(seed: int, task, outputs_a_screen: int, screens: int, share: float) -> tuple[int, dict[str, float]]:
    """(controls placed, {rater: p}) of one seeded campaign."""
    from leaderboard.campaigns.insights.ratings import unit_value
    from leaderboard.campaigns.services.controls import place_controls
    from leaderboard.campaigns.services.rating_controls import rating_copy
    from leaderboard.campaigns.services.rating_screens import refill
    from leaderboard.campaigns.services.sampling import differing_lines, plan_campaign
    from scoring.human.ratings import paired_control_p

    sources, outputs, gold, distance = task
    lines = differing_lines(outputs)
    plan = plan_campaign(
        lines,
        [1],
        screens_per_annotator=screens,
        outputs=outputs_a_screen,
        redundancy=1,
        control_share=share,
        seed=seed,
    )
    rng = random.Random(seed)
    refill(plan, lines, outputs_a_screen, rng)
    copies = place_controls(
        plan, lines, sources, gold.__getitem__, lambda pairs: {p: [] for p in pairs}, rng, rating_copy
    )
    p_values = {}
    for kind in RATERS:
        rate = rater(kind, random.Random(seed * 7 + len(kind)), distance, lambda line: len(sources[line]))
        pairs = []
        for index, (original, made) in copies.items():
            screen = plan.screens[index]
            before = unit_value(rate(screen.groups[original][0], screen.line), SCALES)
            after = unit_value(rate(made, screen.line), SCALES)
            pairs.append((before, after))
        p_values[kind] = paired_control_p(pairs)
    return len(copies), p_values


def run(args, data, threshold: float, goal: float) -> bool:
    """Print each task's shares; True when every goal is met."""
    from leaderboard.campaigns.services.controls import token_distance

    sources, outputs, _, gold_pairs = data
    gold = [[(tuple(ref), edits) for ref, edits in refs] for refs in gold_pairs]
    met = True
    print(f"rating controls: {args.screens} screens, {args.controls:.0%} controls, paired sign test p <= {threshold}")
    for name, (size, shown) in TASKS.items():
        started = time.process_time()
        if size == 1:
            task_sources, task_outputs, task_gold = sources, outputs, gold
        else:
            task_sources, task_outputs, task_gold = joined(sources, outputs, gold, size)

        @lru_cache(maxsize=200_000)
        def distance(tokens, line, task_gold=task_gold):
            refs = task_gold[line]
            return min(token_distance(tokens, ref) / max(1, len(ref)) for ref, _ in refs)

        task = (task_sources, task_outputs, task_gold, distance)
        seeds = args.seeds if size <= 10 else max(1, args.seeds // 5)
        placed, trusted, flagged = [], 0, dict.fromkeys(RATERS[1:], 0)
        for seed in range(seeds):
            count, p = campaign(seed, task, shown, args.screens, args.controls)
            placed.append(count)
            trusted += p["careful"] <= threshold
            for kind in flagged:
                flagged[kind] += p[kind] > threshold
        mean_tokens = sum(map(len, task_sources)) / len(task_sources)
        shares = {"careful trusted": trusted / seeds} | {f"{k} flagged": v / seeds for k, v in flagged.items()}
        print(
            f"{name} ({len(task_sources)} texts, {mean_tokens:.0f} tokens on average, {seeds} campaigns, "
            f"controls placed {min(placed)}-{max(placed)}): "
            + ", ".join(f"{k} {v:.1%}" for k, v in shares.items())
            + f"; {1000 * (time.process_time() - started) / seeds:.0f} ms a campaign"
        )
        met = met and all(v >= goal for v in shares.values())
    print(f"goal (each >= {goal:.0%}): {'met' if met else 'NOT met'}")
    return met
