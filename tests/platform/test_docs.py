"""The documentation in the repository: the README stays a front page, every link
between documents resolves, no document names a path outside the repository, and the
API's own description points at documents that exist."""

import re

from django.conf import settings

from tests.conftest import ROOT

DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def test_the_readme_is_a_front_page():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 250
    assert any(line.startswith("bash scripts/start") for line in lines) and any(
        line.startswith("bash scripts/test") for line in lines
    )
    screenshot = re.search(r"!\[[^\]]*\]\(([^)]+)\)", "\n".join(lines))
    assert screenshot and (ROOT / screenshot.group(1)).is_file()


def test_every_link_between_documents_resolves():
    for document in DOCUMENTS:
        for target in LINK.findall(document.read_text(encoding="utf-8")):
            if target.startswith(("http://", "https://", "mailto:")):
                continue
            path = (document.parent / target).resolve()
            assert path.is_relative_to(ROOT), f"{document.name} links outside the repository: {target}"
            assert path.exists(), f"{document.name}: {target} does not exist"


def test_no_document_names_a_path_outside_the_repository():
    for document in DOCUMENTS:
        text = document.read_text(encoding="utf-8")
        for outside in ("../shared", "shared/docs", "CONTRACTS.md", "METRICS.md", "/work/"):
            assert outside not in text, f"{document.name} names {outside}"


def test_the_api_description_points_at_documents_that_exist():
    description = settings.SPECTACULAR_SETTINGS["DESCRIPTION"]
    named = re.findall(r"docs/[\w.-]+\.md", description)
    assert named
    for name in named:
        assert (ROOT / name).is_file(), name


# -- commands that run as written -------------------------------------------
# ``manage.py``, ``-m scoring`` and the benchmarks need the project's virtualenv: a bare
# ``python`` in a fresh shell has no Django. Pages run manage.py through scripts/manage
# (or in a container); a page that shows ``python -m scoring`` or a bench says once which
# python that is (the venv scripts/bootstrap prints).
NEEDS_THE_VENV = re.compile(r"(?<![\w/.$-])python3? (?:-m scoring|manage\.py|bench/)")
BARE_MANAGE = re.compile(r"(?<![\w/.$-])(?:python3? )?manage\.py (?=[a-z])")


def test_every_manage_command_runs_from_a_fresh_shell():
    for document in DOCUMENTS:
        for number, line in enumerate(document.read_text(encoding="utf-8").splitlines(), 1):
            if "docker compose" in line:
                continue  # the image's python has everything
            assert not BARE_MANAGE.search(line), (
                f"{document.name}:{number}: run manage.py as `bash scripts/manage ...`: {line.strip()}"
            )


def test_a_page_that_runs_the_library_says_which_python():
    for document in DOCUMENTS:
        text = document.read_text(encoding="utf-8")
        if NEEDS_THE_VENV.search(text):
            assert "scripts/bootstrap" in text, (
                f"{document.name} runs `{NEEDS_THE_VENV.search(text).group(0)}` without saying which python "
                "(the venv of scripts/bootstrap)"
            )


