/* conflictkit report view: filter, search, sort and select findings; both documents scroll together,
   the two clauses of the selected finding kept level. The page is complete without this script (it
   prints the same); this only adds navigation. `conflictkit serve` adds review keys in app.js. */
(function () {
  "use strict";
  var list = document.getElementById("ck-findings");
  if (!list) { return; }
  var $ = function (id) { return document.getElementById(id); };
  var all = function (selector, root) { return Array.prototype.slice.call((root || document).querySelectorAll(selector)); };
  var items = all("li.finding", list);
  var byIndex = {};
  items.forEach(function (li) { byIndex[li.getAttribute("data-i")] = li; });
  var boxes = all('.toolbar input[name="kind"]');
  var sortSelect = $("ck-sort"), reasonSelect = $("ck-reason"), statusSelect = $("ck-status"), search = $("ck-search");
  var docs = { reference: $("doc-reference"), input: $("doc-input") };
  var KIND_ORDER = { deviation: 0, missing: 1, added: 2, "not-acceptable": 0, fallback: 2, standard: 3, absent: 4, uncovered: 5 };

  function matches(li) {
    var kindShown = boxes.every(function (box) { return box.checked || box.value !== li.getAttribute("data-kind"); });
    var reason = reasonSelect ? reasonSelect.value : "";
    var reasonOk = !reason || (" " + li.getAttribute("data-reasons") + " ").indexOf(" " + reason + " ") >= 0;
    var status = statusSelect ? statusSelect.value : "";
    var current = li.getAttribute("data-status") || "undecided";
    var statusOk = !status || status === current;
    var query = search ? search.value.trim().toLowerCase() : "";
    var note = li.querySelector("textarea");
    var text = query ? (li.textContent + " " + (note ? note.value : "")).toLowerCase() : "";
    var searchOk = !query || query.split(/\s+/).every(function (word) { return text.indexOf(word) >= 0; });
    return kindShown && reasonOk && statusOk && searchOk;
  }

  function applyFilter() {
    var shown = 0;
    items.forEach(function (li) { li.hidden = !matches(li); if (!li.hidden) { shown += 1; } });
    var counter = $("ck-shown");
    if (counter) { counter.textContent = shown + " shown"; }
  }

  function applySort() {
    var mode = sortSelect ? sortSelect.value : "order";
    var key = function (li) {
      if (mode === "p-desc") { return [-li.getAttribute("data-p")]; }
      if (mode === "p-asc") { return [+li.getAttribute("data-p")]; }
      if (mode === "listed") { return [+li.getAttribute("data-i")]; }
      if (mode === "kind") {
        var kind = li.getAttribute("data-kind");
        return [kind in KIND_ORDER ? KIND_ORDER[kind] : 9, +li.getAttribute("data-pos")];
      }
      return [+li.getAttribute("data-pos")];
    };
    items.slice().sort(function (a, b) {
      var ka = key(a), kb = key(b);
      for (var i = 0; i < ka.length; i += 1) { if (ka[i] !== kb[i]) { return ka[i] - kb[i]; } }
      return a.getAttribute("data-i") - b.getAttribute("data-i");
    }).forEach(function (li) { list.appendChild(li); });
  }

  // Scrolling together: a pane's scroll moves the other by as much. Scrolls we cause are remembered
  // so their events are not echoed back.
  var lastTop = {}, caused = {};
  function setTop(side, top) {
    var doc = docs[side];
    doc.scrollTop = top;
    caused[side] = doc.scrollTop;
    lastTop[side] = doc.scrollTop;
  }
  ["reference", "input"].forEach(function (side) {
    var doc = docs[side], other = side === "reference" ? "input" : "reference";
    if (!doc || !docs[other]) { return; }
    lastTop[side] = doc.scrollTop;
    doc.addEventListener("scroll", function () {
      if (caused[side] !== undefined && Math.abs(doc.scrollTop - caused[side]) < 1) { caused[side] = undefined; return; }
      caused[side] = undefined;
      var delta = doc.scrollTop - lastTop[side];
      lastTop[side] = doc.scrollTop;
      var together = $("ck-together");
      if (delta && (!together || together.checked)) { setTop(other, docs[other].scrollTop + delta); }
    }, { passive: true });
  });

  // The two clauses of a finding at the same height, a third of the way down the reference pane.
  function level(index) {
    var anchors = {}, sides = [];
    ["reference", "input"].forEach(function (side) {
      var anchor = $(side + "-f" + index);
      if (anchor && docs[side]) { anchors[side] = anchor; sides.push(side); }
    });
    if (!sides.length) { return; }
    var first = docs[sides[0]].getBoundingClientRect();
    var target = first.top + docs[sides[0]].clientHeight / 3;
    sides.forEach(function (side) {
      setTop(side, docs[side].scrollTop + anchors[side].getBoundingClientRect().top - target);
    });
  }

  function select(index, focus) {
    var li = byIndex[index];
    if (!li) { return; }
    items.forEach(function (other) { other.classList.toggle("selected", other === li); });
    all("mark.active, .gap.active").forEach(function (m) { m.classList.remove("active"); });
    all('mark[data-f~="' + index + '"], .gap[data-f="' + index + '"]').forEach(function (m) { m.classList.add("active"); });
    level(index);
    li.scrollIntoView({ block: "nearest" });
    if (focus) { li.focus({ preventScroll: true }); }
    if (history.replaceState) { history.replaceState(null, "", "#finding-" + index); }
  }

  function selected() { return list.querySelector("li.finding.selected"); }

  function step(delta) {
    var visible = all("li.finding:not([hidden])", list);
    var current = visible.indexOf(selected());
    var next = visible[current < 0 ? (delta > 0 ? 0 : visible.length - 1) : Math.max(0, Math.min(visible.length - 1, current + delta))];
    if (next) { select(next.getAttribute("data-i"), true); }
  }

  function typing(target) { return target.closest && target.closest("textarea, input, select, [contenteditable]"); }

  list.addEventListener("click", function (event) {
    if (event.target.closest("button, textarea, a, input")) { return; }
    var li = event.target.closest("li.finding");
    if (li) { select(li.getAttribute("data-i"), false); }
  });
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) { return; }
    if (typing(event.target)) {
      if (event.key === "Escape") { event.target.blur(); var li = selected(); if (li) { li.focus({ preventScroll: true }); } }
      return;
    }
    var li = event.target.closest && event.target.closest("li.finding");
    if (li && (event.key === "Enter" || event.key === " ")) { event.preventDefault(); select(li.getAttribute("data-i"), false); }
    else if (event.key === "ArrowDown" || event.key === "j") { event.preventDefault(); step(1); }
    else if (event.key === "ArrowUp" || event.key === "k") { event.preventDefault(); step(-1); }
    else if (event.key === "/" && search) { event.preventDefault(); search.focus(); }
  });
  Object.keys(docs).forEach(function (side) {
    if (!docs[side]) { return; }
    docs[side].addEventListener("click", function (event) {
      var mark = event.target.closest("mark.hl, .gap");
      if (mark) { select(mark.getAttribute("data-f").split(" ")[0], true); }
    });
  });
  boxes.forEach(function (box) { box.addEventListener("change", applyFilter); });
  [reasonSelect, statusSelect].forEach(function (s) { if (s) { s.addEventListener("change", applyFilter); } });
  if (search) { search.addEventListener("input", applyFilter); }
  if (sortSelect) { sortSelect.addEventListener("change", applySort); }

  var match = /^#finding-(\d+)$/.exec(location.hash);
  if (match) { select(match[1], false); }
  window.conflictkitSelect = select;
  window.conflictkitView = { select: select, selected: selected, step: step, refilter: applyFilter };
})();
