"""The house's shape (docs/architecture.md), kept by a test so it does not drift back:
metric families as packages, services by domain, reads apart from writes, and every
platform module in an import-linter layer."""

import ast
import configparser
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
QUERY = re.compile(r"\.objects\b|\.(filter|exclude|select_related|prefetch_related|annotate|order_by|values_list)\(")
# The other ways a read slips past selectors/: a shortcut handed a model, SQL by hand
# (a cursor, raw(), Model.from_db), and a reload of a row already held.
READS = {
    "a query": QUERY,
    "get_object_or_404 of a model": re.compile(r"get_object_or_404\(\s*[A-Z]\w*\s*[,)]"),
    "hand-written SQL": re.compile(r"\.from_db\(|\.raw\(|\bcursor\(|\bconnection\b|\b(SELECT|UPDATE|INSERT)\s"),
    "a reload": re.compile(r"\.refresh_from_db\("),
}
READERS = ("views", "api", "templatetags")  # the entry points that render or answer
SLICES = ("campaigns",)  # vertical slices: leaderboard/<slice>/ holds its own layers (docs/architecture.md)


def top_entries(package: Path) -> list[str]:
    return sorted(
        p.name
        for p in package.iterdir()
        if p.name != "__pycache__" and (p.suffix == ".py" or (p / "__init__.py").exists())
    )


def reads_outside_selectors(text: str) -> list[tuple[int, str, str]]:
    """(line number, kind, line) of every read :data:`READS` finds, comments left out."""
    return [
        (number, kind, line.strip())
        for number, line in enumerate(text.splitlines(), 1)
        if not line.lstrip().startswith("#")
        for kind, pattern in READS.items()
        if pattern.search(line)
    ]


def test_views_api_and_template_tags_read_only_through_selectors():
    """They ask the read modules (access, standings, insights/, selectors/) for rows."""
    found = [
        f"{path.relative_to(ROOT)}:{number}: {kind}: {line}"
        for folder in READERS
        for package in ("leaderboard", *(f"leaderboard/{name}" for name in SLICES))
        for path in sorted((ROOT / package / folder).glob("*.py"))
        for number, kind, line in reads_outside_selectors(path.read_text())
    ]
    assert not found, "read these in a selector (leaderboard/selectors/):\n" + "\n".join(found)


def test_each_kind_of_read_is_caught():
    """The patterns above find what they are for (a test of the test)."""
    caught = {
        kind
        for sample in (
            "task = get_object_or_404(SharedTask, slug=slug)",
            "rows = Phase.objects.filter(task=task)",
            "with connection.cursor() as cursor:",
            "phase = Phase.from_db(alias, fields, values)",
            "campaign.refresh_from_db()",
            'sql = f"SELECT id FROM {table}"',
        )
        for _, kind, _ in reads_outside_selectors(sample)
    }
    assert caught == set(READS)
    assert not reads_outside_selectors("task = task_or_404(slug)  # a selector")


def test_the_metric_library_keeps_at_most_15_modules_at_its_top():
    modules = [name for name in top_entries(ROOT / "scoring") if name.endswith(".py")]
    assert len(modules) <= 15, modules


def test_services_have_at_most_12_entries_at_their_top():
    assert len(top_entries(ROOT / "leaderboard" / "services")) <= 12, top_entries(ROOT / "leaderboard" / "services")


def test_every_platform_module_is_in_a_layer():
    config = configparser.ConfigParser()
    config.read(ROOT / ".importlinter")
    layered = {
        name.strip()
        for line in config["importlinter:contract:layers"]["layers"].split("\n")
        for name in line.split(":")
        if name.strip()
    }
    modules = {
        f"leaderboard.{Path(name).stem}"
        for name in top_entries(ROOT / "leaderboard")
        if name != "__init__.py" and name not in SLICES
    }
    modules |= {  # a slice's layers sit in the house's layers
        f"leaderboard.{slice_}.{Path(name).stem}"
        for slice_ in SLICES
        for name in top_entries(ROOT / "leaderboard" / slice_)
        if name != "__init__.py"
    }
    assert not modules - layered, f"not in any layer of .importlinter: {sorted(modules - layered)}"


def imported_names(path: Path, package: list[str]):
    """(module, name) for every ``from X import name`` in a file, relative imports resolved."""
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            yield from ((module, alias.name) for alias in node.names)


def is_submodule(module: str, name: str) -> bool:
    folder = ROOT.joinpath(*module.split("."))
    return (folder / f"{name}.py").exists() or (folder / name / "__init__.py").exists()


