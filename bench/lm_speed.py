"""Scribendi's tokens per CPU second beside the floor: the same model's bare forward pass.

Scores one system of a multilingual demo corpus (the Icelandic one by default: 250
sentences, the source and the ``eager`` system, about 30,000 tokens) with ``python -m
scoring --metrics scribendi`` in a child process, start-up included, on
``GEC_LM_DEVICE`` in the metric's dtype; then, in this process, runs the floor: the same
model's forward pass and a log-softmax over the same batches the library read (its
:func:`scoring.lm.scribendi.reading_plan`: each changed line and its source, padded as
the script pads them), nothing else. Both are CPU seconds (this process's and its
children's), which hold on a busy machine. Both run with one torch/OpenMP thread by default
(``--threads``): on a loaded machine extra threads spin while they wait for a core, and the
CPU seconds then count that spinning, not work. Printed: the corpus's tokens (source and
output, as the model's tokenizer counts them) per CPU second of the library, the tokens
the model read per CPU second of the library and of the floor, and their ratios.
``--script-floor`` adds the floor of reading every line in the script's groups of 4 (what
the reference script reads).

``--metric some`` and ``--metric impara`` do the same for SOME and IMPARA on seeded
BERT-shaped models of ``--hidden`` x ``--layers`` (768 x 12, BERT-base's shape, by
default) that the bench builds in a temporary directory and names in ``GEC_SOME_MODELS``
/ ``GEC_IMPARA_MODELS`` (no real checkpoint lies here); their floor is the forward passes
the metric needs over the batches the library reads (:mod:`encoder_floor`). The same
JSON, with ``metric``.

    GEC_LM_MODEL=$(python scripts/lm_demo_model.py) python bench/lm_speed.py [--corpus is-iceec]
        [--system eager] [--lines 250] [--threads 1] [--script-floor] [--json]
    python bench/lm_speed.py --metric some|impara [--hidden 768] [--layers 12] [--json] ...
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from encoder_floor import SIZE  # noqa: E402

from scoring.lm import runtime  # noqa: E402
from scoring.lm.scribendi import padded_batch, prepare_tokenizer, reading_plan, token_ids  # noqa: E402
from scoring.metrics.scribendi import DEFAULT_BATCH, DEFAULT_DTYPE  # noqa: E402

MULTIGEC = ROOT / "leaderboard" / "demo_data" / "multigec"


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def library_run(
    corpus: Path, system: str, lines: int, lang: str, work: Path, threads: int, metric: str = "scribendi"
) -> dict:
    """The CLI in a child process on the first ``lines`` lines, scoring ``metric``: CPU
    seconds, wall, its figures."""
    files = {}
    for name, path in (
        ("source", corpus / "source.txt"),
        ("ref", corpus / "ref1.txt"),
        ("hyp", corpus / "systems" / f"{system}.txt"),
    ):
        files[name] = work / f"{name}.txt"
        files[name].write_text(
            "\n".join(path.read_text(encoding="utf-8").splitlines()[:lines]) + "\n", encoding="utf-8"
        )
    command = [sys.executable, "-m", "scoring", "--source", str(files["source"]), "--ref", str(files["ref"])]
    command += ["--hyp", f"{system}={files['hyp']}", "--metrics", metric, "--lang", lang, "--json"]
    cpu, wall = children_cpu(), time.perf_counter()
    env = {**os.environ, "OMP_NUM_THREADS": str(threads), "MKL_NUM_THREADS": str(threads)}
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env=env)
    cpu, wall = children_cpu() - cpu, time.perf_counter() - wall
    if done.returncode:
        sys.exit(f"lm_speed: the library's run failed: {done.stderr[-2000:]}")
    scores = json.loads(done.stdout)["systems"][system][metric]
    return {"cpu_s": cpu, "wall_s": wall, "scores": scores}


def floor_run(loaded, batches: list[tuple[int, list[list[int]]]]) -> float:
    """CPU seconds of the model's forward pass and a log-softmax over ``batches``, nothing else."""
    import torch

    cpu = time.process_time()
    for length, rows in batches:
        input_ids, mask = padded_batch(loaded, rows, length)
        with torch.inference_mode():
            logits = loaded.model(input_ids.to(loaded.device), attention_mask=mask.to(loaded.device)).logits
            torch.log_softmax(logits, dim=-1)
    return time.process_time() - cpu


