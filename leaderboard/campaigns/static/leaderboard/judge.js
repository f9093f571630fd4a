// The annotator's judging page, in every mode: asks the campaign's API for a screen, shows
// it blind, takes the ranks (mode ranking; in mode edits each edit's mark too) or the
// ratings on each scale (mode rating) from the mouse or the keyboard, and posts the
// judgment, or a skip with its comment, with the seconds the screen was in view.
//
// The page (templates/campaigns/judge.html, or rate.html in mode rating) gives #judge its
// data-api and data-mode and holds the empty parts this fills; the texts are drawn from
// static/leaderboard/screen_text.js (detokenised in mode rating, as the writer wrote them,
// with the places where the outputs differ marked alike in every output, off at first).
// Mode rating's keyboard: a digit rates the underlined scale and moves to the next, the
// arrows move, Enter submits. Keyboard: a letter picks an output (A-J, ten at most),
// a digit ranks the picked one (1-9, 0 = 10), v / i mark its next edit valid / invalid in
// mode edits (campaigns in mode edits never name an output I or V, so a letter is never
// both), Enter submits, ? shows the guidelines again. Time spent counts only while the
// tab is visible, so a screen left in a background tab does not look slow.
(function () {
  "use strict";
  const root = document.getElementById("judge");
  if (!root) return;
  const api = root.dataset.api, mode = root.dataset.mode, rating = mode === "rating";
  const text = window.gecText;
  const csrf = root.querySelector("input[name=csrfmiddlewaretoken]").value;
  const $ = (id) => document.getElementById(id);
  let screen = null, ranks = {}, marks = {}, focused = 0, sending = false;
  let shownSince = null, spent = 0;  // ms in view for the current screen
  let ratings = {}, cells = [];  // mode rating: {key: {scale: value}}, and each (output, scale) row in order

  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    Object.entries(attrs || {}).forEach(([k, v]) => node.setAttribute(k, v));
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // -- time in view ------------------------------------------------------------------
  function startClock() { spent = 0; shownSince = document.hidden ? null : Date.now(); }
  function seconds() { return (spent + (shownSince === null ? 0 : Date.now() - shownSince)) / 1000; }
  document.addEventListener("visibilitychange", function () {
    if (!screen) return;
    if (document.hidden && shownSince !== null) { spent += Date.now() - shownSince; shownSince = null; }
    else if (!document.hidden && shownSince === null) shownSince = Date.now();
  });

  // fn() in ms, or once the tab is shown again: a hidden tab asks the server nothing.
  function later(fn, ms) {
    setTimeout(function () {
      if (!document.hidden) return fn();
      document.addEventListener("visibilitychange", function shown() {
        if (document.hidden) return;
        document.removeEventListener("visibilitychange", shown);
        fn();
      });
    }, ms);
  }

  // Text runs (screen_text.js) as a paragraph: ins, del and mark in their own elements.
  function drawn(runs, tag, cls) {
    const box = el(tag, {class: cls});
    runs.forEach(function (run) {
      if (run.space) box.append(" ");
      if (run.kind === "plain") box.append(document.createTextNode(run.text));
      else if (run.kind === "mark" && !run.text) box.append(el("mark", {class: "gap", title: "nothing here"}, "∅"));
      else box.append(el(run.kind, {title: run.kind === "del" ? "removed" : run.kind === "mark" ? "differs between the outputs" : run.type || ""}, run.text));
    });
    return box;
  }
  function highlighted(source, edits) { return drawn(text.runs(text.againstSource(source, edits), false), "span", "text"); }
  function complete() {
    if (rating) return completeRatings();
    const missing = screen.outputs.filter((o) => !ranks[o.key]).map((o) => o.key);
    if (mode === "edits") screen.outputs.forEach(function (o) { if ((marks[o.key] || []).some((m) => m === null)) missing.push(o.key + " edits"); });
    $("submit").disabled = missing.length > 0 || sending;
    $("missing").textContent = missing.length ? "still to judge: " + missing.join(", ") : "";
  }
  function focus(i) {
    if (rating) return focusCell(i);
    focused = (i + screen.outputs.length) % screen.outputs.length;
    document.querySelectorAll(".output").forEach((node, k) => node.classList.toggle("focused", k === focused));
  }
  function rank(key, value) {
    ranks[key] = value;
    document.querySelectorAll(`.output[data-key="${key}"] .ranks button`).forEach(function (b) { b.setAttribute("aria-pressed", String(Number(b.dataset.rank) === value)); });
    document.querySelector(`.output[data-key="${key}"]`).classList.add("ranked");
    complete();
  }
  function mark(key, index, valid) {
    marks[key][index] = valid;
    document.querySelectorAll(`.output[data-key="${key}"] .edits li`)[index].querySelectorAll("button").forEach(function (b) {
      b.setAttribute("aria-pressed", String(b.classList.contains("valid") === valid));
    });
    complete();
  }
  function editList(output, i) {
    marks[output.key] = output.edits.map(() => null);
    const edits = el("ul", {class: "edits"});
    output.edits.forEach(function (e, k) {
      const line = el("li", {}, (e.source || "∅") + " → " + (e.correction || "∅") + " ");
      [["valid", true, "valid"], ["invalid", false, "invalid"]].forEach(function ([cls, value, text]) {
        const b = el("button", {type: "button", class: cls, "aria-pressed": "false"}, text);
        b.addEventListener("click", function () { focus(i); mark(output.key, k, value); });
        line.append(b);
      });
      edits.append(line);
    });
    return edits;
  }
  function outputItem(body, output, i) {
    const n = body.outputs.length;
    const item = el("li", {class: "output", "data-key": output.key});
    item.append(el("span", {class: "key"}, output.key), highlighted(body.source, output.edits));
    const buttons = el("div", {class: "ranks", role: "group", "aria-label": "rank of " + output.key});
    buttons.append(el("span", {class: "muted small"}, "rank"));
    for (let r = 1; r <= n; r++) {
      const b = el("button", {type: "button", "data-rank": r, "aria-pressed": "false", title: r === 1 ? "best" : r === n ? "worst" : ""}, String(r));
      b.addEventListener("click", function () { focus(i); rank(output.key, r); });
      buttons.append(b);
    }
    item.append(buttons);
    if (mode === "edits" && output.edits.length) item.append(editList(output, i));
    else if (mode === "edits") marks[output.key] = [];
    item.addEventListener("click", function () { focus(i); });
    return item;
  }
  // -- mode rating: every output on every scale ---------------------------------------
  function completeRatings() {
    const missing = [];
    screen.outputs.forEach(function (o) {
      screen.scales.forEach(function (s) { if (ratings[o.key][s.name] === undefined) missing.push((screen.outputs.length > 1 ? o.key + " " : "") + s.name); });
    });
    $("submit").disabled = missing.length > 0 || sending;
    $("missing").textContent = missing.length ? "still to rate: " + missing.join(", ") : "";
  }
  function focusCell(i) {
    focused = (i + cells.length) % cells.length;
    cells.forEach((c, k) => c.node.classList.toggle("focused", k === focused));
    document.querySelectorAll(".output").forEach((n) => n.classList.toggle("focused", n.dataset.key === cells[focused].key));
  }
  function rate(key, scale, value) {
    ratings[key][scale] = value;
    document.querySelectorAll(`.scale[data-key="${key}"][data-scale="${scale}"] button`).forEach(function (b) {
      b.setAttribute("aria-pressed", String(Number(b.dataset.value) === value));
    });
    complete();
  }
  // The label a scale gives a point ({"labels": {"1": "...", ...}} in the campaign's scales), or "".
  function pointLabel(scale, value) { return (scale.labels || {})[String(value)] || ""; }
  function scaleRow(output, scale) {
    const row = el("div", {class: "scale", "data-key": output.key, "data-scale": scale.name, role: "group", "aria-label": scale.name + " of " + output.key});
    row.append(el("span", {class: "name"}, scale.name));
    if (scale.max - scale.min <= 10) {
      const points = el("span", {class: "points"});
      for (let v = scale.min; v <= scale.max; v++) {
        const label = pointLabel(scale, v) || (v === scale.min ? "worst" : v === scale.max ? "best" : "");
        const b = el("button", {type: "button", "data-value": v, "aria-pressed": "false", title: label}, String(v));
        if (pointLabel(scale, v)) { b.classList.add("labelled"); b.append(el("span", {class: "point-label"}, pointLabel(scale, v))); }
        b.addEventListener("click", function () { rate(output.key, scale.name, v); });
        points.append(b);
      }
      row.append(points);
    } else {  // a slider: rated once moved (or its value confirmed with a click)
      const slider = el("input", {type: "range", min: scale.min, max: scale.max, step: 1, value: Math.round((scale.min + scale.max) / 2), "aria-label": scale.name});
      const shown = el("output", {}, "–");
      const set = function () { shown.textContent = slider.value; rate(output.key, scale.name, Number(slider.value)); };
      slider.addEventListener("input", set); slider.addEventListener("change", set); slider.addEventListener("click", set);
      const ends = el("span", {class: "ends muted small"}, (pointLabel(scale, scale.min) || scale.min) + " … " + (pointLabel(scale, scale.max) || scale.max));
      row.append(slider, shown, ends);
    }
    cells.push({key: output.key, scale: scale, node: row});
    return row;
  }
  function ratedItem(body, output, pieces) {
    ratings[output.key] = {};
    const item = el("li", {class: "output", "data-key": output.key});
    if (body.outputs.length > 1) item.append(el("h3", {}, output.key));
    item.append(drawn(text.runs(pieces, true), "p", "reading text"));
    body.scales.forEach((scale) => item.append(scaleRow(output, scale)));
    return item;
  }
  function rateKey(key) {
    const cell = cells[focused];
    if (!/^[0-9]$/.test(key) || cell.scale.max - cell.scale.min > 10) return;
    const value = Number(key);
    if (value < cell.scale.min || value > cell.scale.max) return;
    rate(cell.key, cell.scale.name, value);
    if (focused < cells.length - 1) focus(focused + 1);
  }

  function show(body) {
    screen = body; ranks = {}; marks = {}; ratings = {}; cells = []; sending = false;
    const written = rating ? text.detokenise : (t) => t;
    $("before").textContent = written(body.context.before); $("after").textContent = written(body.context.after); $("source").textContent = written(body.source);
    if (rating) {
      const shared = text.sharedMarks(body.source, body.outputs);
      $("outputs").replaceChildren(...body.outputs.map((output, i) => ratedItem(body, output, shared[i])));
    } else $("outputs").replaceChildren(...body.outputs.map((output, i) => outputItem(body, output, i)));
    const total = body.progress.total, done = body.progress.done;
    $("progress").max = total; $("progress").value = done; $("progress-text").textContent = done + " / " + total;
    $("practice").hidden = !body.practice;
    $("skip-form").hidden = true; $("skip-comment").value = "";
    $("screen").hidden = false; $("done").hidden = true; $("waiting").hidden = true; $("error").hidden = true;
    focus(0); complete(); startClock();
    if (rating) window.scrollTo(0, 0);
  }
  async function next() {
    const response = await fetch(api + "next/", {credentials: "same-origin", headers: {Accept: "application/json"}});
    if (response.status === 204) {
      screen = null;
      $("screen").hidden = true; $("done").hidden = false;
      $("progress").value = $("progress").max; $("progress-text").textContent = "done";
      return;
    }
    if (response.status === 409) { $("waiting").hidden = false; later(next, 3000); return; }
    if (!response.ok) { $("error").hidden = false; $("error").textContent = "The next screen could not be loaded (" + response.status + ")."; return; }
    show(await response.json());
  }
  async function post(path, body) {
    sending = true; complete();
    const response = await fetch(api + path, {
      method: "POST", credentials: "same-origin", body: JSON.stringify(body),
      headers: {"Content-Type": "application/json", "X-CSRFToken": csrf, Accept: "application/json"},
    });
    if (response.status === 201 || response.status === 409) return next();
    const answer = await response.json().catch(() => ({}));
    $("error").hidden = false;
    $("error").textContent = (answer.errors || []).map((e) => e.message).join("; ") || ("not saved (" + response.status + ")");
    sending = false; complete();
  }
  function submit() {
    if ($("submit").disabled) return;
    const body = {item: screen.item, duration: Math.round(seconds() * 1000) / 1000};
    if (rating) body.ratings = ratings; else body.ranks = ranks;
    if (mode === "edits") body.edits = marks;
    return post("judgments/", body);
  }
  function skip(event) {
    event.preventDefault();
    const comment = $("skip-comment").value.trim();
    if (!comment) { $("skip-comment").focus(); return; }
    return post("skip/", {item: screen.item, comment: comment, duration: Math.round(seconds() * 1000) / 1000});
  }
  function guidelines(open) {
    const box = $("guidelines");
    if (!box) return;
    box.hidden = !open;
    $("show-guidelines").setAttribute("aria-expanded", String(open));
  }
  function onKey(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest && event.target.closest("textarea, input:not([type=range]):not([type=checkbox])")) return;
    const key = event.key;
    if (key === "?" && $("guidelines")) { guidelines($("guidelines").hidden); return; }
    if (!screen || $("screen").hidden) return;
    if (event.target.type === "range" && key.startsWith("Arrow")) return;  // the slider's own keys
    const outputs = screen.outputs;
    if (key === "Enter") { event.preventDefault(); submit(); return; }
    if (key === "ArrowDown") { event.preventDefault(); focus(focused + 1); return; }
    if (key === "ArrowUp") { event.preventDefault(); focus(focused - 1); return; }
    if (rating) { rateKey(key); return; }
    const markKey = mode === "edits" && (key === "v" || key === "i");
    const letter = outputs.findIndex((o) => o.key.toLowerCase() === key.toLowerCase());
    if (letter >= 0 && !markKey) { focus(letter); return; }
    const digit = /^[0-9]$/.test(key) ? (key === "0" ? 10 : Number(key)) : 0;
    if (digit && digit <= outputs.length) {
      rank(outputs[focused].key, digit);
      if (focused < outputs.length - 1) focus(focused + 1);
      return;
    }
    if (markKey) {
      const output = outputs[focused], pending = marks[output.key].indexOf(null);
      if (pending >= 0) mark(output.key, pending, key === "v");
    }
  }

  $("submit").addEventListener("click", submit);
  $("skip").addEventListener("click", function () { $("skip-form").hidden = false; $("skip-comment").focus(); });
  $("skip-form").addEventListener("submit", skip);
  if ($("changes")) $("changes").addEventListener("change", function () { root.classList.toggle("changes-off", !this.checked); });
  document.addEventListener("keydown", onKey);
  if ($("guidelines")) {
    $("show-guidelines").addEventListener("click", function () { guidelines($("guidelines").hidden); });
    $("start").addEventListener("click", function () { guidelines(false); $("start").hidden = true; next(); });
    guidelines(true);  // shown first; the first screen comes once they are read
  } else next();
  window.gecJudge = {seconds: seconds};
})();
