"""An M2 gold file (--m2) is scored with its edits as given, one reference per annotator."""

import json
import subprocess
import sys

from scoring import Dataset, read_hypothesis, read_m2, score_systems
from tests.conftest import ROOT, SEEDA, unshipped

OFFICIAL = SEEDA / "conll14" / "official-2014.combined.m2"
SUBSET_M2 = SEEDA / "derived" / "subset" / "official-2014.combined.subset391.m2"


def test_gold_edits_are_kept_as_given():
    corpus = read_m2(SUBSET_M2)
    dataset = Dataset.from_m2(corpus)
    assert dataset.n_references == 2
    for i, block in enumerate(corpus.annotations):
        for k, annotator in enumerate(corpus.annotator_ids):
            assert dataset.references[k].edits[i] == block.get(annotator)
    types = {e.type for ref in dataset.references for edits in ref.edits for e in edits or []}
    assert "ArtOrDet" in types  # NUCLE tags, not re-classified by ERRANT


def test_source_copy_against_m2_scores_p1_r0():
    dataset = Dataset.from_m2(read_m2(SUBSET_M2))
    source = "\n".join(" ".join(s) for s in dataset.sources).encode()
    result = score_systems(dataset, [read_hypothesis(dataset, source, "INPUT")], ["errant"])
    cs = result.systems["INPUT"]["errant"]["cs"]
    assert (cs["tp"], cs["fp"], cs["p"], cs["r"], cs["f"]) == (0, 0, 1.0, 0.0, 0.0)
    assert cs["fn"] > 0


@unshipped
def test_cli_runs_on_the_official_conll14_m2():
    hyp = SEEDA / "seeda" / "outputs" / "all" / "INPUT.txt"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "scoring",
            "--m2",
            str(OFFICIAL),
            "--hyp",
            f"INPUT={hyp}",
            "--metrics",
            "errant",
            "--json",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["n_sentences"] == 1312 and out["n_references"] == 2
    cs = out["systems"]["INPUT"]["errant"]["cs"]
    assert cs["tp"] == 0 and cs["fp"] == 0 and cs["fn"] > 1000
