"""Shared by the human-ranking tests: hypothesis strategies for ranking items."""

from __future__ import annotations

from hypothesis import strategies as st

from scoring.human import RankingItem

SYSTEMS = ("A", "B", "C", "D", "E", "F")
USERS = ("ann1", "ann2", "ann3")


@st.composite
def ranking_items(draw, systems=SYSTEMS, users=USERS, sentences: int = 6) -> RankingItem:
    """One screen: 2-5 systems, some sharing an output, each output ranked 1-5 (ties allowed)."""
    shown = draw(st.lists(st.sampled_from(systems), min_size=2, max_size=5, unique=True))
    cuts = draw(st.lists(st.booleans(), min_size=len(shown) - 1, max_size=len(shown) - 1))
    groups, current = [], [shown[0]]
    for system, cut in zip(shown[1:], cuts):
        if cut:
            groups.append(tuple(current))
            current = []
        current.append(system)
    groups.append(tuple(current))
    ranks = [draw(st.integers(1, 5)) for _ in groups]
    return RankingItem(
        src_id=draw(st.integers(1, sentences)),
        user=draw(st.sampled_from(users)),
        ranks=tuple((system, rank) for group, rank in zip(groups, ranks) for system in group),
        line=0,
        outputs=tuple(groups),
    )


def rankings(min_size: int = 1, max_size: int = 40):
    return st.lists(ranking_items(), min_size=min_size, max_size=max_size)
