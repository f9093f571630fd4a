"""The house's shape (docs/architecture.md), kept by a test so it does not drift back:
metric families as packages, services by domain, reads apart from writes, and every
platform module in an import-linter layer."""
import configparser
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QUERY = re.compile(r"\.objects\b|\.(filter|exclude|select_related|prefetch_related|annotate|order_by|values_list)\(")


def top_entries(package: Path) -> list[str]:
    return sorted(p.name for p in package.iterdir() if p.name != "__pycache__" and (p.suffix == ".py" or (p / "__init__.py").exists()))


def test_views_and_api_classes_build_no_querysets():
    """They ask the read modules (access, ranking, insights/, selectors/) for rows."""
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for folder in ("views", "api") for path in sorted((ROOT / "leaderboard" / folder).glob("*.py"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if QUERY.search(line) and not line.lstrip().startswith("#")
    ]
    assert not found, "build these in a selector (leaderboard/selectors/):\n" + "\n".join(found)


def test_the_metric_library_keeps_at_most_15_modules_at_its_top():
    modules = [name for name in top_entries(ROOT / "scoring") if name.endswith(".py")]
    assert len(modules) <= 15, modules


def test_services_have_at_most_12_entries_at_their_top():
    assert len(top_entries(ROOT / "leaderboard" / "services")) <= 12, top_entries(ROOT / "leaderboard" / "services")


def test_every_platform_module_is_in_a_layer():
    config = configparser.ConfigParser()
    config.read(ROOT / ".importlinter")
    layered = {name.strip() for line in config["importlinter:contract:layers"]["layers"].split("\n") for name in line.split(":") if name.strip()}
    modules = {f"leaderboard.{Path(name).stem}" for name in top_entries(ROOT / "leaderboard") if name != "__init__.py"}
    assert not modules - layered, f"not in any layer of .importlinter: {sorted(modules - layered)}"
