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
          document.getElementById("stage").textContent = state.stage + (state.total ? " " + state.done + "/" + state.total : "");
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

  // Results page: accept / dismiss / clear / annotate a finding; the server stores the decision.
  var results = document.querySelector("[data-comparison]");
  var list = document.getElementById("ck-findings");
  if (results && list) {
    var cid = results.getAttribute("data-comparison");
    list.addEventListener("click", function (event) {
      var button = event.target.closest("button[data-action]");
      if (!button) { return; }
      var li = button.closest("li.finding");
      var action = button.getAttribute("data-action");
      var data = action === "note" ? { note: li.querySelector("textarea").value }
        : { status: action === "clear" ? null : action };
      var saved = li.querySelector(".saved");
      saved.classList.remove("failed");
      saved.textContent = "saving…";
      postJSON("/api/comparisons/" + encodeURIComponent(cid) + "/decisions/" + encodeURIComponent(li.getAttribute("data-fid")), data)
        .then(function (decision) {
          li.setAttribute("data-status", decision.status || "");
          li.querySelector(".status").textContent = decision.status || "";
          saved.textContent = "saved";
        })
        .catch(function (error) { saved.classList.add("failed"); saved.textContent = "not saved: " + error.message; });
    });
  }
})();
