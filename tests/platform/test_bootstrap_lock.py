"""scripts/bootstrap takes a lock: two starts at once never remove each other's install;
the second waits and uses the first's venv. ``python3 -m venv``
and pip are stand-ins here that record what they do and take a while."""

import os
import subprocess
import textwrap

from tests.conftest import ROOT

FAKE_PYTHON = textwrap.dedent("""\
    #!/usr/bin/env bash
    # python3 -m venv DIR: a venv whose pip takes a second and records its calls
    set -e
    echo "venv $3" >> "$BOOTSTRAP_LOG"
    mkdir -p "$3/bin"
    printf '#!/usr/bin/env bash\\necho "pip $*" >> "$BOOTSTRAP_LOG"\\nsleep 0.5\\n' > "$3/bin/pip"
    chmod +x "$3/bin/pip"
    touch "$3/installed-by-$$"
""")


def environment(tmp_path) -> dict:
    shims = tmp_path / "shims"
    shims.mkdir(exist_ok=True)
    (shims / "python3").write_text(FAKE_PYTHON)
    (shims / "python3").chmod(0o755)
    return {
        **os.environ,
        "PATH": f"{shims}:{os.environ['PATH']}",
        "GEC_VENV": str(tmp_path / "venv"),
        "BOOTSTRAP_LOG": str(tmp_path / "log"),
    }


def start(env) -> subprocess.Popen:
    return subprocess.Popen(
        ["bash", str(ROOT / "scripts" / "bootstrap")],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_two_starts_at_once_share_one_install(tmp_path):
    env = environment(tmp_path)
    starts = [start(env) for _ in range(2)]
    outputs = [s.communicate(timeout=60) for s in starts]
    assert [s.returncode for s in starts] == [0, 0], outputs
    assert {out.strip() for out, _ in outputs} == {str(tmp_path / "venv")}
    log = (tmp_path / "log").read_text().splitlines()
    assert sum(line.startswith("venv ") for line in log) == 1, log  # nobody started over
    assert len(list((tmp_path / "venv").glob("installed-by-*"))) == 1 and (tmp_path / "venv" / ".complete").exists()
    assert any("waiting for the install under way" in err for _, err in outputs)


def test_an_install_that_died_is_removed_and_done_again(tmp_path):
    env = environment(tmp_path)
    (tmp_path / "venv").mkdir()
    (tmp_path / "venv" / "half-installed").touch()
    assert (
        subprocess.run(
            ["bash", str(ROOT / "scripts" / "bootstrap")], env=env, capture_output=True, timeout=60
        ).returncode
        == 0
    )
    assert not (tmp_path / "venv" / "half-installed").exists() and (tmp_path / "venv" / ".complete").exists()


def test_a_finished_venv_is_used_without_the_lock(tmp_path):
    env = environment(tmp_path)
    (tmp_path / "venv").mkdir()
    (tmp_path / "venv" / ".complete").touch()
    held = subprocess.Popen(["flock", str(tmp_path / "venv.lock"), "sleep", "30"])
    try:
        done = subprocess.run(
            ["bash", str(ROOT / "scripts" / "bootstrap")], env=env, capture_output=True, text=True, timeout=10
        )
    finally:
        held.kill()
        held.wait()
    assert done.returncode == 0 and done.stdout.strip() == str(tmp_path / "venv")
    assert not (tmp_path / "log").exists()
