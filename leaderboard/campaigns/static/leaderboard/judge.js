// The annotator's judging page: asks the campaign's API for a screen, shows it blind,
// takes the ranks (and in mode edits each edit's mark) from the mouse or the keyboard,
// and posts the judgment with the seconds the screen was in view.
//
// The page (templates/campaigns/judge.html) gives #judge its data-api and data-mode and
// holds the empty parts this fills. Keyboard: a letter picks an output (A-J, ten at most),
// a digit ranks the picked one (1-9, 0 = 10), v / i mark its next edit valid / invalid in
// mode edits (campaigns in mode edits never name an output I or V, so a letter is never
// both), Enter submits, ? shows the guidelines again. Time spent counts only while the
// tab is visible, so a screen left in a background tab does not look slow.
(function () {
  "use strict";
  const root = document.getElementById("judge");
  if (!root) return;
  const api = root.dataset.api, mode = root.dataset.mode;
  const csrf = root.querySelector("input[name=csrfmiddlewaretoken]").value;
  const $ = (id) => document.getElementById(id);
  let screen = null, ranks = {}, marks = {}, focused = 0, sending = false;
  let shownSince = null, spent = 0;  // ms in view for the current screen

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

  // The output as the source with its edits: corrections in <ins>, removed words in <del>.
  function highlighted(source, edits) {
    const words = source.split(" "), box = el("span", {class: "text"});
    let at = 0;
    const sorted = edits.slice().sort((a, b) => a.start - b.start || a.end - b.end);
    function plain(from, to) { if (to > from) box.append(document.createTextNode(words.slice(from, to).join(" ") + " ")); }
    sorted.forEach(function (e) {
      if (e.start < at) return;
      plain(at, e.start);
      if (e.end > e.start) { box.append(el("del", {title: "removed"}, words.slice(e.start, e.end).join(" "))); box.append(" "); }
      if (e.correction) { box.append(el("ins", {title: e.type}, e.correction)); box.append(" "); }
      at = e.end;
    });
    plain(at, words.length);
    return box;
  }
  function complete() {
    const missing = screen.outputs.filter((o) => !ranks[o.key]).map((o) => o.key);
    if (mode === "edits") screen.outputs.forEach(function (o) { if ((marks[o.key] || []).some((m) => m === null)) missing.push(o.key + " edits"); });
    $("submit").disabled = missing.length > 0 || sending;
    $("missing").textContent = missing.length ? "still to judge: " + missing.join(", ") : "";
  }
  function focus(i) {
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
  function show(body) {
    screen = body; ranks = {}; marks = {}; sending = false;
    $("before").textContent = body.context.before; $("after").textContent = body.context.after; $("source").textContent = body.source;
    $("outputs").replaceChildren(...body.outputs.map((output, i) => outputItem(body, output, i)));
    const total = body.progress.total, done = body.progress.done;
    $("progress").max = total; $("progress").value = done; $("progress-text").textContent = done + " / " + total;
    $("practice").hidden = !body.practice;
    $("skip-form").hidden = true; $("skip-comment").value = "";
    $("screen").hidden = false; $("done").hidden = true; $("waiting").hidden = true; $("error").hidden = true;
    focus(0); complete(); startClock();
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
    const body = {item: screen.item, ranks: ranks, duration: Math.round(seconds() * 1000) / 1000};
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
    if (event.target.closest && event.target.closest("textarea, input")) return;
    const key = event.key;
    if (key === "?" && $("guidelines")) { guidelines($("guidelines").hidden); return; }
    if (!screen || $("screen").hidden) return;
    const outputs = screen.outputs;
    if (key === "Enter") { event.preventDefault(); submit(); return; }
    if (key === "ArrowDown") { event.preventDefault(); focus(focused + 1); return; }
    if (key === "ArrowUp") { event.preventDefault(); focus(focused - 1); return; }
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
  document.addEventListener("keydown", onKey);
  if ($("guidelines")) {
    $("show-guidelines").addEventListener("click", function () { guidelines($("guidelines").hidden); });
    $("start").addEventListener("click", function () { guidelines(false); $("start").hidden = true; next(); });
    guidelines(true);  // shown first; the first screen comes once they are read
  } else next();
  window.gecJudge = {seconds: seconds};
})();
