"""``python -m scoring human``: the JSON contract, one ranking per named file, bad input
by line (exit 2); ``python -m scoring meta`` ranking the systems from rankings alone."""

from __future__ import annotations

import json

import pytest

from scoring.cli.main import main
from tests.scoring.test_meta_cli import arguments, task  # noqa: F401 (the small SEEDA task fixture)

SCREENS = """<?xml version="1.0" encoding="UTF-8"?>
<appraise-results><error-correction-ranking-result>
<ranking-item src-id="1" user="a"><translation system="A B" rank="1"/><translation system="C" rank="2"/></ranking-item>
<ranking-item src-id="2" user="b"><translation system="C" rank="1"/><translation system="A" rank="3"/>\
<translation system="B" rank="2"/></ranking-item>
<ranking-item src-id="2" user="a"><translation system="A" rank="1"/><translation system="C" rank="2"/></ranking-item>
</error-correction-ranking-result></appraise-results>
"""


@pytest.fixture
def screens(tmp_path):
    path = tmp_path / "screens.xml"
    path.write_text(SCREENS, encoding="utf-8")
    return path


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main(["human", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_json_is_the_contract(screens, capsys):
    code, out, _ = run(capsys, "--judgments", str(screens), "--bootstrap", "100", "--seed", "5", "--json")
    figures = json.loads(out)
    assert code == 0 and set(figures) == {"systems", "clusters", "agreement", "rankings", "annotators", "signature"}
    assert set(figures["systems"]) == {"A", "B", "C"}
    for entry in figures["systems"].values():
        assert set(entry) == {"expected_wins", "trueskill", "range", "cluster"} and len(entry["range"]) == 2
    # A beat C twice, lost once; tied B once (left out), lost to B once. B and C: one win each.
    assert figures["systems"]["A"]["expected_wins"] == pytest.approx((2 / 3 + 0) / 2, abs=1e-6)
    assert figures["systems"]["B"]["expected_wins"] == pytest.approx((1 + 1 / 2) / 2, abs=1e-6)
    assert figures["systems"]["C"]["expected_wins"] == pytest.approx((1 / 3 + 1 / 2) / 2, abs=1e-6)
    assert [name for cluster in figures["clusters"] for name in cluster] == ["B", "C", "A"]
    assert figures["agreement"] == {"inter": None, "intra": None}  # fewer than 50 shared judgments
    assert (figures["rankings"], figures["annotators"]) == (3, 2)
    assert figures["signature"].startswith("human:ew+ts|bootstrap:100|seed:5|")


def test_several_files_are_ranked_each_on_its_own_keyed_by_name(screens, tmp_path, capsys):
    other = tmp_path / "other.xml"
    other.write_text(SCREENS.replace('user="b"', 'user="c"'), encoding="utf-8")
    code, out, _ = run(
        capsys, "--judgments", f"sent={screens}", "--judgments", str(other), "--bootstrap", "10", "--json"
    )
    figures = json.loads(out)
    assert code == 0 and set(figures) == {"sent", "other"} and figures["sent"]["systems"] == figures["other"]["systems"]


def test_table(screens, capsys):
    code, out, _ = run(capsys, "--judgments", f"sent={screens}", "--bootstrap", "10")
    assert (
        code == 0
        and "== sent: 3 rankings, 2 annotators ==" in out
        and "kappa (emnlp2015): inter-annotator -, intra-annotator -" in out
    )


def test_kappa_variant_is_chosen_and_signed(screens, capsys):
    code, out, _ = run(capsys, "--judgments", str(screens), "--bootstrap", "0", "--kappa", "wmt13", "--json")
    assert code == 0 and "|kappa:wmt13|" in json.loads(out)["signature"]
    code, out, _ = run(capsys, "--judgments", str(screens), "--bootstrap", "0", "--json")
    assert "|kappa:emnlp2015|" in json.loads(out)["signature"]


def test_rankings_of_fewer_than_two_systems_are_not_counted_and_said(screens, tmp_path, capsys):
    path = tmp_path / "with-empty.xml"
    empty = (
        '<ranking-item src-id="3" user="a"></ranking-item>'
        '<ranking-item src-id="3" user="c"><translation system="A" rank="1"/></ranking-item>'
    )
    path.write_text(SCREENS.replace("</error-correction-ranking-result>", empty + "</error-correction-ranking-result>"))
    code, out, _ = run(capsys, "--judgments", f"sent={path}", "--bootstrap", "0")
    assert code == 0 and "== sent: 3 rankings (2 more rank fewer than two systems: not counted), 2 annotators ==" in out
    code, out, _ = run(capsys, "--judgments", f"sent={path}", "--bootstrap", "0", "--json")
    assert (json.loads(out)["rankings"], json.loads(out)["annotators"]) == (3, 2)


def test_bad_xml_exits_2_naming_the_line(tmp_path, capsys):
    bad = tmp_path / "bad.xml"
    bad.write_text(
        '<appraise-results>\n<ranking-item src-id="1" user="a">\n<translation system="A" '
        'rank="first"/>\n</ranking-item>\n</appraise-results>\n',
        encoding="utf-8",
    )
    code, out, err = run(capsys, "--judgments", str(bad))
    assert (
        code == 2 and out == "" and f"error: {bad}: line 3: <translation> rank='first' is not a positive integer" in err
    )


def test_a_missing_file_exits_2(tmp_path, capsys):
    code, _, err = run(capsys, "--judgments", str(tmp_path / "none.xml"))
    assert code == 2 and "none.xml" in err


def test_one_name_twice_is_a_usage_error(screens, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["human", "--judgments", f"x={screens}", "--judgments", f"x={screens}"])
    assert exit_.value.code == 2 and "'x' is given twice" in capsys.readouterr().err


def test_meta_without_human_scores_ranks_the_systems_from_the_judgments(task, capsys):  # noqa: F811
    argv = [a for a in arguments(task, "--judgments", f"sent={task['judgments']}", "--bootstrap", "0", "--json")]
    human = argv.index("--human")
    del argv[human : human + 2]
    assert main(argv) == 0
    table = json.loads(capsys.readouterr().out)
    assert set(table["system"]["errant.cs.f"]) == {"sent:EW", "sent:TS"}
    assert (
        table["system"]["errant.cs.f"]["sent:EW"]["n_systems"] == 6
    )  # every system the judgments rank among the --hyp ones


def test_meta_needs_human_scores_or_judgments(task, capsys):  # noqa: F811
    argv = arguments(task)
    human = argv.index("--human")
    del argv[human : human + 2]
    with pytest.raises(SystemExit):
        main(argv)
    assert "give --human" in capsys.readouterr().err


def test_past_the_comparisons_limit_exits_2_naming_the_file_and_line(screens, capsys, monkeypatch):
    monkeypatch.setattr("scoring.human.comparisons.MAX_COMPARISONS", 4)  # the file has 3 + 3 + 1
    code, out, err = run(capsys, "--judgments", str(screens))
    assert (
        code == 2
        and out == ""
        and f"error: {screens}: line 4: more than 4 pairwise comparisons up to this ranking" in err
    )


def test_degenerate_rankings_give_figures_not_errors():
    from scoring.human import RankingItem, rank_systems

    assert rank_systems([]).as_json()["systems"] == {}
    alone = rank_systems([RankingItem(1, "a", (("A", 1), ("B", 1)), 1)]).as_json()  # one tie: nothing decided
    assert alone["clusters"] == [["A", "B"]] and alone["systems"]["A"] == {
        "expected_wins": 0.0,
        "trueskill": 0.0,
        "range": [1, 1],
        "cluster": 1,
    }


@pytest.mark.parametrize("samples", ["-1", "100001"])
def test_a_sample_count_out_of_bounds_is_a_usage_error(screens, samples, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["human", "--judgments", str(screens), "--bootstrap", samples])
    assert exit_.value.code == 2 and "--bootstrap must be 0 to 100000" in capsys.readouterr().err
