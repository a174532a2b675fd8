/* conflictkit serve: upload feedback, job progress polling and review decisions. No build step. */
(function () {
  "use strict";

  function postJSON(url, data) {
    return fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json" }, body: JSON.stringify(data)
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (body) {
        if (!response.ok) { throw new Error(body.error || ("HTTP " + response.status)); }
        return body;
      });
    });
  }

  // Upload: refuse an oversized file before sending it (the server checks again), show we are busy.
  var form = document.querySelector("form.upload");
  if (form) {
    form.addEventListener("submit", function (event) {
      var max = +form.getAttribute("data-max-bytes");
      var total = 0;
      Array.prototype.forEach.call(form.querySelectorAll('input[type="file"]'), function (input) {
        Array.prototype.forEach.call(input.files, function (file) { total += file.size; });
      });
      if (max && total > max) {
        event.preventDefault();
        var error = document.getElementById("error") || form.insertBefore(document.createElement("p"), form.firstChild);
        error.id = "error"; error.className = "error"; error.setAttribute("role", "alert");
        error.textContent = "upload too large: " + (total / 1e6).toFixed(1) + " MB, the limit is " + (max / 1e6) + " MB";
        return;
      }
      form.querySelector("button[type=submit]").disabled = true;
      form.querySelector(".busy").hidden = false;
    });
  }

  // Job page: poll until the comparison is stored (then open it) or has failed (then say why).
  var job = document.querySelector("[data-job]");
  if (job && job.getAttribute("data-state") !== "failed") {
    var id = job.getAttribute("data-job");
    var poll = function () {
      fetch("/api/jobs/" + encodeURIComponent(id), { credentials: "same-origin" })
        .then(function (r) { return r.json(); })
        .then(function (state) {
          if (state.state === "done") { location.replace("/comparisons/" + encodeURIComponent(state.comparison)); return; }
          if (state.state === "failed" || state.error) {
            var error = document.getElementById("error");
            error.textContent = state.error || "the comparison failed";
            error.hidden = false;
            var p = document.getElementById("progress");
            if (p) { p.parentNode.hidden = true; }
            document.title = "Comparison failed · conflictkit";
            return;
          }
          // The step as the engine names it ("load ...", "embed", "judge"), its count, and the time so far.
          var elapsed = Math.max(0, Math.round(Date.now() / 1000 - state.started));
          document.getElementById("stage").textContent = state.stage + (state.total > 1 ? " " + state.done + "/" + state.total : "")
            + " · " + elapsed + " s";
          var bar = document.getElementById("progress");
          if (state.total) { bar.max = state.total; bar.value = state.done; } else { bar.removeAttribute("value"); }
          setTimeout(poll, 300);
        })
        .catch(function () { setTimeout(poll, 1000); });
    };
    poll();
  }

  // Batch page: poll every document's state; a finished one becomes a link to its review.
  var batch = document.querySelector("[data-batch]");
  if (batch) {
    var bid = batch.getAttribute("data-batch");
    var pollBatch = function () {
      fetch("/api/batches/" + encodeURIComponent(bid), { credentials: "same-origin" })
        .then(function (r) { return r.json(); })
        .then(function (state) {
          var done = 0, open = 0;
          state.jobs.forEach(function (j) {
            var row = batch.querySelector('[data-job-row="' + j.id + '"]');
            if (!row) { return; }
            if (j.state === "done") {
              done += 1;
              if (!row.cells[0].querySelector("a")) {
                var a = document.createElement("a");
                a.href = "/comparisons/" + encodeURIComponent(j.comparison);
                a.textContent = j.input_name;
                row.cells[0].textContent = ""; row.cells[0].appendChild(a);
              }
            } else if (j.state !== "failed") { open += 1; }
            row.cells[1].textContent = j.state === "failed" ? "failed: " + j.error
              : j.state === "running" ? j.stage + (j.total ? " " + j.done + "/" + j.total : "") : j.state;
          });
          document.getElementById("batch-count").textContent = done + " of " + state.jobs.length + " compared";
          if (open) { setTimeout(pollBatch, 500); }
        })
        .catch(function () { setTimeout(pollBatch, 1000); });
    };
    pollBatch();
  }

  // Results page: accept / dismiss / clear a finding (buttons or keys a, d, u), notes saved as you
  // type (n focuses the note); the server stores each decision, the reviewed count follows.
  var results = document.querySelector("[data-comparison]");
  var list = document.getElementById("ck-findings");
  if (results && list) {
    var cid = results.getAttribute("data-comparison");
    var decisionUrl = function (li) {
      return "/api/comparisons/" + encodeURIComponent(cid) + "/decisions/" + encodeURIComponent(li.getAttribute("data-fid"));
    };
    var updateCount = function () {
      var counter = document.getElementById("ck-reviewed");
      if (!counter) { return; }
      var done = list.querySelectorAll('li.finding[data-status="accepted"], li.finding[data-status="dismissed"]').length;
      counter.textContent = done + " of " + counter.getAttribute("data-total") + " reviewed";
    };
    var send = function (li, data) {
      var saved = li.querySelector(".saved");
      saved.classList.remove("failed");
      saved.textContent = "saving…";
      return postJSON(decisionUrl(li), data)
        .then(function (decision) {
          li.setAttribute("data-status", decision.status || "");
          li.querySelector(".status").textContent = decision.status || "";
          saved.textContent = "saved";
          updateCount();
          if (window.conflictkitView) { window.conflictkitView.refilter(); }
        })
        .catch(function (error) { saved.classList.add("failed"); saved.textContent = "not saved: " + error.message; });
    };
    var decide = function (li, action) { return send(li, { status: action === "clear" ? null : action }); };

    // A note is saved 400 ms after the last keystroke, and at once when the field is left or the page closed.
    var pending = new Map();
    var saveNote = function (li) {
      clearTimeout(pending.get(li));
      pending.delete(li);
      var area = li.querySelector("textarea");
      if (area.value === area.getAttribute("data-saved")) { return; }
      var value = area.value;
      send(li, { note: value }).then(function () { area.setAttribute("data-saved", value); });
    };
    Array.prototype.forEach.call(list.querySelectorAll("li.finding textarea"), function (area) {
      area.setAttribute("data-saved", area.value);
    });
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
        var area = li.querySelector("textarea");
        // sendBeacon cannot set a JSON content type; fetch keepalive can, and outlives the page.
        fetch(decisionUrl(li), { method: "POST", keepalive: true, credentials: "same-origin",
          headers: { "Content-Type": "application/json" }, body: JSON.stringify({ note: area.value }) });
      });
    });

    list.addEventListener("click", function (event) {
      var button = event.target.closest("button[data-action]");
      if (button) { decide(button.closest("li.finding"), button.getAttribute("data-action")); }
    });
    var KEYS = { a: "accepted", d: "dismissed", u: "clear" };
    document.addEventListener("keydown", function (event) {
      if (event.ctrlKey || event.metaKey || event.altKey) { return; }
      if (event.target.closest && event.target.closest("textarea, input, select")) { return; }
      var li = window.conflictkitView && window.conflictkitView.selected();
      if (!li) { return; }
      if (KEYS[event.key]) { event.preventDefault(); decide(li, KEYS[event.key]); }
      else if (event.key === "n") { event.preventDefault(); li.querySelector("textarea").focus(); }
    });
  }

  // Start page: rename or delete a past comparison.
  var past = document.querySelector("table.past");
  if (past) {
    past.addEventListener("click", function (event) {
      var button = event.target.closest("button[data-manage]");
      if (!button) { return; }
      var row = button.closest("tr[data-cid]");
      var url = "/api/comparisons/" + encodeURIComponent(row.getAttribute("data-cid"));
      var error = row.querySelector(".row-error");
      var fail = function (e) { error.textContent = e.message; error.hidden = false; };
      if (button.getAttribute("data-manage") === "rename") {
        var link = row.querySelector("a.title");
        var name = window.prompt("New name for this comparison", link.textContent);
        if (name === null || !name.trim()) { return; }
        postJSON(url, { name: name.trim() }).then(function (body) { link.textContent = body.name; }).catch(fail);
      } else if (window.confirm("Delete this comparison and its review? This cannot be undone.")) {
        fetch(url, { method: "DELETE", credentials: "same-origin" }).then(function (response) {
          if (!response.ok) { throw new Error("not deleted (HTTP " + response.status + ")"); }
          row.parentNode.removeChild(row);
        }).catch(fail);
      }
    });
  }
})();
