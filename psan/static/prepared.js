// A download prepared in the background (psan/documents/background.py): poll its stage until the file is ready.
(function () {
  "use strict";
  var box = document.getElementById("prepared");
  if (!box) { return; }
  var stage = document.getElementById("prepared-stage");
  var error = document.getElementById("prepared-error");
  var file = document.getElementById("prepared-file");
  var bar = document.getElementById("prepared-bar");
  function poll() {
    fetch(box.getAttribute("data-status-url"), {credentials: "same-origin", headers: {"Accept": "application/json"}})
      .then(function (r) { return r.json(); })
      .then(function (s) {
        stage.textContent = box.getAttribute("data-msg-seconds").replace("{stage}", String(s.stage_name))
          .replace("{seconds}", String(s.seconds)) + (s.total ? " · " + box.getAttribute("data-msg-documents")
          .replace("{done}", String(s.done)).replace("{total}", String(s.total)) : "");
        if (s.total && s.status === "RUNNING") {  // documents done of total: a determinate bar
          bar.classList.remove("w-100");
          bar.style.width = String(Math.round(100 * s.done / s.total)) + "%";
        }
        if (s.status === "DONE") {
          bar.classList.remove("progress-bar-animated");
          bar.style.width = "100%";
          file.classList.remove("d-none");
          return;
        }
        if (s.status === "FAILED") {
          bar.classList.remove("progress-bar-animated");
          bar.classList.add("bg-danger");
          error.textContent = box.getAttribute("data-msg-failed") + " " + String(s.error);
          error.classList.remove("d-none");
          return;
        }
        window.setTimeout(poll, 2000);
      }, function () { window.setTimeout(poll, 5000); });
  }
  poll();
}());
