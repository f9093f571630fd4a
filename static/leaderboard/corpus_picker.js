// A board of several corpora wider than the page shows one corpus at a time beside the
// macro average (the picker above it says which); the choice survives the polled updates.
// Loaded by templates/leaderboard/_corpus_picker.html on the board's page.
(function () {
  "use strict";
  const board = document.getElementById("board");
  if (!board) return;
  let chosen = null;  // null: not chosen by the reader yet
  function apply() {
    const table = board.querySelector("table.corpus-board"), picker = board.querySelector("#corpus-picker");
    if (!table || !picker) return;
    const select = picker.querySelector("select");
    const cells = table.querySelectorAll("[data-corpus]");
    cells.forEach(function (cell) { cell.hidden = false; });
    let shown = chosen;
    if (shown === null) shown = table.scrollWidth > table.parentElement.clientWidth + 1 ? select.options[1].value : "";
    picker.hidden = shown === "" && chosen === null;
    select.value = shown;
    if (shown) cells.forEach(function (cell) { if (cell.dataset.corpus !== shown && cell.tagName !== "SPAN") cell.hidden = true; });
    select.onchange = function () { chosen = select.value; apply(); };
  }
  new MutationObserver(apply).observe(board, {childList: true});
  apply();
  window.addEventListener("resize", function () { if (chosen === null) apply(); });
})();
