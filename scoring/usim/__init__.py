"""USIM (Choshen and Abend, NAACL 2018): reference-less semantic faithfulness.

How much of the source's semantic structure survives in a system's output, with no
references: both sentences become semantic graphs (:mod:`.graph`), their words are
aligned by a minimum-cost assignment (:mod:`.align`), every unit is aligned to the unit of
the other graph that covers the most of its words, and USIM is the F1 of the units whose
labels agree under that alignment (:mod:`.score`).
"""

from .graph import GRAPH_BUILDERS, DependencyGraphBuilder, GraphBuilder, SemanticGraph
from .score import SentenceScore, usim

__all__ = ["GRAPH_BUILDERS", "DependencyGraphBuilder", "GraphBuilder", "SemanticGraph", "SentenceScore", "usim"]
