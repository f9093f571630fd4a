"""Names and chart labels as a reader sees them, in headless Chromium at 1280 and 390 px:
a hyphenated name (``cs-geccc``, a team's ``team-7``) is never broken after its hyphen
(``cs-`` / ``geccc``); a long team name's chart label keeps its start (cut at its end with
an ellipsis, the full name on hover) and a system at P = 1.0 is drawn whole inside the
precision/recall plot."""

import pytest
from django.contrib.auth.models import User

from leaderboard.management.commands.load_demo import MULTIGEC_SLUG, Command
from leaderboard.models import SharedTask
from tests.conftest import browser_login
from tests.support.waits import page_holds

pytestmark = pytest.mark.browser

# Every text node's hyphenated words of at most 12 characters (longer ones may break after
# a hyphen: the unbroken filter) whose letters lie on more than one line.
BROKEN_WORDS = """() => {
  const broken = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest("script, style, option, [hidden]") || !parent.offsetParent) continue;
    for (const match of node.textContent.matchAll(/[^\\s]*\\w-\\w[^\\s]*/g)) {
      if (match[0].length > 12) continue;
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
      if (tops.size > 1) broken.push(match[0] + " in " + (parent.closest("[id]") || parent).id + " " + parent.tagName);
    }
  }
  return broken;
}"""


@pytest.fixture
def demo(live_server):
    Command().load_multigec()
    organizer = User.objects.create_user("olga", password="pw-olga")
    SharedTask.objects.get(slug=MULTIGEC_SLUG).organizers.add(organizer)
    return live_server.url


@pytest.mark.parametrize("width", [1280, 390])
def test_hyphenated_names_stay_whole(demo, chromium, width):
    page = chromium.new_context(viewport={"width": width, "height": 900}).new_page()
    found = {}
    for path in (f"/tasks/{MULTIGEC_SLUG}/?phase=dev", f"/tasks/{MULTIGEC_SLUG}/per-type/?phase=dev"):
        page.goto(demo + path)
        page.wait_for_load_state()
        if page.is_visible("#corpus-shown"):
            page.select_option("#corpus-shown", "")  # every corpus: the widest the board gets
        found[path] = page.evaluate(BROKEN_WORDS)
    browser_login(page, demo, "olga", "pw-olga")
    for path in (f"/tasks/{MULTIGEC_SLUG}/?phase=dev", f"/tasks/{MULTIGEC_SLUG}/manage/"):
        page.goto(demo + path)
        found["organizer " + path] = page.evaluate(BROKEN_WORDS)
    page.screenshot(path=f"/tmp/names-{width}.png", full_page=True)
    assert not any(found.values()), found


LONG_TEAM = "the-natural-language-processing-group-of-a-university-far-away"

# The board chart's tick labels as drawn, each with its width, and the room left of the axis.
DRAWN_LABELS = """long => {
  const chart = Chart.getChart(document.getElementById('board-chart')), scale = chart.scales.y;
  const ctx = chart.ctx;
  ctx.save(); ctx.font = Chart.helpers.toFont(scale.options.ticks.font).string;
  const drawn = scale.ticks.map(
    (t, i) => ({label: t.label, full: chart.data.labels[i], width: ctx.measureText(t.label).width}));
  ctx.restore();
  const index = chart.data.labels.findIndex(label => label.includes(long));
  chart.tooltip.setActiveElements([{datasetIndex: 0, index: index}], {x: 0, y: 0});
  chart.update();
  return {drawn: drawn, room: scale.right, hover: chart.tooltip.title};
}"""

# Each system's point in the P/R plot: whether it is drawn whole (not clipped) inside the canvas.
POINTS = """() => {
  const chart = Chart.getChart(document.getElementById('pr-chart'));
  return chart.data.datasets.map((d, i) => ({d, i})).filter(({d}) => d.type === 'scatter').map(({d, i}) => {
    const point = chart.getDatasetMeta(i).data[0], r = d.pointRadius;
    return {name: d.label, p: d.data[0].x, whole: d.clip === false && point.x + r <= chart.width && point.y - r >= 0
      && point.x - r >= 0 && point.y + r <= chart.height};
  });
}"""


@pytest.fixture
def long_names(live_server):
    from leaderboard.board_version import board_changed
    from leaderboard.models import MetricResult
    from tests.conftest import build_insight_task

    data = build_insight_task("labels", lines=8, teams={LONG_TEAM: "T5", "bob": "BART"}, metrics=["errant"])
    result = MetricResult.objects.get(submission=data["submissions"]["BART"], metric="errant")
    result.scores["cs"].update(p=1.0, r=1.0, f=1.0)  # a system at P = R = 1.0, in the plot's corner
    result.save()
    board_changed(data["phase"].pk)
    return live_server.url


@pytest.mark.parametrize("width", [1280, 390])
def test_chart_labels_keep_their_start_and_points_stay_in_the_plot(long_names, chromium, width):
    page = chromium.new_context(viewport={"width": width, "height": 900}).new_page()
    page.goto(f"{long_names}/tasks/labels/")
    page_holds(page, "() => window.Chart && Chart.getChart(document.getElementById('pr-chart'))")
    board = page.evaluate(DRAWN_LABELS, LONG_TEAM)
    for tick in board["drawn"]:
        assert tick["width"] <= board["room"], tick  # drawn right of the canvas's left edge
        shown = tick["label"].removesuffix("…")
        assert tick["full"].startswith(shown) and len(shown) >= 8, tick  # its start kept, cut at its end
    assert any(tick["label"].endswith("…") and LONG_TEAM[:20] in tick["label"] for tick in board["drawn"])
    assert LONG_TEAM in "".join(board["hover"]), board["hover"]  # the whole name on hover, in lines that fit
    points = page.evaluate(POINTS)
    assert any(point["p"] == 1.0 for point in points) and all(point["whole"] for point in points), points
    page.screenshot(path=f"/tmp/chart-labels-{width}.png", full_page=True)
