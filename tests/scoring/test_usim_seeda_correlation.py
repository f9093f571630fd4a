"""USIM on the SEEDA subset: systems that edit more keep less of the source's meaning.

USIM measures faithfulness, not quality, so over the 12 base systems it correlates
negatively with the SEEDA-S human ranking (TrueSkill, ``TS_sent.txt``).
"""

from __future__ import annotations

from scipy.stats import pearsonr

from scoring import score_systems
from tests.conftest import SEEDA, SEEDA_SYSTEMS

NOT_BASE = {"INPUT", "REF-F", "GPT-3.5"}


def test_usim_correlates_negatively_with_human_judgement(seeda_subset, seeda_hypotheses):
    systems = score_systems(seeda_subset, list(seeda_hypotheses.values()), ["usim"]).systems
    human = dict(
        zip(SEEDA_SYSTEMS, map(float, (SEEDA / "seeda" / "scores" / "human" / "TS_sent.txt").read_text().split()))
    )
    base = [name for name in SEEDA_SYSTEMS if name not in NOT_BASE]
    correlation = pearsonr([systems[n]["usim"]["f"] for n in base], [human[n] for n in base])[0]
    assert correlation < -0.5
    assert systems["INPUT"]["usim"]["f"] == 1.0
    assert systems["REF-F"]["usim"]["f"] == min(s["usim"]["f"] for s in systems.values())
