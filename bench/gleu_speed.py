"""How much does GLEU cost on top of the parse every submission needs anyway?

On the full CoNLL-2014 test set as SEEDA ships it (1,312 sentences, references REF0 and
REF1), for one system whose output is already read: (a) the dataset's reference and
source n-grams, counted once per dataset; (b) the system's GLEU statistics and its score
(500 drawn iterations, sentence GLEU); (c) a 1,000-sample bootstrap from the stored
statistics; (s) spaCy parsing the system's lines, which every submission pays. GLEU needs
no parse, so the dataset is built from tokens here. Target: M2 and GLEU
together < 25% of (s).

    python bench/gleu_speed.py [SYSTEM]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scoring import Dataset, Hypothesis, Reference, ScoringOptions  # noqa: E402
from scoring.bootstrap import paired_bootstrap_of  # noqa: E402
from scoring.metrics.gleu import Gleu  # noqa: E402
from scoring.nlp import parse_tokens  # noqa: E402
from scoring.readers import read_text  # noqa: E402

SEEDA = ROOT.parent / "shared" / "data" / "seeda"
OUTPUTS = SEEDA / "seeda" / "outputs" / "all"
REFS = [SEEDA / "derived" / "full" / "REF0.txt", SEEDA / "derived" / "full" / "REF1.txt"]


def timed(fn):
    start = time.perf_counter()
    value = fn()
    return time.perf_counter() - start, value


def system_output(path: Path, name: str) -> Hypothesis:
    lines = read_text(path)
    return Hypothesis(name, [line.split() for line in lines], [[] for _ in lines], lines=lines)


def main() -> None:
    system = sys.argv[1] if len(sys.argv) > 1 else "BART"
    sources = [line.split() for line in read_text(OUTPUTS / "INPUT.txt")]
    dataset = Dataset(
        sources, [Reference(p.stem, [line.split() for line in read_text(p)], [None] * len(sources)) for p in REFS]
    )
    hypothesis, baseline = (
        system_output(OUTPUTS / f"{system}.txt", system),
        system_output(OUTPUTS / "INPUT.txt", "INPUT"),
    )
    metric = Gleu(ScoringOptions())
    prepare, _ = timed(lambda: metric.prepare(dataset))
    metric.draws({"refs": [[0, 0]] * len(dataset)})  # the 500 x 1,312 reference draws, made once per process
    statistics_time, statistics = timed(lambda: metric.statistics(dataset, hypothesis))
    score_time, scores = timed(lambda: metric.score(statistics))
    base = metric.resampling(metric.statistics(dataset, baseline))
    bootstrap, test = timed(lambda: paired_bootstrap_of(metric.resampling(statistics), base, "gleu.score"))
    parse_tokens([line.split() for line in (OUTPUTS / "T5.txt").read_text().splitlines()[:200]])  # warm-up
    spacy_alone, _ = timed(lambda: parse_tokens(hypothesis.tokens))
    gleu_total = statistics_time + score_time
    print(
        f"system {system}: {len(dataset)} sentences, 2 references; GLEU {scores['score']:.4f} (sd "
        f"{scores['sd']:.4f}), sentence GLEU {scores['sentence']['score']:.4f}"
    )
    print(f"(a) reference n-grams, once per dataset  {prepare:8.3f} s")
    print(f"(b) GLEU statistics + score               {statistics_time:8.3f} + {score_time:.3f} s")
    print(
        f"(c) paired bootstrap vs INPUT, 1000 samples {bootstrap:6.3f} s   (delta {test.delta:+.4f}, p "
        f"{test.p_value:.3f})"
    )
    print(f"(s) spaCy alone on its lines              {spacy_alone:8.3f} s")
    print(
        f"    b/s                                   {100 * gleu_total / spacy_alone:7.1f} %   (M2 + GLEU target < 25%)"
    )
    print(f"    statistics stored: {np.asarray(statistics['refs']).size + len(statistics['hyp_len'])} integers")


if __name__ == "__main__":
    main()
