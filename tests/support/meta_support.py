"""Shared by the meta-evaluation tests: SEEDA's human judgments, and a small task on disk."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import SEEDA, SEEDA_SYSTEMS, SUBSET_OUTPUTS, SUBSET_REFS

HUMAN = SEEDA / "seeda" / "scores" / "human"
SCHEMES = ("EW_edit", "EW_sent", "TS_edit", "TS_sent")
JUDGMENTS = {
    "sent": SEEDA / "seeda" / "data" / "judgments_sent.xml",
    "edit": SEEDA / "seeda" / "data" / "judgments_edit.xml",
}
LINE_IDS = SEEDA / "seeda" / "subset_line_ids.txt"


def seeda_human():
    """SEEDA's four schemes, both ranking files, the subset's line ids and its system sets."""
    from scoring.meta import SEEDA_SYSTEM_SETS, HumanJudgments, read_human_scores, read_judgments

    return HumanJudgments(
        schemes={scheme: read_human_scores(HUMAN / f"{scheme}.txt", SEEDA_SYSTEMS) for scheme in SCHEMES},
        rankings={name: read_judgments(path) for name, path in JUDGMENTS.items()},
        line_ids=[int(x) for x in LINE_IDS.read_text().split()],
        system_sets=dict(SEEDA_SYSTEM_SETS),
    )


SMALL_SYSTEMS = ("BART", "GECToR-BERT", "INPUT", "PIE", "T5", "TransGEC")


def small_task(directory: Path, lines: int = 25) -> dict:
    """The first ``lines`` subset sentences, REF0/REF1 and six systems written to
    ``directory``, with their TS_sent scores as ``SYSTEM SCORE`` lines."""

    def head(path: Path) -> str:
        return "".join(path.read_text(encoding="utf-8").splitlines(keepends=True)[:lines])

    files = {"source": directory / "source.txt", "refs": [], "hyps": {}}
    files["source"].write_text(head(SUBSET_OUTPUTS / "INPUT.txt"), encoding="utf-8")
    for ref in SUBSET_REFS:
        (directory / ref.name).write_text(head(ref), encoding="utf-8")
        files["refs"].append(directory / ref.name)
    for name in SMALL_SYSTEMS:
        files["hyps"][name] = directory / f"{name}.txt"
        files["hyps"][name].write_text(head(SUBSET_OUTPUTS / f"{name}.txt"), encoding="utf-8")
    scores = dict(zip(SEEDA_SYSTEMS, (HUMAN / "TS_sent.txt").read_text().split()))
    files["human"] = directory / "TS_sent.txt"
    files["human"].write_text("".join(f"{name} {scores[name]}\n" for name in SMALL_SYSTEMS), encoding="utf-8")
    return files
