"""Shared fixtures: paths into the data beside the checkout (shared/), datasets prepared
once per test session, and what happens to the tests that read that data when a clone
has nothing beside it."""

from __future__ import annotations

import functools
import zlib
from pathlib import Path

import pytest

import scoring
from leaderboard.demo import SYSTEMS, SimulatedSystem, gold_blocks, simulate
from tests.support import needs

pytest_plugins = ("tests.lanes",)  # each folder's area as a marker (the README's lanes)

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(__file__).resolve().parents[2] / "shared"
SEEDA = SHARED / "data" / "seeda"
SUBSET_OUTPUTS = SEEDA / "seeda" / "outputs" / "subset"
SUBSET_REFS = [SEEDA / "derived" / "subset" / "REF0.txt", SEEDA / "derived" / "subset" / "REF1.txt"]
GOLDEN = SHARED / "golden"
CLEME_DATA = SHARED / "data" / "cleme"
SEEDA_SYSTEMS = sorted(p.stem for p in SUBSET_OUTPUTS.glob("*.txt"))


# -- data the repository may not ship -----------------------------------------------------
# SEEDA has no licence, and the golden files are the reference tools' outputs on it: they
# stay beside the checkout (shared/, as on CI). In a clone without them, a test file or a
# test that reads them is skipped (its FileNotFoundError on a path there becomes the skip)
# and the session says in one line how many and why; with them, none may be skipped for
# missing data (CI fails). Everything else runs on the CoNLL-2014 gold the repository
# ships (leaderboard/demo_data) or on data the tests make.
SHARED_PRESENT = SHARED.is_dir()
NOT_SHIPPED = "reads the SEEDA data or golden files, which cannot be redistributed (SEEDA has no licence)"
_unshipped: list[str] = []
# for a test that hands the data's paths to a program (the CLI answers a missing file with exit 2)
unshipped = pytest.mark.skipif(not SHARED_PRESENT, reason=NOT_SHIPPED)


def reads_unshipped(error: BaseException) -> bool:
    """A missing file under shared/ while shared/ itself is absent."""
    filename = getattr(error, "filename", None)
    return (
        not SHARED_PRESENT
        and isinstance(error, FileNotFoundError)
        and bool(filename)
        and Path(filename).is_relative_to(SHARED)
    )


class DataModule(pytest.Module):
    """A test file; one that reads unshipped data as it is imported is skipped whole."""

    def _getobj(self):
        try:
            return super()._getobj()
        except FileNotFoundError as error:
            if reads_unshipped(error):
                raise pytest.skip.Exception(NOT_SHIPPED, allow_module_level=True) from None
            raise


def pytest_pycollect_makemodule(module_path, parent):
    return DataModule.from_parent(parent, path=module_path)


def _unshipped_skips():
    """The body of a hook wrapper: a FileNotFoundError on the unshipped data becomes the skip."""
    try:
        return (yield)
    except FileNotFoundError as error:
        if reads_unshipped(error):
            pytest.skip(NOT_SHIPPED)
        raise


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item):
    needs.check_marks(item)  # a missing service or tool: skip, or on CI fail (tests/support/needs.py)
    return (yield from _unshipped_skips())


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    return (yield from _unshipped_skips())


_missing_parts: list[str] = []


def _count_skips(report) -> None:
    if report.skipped and NOT_SHIPPED in str(report.longrepr):
        _unshipped.append(report.nodeid)
    elif report.skipped and needs.PREFIX in str(report.longrepr):
        _missing_parts.append(report.nodeid)


pytest_runtest_logreport = pytest_collectreport = _count_skips


def pytest_terminal_summary(terminalreporter):
    if _missing_parts:
        terminalreporter.write_line(
            f"{len(_missing_parts)} tests or test files skipped because a part of the platform is missing here "
            "(PostgreSQL, Redis, nginx, Chromium, a C compiler, a package: 'pytest -rs' says which); with CI "
            "set they fail",
            yellow=True,
            bold=True,
        )
    if _unshipped:
        files = sum(1 for nodeid in _unshipped if "::" not in nodeid)
        terminalreporter.write_line(
            f"{len(_unshipped) - files} tests and {files} test files skipped: they read the SEEDA data or "
            "golden files, which "
            "cannot be redistributed (SEEDA has no licence); "
            + (
                "but shared/ is there, so this run fails"
                if SHARED_PRESENT
                else "with the data beside the checkout (shared/, as on CI) they run"
            ),
            yellow=True,
            bold=True,
        )


