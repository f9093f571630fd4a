"""The time zones a phase's dates may be entered in: the canonical IANA zones, common first.

``zoneinfo.available_timezones()`` has about 600 names, many of them backward-compatible
aliases ("W-SU", "US/Eastern", "Factory"). The tz database's ``zone1970.tab`` lists each
canonical zone once; it ships with the system's tz data and with the ``tzdata`` package.
"""

from __future__ import annotations

import functools
import importlib.resources
import zoneinfo
from pathlib import Path

ANYWHERE_ON_EARTH = "Etc/GMT+12"
COMMON = (
    "UTC",
    ANYWHERE_ON_EARTH,
    "America/Los_Angeles",
    "America/Denver",
    "America/Chicago",
    "America/New_York",
    "America/Sao_Paulo",
    "Europe/London",
    "Europe/Paris",
    "Europe/Berlin",
    "Europe/Moscow",
    "Africa/Cairo",
    "Africa/Johannesburg",
    "Asia/Dubai",
    "Asia/Kolkata",
    "Asia/Singapore",
    "Asia/Shanghai",
    "Asia/Seoul",
    "Asia/Tokyo",
    "Australia/Sydney",
    "Pacific/Auckland",
)


def zone_table() -> str:
    """``zone1970.tab``: from the first directory of ``zoneinfo.TZPATH`` that has it, else ``tzdata``."""
    for directory in zoneinfo.TZPATH:
        path = Path(directory) / "zone1970.tab"
        if path.is_file():
            return path.read_text(encoding="utf-8")
    return importlib.resources.files("tzdata").joinpath("zoneinfo", "zone1970.tab").read_text(encoding="utf-8")


@functools.cache
def canonical_zones() -> tuple[str, ...]:
    """Every canonical zone, sorted (the third column of ``zone1970.tab``)."""
    zones = {line.split("\t")[2] for line in zone_table().splitlines() if line.strip() and not line.startswith("#")}
    return tuple(sorted(zones))


def zone_choices(current: str = "") -> list:
    """Grouped choices: the common zones, then all canonical ones; ``current`` (a phase's
    stored zone, possibly an alias set before this list) stays selectable."""
    common = [z for z in COMMON if z in canonical_zones() or z in ("UTC", ANYWHERE_ON_EARTH)]
    others = [z for z in canonical_zones() if z not in common]
    if current and current not in common and current not in others:
        common.append(current)
    return [("Common", [(z, z) for z in common]), ("All time zones", [(z, z) for z in others])]
