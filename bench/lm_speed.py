"""Sentences (or essays) a second through Scribendi's perplexity, for the model in GEC_LM_MODEL.

Reads the first ``--lines`` lines of a multilingual demo corpus's source (Icelandic
sentences by default; ``--corpus uk-ua-gec`` for essays) as the metric reads them (BOS as
text, groups of ``GEC_LM_BATCH_SIZE``, EOS padding) on ``GEC_LM_DEVICE`` in each dtype
asked, and prints lines and tokens a second, wall and CPU (CPU seconds stay stable on a
busy machine). The figures are recorded in docs/benchmarks.md; the time budget's
``SECONDS_PER_1K_TOKENS_AND_GB`` (leaderboard/services/scoring_jobs/cost.py) comes from them.

    GEC_LM_MODEL=/path/to/model python bench/lm_speed.py [--corpus is-iceec] [--lines 40] [--dtypes bfloat16,float32]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scoring.lm import runtime  # noqa: E402
from scoring.lm.scribendi import perplexities, prepare_tokenizer  # noqa: E402

MULTIGEC = ROOT / "leaderboard" / "demo_data" / "multigec"


def measure(path: Path, dtype: str, lines: list[str], batch: int) -> dict:
    device = runtime.resolve_device()
    loaded = runtime.load_causal_lm(path, runtime.LM_MODEL, device, dtype)
    prepare_tokenizer(loaded, runtime.LM_MODEL)
    tokens = sum(len(loaded.tokenizer(loaded.tokenizer.bos_token + line)["input_ids"]) for line in lines)
    wall, cpu = time.perf_counter(), time.process_time()
    perplexities(loaded, lines, batch, runtime.LM_MODEL)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {"dtype": dtype, "device": device, "lines": len(lines), "tokens": tokens, "wall": wall, "cpu": cpu}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default="is-iceec")
    parser.add_argument("--lines", type=int, default=40)
    parser.add_argument("--dtypes", default="bfloat16,float32")
    args = parser.parse_args()
    path = runtime.model_directory(runtime.LM_MODEL)
    lines = (MULTIGEC / args.corpus / "source.txt").read_text(encoding="utf-8").splitlines()[: args.lines]
    batch = runtime.resolve_batch_size(4)
    weights = runtime.weights_gb([path])
    print(f"model {path} ({weights:.2f} GB of weights on disk), batch {batch}, load {os.getloadavg()[0]:.1f}")
    for dtype in args.dtypes.split(","):
        r = measure(path, dtype, lines, batch)
        print(
            f"{r['dtype']:9} {r['device']}: {r['lines']} lines, {r['tokens']} tokens: "
            f"{r['lines'] / r['wall']:.2f} lines/s, {r['tokens'] / r['wall']:.0f} tokens/s wall; "
            f"{r['tokens'] / r['cpu']:.0f} tokens per CPU second ({r['wall']:.1f} s wall, {r['cpu']:.1f} s CPU)"
        )


if __name__ == "__main__":
    main()
