"""A campaign's mode is a registered strategy (leaderboard/campaigns/registry.py): every mode
the model offers has one module that plans, records, computes and names its board columns,
and nothing else in the house compares mode names."""

import re
from pathlib import Path

from leaderboard.campaigns.registry import REGISTRY, BoardColumn, CampaignMode, discovered, mode_named
from leaderboard.models import Campaign

ROOT = Path(__file__).resolve().parents[3]
COMPARED = re.compile(r"""mode\s*[!=]=|[!=]=\s*Campaign\.Mode\.""")


def test_every_mode_of_the_model_is_registered_once():
    assert set(discovered()) == set(Campaign.Mode.values)
    assert all(type(mode).name == name for name, mode in REGISTRY.items())


def test_each_mode_implements_the_four_steps():
    for mode in discovered().values():
        for step in ("plan", "record", "results", "columns"):
            assert getattr(type(mode), step) is not getattr(CampaignMode, step), (mode.name, step)


def test_the_board_columns_each_mode_names():
    systems = {"T5": {"expected_wins": 0.6, "cluster": 1, "scales": {"fluency": {"z": 0.2, "mean": 70, "cluster": 2}}}}
    assert mode_named("ranking").columns("human", None, systems) == [
        BoardColumn("human", "EW", {"T5": {"expected_wins": 0.6, "cluster": 1}})
    ]
    assert mode_named("edits").columns("human", None, systems)[0].figure == "EW"
    scales = [{"name": "fluency"}, {"name": "meaning"}]
    assert mode_named("rating").columns("da", scales, systems) == [
        BoardColumn("da:fluency", "z", {"T5": {"z": 0.2, "mean": 70, "cluster": 2}}, "fluency"),
        BoardColumn("da:meaning", "z", {"T5": None}, "meaning"),
    ]


def test_no_module_compares_mode_names():
    """The mode is looked up once (``mode_of``); a comparison of names would decide it again."""
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for top in ("leaderboard", "templates")
        for path in sorted((ROOT / top).rglob("*"))
        if path.suffix in (".py", ".html") and "migrations" not in path.parts
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if COMPARED.search(line) and "campaign" in line.lower() + str(path)
    ]
    assert not found, "ask the campaign's mode (leaderboard.campaigns.registry.mode_of):\n" + "\n".join(found)
