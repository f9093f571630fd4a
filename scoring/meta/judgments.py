"""The Appraise XML reader lives in :mod:`scoring.human.judgments` (with the human
ranking it feeds); these names stay importable from here."""
from ..human.judgments import ITEM, MAX_BYTES, TRANSLATION, RankingItem, read_judgments

__all__ = ["ITEM", "MAX_BYTES", "TRANSLATION", "RankingItem", "read_judgments"]
