"""Which area (folder of ``tests/``) a test module belongs to, by rule: its name, its
markers and what it imports. The README's lanes follow the areas; the script that moved
the tests into their folders asked this, and a new test placed by hand follows it too.

- ``browser``: headless Chromium (``test_browser_*``, ``mark.browser``);
- ``proxy``: through nginx (a platform test named for the proxy, ``mark.proxy``);
- ``platform``: starts the platform's processes or scripts (workers, gunicorn, a clone);
- ``bench``: a benchmark's target (runs a script of ``bench/``);
- ``api``: the REST API and its clients on the test database (``test_api_*``);
- ``web``: the Django app through its pages and services on the test database;
- ``scoring``: the metric library alone (no Django, no database).
"""

import ast
import re
import sys
from pathlib import Path

DJANGO_FIXTURES = {
    "db",
    "transactional_db",
    "client",
    "admin_client",
    "admin_user",
    "live_server",
    "settings",
    "rf",
    "mailoutbox",
    "django_db_setup",
    "django_db_blocker",
    "django_capture_on_commit_callbacks",
    "django_assert_num_queries",
    "django_assert_max_num_queries",
    "django_user_model",
}


def fixture_graph(conftest: Path) -> dict[str, set[str]]:
    """fixture name -> names it uses (parameters and names read in its body)."""
    tree = ast.parse(conftest.read_text())
    graph = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and any("fixture" in ast.unparse(d) for d in node.decorator_list):
            used = {a.arg for a in node.args.args} | {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
            src = ast.unparse(node)
            if re.search(r"\bleaderboard\b|\bdjango\b", src):
                used.add("db")
            graph[node.name] = used
    return graph


def needs_django(conftest: Path) -> set[str]:
    """The fixture names that need Django's database (pytest-django's, and the conftest's that use them)."""
    graph = fixture_graph(conftest) if conftest.exists() else {}
    needs = set(DJANGO_FIXTURES)
    changed = True
    while changed:
        changed = False
        for name, used in graph.items():
            if name not in needs and used & needs:
                needs.add(name)
                changed = True
    return needs


def area_of_test(path: Path, needs: set[str]) -> str:
    name, text = path.name, path.read_text()
    if name.startswith("test_browser_") or re.search(r"pytest\.mark\.browser\b", text):
        return "browser"
    if "proxy" in name and {"platform", "proxy"} & set(path.parts) or re.search(r"pytest\.mark\.proxy\b", text):
        return "proxy"
    if "platform" in path.parts:
        return "platform"
    if re.search(r"""ROOT / "bench"|["']bench/\w+\.py""", text) or re.search(r"pytest\.mark\.bench\b", text):
        return "bench"
    if "subprocess" in text and re.search(r"""ROOT / "scripts"|["']scripts/\w+|"scripts", """, text):
        return "platform"  # runs the platform's scripts
    if name.startswith(("test_api_", "test_client_")):
        return "api"
    tree = ast.parse(text)
    imports = {
        (n.module or "") if isinstance(n, ast.ImportFrom) else a.name
        for n in ast.walk(tree)
        if isinstance(n, ast.Import | ast.ImportFrom)
        for a in (n.names if isinstance(n, ast.Import) else [None])
    }
    if any(m.split(".")[0] in ("leaderboard", "django", "rest_framework") for m in imports if m):
        return "web"
    if re.search(r"manage\.py|DJANGO_SETTINGS_MODULE", text):
        return "web"
    params = {a.arg for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) for a in n.args.args}
    own = {  # the module's own fixtures: one named ``settings`` is not pytest-django's
        n.name
        for n in ast.walk(tree)
        if isinstance(n, ast.FunctionDef) and any("fixture" in ast.unparse(d) for d in n.decorator_list)
    }
    if params & (needs - own) or "django_db" in text or re.search(r"\b(build_insight_task|as_user)\b", text):
        return "web"
    return "scoring"


if __name__ == "__main__":  # python tests/house_areas.py tests/test_x.py ...: each file's area
    found = needs_django(Path(__file__).resolve().parent / "conftest.py")
    for arg in sys.argv[1:]:
        print(area_of_test(Path(arg), found), arg)
