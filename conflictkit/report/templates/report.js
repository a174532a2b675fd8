/* conflictkit report view: filter, sort and select findings; scroll both documents to a selection.
   The page is complete without this script (it prints the same); this only adds navigation. */
(function () {
  "use strict";
  var list = document.getElementById("ck-findings");
  if (!list) { return; }
  var items = Array.prototype.slice.call(list.querySelectorAll("li.finding"));
  var byIndex = {};
  items.forEach(function (li) { byIndex[li.getAttribute("data-i")] = li; });
  var sortSelect = document.getElementById("ck-sort");
  var boxes = Array.prototype.slice.call(document.querySelectorAll('.toolbar input[name="kind"]'));

  function applyFilter() {
    var shown = {};
    boxes.forEach(function (box) { shown[box.value] = box.checked; });
    items.forEach(function (li) { li.hidden = shown[li.getAttribute("data-kind")] === false; });
  }

  function applySort() {
    var mode = sortSelect ? sortSelect.value : "p-desc";
    var sorted = items.slice().sort(function (a, b) {
      var ia = +a.getAttribute("data-i"), ib = +b.getAttribute("data-i");
      if (mode === "order") { return ia - ib; }
      var d = +b.getAttribute("data-p") - +a.getAttribute("data-p");
      if (mode === "p-asc") { d = -d; }
      return d || ia - ib;
    });
    sorted.forEach(function (li) { list.appendChild(li); });
  }

  function select(index, focus) {
    var li = byIndex[index];
    if (!li) { return; }
    items.forEach(function (other) { other.classList.toggle("selected", other === li); });
    Array.prototype.forEach.call(document.querySelectorAll("mark.active"), function (m) { m.classList.remove("active"); });
    Array.prototype.forEach.call(document.querySelectorAll('mark[data-f~="' + index + '"]'), function (m) { m.classList.add("active"); });
    ["reference", "input"].forEach(function (side) {
      var anchor = document.getElementById(side + "-f" + index);
      if (anchor) { anchor.scrollIntoView({ block: "center", inline: "nearest" }); }
    });
    li.scrollIntoView({ block: "nearest" });
    if (focus) { li.focus({ preventScroll: true }); }
    if (history.replaceState) { history.replaceState(null, "", "#finding-" + index); }
  }

  function step(delta) {
    var visible = Array.prototype.slice.call(list.querySelectorAll("li.finding:not([hidden])"));
    var current = visible.indexOf(list.querySelector("li.selected"));
    var next = visible[Math.max(0, Math.min(visible.length - 1, current + delta))];
    if (next) { select(next.getAttribute("data-i"), true); }
  }

  list.addEventListener("click", function (event) {
    if (event.target.closest("button, textarea, a, input")) { return; }
    var li = event.target.closest("li.finding");
    if (li) { select(li.getAttribute("data-i"), false); }
  });
  list.addEventListener("keydown", function (event) {
    if (event.target.closest("textarea, input, button")) { return; }
    var li = event.target.closest("li.finding");
    if (li && (event.key === "Enter" || event.key === " ")) { event.preventDefault(); select(li.getAttribute("data-i"), false); }
    if (event.key === "ArrowDown" || event.key === "j") { event.preventDefault(); step(1); }
    if (event.key === "ArrowUp" || event.key === "k") { event.preventDefault(); step(-1); }
  });
  Array.prototype.forEach.call(document.querySelectorAll(".doc"), function (doc) {
    doc.addEventListener("click", function (event) {
      var mark = event.target.closest("mark.hl");
      if (mark) { select(mark.getAttribute("data-f").split(" ")[0], true); }
    });
  });
  boxes.forEach(function (box) { box.addEventListener("change", applyFilter); });
  if (sortSelect) { sortSelect.addEventListener("change", applySort); }

  var match = /^#finding-(\d+)$/.exec(location.hash);
  if (match) { select(match[1], false); }
  window.conflictkitSelect = select;
})();