def test_no_module_imports_its_own_package_back():
    """A name an ``__init__`` re-exports is fetched from where it is defined (``version.py``
    for ``__version__``), so no module works only by import order. A sub-package's
    ``__init__`` may build on its parent's (``scoring/lang/<code>/``), which loads it lazily."""
    found = []
    for top in ("scoring", "leaderboard", "leaderboard_client"):
        for path in sorted((ROOT / top).rglob("*.py")):
            if path.name == "__init__.py" or "migrations" in path.parts:
                continue
            package = list(path.relative_to(ROOT).parent.parts)
            ancestors = {".".join(package[:i]) for i in range(1, len(package) + 1)}
            found += [
                f"{path.relative_to(ROOT)}: from {module} import {name}"
                for module, name in imported_names(path, package)
                if module in ancestors and not is_submodule(module, name)
            ]
    assert not found, "\n".join(found)


def service_packages_may_use() -> dict[str, set[str]]:
    """The "may use" column of docs/architecture.md's table of the services."""
    text = (ROOT / "docs" / "architecture.md").read_text().split("### The services, by domain")[1]
    allowed = {}
    for row in re.findall(r"^\| `(\w+)/` \|.*\| ([^|]*) \|$", text, re.MULTILINE):
        allowed[row[0]] = set(re.findall(r"`(\w+)`", row[1]))
    return allowed


def test_services_import_each_other_as_the_map_says():
    """The map names who may use whom; an import it does not name is a change of the map."""
    allowed = service_packages_may_use()
    services = ROOT / "leaderboard" / "services"
    packages = sorted(p.name for p in services.iterdir() if (p / "__init__.py").exists())
    assert sorted(allowed) == packages, "docs/architecture.md's services table lists other packages"
    found = []
    for name in packages:
        if name == "jobs":  # "everything above": the queue adapter and the sweeper call every domain
            continue
        for path in sorted((services / name).rglob("*.py")):
            package = list(path.relative_to(ROOT).parent.parts)
            for module, imported in imported_names(path, package):
                parts = f"{module}.{imported}".split(".")
                used = parts[2] if parts[:2] == ["leaderboard", "services"] and len(parts) > 2 else None
                if used not in (None, name) and used not in allowed[name]:
                    found.append(f"{path.relative_to(ROOT)} uses services/{used}/")
    assert not found, "not in docs/architecture.md's 'may use' column:\n" + "\n".join(found)


# A write of the number every cached board is keyed by: an F() bump, an increment, or the
# field saved by name, on a line about the pool (a campaign's own version is another number).
BOARD_VERSION_WRITE = re.compile(r"(?i)pool.*(\bversion\s*=\s*F\(|\.version\s*\+?=|update_fields=\[[^\]]*\"version\")")


def test_only_the_board_version_module_moves_the_board_version():
    """``board_changed()`` (leaderboard/board_version.py) is the one writer of a board's
    version; a service that bumped the pool's field itself would be a second, unseen one."""
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in sorted((ROOT / "leaderboard").rglob("*.py"))
        if "migrations" not in path.parts and path.name != "board_version.py"
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if BOARD_VERSION_WRITE.search(line)
    ]
    assert not found, "call leaderboard.board_version.board_changed() instead:\n" + "\n".join(found)
    assert BOARD_VERSION_WRITE.search('Pool.objects.filter(phase_id=p).update(version=F("version") + 1)')
    assert BOARD_VERSION_WRITE.search("pool.version += 1")
    assert not BOARD_VERSION_WRITE.search('Campaign.objects.filter(pk=c).update(version=F("version") + 1)')


# A write: a row saved, created, changed or deleted, or work queued. ``update`` and
# ``delete`` count on a queryset (a receiver reading ``.objects``, ``filter(``...), not on a dict.
ALWAYS_WRITES = {"save", "create", "bulk_create", "bulk_update", "get_or_create", "update_or_create", "enqueue"}
QUERYSET_WRITES = {"update", "delete"}
QUERYSET = re.compile(r"\.objects\b|\.every\b|\.(filter|exclude|all|select_for_update)\(")
READ_LAYERS = ("insights", "selectors")
GET_ONLY = re.compile(r"\bPOST\b|require_POST|require_http_methods")


def writes_in(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, call) of every write :data:`ALWAYS_WRITES` and :data:`QUERYSET_WRITES` name."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            name, receiver = node.func.attr, ast.unparse(node.func.value)
            if name in ALWAYS_WRITES or (name in QUERYSET_WRITES and QUERYSET.search(receiver)):
                found.append((node.lineno, f"{receiver}.{name}(...)"))
    return found


