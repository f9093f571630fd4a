"""M2 describes itself to the registry: the platform's board, exports, per-type pages and
tie groups read these declarations (no module of ``leaderboard/`` names M2)."""

from scoring import REGISTRY, registry


def test_m2_is_registered_with_its_paths():
    assert "m2" in REGISTRY and REGISTRY["m2"].display_name() == "M2"
    assert registry.default_path(["m2"]) == "m2.f"
    assert [p.label for p in registry.headline_scores(["m2"])] == ["M2 P", "M2 R", "M2 F"]
    assert set(registry.valid_paths(["m2"])) >= {"m2.tp", "m2.fp", "m2.fn", "m2.sentence.f"}


def test_counts_directions_and_resampling():
    assert registry.is_count("m2.tp") and not registry.is_count("m2.f")
    assert not registry.describe("m2.fp").higher_is_better and registry.describe("m2.f").higher_is_better
    assert (
        registry.can_resample("m2.f") and registry.can_resample("m2.sentence.f") and not registry.can_resample("m2.tp")
    )


def test_per_type_table_is_declared():
    table = REGISTRY["m2"].per_type
    assert table.key == "per_type" and table.levels == ("1",) and table.detection_modes == ()