def pytest_sessionfinish(session):
    if SHARED_PRESENT and _unshipped:  # CI: the data is there, so nothing may skip for want of it
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture(autouse=True)
def _fresh_fragments():
    """Rendered live fragments (leaderboard/views/fragment_cache.py) are keyed by phase and version:
    a test never sees another's, even where a rolled-back database reuses ids (SQLite)."""
    yield
    from django.core.cache import caches

    caches["fragments"].clear()


@pytest.fixture
def host(client):
    """A test client logged in as a user allowed to host tasks."""
    from django.contrib.auth.models import Permission, User

    user = User.objects.create_user("hannah", password="pw")
    user.user_permissions.add(Permission.objects.get(codename="host_tasks"))
    client.force_login(user)
    return client


@pytest.fixture(scope="session")
def seeda_subset():
    """The 391-sentence SEEDA subset with references REF0/REF1, parsed once."""
    from scoring import Dataset

    return Dataset.from_files(source=SUBSET_OUTPUTS / "INPUT.txt", refs=SUBSET_REFS)


@pytest.fixture(scope="session")
def seeda_hypotheses(seeda_subset):
    """All 15 SEEDA subset systems annotated against :func:`seeda_subset`, by name."""
    from scoring import read_hypothesis

    return {name: read_hypothesis(seeda_subset, SUBSET_OUTPUTS / f"{name}.txt", name) for name in SEEDA_SYSTEMS}


# -- the insight pages' task: a small task with three teams and a baseline ---------

INSIGHT_LINES = 20
INSIGHT_TEAMS = {"alice": "T5", "bob": "BART", "carol": "GECToR-BERT"}  # user -> system
INSIGHT_METRICS = ("errant", "gotoscorer", "cleme2")


def insight_metrics() -> list[str]:
    """ERRANT, GoToScorer and CLEME2.0, leaving out any not registered yet."""
    from scoring import REGISTRY

    return [m for m in INSIGHT_METRICS if m in REGISTRY]


def insight_head(path, lines=INSIGHT_LINES) -> str:
    """The first ``lines`` lines of a SEEDA subset file, or of its stand-in made from the
    CoNLL-2014 gold the repository ships (:func:`shipped_text`): the platform's tests
    then run the same in a bare clone and on CI."""
    if path.parent in (SUBSET_OUTPUTS, SUBSET_REFS[0].parent):
        return shipped_text(path.stem, lines)
    return "".join(path.read_text(encoding="utf-8").splitlines(keepends=True)[:lines])


# SEEDA's names, for the tests that name systems; the simulated systems of the demo task
STAND_INS = dict(zip(("T5", "BART", "GECToR-BERT", "GPT-3.5"), SYSTEMS))


@functools.cache
def shipped_gold(lines: int):
    """The first ``lines`` sentences of the bundled CoNLL-2014 test gold (both annotators)."""
    return scoring.read_m2(gold_blocks(0, lines).encode(), name="gold")


def shipped_text(name: str, lines: int) -> str:
    """A stand-in for the SEEDA subset's file ``name``, made from :func:`shipped_gold`:
    ``INPUT`` the sources, ``REF0``/``REF1`` each annotator's corrections (annotator 0's
    where the gold lists only it: the other's were the same), any other name a system
    simulated as the demo's are (``leaderboard/demo.py``)."""
    gold = shipped_gold(lines)
    if name == "INPUT":
        return "".join(" ".join(tokens) + "\n" for tokens in gold.sources)
    if name in ("REF0", "REF1"):
        annotator = int(name[-1])
        edits = [by.get(annotator, by.get(0, [])) for by in gold.annotations]
        return "".join(" ".join(scoring.apply_edits(tokens, e)) + "\n" for tokens, e in zip(gold.sources, edits))
    system = STAND_INS.get(name) or SimulatedSystem(
        name, annotator=zlib.crc32(name.encode()) % 2, share=0.5, noise=0.1, seed=zlib.crc32(name.encode())
    )
    return simulate(gold, system)