def test_reads_write_nothing():
    """The read layers (insights/, selectors/, access.py, standings.py) and the views that
    answer only GET (no POST in them) save, create, change, delete or queue nothing: the
    write belongs to a service or the worker (a stale table is computed for the answer and
    kept by the worker, services/boards/meta_tables.py)."""
    modules = [p for folder in READ_LAYERS for p in sorted((ROOT / "leaderboard" / folder).glob("*.py"))]
    modules += [ROOT / "leaderboard" / "access.py", ROOT / "leaderboard" / "standings.py"]
    found = [
        f"{path.relative_to(ROOT)}:{n}: {call}"
        for path in modules
        for n, call in writes_in(ast.parse(path.read_text()))
    ]
    for path in sorted((ROOT / "leaderboard" / "views").glob("*.py")):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.FunctionDef) and not GET_ONLY.search(ast.unparse(node)):
                found += [f"{path.relative_to(ROOT)}:{n} ({node.name}): {call}" for n, call in writes_in(node)]
    assert not found, "a read writes; move the write to a service or the worker:\n" + "\n".join(found)


def test_each_kind_of_write_is_caught():
    """The test above finds what it is for, and leaves a dict's update alone."""
    samples = [
        "row.save()",
        "Judgments.objects.create(phase=p)",
        "Phase.objects.filter(pk=1).update(x=1)",
        "Stored.objects.filter(q).delete()",
        "Model.objects.bulk_create(rows)",
        "refresh_tie_groups.enqueue(1)",
    ]
    assert all(writes_in(ast.parse(sample)) for sample in samples)
    assert not writes_in(ast.parse("schemes.update(more); seen.update(x)"))


def test_each_job_is_a_celery_task_of_its_name():
    """Every ``@job`` (leaderboard/queue.py) is the Celery task ``leaderboard.tasks.<name>``,
    so a grep for the name a message carries finds the function that runs it; the names
    the docs promise are all there."""
    from leaderboard import tasks
    from leaderboard.celery import app
    from leaderboard.queue import REGISTRY

    declared = {
        name
        for path in (ROOT / "leaderboard").rglob("*.py")
        for name in re.findall(r'@(?:queue\.)?job\(\s*"([\w.]+)"', path.read_text())
    }
    promised = {"score_submission", "run_organizer_job", "run_campaign_job", "refresh_tie_groups"}
    assert {f"leaderboard.tasks.{name}" for name in promised | {"sweep_stuck_submissions"}} <= set(REGISTRY)
    assert declared == set(REGISTRY) == set(tasks.TASKS), "tasks.py imports every module that declares a job"
    assert set(REGISTRY) <= set(app.tasks) and all(name.startswith("leaderboard.tasks.") for name in REGISTRY)


QUEUE_WIRING = re.compile(r"\bSignal\(|@receiver\b|\.connect\(|\bsend_task\(|\bshared_task\(|TASK_NAMES")


def test_work_reaches_the_queue_through_the_registry_alone():
    """No signal, listener or name table between a service and its job: only the
    registry sends (``send_task``) and only tasks.py makes Celery tasks."""
    # The public live files (services/boards/mirror.py) are no queued work: they are written in
    # the writer's own process once it commits, so that a hide is immediate (no queue between).
    # They hear every save of a phase or task (the admin's too) and every move of a board version.
    allowed = {
        "queue.py": {"send_task"},
        "tasks.py": {"shared_task("},
        "apps.py": {".connect("},
        "mirror.py": {".connect("},
        "board_version.py": {"Signal("},
    }
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in sorted((ROOT / "leaderboard").rglob("*.py"))
        if "migrations" not in path.parts
        for number, line in enumerate(path.read_text().splitlines(), 1)
        for match in QUEUE_WIRING.finditer(line)
        if not line.lstrip().startswith("#")
        and not any(word in match.group() for word in allowed.get(path.name, ()))
        and "celery.py" != path.name
    ]
    assert not found, "enqueue a registered job (leaderboard/queue.py) instead:\n" + "\n".join(found)


def test_no_reference_points_at_a_tracker_a_reader_does_not_have():
    """Code, docs and tests say why, not which numbered report asked ("issue" and a number)."""
    pattern = re.compile(r"\bissues? #?" + r"[0-9]", re.IGNORECASE)
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for top in ("scoring", "leaderboard", "leaderboard_client", "tests", "docs", "bench", "scripts", "static")
        for path in sorted((ROOT / top).rglob("*"))
        if path.is_file()
        and path.suffix in (".py", ".md", ".js", ".html", ".sh", "")
        and "__pycache__" not in path.parts
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1)
        if pattern.search(line)
    ]
    assert not found, "say the reason instead:\n" + "\n".join(found)
