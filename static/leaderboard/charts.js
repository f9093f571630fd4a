// The pages' charts, drawn with the vendored Chart.js from JSON each page embeds
// (leaderboard/insights/charts.py). A <canvas data-chart="KIND" data-source="ID"> is drawn
// with the JSON in the element #ID; gecCharts.draw() (re)draws all of them, e.g. after
// the polled board fragment was replaced.
(function () {
  "use strict";
  const PALETTE = ["#4a78c2", "#e07b39", "#3a9d5d", "#b84a62", "#7a5cc2", "#c2a14a", "#4ab3c2", "#777777"];
  const GROUP = ["#4a78c2", "#8fb0e0"];
  const charts = {};

  function data(canvas) {
    const source = document.getElementById(canvas.dataset.source);
    return source ? JSON.parse(source.textContent) : null;
  }

  function fraction(value) { return value === null || value === undefined ? "–" : value.toFixed(4); }

  // A label cut at its end, with an ellipsis, to fit ``width`` px: Chart.js draws a label
  // wider than its axis across the canvas's edge, so a long team name lost its start.
  // The tooltip, which shows on hover, keeps the whole name (it reads data.labels).
  const measure = document.createElement("canvas").getContext("2d");
  function fit(text, width, font) {
    measure.font = font;
    if (measure.measureText(text).width <= width) return text;
    let n = text.length;
    while (n > 1 && measure.measureText(text.slice(0, n) + "…").width > width) n--;
    return text.slice(0, n) + "…";
  }
  // ``text`` as lines of at most ``width`` px, broken after a space, "/" or "-" where one
  // is near (a tooltip is drawn inside the canvas: a whole long name must fit a phone's).
  function lines(text, width, font) {
    measure.font = font;
    const out = [];
    let rest = text;
    while (rest && measure.measureText(rest).width > width) {
      let n = rest.length;
      while (n > 1 && measure.measureText(rest.slice(0, n)).width > width) n--;
      const cut = Math.max(rest.lastIndexOf(" ", n - 1), rest.lastIndexOf("/", n - 1), rest.lastIndexOf("-", n - 1));
      n = cut > n / 2 ? cut + 1 : n;
      out.push(rest.slice(0, n));
      rest = rest.slice(n);
    }
    return rest ? out.concat([rest]) : out;
  }
  function fontOf(scale) {
    return Chart.helpers && Chart.helpers.toFont ? Chart.helpers.toFont(scale.options.ticks.font).string : "12px sans-serif";
  }
  // Tick labels of a category axis fitted to ``share`` of the chart's width.
  function fittedTicks(share) {
    return function (value) {
      return fit(String(this.getLabelForValue(value)), Math.max(40, this.chart.width * share), fontOf(this));
    };
  }

  function board(canvas, d) {
    canvas.parentElement.style.height = Math.max(120, 28 * d.bars.length + 40) + "px";
    return new Chart(canvas, {
      type: "bar",
      data: {
        labels: d.bars.map(b => b.rank === null ? b.name + " (baseline)" : b.rank + ". " + b.name),
        datasets: [{
          label: d.label,
          data: d.bars.map(b => b.value),
          backgroundColor: d.bars.map(b => b.baseline ? "#bbbbbb" : GROUP[((b.group || 1) - 1) % 2]),
        }],
      },
      options: {
        indexAxis: "y", responsive: true, maintainAspectRatio: false, animation: false,
        plugins: {
          legend: {display: false},
          tooltip: {callbacks: {
            title: items => items.length ? lines(items[0].label, Math.max(80, items[0].chart.width - 40), "bold 12px sans-serif") : [],
            label: c => d.label + " " + fraction(c.raw) + (d.bars[c.dataIndex].group ? "  (group " + d.bars[c.dataIndex].group + ")" : ""),
          }},
        },
        scales: {
          x: {beginAtZero: true, title: {display: true, text: d.label}},
          y: {ticks: {callback: fittedTicks(0.4)}},
        },
      },
    });
  }

  function precisionRecall(canvas, d) {
    const iso = d.iso.map(curve => ({
      type: "line", label: "F" + d.beta + " = " + curve.level, data: curve.points, parsing: false,
      borderColor: "#dddddd", borderWidth: 1, pointRadius: 0, fill: false, order: 2,
    }));
    const systems = d.points.map((p, k) => ({
      type: "scatter", label: p.name, data: [{x: p.x, y: p.y}],
      backgroundColor: p.baseline ? "#999999" : PALETTE[k % PALETTE.length], pointRadius: 5, order: 1,
      clip: false,  // a system at P or R = 1.0 sits on the plot's edge: drawn whole, in the padding
    }));
    const legend = Chart.defaults.plugins.legend.labels.generateLabels;
    return new Chart(canvas, {
      data: {datasets: systems.concat(iso)},
      options: {
        responsive: true, maintainAspectRatio: false, animation: false,
        layout: {padding: {top: 8, right: 8}},
        plugins: {
          legend: {labels: {
            filter: item => !item.text.startsWith("F" + d.beta),
            generateLabels: chart => legend(chart).map(item => Object.assign(item, {text: fit(item.text, Math.max(60, chart.width * 0.45), "12px sans-serif")})),
          }},
          tooltip: {callbacks: {label: c => lines(c.dataset.label + ": P " + fraction(c.raw.x) + ", R " + fraction(c.raw.y), Math.max(80, c.chart.width - 40), "12px sans-serif")}},
        },
        scales: {
          x: {min: 0, max: 1, title: {display: true, text: d.p_label}},
          y: {min: 0, max: 1, title: {display: true, text: d.r_label}},
        },
      },
    });
  }

  function typeProfile(canvas, d) {
    canvas.parentElement.style.height = Math.max(160, 22 * d.types.length * Math.max(1, d.systems.length) / 2 + 60) + "px";
    return new Chart(canvas, {
      type: "bar",
      data: {
        labels: d.types,
        datasets: d.systems.map((s, k) => ({label: s.name, data: s.f, backgroundColor: PALETTE[k % PALETTE.length]})),
      },
      options: {
        indexAxis: "y", responsive: true, maintainAspectRatio: false, animation: false,
        scales: {x: {min: 0, max: 1, title: {display: true, text: "correction F"}}},
      },
    });
  }

  function history(canvas, d) {
    return new Chart(canvas, {
      type: "line",
      data: {
        labels: d.points.map(p => "#" + p.id + " " + p.name),
        datasets: [{label: d.label, data: d.points.map(p => p.value), borderColor: PALETTE[0], backgroundColor: PALETTE[0], tension: 0}],
      },
      options: {
        responsive: true, maintainAspectRatio: false, animation: false, plugins: {legend: {display: false}},
        scales: {x: {ticks: {callback: fittedTicks(0.25)}}, y: {title: {display: true, text: d.label}}},
      },
    });
  }

  const KINDS = {board: board, pr: precisionRecall, "type-profile": typeProfile, history: history};

  function draw() {
    if (typeof Chart === "undefined") return;
    document.querySelectorAll("canvas[data-chart]").forEach(canvas => {
      const d = data(canvas);
      if (charts[canvas.id]) { charts[canvas.id].destroy(); delete charts[canvas.id]; }
      const box = canvas.closest(".chart");
      if (!d || (canvas.dataset.chart === "pr" && !d.points) || (canvas.dataset.chart === "board" && !d.bars.length)) {
        if (box) box.hidden = true;
        return;
      }
      if (box) box.hidden = false;
      charts[canvas.id] = KINDS[canvas.dataset.chart](canvas, d);
    });
  }

  window.gecCharts = {draw: draw};
  document.addEventListener("DOMContentLoaded", draw);
})();
