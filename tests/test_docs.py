"""The documentation in the repository: the README stays a front page, every link
between documents resolves, no document names a path outside the repository, and the
API's own description points at documents that exist (issue 26)."""
import re

from django.conf import settings

from tests.conftest import ROOT

DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def test_the_readme_is_a_front_page():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 250
    assert any(line.startswith("bash scripts/start") for line in lines) and any(line.startswith("bash scripts/test") for line in lines)
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
