// The pairs table, sorted and filtered in the page itself: each pair is a <tbody> (its line and
// its details) carrying its figures as data- attributes, so nothing is parsed from the cells.
(function () {
  "use strict";
  var table = document.getElementById("pair-table");
  var filter = document.getElementById("filter");
  var verdict = document.getElementById("verdict-filter");
  var count = document.getElementById("shown-count");
  var pairs = Array.prototype.slice.call(table.tBodies);

  function wanted(pair, text, chosen) {
    var verdictOk = chosen === "" ||
      (chosen === "not-pass" ? pair.dataset.verdict !== "PASS" : pair.dataset.verdict === chosen);
    return verdictOk && pair.dataset.name.toLowerCase().indexOf(text) !== -1;
  }

  function applyFilter() {
    var text = filter.value.trim().toLowerCase();
    var shown = 0;
    pairs.forEach(function (pair) {
      pair.hidden = !wanted(pair, text, verdict.value);
      if (!pair.hidden) { shown += 1; }
    });
    count.textContent = shown + " of " + pairs.length + " pairs";
  }

  // A missing figure (an error pair has none) sorts below every number.
  function figure(pair, key) {
    var text = pair.dataset[key];
    return text === "" ? -Infinity : Number(text);
  }

  function sortBy(heading) {
    var key = heading.dataset.sort;
    var ascending = heading.getAttribute("aria-sort") !== "ascending";
    var numeric = heading.dataset.type === "number";
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (cell) {
      cell.removeAttribute("aria-sort");
    });
    heading.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    pairs.sort(function (a, b) {
      var order = numeric ? figure(a, key) - figure(b, key)
        : a.dataset[key].localeCompare(b.dataset[key]);
      if (order === 0 || isNaN(order)) { order = a.dataset.name.localeCompare(b.dataset.name); }
      return ascending ? order : -order;
    });
    pairs.forEach(function (pair) { table.appendChild(pair); });
  }

  function toggle(button) {
    var detail = document.getElementById(button.getAttribute("aria-controls"));
    var open = button.getAttribute("aria-expanded") !== "true";
    button.setAttribute("aria-expanded", open ? "true" : "false");
    detail.hidden = !open;
  }

  filter.addEventListener("input", applyFilter);
  verdict.addEventListener("change", applyFilter);
  table.tHead.addEventListener("click", function (event) {
    var heading = event.target.closest("th[data-sort]");
    if (heading) { sortBy(heading); }
  });
  table.addEventListener("click", function (event) {
    var button = event.target.closest("button.toggle");
    if (button) { toggle(button); }
  });
  applyFilter();
}());
