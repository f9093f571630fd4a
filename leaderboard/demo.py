"""The bundled demo task: CoNLL-2014 test gold and systems simulated from it.

The gold is the official CoNLL-2014 test M2 (``demo_data/conll14``; freely distributed
with its copyright notice, which travels with it). No real system outputs may be
redistributed, so the demo's systems are simulated: each applies a fixed share of one
annotator's gold edits, chosen at random per edit, and adds noise (with some
probability per sentence, one spurious change: two neighbouring tokens swapped, an
article dropped or added, a word doubled). A fixed seed per system makes every load
produce the same files, hence the same board.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

import scoring

DATA = Path(__file__).resolve().parent / "demo_data" / "conll14"
GOLD = DATA / "official-2014.combined.m2"
ARTICLES = ("the", "a", "an")


@dataclass(frozen=True)
class SimulatedSystem:
    name: str
    annotator: int  # whose gold edits it applies
    share: float  # the fraction of that annotator's edits applied
    noise: float  # the probability that a sentence gets one spurious change
    seed: int


SYSTEMS = (
    SimulatedSystem("Careful", annotator=0, share=0.35, noise=0.0, seed=1),
    SimulatedSystem("Balanced", annotator=1, share=0.6, noise=0.05, seed=2),
    SimulatedSystem("Eager", annotator=0, share=0.85, noise=0.2, seed=3),
    SimulatedSystem("Noisy", annotator=1, share=0.3, noise=0.35, seed=4),
)


def gold_blocks(first: int, count: int) -> str:
    """Sentences ``first`` .. ``first + count - 1`` of the bundled M2, as an M2 text."""
    blocks = [b for b in GOLD.read_text(encoding="utf-8").split("\n\n") if b.strip()]
    return "\n\n".join(blocks[first : first + count]) + "\n"


def simulate(gold: scoring.M2Corpus, system: SimulatedSystem) -> str:
    """The system's output file (one tokenized sentence per line) for ``gold``."""
    rng = random.Random(system.seed)
    lines = []
    for source, by_annotator in zip(gold.sources, gold.annotations):
        edits = [e for e in by_annotator.get(system.annotator, []) if rng.random() < system.share]
        tokens = scoring.apply_edits(source, edits)
        if tokens and rng.random() < system.noise:
            tokens = add_noise(tokens, rng)
        lines.append(" ".join(tokens))
    return "\n".join(lines) + "\n"


def add_noise(tokens: list[str], rng: random.Random) -> list[str]:
    """One spurious change of the kinds real systems make."""
    tokens = list(tokens)
    k = rng.randrange(len(tokens))
    kind = rng.choice(("swap", "article", "double"))
    if kind == "swap" and k + 1 < len(tokens):
        tokens[k], tokens[k + 1] = tokens[k + 1], tokens[k]
    elif kind == "article":
        if tokens[k].lower() in ARTICLES:
            del tokens[k]
        else:
            tokens.insert(k, "the")
    else:
        tokens.insert(k, tokens[k])
    return tokens
