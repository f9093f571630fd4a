"""Human judgments for the insight task (tests/conftest.py): its four systems, its 20 lines."""

from __future__ import annotations

from tests.conftest import SEEDA_SYSTEMS

from .meta_support import HUMAN

RANKINGS = b"""<?xml version="1.0"?>
<appraise-results><error-correction-ranking-result>
<ranking-item src-id="3" user="a"><translation system="T5" rank="1"/><translation system="BART INPUT" rank="2"/>\
<translation system="GECToR-BERT" rank="3"/></ranking-item>
<ranking-item src-id="9" user="b"><translation system="BART" rank="1"/><translation system="T5" rank="2"/>\
<translation system="INPUT" rank="4"/></ranking-item>
</error-correction-ranking-result></appraise-results>
"""


def insight_judgments():
    """TS_sent and EW_edit of SEEDA for T5, BART, GECToR-BERT and INPUT, and two rankings."""
    from scoring.meta import HumanJudgments, read_human_scores, read_judgments

    systems = ("T5", "BART", "GECToR-BERT", "INPUT")
    schemes = {}
    for scheme in ("TS_sent", "EW_edit"):
        scores = read_human_scores(HUMAN / f"{scheme}.txt", SEEDA_SYSTEMS)
        schemes[scheme] = {name: scores[name] for name in systems}
    return HumanJudgments(
        schemes=schemes, rankings={"sent": read_judgments(RANKINGS)}, system_sets={"all": [], "systems": ["-INPUT"]}
    )