def library_batches(ids: list[list[int]], changed: list[int], batch: int) -> list[tuple[int, list[list[int]]]]:
    lengths = [len(row) for row in ids]
    return [(length, [ids[i] for i in rows]) for length, rows in reading_plan(lengths, changed, batch)]


def script_batches(ids: list[list[int]], batch: int) -> list[tuple[int, list[list[int]]]]:
    groups = [ids[start : start + batch] for start in range(0, len(ids), batch)]
    return [(max(len(row) for row in group), group) for group in groups]


def demo_texts() -> list[str]:
    """Every line of the MultiGEC demo corpora (sources, references, systems)."""
    folders = sorted(path.parent for path in MULTIGEC.glob("*/corpus.json"))
    return [
        line
        for folder in folders
        for path in sorted(folder.rglob("*.txt"))
        for line in path.read_text("utf-8").splitlines()
    ]


def measure_encoders(args) -> dict:
    """SOME's or IMPARA's run: seeded models of ``--hidden`` x ``--layers`` built in a
    temporary directory and named in the metric's setting, the CLI on them, then the floor
    (:mod:`encoder_floor`) on the same distinct pairs."""
    import torch
    from encoder_floor import build_models, corpus_tokens, floor, load, passes

    from scoring.lm import encoders

    corpus = MULTIGEC / args.corpus
    lang = json.loads((corpus / "corpus.json").read_text(encoding="utf-8"))["language"]
    dtype, batch = runtime.resolve_dtype(encoders.DEFAULT_DTYPE), runtime.resolve_batch_size(encoders.DEFAULT_BATCH)
    setting = runtime.SOME_MODELS if args.metric == "some" else runtime.IMPARA_MODELS
    with tempfile.TemporaryDirectory(prefix="lm-speed-") as work:
        os.environ.update(build_models(Path(work) / "models", demo_texts(), (args.hidden, args.layers)))
        library = library_run(corpus, args.system, args.lines, lang, Path(work), args.threads, args.metric)
        paths = runtime.model_directories(setting, 3 if args.metric == "some" else 2)
        models = load(args.metric, paths, runtime.resolve_device(), dtype)
        torch.set_num_threads(args.threads)  # after the load, which sets its own count
        read = lambda path: path.read_text(encoding="utf-8").splitlines()[: args.lines]  # noqa: E731
        sources = [" ".join(line.split()) for line in read(corpus / "source.txt")]
        outputs = [line.strip() for line in read(corpus / "systems" / f"{args.system}.txt")]
        pairs = list(dict.fromkeys(zip(sources, outputs)))  # the library reads each distinct pair once
        found = passes(args.metric, models, [s for s, _ in pairs], [o for _, o in pairs], batch)
        floor_cpu = floor(found)
        tokenizer = models.tokenizer if args.metric == "some" else models.quality.tokenizer
        size = sum(p.numel() for p in (models.fluency if args.metric == "some" else models.quality.model).parameters())
    model_tokens = sum(tokens for _, tokens in found)
    return summary(
        args,
        library,
        floor_cpu,
        model=f"seeded BERT, {args.layers} layers of {args.hidden}, {len(tokenizer)} word pieces, "
        f"{size / 1e6:.1f}M parameters each",
        dtype=dtype,
        batch=batch,
        device=runtime.resolve_device(),
        lines=len(sources),
        changed=sum(s != o for s, o in zip(sources, outputs)),
        corpus_tokens=corpus_tokens(tokenizer, sources) + corpus_tokens(tokenizer, outputs),
        model_tokens=model_tokens,
        forward_passes=len(found),
    )


def summary(args, library: dict, floor_cpu: float, **run) -> dict:
    """The bench's JSON: the run, the library's and the floor's tokens per CPU second, the ratios."""
    corpus_tokens, model_tokens = run["corpus_tokens"], run["model_tokens"]
    found = {
        "metric": args.metric,
        "corpus": args.corpus,
        "system": args.system,
        "lines": run.pop("lines"),
        "changed_lines": run.pop("changed"),
        **run,
        "threads": __import__("torch").get_num_threads(),
        "library": {
            "cpu_s": round(library["cpu_s"], 2),
            "wall_s": round(library["wall_s"], 2),
            "tokens_per_cpu_s": round(corpus_tokens / library["cpu_s"], 1),
            "model_tokens_per_cpu_s": round(model_tokens / library["cpu_s"], 1),
            args.metric: library["scores"],
        },
        "floor": {"cpu_s": round(floor_cpu, 2), "tokens_per_cpu_s": round(model_tokens / floor_cpu, 1)},
    }
    found["ratio"] = round(found["library"]["tokens_per_cpu_s"] / found["floor"]["tokens_per_cpu_s"], 3)
    found["ratio_model_tokens"] = round(
        found["library"]["model_tokens_per_cpu_s"] / found["floor"]["tokens_per_cpu_s"], 3
    )
    return found


