"""Human judgments attached to a dataset: scheme scores, rankings, system sets.

What a task stores once (the platform keeps :meth:`HumanJudgments.as_json`) and what
``python -m scoring meta`` reads from files. SEEDA's system sets (Kobayashi et al.,
TACL 2024, section 4.1: ``base`` leaves out the uncorrected INPUT, the fluent human
reference REF-F and GPT-3.5, whose outputs differ in kind from the others) are
:data:`SEEDA_SYSTEM_SETS`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import InputError, Problem
from ..human.judgments import RankingItem

# SEEDA's 15 systems in the order of its bare score files (alphabetical).
SEEDA_SYSTEMS = [
    "BART",
    "BERT-fuse",
    "GECToR-BERT",
    "GECToR-ens",
    "GPT-3.5",
    "INPUT",
    "LM-Critic",
    "PIE",
    "REF-F",
    "REF-M",
    "Riken-Tohoku",
    "T5",
    "TemplateGEC",
    "TransGEC",
    "UEDIN-MS",
]
# A set lists its systems, or, when every entry starts with "-", all systems but those.
SEEDA_SYSTEM_SETS = {
    "base": ["-INPUT", "-REF-F", "-GPT-3.5"],
    "+INPUT": ["-REF-F", "-GPT-3.5"],
    "+REF-F_GPT-3.5": ["-INPUT"],
    "all": [],
}
ALL_SYSTEMS: dict[str, list[str]] = {"all": []}


def resolve_set(spec: list[str], available: list[str]) -> list[str]:
    """The systems of a set among ``available``, in ``available``'s order."""
    if all(entry.startswith("-") for entry in spec):
        excluded = {entry[1:] for entry in spec}
        return [name for name in available if name not in excluded]
    return [name for name in available if name in set(spec)]


@dataclass
class HumanJudgments:
    """Human system scores per scheme, sentence rankings per file, and system sets.

    ``line_ids[i]`` is the 0-based line of the judged corpus that dataset line ``i`` is
    (SEEDA's ``subset_line_ids.txt``); without it, ranking ``src-id`` N is dataset line N - 1.
    """

    schemes: dict[str, dict[str, float]]
    rankings: dict[str, list[RankingItem]] = field(default_factory=dict)
    line_ids: list[int] | None = None
    system_sets: dict[str, list[str]] = field(default_factory=lambda: dict(ALL_SYSTEMS))
    # Resampled human scores of a scheme, ``{scheme: {system: [score per bootstrap sample]}}``
    # (a campaign's Expected Wins on resampled judgments): its correlation intervals then
    # resample the judgments as well as the sentences. Computed, never stored in as_json.
    scheme_samples: dict[str, dict[str, list[float]]] = field(default_factory=dict)

    def line_of(self, n_sentences: int) -> dict[int, int]:
        """``src-id -> dataset line``; every ranked sentence must be a line of the dataset."""
        if self.line_ids is not None and len(self.line_ids) != n_sentences:
            raise InputError(
                [Problem(0, f"{len(self.line_ids)} judged line ids for a dataset of {n_sentences} sentences")]
            )
        ids = self.line_ids if self.line_ids is not None else range(n_sentences)
        line_of = {src + 1: i for i, src in enumerate(ids)}
        problems = [
            Problem(item.line, f"src-id {item.src_id} is not a sentence of this dataset", name)
            for name, items in self.rankings.items()
            for item in items
            if item.src_id not in line_of
        ]
        if problems:
            raise InputError(problems[:50])
        return line_of

    def as_json(self) -> dict:
        return {
            "schemes": self.schemes,
            "rankings": {name: [item.as_json() for item in items] for name, items in self.rankings.items()},
            "line_ids": self.line_ids,
            "system_sets": [
                [name, spec] for name, spec in self.system_sets.items()
            ],  # ordered: the first is the headline
        }

    @classmethod
    def from_json(cls, value: dict) -> HumanJudgments:
        return cls(
            schemes=value["schemes"],
            rankings={
                name: [RankingItem.from_json(item) for item in items]
                for name, items in value.get("rankings", {}).items()
            },
            line_ids=value.get("line_ids"),
            system_sets=dict(value.get("system_sets") or ALL_SYSTEMS),
        )
