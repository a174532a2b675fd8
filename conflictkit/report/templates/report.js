/* conflictkit report view: filter, search, sort and select findings; both documents aligned clause by
   clause (a hatched gap where the other document has a clause this one lacks) and scrolled together;
   an overview beside them marks every finding by kind and severity; review decisions and notes.
   The page is complete without this script (it prints the same); this adds navigation and review.
   Review decisions are kept by a backend: this browser's storage in report.html (exportable as JSON,
   which `conflictkit serve` imports), the server in `conflictkit serve` (app.js supplies it). */
(function () {
  "use strict";
  var list = document.getElementById("ck-findings");
  if (!list) { return; }
  var $ = function (id) { return document.getElementById(id); };
  var all = function (selector, root) { return Array.prototype.slice.call((root || document).querySelectorAll(selector)); };
  var view = list.closest(".ck-view");
  var items = all("li.finding", list);
  var byIndex = {};
  items.forEach(function (li) { byIndex[li.getAttribute("data-i")] = li; });
  var boxes = all('.toolbar input[name="kind"]');
  var sortSelect = $("ck-sort"), reasonSelect = $("ck-reason"), statusSelect = $("ck-status"), search = $("ck-search");
  var severitySelect = $("ck-severity"), subjectSelect = $("ck-subject");
  var docs = { reference: $("doc-reference"), input: $("doc-input") };
  var SIDES = ["reference", "input"];
  // a comparison's kinds, and a playbook review's verdicts
  var KIND_ORDER = { deviation: 0, missing: 1, added: 2, moved: 3, "not-acceptable": 0, fallback: 2, standard: 3, absent: 4, uncovered: 5 };

  // -- filter and sort ----------------------------------------------------------------------------

  function matches(li) {
    var kindShown = boxes.every(function (box) { return box.checked || box.value !== li.getAttribute("data-kind"); });
    var severity = severitySelect ? severitySelect.value : "";
    var severityOk = !severity || +li.getAttribute("data-sev") <= +severity;
    var subject = subjectSelect ? subjectSelect.value : "";
    var subjectOk = !subject || li.getAttribute("data-subject") === subject;
    var reason = reasonSelect ? reasonSelect.value : "";
    var reasonOk = !reason || (" " + li.getAttribute("data-reasons") + " ").indexOf(" " + reason + " ") >= 0;
    var status = statusSelect ? statusSelect.value : "";
    var current = li.getAttribute("data-status") || "undecided";
    var statusOk = !status || status === current;
    var query = search ? search.value.trim().toLowerCase() : "";
    var note = li.querySelector("textarea");
    var text = query ? (li.textContent + " " + (note ? note.value : "")).toLowerCase() : "";
    var searchOk = !query || query.split(/\s+/).every(function (word) { return text.indexOf(word) >= 0; });
    return kindShown && severityOk && subjectOk && reasonOk && statusOk && searchOk;
  }

  function applyFilter() {
    var shown = 0;
    items.forEach(function (li) { li.hidden = !matches(li); if (!li.hidden) { shown += 1; } });
    var counter = $("ck-shown");
    if (counter) { counter.textContent = shown + " shown"; }
  }

  function applySort() {
    var mode = sortSelect ? sortSelect.value : "severity";
    var pos = function (li) { return +li.getAttribute("data-pos"); };
    var key = function (li) {
      if (mode === "p-desc") { return [-li.getAttribute("data-p"), pos(li)]; }
      if (mode === "p-asc") { return [+li.getAttribute("data-p"), pos(li)]; }
      if (mode === "listed") { return [+li.getAttribute("data-i")]; }
      if (mode === "kind") {
        var kind = li.getAttribute("data-kind");
        return [kind in KIND_ORDER ? KIND_ORDER[kind] : 9, pos(li)];
      }
      if (mode === "document") { return [pos(li)]; }
      return [+li.getAttribute("data-sev"), pos(li)];
    };
    items.slice().sort(function (a, b) {
      var ka = key(a), kb = key(b);
      for (var i = 0; i < ka.length; i += 1) { if (ka[i] !== kb[i]) { return ka[i] - kb[i]; } }
      return a.getAttribute("data-i") - b.getAttribute("data-i");
    }).forEach(function (li) { list.appendChild(li); });
  }

  // -- both documents aligned clause by clause ------------------------------------------------------
  // Matching paragraphs carry the same `span.sync[data-s]` in both documents. Each is brought level by
  // padding the block above the one that stands higher: the padding is the gap where the other document
  // has text this one lacks (a missing or added clause), drawn hatched. Then both documents have the
  // same height above every pair, and scrolling them by the same amount keeps every pair level.

  var BLOCKS = "p, li, h1, h2, h3, h4, h5, h6, pre, blockquote, td, th";
  var aligned = false;

  function contentTop(el, doc) {
    return el.getBoundingClientRect().top - doc.getBoundingClientRect().top + doc.scrollTop;
  }

  function padTarget(sync, doc) {
    var block = sync.closest(BLOCKS);
    if (!block || !doc.contains(block)) { return null; }
    if (block.matches("td, th")) { return block.parentNode; }  // a table row: every cell padded alike
    return block;
  }

  function setPad(target, px) {
    var cells = target.matches("tr") ? all("td, th", target) : [target];
    cells.forEach(function (el) {
      el.style.setProperty("--ck-gap", px + "px");
      el.classList.toggle("ck-gap", px > 0);
    });
    target.setAttribute("data-gap", px);
  }

  function clearPads() {
    all("[data-gap]").forEach(function (el) { setPad(el, 0); el.removeAttribute("data-gap"); });
    all(".ck-tail").forEach(function (el) { el.parentNode.removeChild(el); });
  }

  function syncPairs() {
    var found = {};
    SIDES.forEach(function (side) {
      all("span.sync", docs[side]).forEach(function (s) {
        var k = s.getAttribute("data-s");
        (found[k] = found[k] || {})[side] = s;
      });
    });
    return Object.keys(found).filter(function (k) { return found[k].reference && found[k].input; })
      .sort(function (a, b) { return a - b; }).map(function (k) { return found[k]; });
  }

  function alignPanes() {
    if (!docs.reference || !docs.input || !view.hasAttribute("data-aligned")) { return; }
    var tops = { reference: docs.reference.scrollTop, input: docs.input.scrollTop };
    clearPads();
    aligned = false;
    var side = function (d) { return d.getBoundingClientRect(); };
    if (Math.abs(side(docs.reference).top - side(docs.input).top) > side(docs.reference).height / 2) {
      drawOverview();  // one document above the other (a narrow window): nothing to bring level
      return;
    }
    var pairs = syncPairs();
    // Measured once per pass; a pad shifts everything below it by its height, so one pass places all pairs.
    // A second pass corrects what margins or tables made of the first.
    for (var pass = 0; pass < 3; pass += 1) {
      var shift = { reference: 0, input: 0 }, changed = false, pads = new Map();
      var ys = pairs.map(function (pair) {
        return { reference: contentTop(pair.reference, docs.reference), input: contentTop(pair.input, docs.input) };
      });
      pairs.forEach(function (pair, k) {
        var a = ys[k].reference + shift.reference, b = ys[k].input + shift.input;
        if (Math.abs(a - b) < 1) { return; }
        var side = a < b ? "reference" : "input", d = Math.abs(a - b);
        var target = padTarget(pair[side], docs[side]);
        if (!target) { return; }
        pads.set(target, (pads.has(target) ? pads.get(target) : (+target.getAttribute("data-gap") || 0)) + d);
        shift[side] += d;
        changed = true;
      });
      pads.forEach(function (px, target) { setPad(target, Math.round(px * 10) / 10); });
      if (!changed) { break; }
    }
    // The same height below the last pair too, so both documents scroll to their ends together.
    var heights = { reference: docs.reference.scrollHeight, input: docs.input.scrollHeight };
    var shorter = heights.reference < heights.input ? "reference" : "input";
    var diff = Math.abs(heights.reference - heights.input);
    if (diff >= 1) {
      var tail = document.createElement("div");
      tail.className = "ck-tail ck-gap";
      tail.style.setProperty("--ck-gap", diff + "px");
      tail.setAttribute("aria-hidden", "true");
      docs[shorter].appendChild(tail);
    }
    aligned = true;
    setTop("reference", tops.reference);
    setTop("input", tops.input);
    drawOverview();
  }

  // -- scrolling together ---------------------------------------------------------------------------
  // Aligned, the other document takes the same scroll position (less the difference of the panes' tops);
  // otherwise it moves by as much. Scrolls we cause are remembered so their events are not echoed back.
  var lastTop = {}, caused = {};
  function setTop(side, top) {
    var doc = docs[side];
    if (!doc) { return; }
    doc.scrollTop = top;
    caused[side] = doc.scrollTop;
    lastTop[side] = doc.scrollTop;
  }
  SIDES.forEach(function (side) {
    var doc = docs[side], other = side === "reference" ? "input" : "reference";
    if (!doc || !docs[other]) { return; }
    lastTop[side] = doc.scrollTop;
    doc.addEventListener("scroll", function () {
      drawViewport();
      if (caused[side] !== undefined && Math.abs(doc.scrollTop - caused[side]) < 1) { caused[side] = undefined; return; }
      caused[side] = undefined;
      var delta = doc.scrollTop - lastTop[side];
      lastTop[side] = doc.scrollTop;
      var together = $("ck-together");
      if (!delta || (together && !together.checked)) { return; }
      if (aligned) {
        var offset = docs[other].getBoundingClientRect().top - doc.getBoundingClientRect().top;
        setTop(other, doc.scrollTop + offset);
      } else {
        setTop(other, docs[other].scrollTop + delta);
      }
    }, { passive: true });
  });

  // -- the overview: every finding marked beside the documents, by kind and severity ------------------

  var overview = view.querySelector(".overview");
  function findingTop(index) {
    for (var s = 0; s < SIDES.length; s += 1) {
      var side = SIDES[s], doc = docs[side];
      var anchor = doc && doc.querySelector("#" + side + "-f" + index);
      if (anchor) { return { top: contentTop(anchor, doc), height: doc.scrollHeight }; }
    }
    return null;
  }

  function drawOverview() {
    if (!overview) { return; }
    overview.textContent = "";
    items.forEach(function (li) {
      var at = findingTop(li.getAttribute("data-i"));
      if (!at || !at.height) { return; }
      var mark = document.createElement("button");
      mark.type = "button";
      mark.className = "ov k-" + li.getAttribute("data-kind") + " s-" + (li.getAttribute("data-severity") || "none");
      mark.style.top = (100 * at.top / at.height).toFixed(3) + "%";
      mark.setAttribute("data-i", li.getAttribute("data-i"));
      var title = li.querySelector(".ftitle");
      mark.title = [li.getAttribute("data-fid"), li.getAttribute("data-severity"), li.getAttribute("data-kind"),
        title ? title.textContent : ""].filter(Boolean).join(" ");
      mark.hidden = li.hidden;
      overview.appendChild(mark);
    });
    var box = document.createElement("div");
    box.className = "ov-view";
    overview.appendChild(box);
    drawViewport();
  }

  function drawViewport() {
    var box = overview && overview.querySelector(".ov-view");
    var doc = docs.input || docs.reference;
    if (!box || !doc || !doc.scrollHeight) { return; }
    box.style.top = (100 * doc.scrollTop / doc.scrollHeight) + "%";
    box.style.height = (100 * doc.clientHeight / doc.scrollHeight) + "%";
  }

  if (overview) {
    overview.addEventListener("click", function (event) {
      var mark = event.target.closest("button.ov");
      if (mark) { select(mark.getAttribute("data-i"), true); }
    });
  }

  // -- selecting -----------------------------------------------------------------------------------

  // The two clauses of a finding at the same height, a third of the way down the reference pane.
  function level(index) {
    var anchors = {}, sides = [];
    SIDES.forEach(function (side) {
      var anchor = $(side + "-f" + index);
      if (anchor && docs[side]) { anchors[side] = anchor; sides.push(side); }
    });
    if (!sides.length) { return; }
    var first = docs[sides[0]].getBoundingClientRect();
    var target = first.top + docs[sides[0]].clientHeight / 3;
    sides.forEach(function (side) {
      setTop(side, docs[side].scrollTop + anchors[side].getBoundingClientRect().top - target);
    });
    if (sides.length === 1 && aligned) {  // a missing or added clause: the other document follows the alignment
      var other = sides[0] === "reference" ? "input" : "reference";
      if (docs[other]) {
        setTop(other, docs[sides[0]].scrollTop + docs[other].getBoundingClientRect().top - docs[sides[0]].getBoundingClientRect().top);
      }
    }
    drawViewport();
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

  // -- review: decisions and notes, kept by a backend ---------------------------------------------------

  var reviewMode = view.getAttribute("data-review");  // "local" (report.html), "server" (conflictkit serve), or none
  var storageKey = "conflictkit-review:" + (view.getAttribute("data-review-key") || "");

  function readLocal() {
    try { return JSON.parse(window.localStorage.getItem(storageKey) || "{}") || {}; } catch (e) { return {}; }
  }

  var localBackend = {
    save: function (fid, data) {
      return new Promise(function (resolve, reject) {
        var saved = readLocal();
        var current = saved[fid] || currentDecision(fid);
        var decision = {
          status: "status" in data ? data.status : current.status,
          note: "note" in data ? data.note : (current.note || ""),
          updated: Date.now() / 1000
        };
        saved[fid] = decision;
        try { window.localStorage.setItem(storageKey, JSON.stringify(saved)); } catch (e) {
          reject(new Error("this browser does not let the page save (" + e.name + "); export the review instead"));
          return;
        }
        resolve(decision);
      });
    }
  };

  function backend() {
    return reviewMode === "server" ? window.conflictkitReviewBackend : localBackend;
  }

  function liOf(fid) { return list.querySelector('li.finding[data-fid="' + CSS.escape(fid) + '"]'); }

  function currentDecision(fid) {
    var li = liOf(fid);
    var area = li && li.querySelector("textarea");
    return { status: (li && li.getAttribute("data-status")) || null, note: area ? area.value : "" };
  }

  function updateCount() {
    var counter = $("ck-reviewed");
    if (!counter) { return; }
    var done = list.querySelectorAll('li.finding[data-status="accepted"], li.finding[data-status="dismissed"]').length;
    counter.textContent = done + " of " + counter.getAttribute("data-total") + " reviewed";
  }

  function show(li, decision) {
    li.setAttribute("data-status", decision.status || "");
    li.querySelector(".status").textContent = decision.status || "";
    var area = li.querySelector("textarea");
    if (area && typeof decision.note === "string" && document.activeElement !== area) {
      area.value = decision.note;
      area.setAttribute("data-saved", decision.note);
    }
  }

  function send(li, data) {
    var saved = li.querySelector(".saved");
    var store = backend();
    if (!saved || !store) { return Promise.resolve(); }
    saved.classList.remove("failed");
    saved.textContent = "saving…";
    return store.save(li.getAttribute("data-fid"), data)
      .then(function (decision) {
        show(li, decision);
        saved.textContent = "saved";
        updateCount();
        applyFilter();
        return decision;
      })
      .catch(function (error) { saved.classList.add("failed"); saved.textContent = "not saved: " + error.message; throw error; });
  }

  function decide(li, action) { return send(li, { status: action === "clear" ? null : action }).catch(function () {}); }

  // A note is saved 400 ms after the last keystroke, and at once when the field is left or the page closed.
  var pending = new Map();
  function saveNote(li) {
    clearTimeout(pending.get(li));
    pending.delete(li);
    var area = li.querySelector("textarea");
    if (area.value === area.getAttribute("data-saved")) { return; }
    var value = area.value;
    send(li, { note: value }).then(function () { area.setAttribute("data-saved", value); }).catch(function () {});
  }

  function exportReview() {
    var findings = items.map(function (li) {
      var span = function (name) {
        var v = li.getAttribute(name);
        if (!v) { return null; }
        var parts = v.split(":");
        return { start: +parts[0], end: +parts[1] };
      };
      var area = li.querySelector("textarea");
      return {
        id: li.getAttribute("data-fid"), kind: li.getAttribute("data-kind"), severity: li.getAttribute("data-severity") || null,
        reference: span("data-ref-span"), input: span("data-inp-span"),
        review: { status: li.getAttribute("data-status") || null, note: area ? area.value : "",
                  updated: (readLocal()[li.getAttribute("data-fid")] || {}).updated || null }
      };
    });
    var doc = function (side) {
      return { path: view.getAttribute("data-" + side + "-path"), sha256: view.getAttribute("data-" + side + "-sha256") };
    };
    var data = {
      schema: "conflictkit.review/1",
      comparison: { reference_name: doc("reference").path, input_name: doc("input").path, exported_from: "report.html" },
      report: { reference: doc("reference"), input: doc("input"), findings: findings }
    };
    var blob = new Blob([JSON.stringify(data, null, 2) + "\n"], { type: "application/json" });
    var link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = "review-" + (view.getAttribute("data-review-key") || "report").slice(0, 12) + ".json";
    document.body.appendChild(link);
    link.click();
    setTimeout(function () { URL.revokeObjectURL(link.href); link.parentNode.removeChild(link); }, 0);
  }

  if (reviewMode) {
    if (reviewMode === "local") {
      var stored = readLocal();
      Object.keys(stored).forEach(function (fid) { var li = liOf(fid); if (li) { show(li, stored[fid]); } });
      updateCount();
      var exportButton = $("ck-export");
      if (exportButton) { exportButton.hidden = false; exportButton.addEventListener("click", exportReview); }
    }
    all("li.finding textarea", list).forEach(function (area) { area.setAttribute("data-saved", area.value); });
    list.addEventListener("input", function (event) {
      if (!event.target.matches("textarea")) { return; }
      var li = event.target.closest("li.finding");
      clearTimeout(pending.get(li));
      pending.set(li, setTimeout(function () { saveNote(li); }, 400));
    });
    list.addEventListener("focusout", function (event) {
      if (event.target.matches("textarea")) { saveNote(event.target.closest("li.finding")); }
    });
    window.addEventListener("pagehide", function () {
      pending.forEach(function (timer, li) {
        clearTimeout(timer);
        var store = backend();
        if (store) { store.save(li.getAttribute("data-fid"), { note: li.querySelector("textarea").value }, { leaving: true }); }
      });
    });
  }

  // -- events ---------------------------------------------------------------------------------------

  list.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-action]");
    if (button) { decide(button.closest("li.finding"), button.getAttribute("data-action")); return; }
    if (event.target.closest("button, textarea, a, input")) { return; }
    var li = event.target.closest("li.finding");
    if (li) { select(li.getAttribute("data-i"), false); }
  });
  var REVIEW_KEYS = { a: "accepted", d: "dismissed", u: "clear" };
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) { return; }
    if (typing(event.target)) {
      if (event.key === "Escape") { event.target.blur(); var li = selected(); if (li) { li.focus({ preventScroll: true }); } }
      return;
    }
    var current = event.target.closest && event.target.closest("li.finding");
    if (current && (event.key === "Enter" || event.key === " ")) { event.preventDefault(); select(current.getAttribute("data-i"), false); }
    else if (event.key === "ArrowDown" || event.key === "j") { event.preventDefault(); step(1); }
    else if (event.key === "ArrowUp" || event.key === "k") { event.preventDefault(); step(-1); }
    else if (event.key === "/" && search) { event.preventDefault(); search.focus(); }
    else if (reviewMode && selected() && REVIEW_KEYS[event.key]) { event.preventDefault(); decide(selected(), REVIEW_KEYS[event.key]); }
    else if (reviewMode && selected() && event.key === "n") { event.preventDefault(); selected().querySelector("textarea").focus(); }
  });
  SIDES.forEach(function (side) {
    if (!docs[side]) { return; }
    docs[side].addEventListener("click", function (event) {
      var mark = event.target.closest("mark.hl, .gap");
      if (mark) { select(mark.getAttribute("data-f").split(" ")[0], true); }
    });
  });
  var refilter = function () { applyFilter(); drawOverview(); };
  boxes.forEach(function (box) { box.addEventListener("change", refilter); });
  [reasonSelect, statusSelect, severitySelect, subjectSelect].forEach(function (s) { if (s) { s.addEventListener("change", refilter); } });
  if (search) { search.addEventListener("input", refilter); }
  if (sortSelect) { sortSelect.addEventListener("change", applySort); }

  alignPanes();
  var resizeTimer = null;
  window.addEventListener("resize", function () { clearTimeout(resizeTimer); resizeTimer = setTimeout(alignPanes, 150); });
  if (document.fonts && document.fonts.ready) { document.fonts.ready.then(alignPanes); }

  // Links into the report: #finding-3 (the third entry), #F0006 (a finding by its id, the same in every view),
  // #subject=payment (the findings of one clause subject: a portfolio's heat map links so).
  var hash = decodeURIComponent(location.hash.slice(1));
  var match = /^finding-(\d+)$/.exec(hash), byId = /^(F\d+)$/.exec(hash), bySubject = /^subject=([\w-]+)$/.exec(hash);
  if (match) { select(match[1], false); }
  else if (byId && liOf(byId[1])) { select(liOf(byId[1]).getAttribute("data-i"), false); }
  else if (bySubject && subjectSelect) {
    subjectSelect.value = bySubject[1];
    refilter();
    var first = list.querySelector("li.finding:not([hidden])");
    if (first) { select(first.getAttribute("data-i"), false); }
  }
  window.conflictkitSelect = select;
  window.conflictkitView = { select: select, selected: selected, step: step, refilter: refilter, realign: alignPanes,
                             send: send, show: show, updateCount: updateCount };
})();
