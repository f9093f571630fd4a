"""A phase's time zone is picked from the canonical IANA zones, the common ones first; no
backward-compatible aliases ("Factory", "W-SU", "US/Eastern")."""

from leaderboard.views.time_zones import canonical_zones, zone_choices


def flat(choices):
    return [value for _, group in choices for value, _ in group]


def test_common_first_then_canonical_only():
    (common_label, common), (all_label, _) = zone_choices()
    assert common_label == "Common" and all_label == "All time zones"
    assert [z for z, _ in common][:2] == ["UTC", "Etc/GMT+12"] and ("Europe/Berlin", "Europe/Berlin") in common
    zones = flat(zone_choices())
    assert not {"Factory", "W-SU", "US/Eastern", "GB", "localtime"} & set(zones)
    assert "Asia/Kolkata" in zones and "Asia/Calcutta" not in zones
    assert len(zones) == len(set(zones)) < 450


def test_a_phase_set_to_an_alias_keeps_it_selectable():
    assert "US/Eastern" in flat(zone_choices("US/Eastern")) and "US/Eastern" not in canonical_zones()
