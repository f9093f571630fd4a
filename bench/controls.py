"""Do the controls tell careful annotators from careless ones? Goal: over many seeds, an
annotator who ranks by distance to the nearest reference is trusted in >= 95% of
campaigns, one who ranks at random is flagged in >= 95%.

Real outputs and references: the CoNLL-2014 test set's two annotators and the 13 official
systems' outputs (INPUT among them), as ERRANT M2 in ``shared/data/cleme`` beside the
checkout (no parsing needed: the edits are in the files). For each seed, a campaign of
one annotator's ``--screens`` screens (5 outputs each) with ``--controls`` of them control
screens, planned and given controls by the platform's own code
(``campaigns.services.sampling.plan_campaign``, ``campaigns.services.controls.place_controls``),
judged by two simulated annotators:

* careful: ranks each output by its token edit distance to the nearest reference (ties
  share a rank);
* random: a random order of the outputs (no ties).

``--naive`` makes the copies as the platform did before (any of the output's edits
undone, or any word dropped or doubled, nothing checked), for comparison.

Each is trusted when the one-sided sign test over their control screens gives p <= 0.05
(``campaigns.insights.judgments.sign_test``, the campaign's default threshold).

    python bench/controls.py [--seeds 1000] [--screens 30] [--controls 0.3] [--naive]
    python bench/controls.py --mode rating [--seeds 1000]   # rating campaigns: bench/rating_controls.py

Exit status 1 when the goal is not met (with the platform's copies).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DATA = ROOT.parent / "shared" / "data" / "cleme"
THRESHOLD = 0.05
GOAL = 0.95  # share of campaigns where the careful annotator is trusted, and the random one flagged
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "leaderboard.settings_test")  # models are imported, never queried


def load():
    """(sources, {system id: tokens per line}, {(line, tokens): edits}, gold per line)."""
    from scoring import apply_edits
    from scoring.readers import read_m2

    gold_corpus = read_m2(DATA / "conll14.errant")
    sources = gold_corpus.sources
    gold = [
        [(apply_edits(source, edits), edits) for edits in block.values() if edits is not None]
        for source, block in zip(sources, gold_corpus.annotations)
    ]
    outputs, edits = {}, {}
    files = sorted(p for p in DATA.glob("conll14-*.errant"))
    for number, path in enumerate(files, start=1):
        corpus = read_m2(path)
        lines = []
        for line, (source, block) in enumerate(zip(corpus.sources, corpus.annotations)):
            made = [e for e in block.get(0, []) if e.type not in ("noop", "UNK")]
            tokens = apply_edits(source, made)
            lines.append(tokens)
            edits[(line, tuple(tokens))] = made
        outputs[number] = lines
    return sources, outputs, edits, gold


def careful_ranks(shown: list[tuple[str, ...]], references: list) -> list[int]:
    from leaderboard.campaigns.services.controls import token_distance

    distance = [min(token_distance(tokens, ref) for ref, _ in references) for tokens in shown]
    return [1 + sorted(set(distance)).index(d) for d in distance]


def random_ranks(shown: list, rng: random.Random) -> list[int]:
    order = rng.sample(range(len(shown)), len(shown))
    return [order.index(i) + 1 for i in range(len(shown))]


def naive_controls(plan, sources, edits, rng: random.Random) -> dict:
    """The copies made before: any edit undone, any word dropped or doubled, unchecked."""
    from scoring import apply_edits

    controls = {}
    for index, screen in enumerate(plan.screens):
        if not screen.control:
            continue
        original = rng.randrange(len(screen.groups))
        tokens = screen.groups[original][0]
        real = edits[(screen.line, tokens)]
        ways = [tuple(apply_edits(list(sources[screen.line]), [e for e in real if e is not u])) for u in real]
        ways += [tokens[:i] + tokens[i + 1 :] for i in range(len(tokens)) if len(tokens) > 1]
        ways += [tokens[: i + 1] + tokens[i:] for i in range(len(tokens))]
        avoid = {g[0] for g in screen.groups}
        rng.shuffle(ways)
        made = next((w for w in ways if w not in avoid), None)
        if made is not None:
            controls[index] = (original, made)
    return controls


def campaign(seed: int, data, screens: int, share: float, naive: bool = False) -> tuple[int, float, float]:
    """(controls placed, careful's p, random's p) of one seeded campaign."""
    from leaderboard.campaigns.insights.judgments import sign_test
    from leaderboard.campaigns.services.controls import place_controls
    from leaderboard.campaigns.services.sampling import differing_lines, plan_campaign

    sources, outputs, edits, gold = data
    lines = differing_lines(outputs)
    plan = plan_campaign(
        lines, [1], screens_per_annotator=screens, outputs=5, redundancy=1, control_share=share, seed=seed
    )
    rng = random.Random(seed)
    if naive:
        controls = naive_controls(plan, sources, edits, rng)
    else:
        controls = place_controls(
            plan, lines, sources, gold.__getitem__, lambda pairs: {p: edits[p] for p in pairs}, rng
        )
    tallies = {"careful": [0, 0], "random": [0, 0]}  # below, above
    for index, (original, made) in controls.items():
        screen = plan.screens[index]
        shown = [tokens for tokens, _ in screen.groups] + [made]
        ranks = {"careful": careful_ranks(shown, gold[screen.line]), "random": random_ranks(shown, rng)}
        for who, given in ranks.items():
            if given[-1] > given[original]:
                tallies[who][0] += 1
            elif given[-1] < given[original]:
                tallies[who][1] += 1
    return len(controls), sign_test(*tallies["careful"]), sign_test(*tallies["random"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=1000)
    parser.add_argument("--screens", type=int, default=30)
    parser.add_argument("--controls", type=float, default=0.3)
    parser.add_argument("--naive", action="store_true", help="the copies made before, unchecked (for comparison)")
    parser.add_argument("--mode", choices=("ranking", "rating"), default="ranking")
    args = parser.parse_args()
    import django

    django.setup()
    started = time.process_time()
    data = load()
    if args.mode == "rating":
        from rating_controls import run

        sys.exit(0 if run(args, data, THRESHOLD, GOAL) else 1)
    loaded = time.process_time() - started
    placed, trusted, flagged = [], 0, 0
    for seed in range(args.seeds):
        count, careful, careless = campaign(seed, data, args.screens, args.controls, args.naive)
        placed.append(count)
        trusted += careful <= THRESHOLD
        flagged += careless > THRESHOLD
    spent = time.process_time() - started - loaded
    print(
        f"{args.seeds} campaigns{' (naive copies)' if args.naive else ''} of {args.screens} screens, "
        f"{args.controls:.0%} controls (p <= {THRESHOLD})"
    )
    print(f"control screens placed: min {min(placed)}, mean {sum(placed) / len(placed):.2f}, max {max(placed)}")
    print(f"careful annotator trusted: {trusted / args.seeds:.1%}")
    print(f"random annotator flagged:  {flagged / args.seeds:.1%}")
    print(f"CPU: {loaded:.1f} s to read the data, {1000 * spent / args.seeds:.1f} ms a campaign")
    met = trusted / args.seeds >= GOAL and flagged / args.seeds >= GOAL
    print(f"goal (both >= {GOAL:.0%}): {'met' if met else 'NOT met'}")
    if not met and not args.naive:
        sys.exit(1)


if __name__ == "__main__":
    main()