def measure(args) -> dict:
    """Scribendi's run (module docstring); SOME's and IMPARA's: :func:`measure_encoders`."""
    if args.metric != "scribendi":
        found = measure_encoders(args)
        found["load_average"] = [round(x, 2) for x in os.getloadavg()]
        return found
    corpus = MULTIGEC / args.corpus
    lang = json.loads((corpus / "corpus.json").read_text(encoding="utf-8"))["language"]
    dtype, batch = runtime.resolve_dtype(DEFAULT_DTYPE), runtime.resolve_batch_size(DEFAULT_BATCH)
    with tempfile.TemporaryDirectory(prefix="lm-speed-") as work:
        library = library_run(corpus, args.system, args.lines, lang, Path(work), args.threads)
    path = runtime.model_directory(runtime.LM_MODEL)
    loaded = runtime.load_causal_lm(path, runtime.LM_MODEL, runtime.resolve_device(), dtype)
    prepare_tokenizer(loaded, runtime.LM_MODEL)
    __import__("torch").set_num_threads(args.threads)  # after the load, which sets its own count
    read = lambda name: [" ".join(line.split()) for line in name.read_text(encoding="utf-8").splitlines()[: args.lines]]  # noqa: E731
    sources, outputs = read(corpus / "source.txt"), read(corpus / "systems" / f"{args.system}.txt")
    changed = [i for i, (s, o) in enumerate(zip(sources, outputs)) if s != o]
    source_ids, output_ids = token_ids(loaded, sources), token_ids(loaded, outputs)
    batches = library_batches(source_ids, changed, batch) + library_batches(output_ids, changed, batch)
    floor_cpu = floor_run(loaded, batches)
    found = summary(
        args,
        library,
        floor_cpu,
        model=str(path),
        dtype=dtype,
        batch=batch,
        device=loaded.device,
        lines=len(sources),
        changed=len(changed),
        corpus_tokens=sum(map(len, source_ids)) + sum(map(len, output_ids)),
        model_tokens=sum(len(row) for _, rows in batches for row in rows),
    )
    if args.script_floor:
        everything = script_batches(source_ids, batch) + script_batches(output_ids, batch)
        cpu = floor_run(loaded, everything)
        found["script_floor"] = {"cpu_s": round(cpu, 2), "tokens_per_cpu_s": round(found["corpus_tokens"] / cpu, 1)}
    found["load_average"] = [round(x, 2) for x in os.getloadavg()]
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--metric", choices=("scribendi", "some", "impara"), default="scribendi")
    parser.add_argument("--hidden", type=int, default=SIZE[0], help="SOME's and IMPARA's seeded models' width")
    parser.add_argument("--layers", type=int, default=SIZE[1], help="SOME's and IMPARA's seeded models' depth")
    parser.add_argument("--corpus", default="is-iceec")
    parser.add_argument("--system", default="eager")
    parser.add_argument("--lines", type=int, default=250)
    parser.add_argument("--threads", type=int, default=1, help="torch/OpenMP threads of both runs (default 1)")
    parser.add_argument("--script-floor", action="store_true", help="also the floor of reading every line")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    found = measure(args)
    if args.json:
        print(json.dumps(found, indent=1))
        return
    library, floor = found["library"], found["floor"]
    print(
        f"{found['metric']}, {found['corpus']} / {found['system']}: {found['lines']} lines "
        f"({found['changed_lines']} changed), {found['corpus_tokens']} tokens, {found['model_tokens']} read by the "
        f"model; {found['dtype']}, batch {found['batch']}, {found['threads']} threads, load {found['load_average']}\n"
        f"library: {library['cpu_s']} CPU s ({library['wall_s']} s wall), {library['tokens_per_cpu_s']} tokens per "
        f"CPU second ({library['model_tokens_per_cpu_s']} of the model's)\n"
        f"floor:   {floor['cpu_s']} CPU s, {floor['tokens_per_cpu_s']} tokens per CPU second\n"
        f"ratio:   {found['ratio']} ({found['ratio_model_tokens']} on the tokens the model read)"
    )


if __name__ == "__main__":
    main()
