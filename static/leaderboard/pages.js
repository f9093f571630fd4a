// What every page does without code of its own (base.html loads it after live.js): the
// templates declare it in data-* attributes, so no page holds an inline script and the
// Content-Security-Policy (leaderboard/content_policy.py) can forbid them.
//
//   <time class="countdown" datetime="ISO">         counts down to a phase's next date
//   <select data-autosubmit>                        submits its form when changed
//   <input data-select-on-click>                    selects its text when clicked (a link to copy)
//   <form data-default-visibility>                  a phase's key starting with "test" hides its results
//                                                   until the organizer picks (Phase.default_visibility)
//   [data-live-fragment]                            gecLive.follow(box, {fragment, version: data-live-version,
//                                                   since: the JSON in #data-live-since (data-live-trim: trimmed),
//                                                   pending: data-live-pending, atMost: data-live-at-most})
//   [data-live-status]                              gecLive.status(box, {status: data-live-status, reload: true})
//   a followed fragment's update redraws the charts (static/leaderboard/charts.js)
(function (root) {
  "use strict";

  // "(in 2 d 3 h 4 min 5 s)" for a number of seconds ahead; "(now: reload the page)" once past.
  function countdown(seconds) {
    const s = Math.floor(seconds);
    if (s <= 0) return "(now: reload the page)";
    const d = Math.floor(s / 86400), h = Math.floor(s % 86400 / 3600), m = Math.floor(s % 3600 / 60);
    return "(in " + (d ? d + " d " : "") + (d || h ? h + " h " : "") + m + " min " + s % 60 + " s)";
  }

  // The results' default for a phase key (the server's Phase.default_visibility).
  function defaultVisibility(key) { return key.indexOf("test") === 0 ? "organizers" : "public"; }

  // gecLive.follow's options from a box's data-* attributes.
  function followOptions(box, doc) {
    const data = box.dataset, options = {fragment: data.liveFragment};
    if (data.liveVersion) options.version = data.liveVersion;
    if (data.livePending) options.pending = data.livePending;
    if (data.liveAtMost) options.atMost = Number(data.liveAtMost);
    const since = data.liveSince ? doc.getElementById(data.liveSince) : null;
    if (since) {
      const value = JSON.parse(since.textContent);
      options.since = data.liveTrim && typeof value === "string" ? value.trim() : value;
    }
    return options;
  }

  function clocks(doc) {
    const found = doc.querySelectorAll("time.countdown");
    function tick() {
      found.forEach(function (clock) {
        clock.textContent = countdown((Date.parse(clock.getAttribute("datetime")) - Date.now()) / 1000);
      });
    }
    if (found.length) { tick(); setInterval(tick, 1000); }
  }

  function forms(doc) {
    doc.querySelectorAll("select[data-autosubmit]").forEach(function (select) {
      select.addEventListener("change", function () { select.form.submit(); });
    });
    doc.querySelectorAll("input[data-select-on-click]").forEach(function (input) {
      input.addEventListener("click", function () { input.select(); });
    });
    doc.querySelectorAll("form[data-default-visibility]").forEach(function (form) {
      const key = form.querySelector("#id_kind"), results = form.querySelector("#id_results_visibility");
      if (!key || !results) return;
      let picked = false;
      results.addEventListener("change", function () { picked = true; });
      key.addEventListener("input", function () { if (!picked) results.value = defaultVisibility(key.value); });
    });
  }

  function live(doc) {
    if (!root.gecLive) return;
    doc.querySelectorAll("[data-live-fragment]").forEach(function (box) {
      if (box.dataset.liveFragment) root.gecLive.follow(box, followOptions(box, doc));
    });
    doc.querySelectorAll("[data-live-status]").forEach(function (box) {
      if (box.dataset.finished !== "1") root.gecLive.status(box, {status: box.dataset.liveStatus, reload: true});
    });
    doc.addEventListener("gec:updated", function () { if (root.gecCharts) root.gecCharts.draw(); });
  }

  function start(doc) { clocks(doc); forms(doc); live(doc); }

  const api = {countdown: countdown, defaultVisibility: defaultVisibility, followOptions: followOptions, start: start};
  if (typeof module === "object" && module.exports) module.exports = api;  // node's unit tests
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { start(document); });
  else start(document);
})(typeof window === "undefined" ? globalThis : window);
