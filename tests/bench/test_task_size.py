"""``bench/task_size.py`` at a tiny size: a task hosted with the file limits lifted,
its gold prepared by the organizer job and two uploads scored by the scoring job, each
step measured in a worker process of its own, the database dropped after; and the tiled
data repeats no line while keeping the real data's edits."""

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT, unshipped
from tests.support import needs

sys.path.insert(0, str(ROOT / "bench"))
import task_size
from fresh_database import SERVER


def postgresql_answers() -> bool:
    try:
        import psycopg

        psycopg.connect(f"{SERVER}/postgres", connect_timeout=2).close()
        return True
    except Exception:
        return False


pytestmark = pytest.mark.slow
POSTGRESQL = needs.needs(postgresql_answers(), "PostgreSQL at 127.0.0.1:5432 (scripts/services starts it)")


@POSTGRESQL
@unshipped  # the bench tiles CoNLL-2014's M2 and SEEDA's outputs from the data beside the checkout
def test_the_bench_prepares_and_scores_a_tiny_task_and_drops_its_database():
    database = f"gec_bench_task_size_test_{os.environ.get('PYTEST_XDIST_WORKER', 'main')}"
    answer = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "task_size.py"), "--sizes", "12,24", "--json", "--database", database],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert answer.returncode == 0, answer.stderr[-3000:]
    rows = json.loads(answer.stdout)["rows"]
    assert [row["sentences"] for row in rows] == [12, 24]
    assert rows[0]["gold_chars"] < rows[1]["gold_chars"] and rows[0]["output_tokens"] < rows[1]["output_tokens"]
    for row in rows:
        for step in ("prepare", "cold", "warm"):
            assert row[step]["cpu_s"] > 0 and row[step]["wall_s"] > 0, (step, row)
        assert row["prepare_rss_mb"] > 50 and row["worker_rss_mb"] > 50
        assert 0 < row["errant_f"]["BART"] < 1
    assert "sentences" in answer.stderr  # the table, as the sizes come
    import psycopg

    with psycopg.connect(f"{SERVER}/postgres") as connection:
        left = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [database]).fetchall()
    assert not left


def test_each_copy_of_the_tiled_data_is_marked_and_keeps_the_real_edits():
    real = task_size.GOLD_M2.read_text(encoding="utf-8").strip().split("\n\n")
    blocks = task_size.tiled_gold(len(real) + 3).strip().split("\n\n")
    assert len(blocks) == len(real) + 3
    assert blocks[: len(real)] == real  # the first copy is the data itself
    for k in range(3):
        source, *edits = blocks[len(real) + k].split("\n")
        real_source, *real_edits = real[k].split("\n")
        assert source == real_source + " (1)" and edits == real_edits
    outputs = task_size.tiled_output("BART", len(real) + 3).splitlines()
    assert outputs[len(real) + 2] == outputs[2] + " (1)"
    sources = [block.split("\n", 1)[0] for block in blocks]
    assert len(set(sources)) == len(set(sources[: len(real)])) + 3  # no copy repeats a line of another