def build_insight_task(
    slug: str = "insight",
    *,
    lines: int = INSIGHT_LINES,
    teams: dict = INSIGHT_TEAMS,
    metrics: list[str] | None = None,
    **phase_fields,
) -> dict:
    """Create and score, inline: the first ``lines`` SEEDA subset sentences with REF0/REF1,
    one system per team, the INPUT baseline, and an organizer (metrics: ``metrics``, else
    :func:`insight_metrics`). Returns the objects."""
    from django.contrib.auth.models import User

    from leaderboard.services.hosting.task_creation import create_task
    from leaderboard.services.scoring_jobs.submission import score_submission
    from leaderboard.services.submissions.intake import accept_submission

    task = create_task(
        slug,
        title=f"Insight {slug}",
        source=insight_head(SUBSET_OUTPUTS / "INPUT.txt", lines),
        metrics=metrics or insight_metrics(),
        references=[(p.stem, insight_head(p, lines)) for p in SUBSET_REFS],
        **phase_fields,
    )
    phase = task.phases.get()
    organizer = User.objects.create_user(f"{slug}-organizer", password="pw")
    task.organizers.add(organizer)
    submissions = {}
    for username, system in [("organizers-" + slug, "INPUT"), *teams.items()]:
        user = User.objects.filter(username=username).first() or User.objects.create_user(
            username, password="pw-" + username
        )
        submission = accept_submission(
            phase,
            user,
            system_name=system,
            filename=f"{system}.txt",
            content=insight_head(SUBSET_OUTPUTS / f"{system}.txt", lines).encode(),
            is_baseline=system == "INPUT",
            enforce_limits=False,
            queue=False,
        )
        score_submission(submission.pk)
        submissions[system] = submission
    return {"task": task, "phase": phase, "organizer": organizer, "submissions": submissions}


def remove_insight_task(data: dict) -> None:
    """Delete what :func:`build_insight_task` made (it was committed outside any test)."""
    from django.contrib.auth.models import User

    from leaderboard.models import Dataset, Team

    task = data["task"]
    datasets = list(task.phases.values_list("dataset_id", flat=True))
    teams = list(Team.objects.filter(submissions__phase__task=task).values_list("pk", flat=True))
    users = list(User.objects.filter(memberships__team__in=teams).values_list("pk", flat=True)) + [data["organizer"].pk]
    task.delete()
    Dataset.objects.filter(pk__in=datasets).delete()
    Team.objects.filter(pk__in=teams).delete()
    User.objects.filter(pk__in=users).delete()


@pytest.fixture(scope="module")
def insight_task(django_db_setup, django_db_blocker):
    """:func:`build_insight_task` once per module, removed at its end; tests that use it
    need ``@pytest.mark.django_db`` (their own changes are rolled back)."""
    with django_db_blocker.unblock():
        data = build_insight_task()
    yield data
    with django_db_blocker.unblock():
        remove_insight_task(data)


def ensure_cleme2_results(submissions) -> None:
    """Store CLEME2.0 results for scored ``submissions`` that have none, computed with
    ``scoring.cleme``'s own functions: the CLEME2.0 pages are then tested whether or not
    the metric is registered yet."""
    from leaderboard.models import MetricResult
    from leaderboard.services.data.datasets import load_dataset
    from scoring import read_hypothesis
    from scoring.cleme import candidates, chunk_statistics, cleme2_corpus

    factors = (0.45, 0.35, 0.15, 0.05)
    for submission in submissions:
        if MetricResult.objects.filter(submission=submission, metric="cleme2").exists():
            continue
        dataset = load_dataset(submission.phase.dataset_id)
        stats = chunk_statistics(
            dataset,
            read_hypothesis(dataset, bytes(submission.content), submission.system_name, filename=submission.filename),
        )
        scores = {
            a: {"corpus": cleme2_corpus(candidates(stats, a, lambda *_: 1.0), factors)}
            for a in ("dependent", "independent")
        }
        MetricResult.objects.create(submission=submission, metric="cleme2", statistics=stats, scores=scores)


# -- headless Chromium for the browser tests -------------------------------------

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def jobs_queued(callbacks: list) -> list:
    """The on-commit callbacks that send work to the queue, without those that write the
    teams' live channels (services/boards/publish.py)."""
    from leaderboard.services.boards.publish import publish_submission

    return [c for c in callbacks if getattr(c, "func", None) is not publish_submission]


@pytest.fixture(scope="module")
def chromium():
    """Debian's Chromium driven by playwright (never ``playwright install``); one per module."""
    import os

    if not CHROMIUM.exists():
        needs.missing("Debian's chromium at /usr/bin/chromium (scripts/browser installs it)")
    # playwright's sync API keeps an event loop in this thread; the ORM calls the tests
    # make meanwhile are ordinary synchronous ones
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    from playwright.sync_api import sync_playwright

    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            yield browser
            browser.close()
    finally:
        os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)


def browser_login(page, live_server_url: str, username: str, password: str) -> None:
    """Log in through the login form (CSRF token and all)."""
    page.goto(f"{live_server_url}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("form button")
    page.wait_for_load_state()
