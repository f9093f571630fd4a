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
          tooltip: {callbacks: {label: c => d.label + " " + fraction(c.raw) + (d.bars[c.dataIndex].group ? "  (group " + d.bars[c.dataIndex].group + ")" : "")}},
        },
        scales: {x: {beginAtZero: true, title: {display: true, text: d.label}}},
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
    }));
    return new Chart(canvas, {
      data: {datasets: systems.concat(iso)},
      options: {
        responsive: true, maintainAspectRatio: false, animation: false,
        plugins: {
          legend: {labels: {filter: item => !item.text.startsWith("F" + d.beta)}},
          tooltip: {callbacks: {label: c => c.dataset.label + ": P " + fraction(c.raw.x) + ", R " + fraction(c.raw.y)}},
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
      options: {responsive: true, maintainAspectRatio: false, animation: false, plugins: {legend: {display: false}}, scales: {y: {title: {display: true, text: d.label}}}},
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
