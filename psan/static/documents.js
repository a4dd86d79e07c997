// Live status of the documents list: polls the JSON endpoint and updates status, progress and errors.
// Every value is written with textContent (never innerHTML), so document names and errors stay text.
(function () {
  "use strict";
  var table = document.getElementById("documents");
  if (!table) { return; }
  var url = table.getAttribute("data-status-url");
  var timer = null;

  document.querySelectorAll("form.doc-delete").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      if (!window.confirm(form.getAttribute("data-confirm"))) { event.preventDefault(); }
    });
  });

  function update(doc) {
    var row = table.querySelector('tr[data-document-id="' + String(Number(doc.id)) + '"]');
    if (!row) { return false; }
    var status = row.querySelector(".doc-status");
    status.textContent = doc.status_word || doc.status_name || doc.status;
    status.setAttribute("data-status", String(doc.status));
    row.querySelector(".doc-error").textContent = doc.error || "";
    row.querySelector(".doc-progress").textContent = String(doc.progress) + " %";
    row.querySelector(".doc-tokens").textContent = String(doc.tokens);
    var retry = row.querySelector(".doc-retry");
    if (retry) { retry.classList.toggle("d-none", !doc.retryable); }
    return true;
  }

  function poll() {
    fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (data) {
        if (!data) { return; }
        var busy = false;
        data.documents.forEach(function (doc) {
          update(doc);
          if (doc.busy) { busy = true; }
        });
        timer = window.setTimeout(poll, busy ? 2000 : 10000);
      })
      .catch(function () { timer = window.setTimeout(poll, 15000); });
  }
  timer = window.setTimeout(poll, 1000);
})();
