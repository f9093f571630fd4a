"""docker/compose.yaml parses and wires the proxy, web, worker (scalable), worker-large, beat, PostgreSQL and Redis."""

import yaml

from tests.conftest import ROOT


def test_compose_file_has_the_services():
    compose = yaml.safe_load((ROOT / "docker" / "compose.yaml").read_text())
    services = compose["services"]
    assert set(services) == {"postgres", "redis", "proxy", "web", "worker", "worker-large", "beat"}
    for name in ("web", "worker", "worker-large", "beat"):
        environment = services[name]["environment"]
        assert environment["DATABASE_URL"].startswith("postgresql://") and environment["CELERY_BROKER_URL"].startswith(
            "redis://"
        )
        assert set(services[name]["depends_on"]) == {"postgres", "redis"}
    assert "container_name" not in services["worker"] and "ports" not in services["worker"]  # --scale worker=N
    assert services["worker"]["command"][:4] == ["celery", "-A", "leaderboard", "worker"]
    assert services["beat"]["command"][:4] == ["celery", "-A", "leaderboard", "beat"]
    assert "gunicorn leaderboard.wsgi" in " ".join(services["web"]["command"])
    assert (ROOT / services["web"]["build"]["context"].replace("..", ".") / "docker" / "Dockerfile").exists()


def test_large_files_have_their_own_worker():
    """services/scoring_jobs/cost.py routes costly files to GEC_LARGE_QUEUE; one worker serves only it."""
    from django.conf import settings

    services = yaml.safe_load((ROOT / "docker" / "compose.yaml").read_text())["services"]
    queues = {
        name: services[name]["command"][services[name]["command"].index("--queues") + 1]
        for name in ("worker", "worker-large")
    }
    assert queues == {"worker": "celery,boards", "worker-large": settings.GEC_LARGE_QUEUE}


def test_the_default_worker_takes_the_boards_queue():
    """Tie groups (services/boards/ties.py) go to GEC_TIE_GROUPS_QUEUE; the default worker takes it."""
    compose = yaml.safe_load((ROOT / "docker" / "compose.yaml").read_text())
    queue = compose["x-app"]["environment"]["GEC_TIE_GROUPS_QUEUE"]
    assert queue == "${GEC_TIE_GROUPS_QUEUE:-boards}"
    command = compose["services"]["worker"]["command"]
    assert "boards" in command[command.index("--queues") + 1].split(",")


def test_the_proxy_is_the_only_way_in():
    """nginx publishes the site; the web is reached through it, with its static files."""
    services = yaml.safe_load((ROOT / "docker" / "compose.yaml").read_text())["services"]
    assert "ports" not in services["web"] and services["proxy"]["ports"]
    template = services["proxy"]["volumes"][0].split(":")[0]
    assert (ROOT / "docker" / template).exists() and services["proxy"]["environment"]["GEC_UPSTREAM"] == "web:8000"
    assert services["web"]["environment"]["GEC_NUM_PROXIES"] == "${GEC_NUM_PROXIES:-1}"
    shared = {v.split(":")[0] for v in services["proxy"]["volumes"]} & {
        v.split(":")[0] for v in services["web"]["volumes"]
    }
    assert shared == {"static", "live"}  # its static files, and the teams' live channels (services/boards/channels.py)
    for writer in ("worker", "worker-large"):  # the workers write the channels the proxy serves
        assert "live:/app/var/live" in services[writer]["volumes"], writer
    assert services["proxy"]["environment"]["GEC_LIVE_ROOT"] + ":ro" in [
        v.split(":", 1)[1] for v in services["proxy"]["volumes"]
    ]
