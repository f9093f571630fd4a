"""scoring.errant.merger gives errant's merged edits, and in bounded time on long runs.

Every comparison forces the vectorised path (``short_run=0``) against errant's own
``get_rule_edits`` on the same alignment.
"""

import random
import time

import pytest
from errant.en import merger as errant_merger

from scoring.errant.alignment import FastAlignment
from scoring.errant.merger import rule_edits
from scoring.nlp import parse_tokens
from tests.conftest import SUBSET_OUTPUTS

# Tokens that trigger errant's merge and split rules: possessives, case changes after
# punctuation, hyphen/apostrophe joins, verb groups, determiners, adjacent substitutions.
RULE_WORDS = (
    "'s friend friends Mary 's the a an The A this , . ; - ' don't do n't to eat eating ate "
    "has have been be is was go went look at watch sub way subway a-cat acat cat We we I 'm im "
    "big small quickly very book books"
).split()


def spans(edits):
    return [(e.o_start, e.o_end, e.c_start, e.c_end) for e in edits]


def assert_same(source: list[str], output: list[str]):
    source_doc, output_doc = parse_tokens([source, output])
    alignment = FastAlignment(source_doc, output_doc)
    assert spans(rule_edits(alignment, short_run=0)) == spans(errant_merger.get_rule_edits(alignment)), (source, output)


@pytest.fixture(scope="module")
def sources() -> list[list[str]]:
    return [line.split() for line in (SUBSET_OUTPUTS / "INPUT.txt").read_text().splitlines()]


def test_every_seeda_system_line(sources):
    """All 391 lines of two systems that edit a lot, merged both ways."""
    for system in ("GPT-3.5.txt", "TransGEC.txt"):
        outputs = [line.split() for line in (SUBSET_OUTPUTS / system).read_text().splitlines()]
        for source, output in zip(sources, outputs):
            if source != output:
                assert_same(source, output)


@pytest.mark.parametrize("seed", range(4))
def test_long_random_runs(sources, seed):
    """A span of each sentence replaced by 20-80 tokens rich in rule triggers."""
    rng = random.Random(seed)
    vocabulary = RULE_WORDS * 3 + [w for s in sources[:50] for w in s]
    for _ in range(40):
        source = rng.choice(sources)
        start = rng.randint(0, len(source))
        end = rng.randint(start, len(source))
        output = source[:start] + [rng.choice(vocabulary) for _ in range(rng.randint(20, 80))] + source[end:]
        assert_same(source, output)


@pytest.mark.parametrize("seed", range(2))
def test_scattered_small_edits(sources, seed):
    rng = random.Random(100 + seed)
    for _ in range(150):
        source = rng.choice(sources)
        output = list(source)
        for _ in range(rng.randint(1, 10)):
            k = rng.randint(0, len(output))
            roll = rng.random()
            if roll < 0.35 or not output:
                output.insert(k, rng.choice(RULE_WORDS))
            elif roll < 0.6:
                output.pop(min(k, len(output) - 1))
            else:
                output[min(k, len(output) - 1)] = rng.choice(RULE_WORDS)
        if output:
            assert_same(source, output)


def test_thousand_token_lines_merge_in_bounded_time(sources):
    """Errant's merger took 6.7 s and 466 s on these lines."""
    rng = random.Random(1)
    vocabulary = [w for s in sources for w in s]
    common = [rng.choice(vocabulary) for _ in range(1000)]
    long_words = ["".join(rng.choice("abcdefghij") for _ in range(40)) for _ in range(1000)]
    for output in (common, long_words):
        source_doc, output_doc = parse_tokens([sources[0], output])
        alignment = FastAlignment(source_doc, output_doc)
        started = time.perf_counter()
        rule_edits(alignment)
        assert time.perf_counter() - started < 5
