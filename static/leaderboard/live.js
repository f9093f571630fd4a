// Live pages: the one module that keeps every page up to date.
//
// A page watches its phase's version (/tasks/<slug>/version/?phase=<key>, a few bytes the
// proxy answers itself for a public phase) and fetches its fragment only when the version
// changed: one request per page per change, the fragment rendered once for everyone who
// sees the same thing (leaderboard/views/fragment_cache.py). Polls back off while nothing changes
// (3 s, then up to 15 s), back off further on errors, and stop while the tab is hidden
// (it polls at once when it is shown again). What is a viewer's own (their team's rows, a
// submission's status) is a small file of their team's that the proxy serves (a channel:
// leaderboard/services/boards): the page polls it directly and updates when its text changes.
// Pages that follow one job (an upload's banner, an organizer's job) poll their small status
// the same way until it is finished.
//
//   gecLive.follow(box, {version, fragment, pending, since, atMost})  replace box's content on a new version
//                          (pending: a selector, stop once box has none; since: the version it shows;
//                           atMost: ms between two fetches, for a fragment rendered per viewer;
//                           without version: poll the fragment itself, since = the text it shows)
//   gecLive.status(box, {status, reload})               a submission's status (a channel, or the API); reload once finished
//   [data-poll-url], li[data-follow]                    found on every page (base.html)
(function () {
  "use strict";
  const FIRST = 3000, MOST = 15000, ON_ERROR = 30000;  // bench/crowd.py drives its pages with the same

  // Calls check() again and again: at FIRST ms after a change, longer while nothing
  // changes, never while the tab is hidden. check() resolves to "changed", "same" or "stop".
  function every(check, first) {
    let delay = first || FIRST, timer = null, stopped = false, running = false;
    async function run() {
      timer = null;
      if (stopped || document.hidden) return;
      let outcome;
      running = true;
      try { outcome = await check(); } catch (e) { outcome = "error"; }
      running = false;
      if (outcome === "stop") { stopped = true; return; }
      if (outcome === "changed") delay = first || FIRST;
      else if (outcome === "error") delay = Math.min(ON_ERROR, delay * 2);
      else delay = Math.min(MOST, Math.round(delay * 1.5));
      schedule(delay);
    }
    function schedule(ms) { if (!stopped && !running && timer === null && !document.hidden) timer = setTimeout(run, ms); }
    document.addEventListener("visibilitychange", function () {
      if (document.hidden) { if (timer !== null) { clearTimeout(timer); timer = null; } }
      else schedule(0);
    });
    schedule(delay);
  }

  // One poll per version URL, however many parts of the page follow it.
  const watchers = {};
  function watch(url, listener) {
    let watcher = watchers[url];
    if (!watcher) {
      watcher = watchers[url] = {listeners: []};
      every(async function () {
        const response = await fetch(url, {credentials: "same-origin"});
        if (!response.ok) return "error";
        const version = (await response.text()).trim();
        const outcomes = await Promise.all(watcher.listeners.map(function (l) { return l(version); }));
        watcher.listeners = watcher.listeners.filter(function (l, k) { return outcomes[k] !== "stop"; });
        if (!watcher.listeners.length) { delete watchers[url]; return "stop"; }
        return outcomes.indexOf("changed") >= 0 ? "changed" : "same";
      });
    }
    watcher.listeners.push(listener);
  }

  // A random part of atMost: pages opened together (a class, a deadline) drift apart
  // instead of asking for their own fragments in one burst every atMost.
  function jitter(atMost) { return atMost ? Math.random() * atMost : 0; }

  function element(box) { return typeof box === "string" ? document.getElementById(box) : box; }

  // A small URL polled for itself (a channel): check(text) runs when its text changed;
  // wanted(), when given, stops the polling once it says false.
  function poll(url, since, check, wanted) {
    let seen = since === undefined ? null : since;
    every(async function () {
      if (wanted && !wanted()) return "stop";
      const response = await fetch(url, {credentials: "same-origin", cache: "no-store"});
      if (!response.ok) return "error";
      const text = (await response.text()).trim();
      if (text === seen) return "same";
      seen = text;
      return check(text);
    });
  }

  function follow(box, options) {
    box = element(box);
    if (!box) return;
    if (!options.version) {
      poll(options.fragment, options.since, function (text) {
        box.innerHTML = text;
        box.dispatchEvent(new CustomEvent("gec:updated", {bubbles: true}));
        return "changed";
      }, options.pending ? function () { return box.querySelector(options.pending) !== null; } : null);
      return;
    }
    let seen = options.since || null;  // the version this box shows: its [data-version], else the one it came with or last fetched
    let fetched = Date.now() - jitter(options.atMost);
    watch(options.version, async function (version) {
      if (options.pending && !box.querySelector(options.pending)) return "stop";
      const shown = box.querySelector("[data-version]");
      if (version === (shown ? shown.dataset.version : seen)) return "same";
      if (options.atMost && Date.now() - fetched < options.atMost) return "same";  // a later poll fetches it
      fetched = Date.now();
      const response = await fetch(options.fragment, {credentials: "same-origin"});
      if (response.status !== 200) return "same";
      box.innerHTML = await response.text();
      seen = version;
      box.dispatchEvent(new CustomEvent("gec:updated", {bubbles: true}));
      return "changed";
    });
  }

  function showStatus(target, state) {
    target.dataset.status = state.status;
    target.textContent = state.status + (state.status === "running" && state.progress !== null ? " " + Math.round(100 * state.progress) + "%" : "");
  }

  function status(box, options) {
    box = element(box);
    if (!box) return;
    poll(options.status, null, function (text) {
      const state = JSON.parse(text);
      if (state.finished) { if (options.reload) location.reload(); return "stop"; }
      const target = box.querySelector(".submission-status");
      if (target) showStatus(target, state);
      return "changed";
    });
  }

  // Fragments that follow one job: [data-poll-url] is replaced until it holds [data-finished].
  function jobs() {
    document.querySelectorAll("[data-poll-url]").forEach(function (box) {
      every(async function () {
        if (box.querySelector("[data-finished]")) return "stop";
        const response = await fetch(box.dataset.pollUrl, {credentials: "same-origin"});
        if (!response.ok) return "error";
        const html = await response.text();
        if (html === box.innerHTML) return "same";
        box.innerHTML = html;
        return "changed";
      }, 1500);
    });
  }

  // A banner about an upload follows its status (data-follow: /api/submissions/<id>/status/).
  const SAID = {queued: "is queued", running: "is being scored", scored: "is scored: the leaderboard shows it",
                failed: "failed: see My submissions for why", received: "was received (this phase is blind)"};
  function banners() {
    document.querySelectorAll(".messages li[data-follow]").forEach(function (banner) {
      let last = banner.dataset.status;
      every(async function () {
        const response = await fetch(banner.dataset.follow, {credentials: "same-origin", cache: "no-store"});
        if (!response.ok) return "error";
        const state = await response.json();
        banner.dataset.status = state.status;
        banner.textContent = "Submission " + banner.dataset.submission + " " + (SAID[state.status] || state.status) +
          (state.status === "running" && state.progress !== null ? " (" + Math.round(100 * state.progress) + "%)" : "") + ".";
        if (state.finished) return "stop";
        const changed = state.status !== last;
        last = state.status;
        return changed ? "changed" : "same";
      }, 1000);
    });
  }

  window.gecLive = {follow: follow, status: status, every: every};
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { jobs(); banners(); });
  else { jobs(); banners(); }
})();