def test_the_manage_wrapper_runs_each_documented_command_in_a_fresh_shell(tmp_path):
    """``bash scripts/manage <command> --help`` for every command the documents name, from
    another directory with nothing in the environment but PATH and HOME."""
    import os
    import subprocess

    from django.core.management import get_commands

    named = set()
    for document in DOCUMENTS:
        named.update(re.findall(r"scripts/manage ([a-z_]+)", document.read_text(encoding="utf-8")))
    assert {"create_task", "submit", "load_demo", "grant_host", "rescore"} <= named
    unknown = named - set(get_commands())
    assert not unknown, f"the documents name commands manage.py does not have: {unknown}"
    env = {"PATH": "/usr/bin:/bin", "HOME": os.environ["HOME"], "GEC_VAR_DIR": str(tmp_path)}
    if os.environ.get("GEC_VENV"):
        env["GEC_VENV"] = os.environ["GEC_VENV"]
    answer = subprocess.run(
        ["bash", str(ROOT / "scripts" / "manage"), "help", "--commands"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert answer.returncode == 0, answer.stderr
    assert named <= set(answer.stdout.split())


# -- the settings table of contracts.md is the code's -------------------------
GENERIC = {
    "CC",
    "XDG_CACHE_HOME",
    "XDG_CONFIG_HOME",
    "PYTHONPATH",
    "HF_HUB_OFFLINE",
    "TRANSFORMERS_OFFLINE",
}  # the system's, not ours


def environment_reads() -> dict[str, str | None]:
    """Every environment variable the platform and the library read, with the default the
    code gives it (a literal), from their source: ``os.environ.get``, ``os.environ[...]``,
    ``os.getenv`` and settings' ``env_bool``, and the modules' ``*_ENV`` name constants."""
    import ast

    found: dict[str, str | None] = {}
    for path in [*(ROOT / "leaderboard").rglob("*.py"), *(ROOT / "scoring").rglob("*.py")]:
        if "migrations" in path.parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        constants = {
            node.targets[0].id: node.value.value
            for node in tree.body
            if isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        }
        for name, value in constants.items():
            if name.endswith("_ENV") and re.fullmatch(r"[A-Z][A-Z0-9_]+", value):
                found.setdefault(value, None)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and node.args:
                func = node.func
                reads = (
                    isinstance(func, ast.Attribute)
                    and ((func.attr == "get" and is_environ(func.value)) or func.attr == "getenv")
                ) or (isinstance(func, ast.Name) and func.id == "env_bool")
                name = literal(node.args[0], constants) if reads else None
                if name:
                    default = node.args[1] if len(node.args) > 1 else None
                    found[name] = str(default.value) if isinstance(default, ast.Constant) else found.get(name)
            elif isinstance(node, ast.Subscript) and is_environ(node.value) and isinstance(node.ctx, ast.Load):
                name = literal(node.slice, constants)
                if name:
                    found.setdefault(name, None)
    return {name: default for name, default in found.items() if name not in GENERIC}


def literal(node, constants: dict[str, str]) -> str | None:
    """A string literal, or a module constant's value."""
    import ast

    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return constants.get(node.id) if isinstance(node, ast.Name) else None


def is_environ(node) -> bool:
    import ast

    return isinstance(node, ast.Attribute) and node.attr == "environ"


def settings_table() -> list[tuple[list[str], str]]:
    """The rows of contracts.md's section 5: ``([names], default cell)``."""
    text = (ROOT / "docs" / "contracts.md").read_text(encoding="utf-8")
    section = text.split("## 5. Settings", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) >= 3 and not set(cells[0]) <= set("-") and cells[0] != "setting":
            rows.append((re.findall(r"`([A-Z][A-Z0-9_]+)`", cells[0]), cells[1]))
    return rows


def test_every_setting_documented_is_read_from_the_environment():
    read = environment_reads()
    for names, _ in settings_table():
        for name in names:
            assert name in read, (
                f"docs/contracts.md lists {name} as an environment variable; no code reads it from the environment"
            )


def test_every_environment_variable_the_code_reads_is_documented():
    documented = {name for names, _ in settings_table() for name in names}
    missing = set(environment_reads()) - documented
    assert not missing, f"docs/contracts.md section 5 does not list {sorted(missing)}"


def test_the_documented_numeric_defaults_are_the_code_defaults():
    """A row whose defaults pair one to one with its names, and are numbers: each the
    literal the code falls back to."""
    read = environment_reads()
    checked = 0
    for names, cell in settings_table():
        defaults = [d.strip() for d in cell.split(",")]
        if len(defaults) != len(names):
            continue
        for name, default in zip(names, defaults):
            number = re.fullmatch(r"([\d.]+)(?: s)?", default)
            if number and read.get(name) is not None and re.fullmatch(r"[\d.]+", read[name]):
                assert float(number.group(1)) == float(read[name]), (
                    f"{name}: documented {default}, the code's default is {read[name]}"
                )
                checked += 1
    assert checked >= 10


def test_the_documented_line_limit_is_the_code_default():
    from leaderboard.models import Dataset, SharedTask

    default = SharedTask._meta.get_field("max_tokens").default
    assert default == Dataset._meta.get_field("max_tokens").default
    for document in DOCUMENTS:
        for said in re.findall(r"`max_tokens`\s*\(default ([\d,]+)\)", document.read_text(encoding="utf-8")):
            assert int(said.replace(",", "")) == default, (
                f"{document.name} says max_tokens defaults to {said}; it is {default}"
            )


def test_settings_that_are_constants_are_not_called_environment_variables():
    """GEC_LOGIN_LIMITS and GEC_MAIL_LIMITS are Python values of leaderboard/settings.py."""
    read = environment_reads()
    for name in ("GEC_LOGIN_LIMITS", "GEC_MAIL_LIMITS"):
        assert hasattr(settings, name) and name not in read
        assert name not in {n for names, _ in settings_table() for n in names}


def test_the_scoring_wrapper_runs_the_documented_human_command_in_a_fresh_shell(tmp_path):
    """docs/organizer-guide.md's ``bash scripts/score human --judgments judgments.xml``
    (a campaign's export) from another directory with nothing in the environment but
    PATH and HOME: a bare ``python -m scoring`` there finds no library."""
    import os
    import subprocess

    from scoring.human import RankingItem, write_judgments_xml

    guide = (ROOT / "docs" / "organizer-guide.md").read_text(encoding="utf-8")
    assert "bash scripts/score human --judgments judgments.xml" in guide
    items = [
        RankingItem(src_id=line, user=user, ranks=(("good", 1), ("bad", 2)), line=0)
        for line in (1, 2, 3)
        for user in ("ann", "ben")
    ]
    (tmp_path / "judgments.xml").write_bytes(write_judgments_xml(items))
    env = {"PATH": "/usr/bin:/bin", "HOME": os.environ["HOME"]}
    if os.environ.get("GEC_VENV"):
        env["GEC_VENV"] = os.environ["GEC_VENV"]
    answer = subprocess.run(
        ["bash", str(ROOT / "scripts" / "score"), "human", "--judgments", "judgments.xml"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert answer.returncode == 0, answer.stderr
    assert "good" in answer.stdout and "bad" in answer.stdout
