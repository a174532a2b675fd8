/* conflictkit serve: upload feedback, job progress polling, the review's server backend and import. No build step. */
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

  // Upload: files dropped on a field go into it; an oversized upload is refused and the chosen configuration is
  // checked (a preset needing a key this server lacks) before any file is sent; the server checks both again.
  var form = document.querySelector("form.upload");
  if (form) {
    var say = function (message) {
      var error = document.getElementById("error") || form.insertBefore(document.createElement("p"), form.firstChild);
      error.id = "error"; error.className = "error"; error.setAttribute("role", "alert");
      error.textContent = message;
      error.hidden = false;
    };
    Array.prototype.forEach.call(form.querySelectorAll("label.drop"), function (zone) {
      var input = zone.querySelector('input[type="file"]');
      ["dragenter", "dragover"].forEach(function (name) {
        zone.addEventListener(name, function (event) { event.preventDefault(); zone.classList.add("over"); });
      });
      ["dragleave", "drop"].forEach(function (name) {
        zone.addEventListener(name, function () { zone.classList.remove("over"); });
      });
      zone.addEventListener("drop", function (event) {
        event.preventDefault();
        var files = event.dataTransfer && event.dataTransfer.files;
        if (!files || !files.length) { return; }
        if (!input.multiple && files.length > 1) { say("drop one reference document, not " + files.length + " files"); return; }
        input.files = files;
        input.dispatchEvent(new Event("change", { bubbles: true }));
      });
    });
    var checked = false;
    form.addEventListener("submit", function (event) {
      if (checked) { return; }  // checked just now: this is the real submission
      event.preventDefault();
      var max = +form.getAttribute("data-max-bytes");
      var total = 0;
      Array.prototype.forEach.call(form.querySelectorAll('input[type="file"]'), function (input) {
        Array.prototype.forEach.call(input.files, function (file) { total += file.size; });
      });
      if (max && total > max) {
        say("upload too large: " + (total / 1e6).toFixed(1) + " MB, the limit is " + (max / 1e6) + " MB");
        return;
      }
      var button = form.querySelector("button[type=submit]"), busy = form.querySelector(".busy");
      button.disabled = true;
      busy.textContent = "Checking the configuration…";
      busy.hidden = false;
      var key = form.querySelector('select[name="config"]').value;
      fetch("/api/config-check?key=" + encodeURIComponent(key), { credentials: "same-origin" })
        .then(function (r) { return r.json(); })
        .then(function (answer) {
          if (!answer.ok) { throw new Error(answer.error); }
          busy.textContent = "Uploading…";
          checked = true;
          form.submit();
        })
        .catch(function (error) {
          say(error.message);
          button.disabled = false;
          busy.hidden = true;
        });
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
            var heading = document.querySelector("header.top h1");
            if (heading) { heading.textContent = "Comparison failed"; }
            document.title = "Comparison failed · conflictkit";
            return;
          }
          // The step as the engine names it ("load ...", "embed", "judge"), its count, the time so far and, once
          // the step has counted some work, the time it has left.
          var elapsed = Math.max(0, Math.round(Date.now() / 1000 - state.started));
          document.getElementById("stage").textContent = state.stage + (state.total > 1 ? " " + state.done + "/" + state.total : "")
            + " · " + elapsed + " s" + (state.eta !== null && state.eta !== undefined ? " · about " + Math.ceil(state.eta) + " s left" : "");
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
              : j.state === "running" ? j.stage + (j.total > 1 ? " " + j.done + "/" + j.total : "")
                + (j.eta !== null && j.eta !== undefined ? " · about " + Math.ceil(j.eta) + " s left" : "") : j.state;
          });
          document.getElementById("batch-count").textContent = done + " of " + state.jobs.length + " compared";
          // A document finished: the portfolio below is drawn by the server, so the page is drawn again.
          var finished = state.jobs.filter(function (j) { return j.state === "done" || j.state === "failed"; }).length;
          if (finished !== +batch.getAttribute("data-finished")) { location.reload(); return; }
          if (open) { setTimeout(pollBatch, 500); }
        })
        .catch(function () { setTimeout(pollBatch, 1000); });
    };
    pollBatch();
  }

  // Results page: the review view (report.js) keeps decisions and notes here, on the server; a review
  // exported from a report.html (kept in that browser) or from another server is imported as a file.
  var results = document.querySelector("[data-comparison]");
  if (results) {
    var cid = results.getAttribute("data-comparison");
    var base = "/api/comparisons/" + encodeURIComponent(cid);
    window.conflictkitReviewBackend = {
      save: function (fid, data, how) {
        var url = base + "/decisions/" + encodeURIComponent(fid);
        if (how && how.leaving) {
          // sendBeacon cannot set a JSON content type; fetch keepalive can, and outlives the page.
          return fetch(url, { method: "POST", keepalive: true, credentials: "same-origin",
            headers: { "Content-Type": "application/json" }, body: JSON.stringify(data) });
        }
        return postJSON(url, data);
      }
    };
    var importer = document.getElementById("ck-import");
    if (importer) {
      importer.addEventListener("change", function () {
        var file = importer.files[0];
        var said = document.getElementById("ck-import-result");
        if (!file) { return; }
        said.className = "";
        said.textContent = "importing…";
        file.text().then(function (text) {
          var data;
          try { data = JSON.parse(text); } catch (e) { throw new Error(file.name + " is not JSON: " + e.message); }
          return postJSON(base + "/review", data);
        }).then(function (outcome) {
          said.textContent = outcome.message;
          var view = window.conflictkitView;
          Object.keys(outcome.decisions || {}).forEach(function (fid) {
            var li = document.querySelector('li.finding[data-fid="' + CSS.escape(fid) + '"]');
            if (li && view) { view.show(li, outcome.decisions[fid]); }
          });
          if (view) { view.updateCount(); view.refilter(); }
        }).catch(function (error) {
          said.className = "error";
          said.textContent = "not imported: " + error.message;
        }).then(function () { importer.value = ""; });
      });
    }
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
