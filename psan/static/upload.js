// Upload page: refuse a paste longer than MAX_DOCUMENT_CHARS (or files over MAX_CONTENT_LENGTH) before
// sending, so the pasted text stays in the form instead of being lost with a "too large" answer.
(function () {
  "use strict";
  var limits = document.getElementById("upload-limits");
  var refused = document.getElementById("upload-refused");
  var text = document.querySelector("textarea[name=text]");
  if (!limits || !refused || !text || !text.form) { return; }
  var maxChars = parseInt(limits.getAttribute("data-max-chars"), 10);
  var maxBytes = parseInt(limits.getAttribute("data-max-bytes"), 10);
  text.form.addEventListener("submit", function (event) {
    var message = "";
    var chars = Array.from(text.value.replace(/\r\n/g, "\n")).length;
    if (chars > maxChars) {
      message = limits.getAttribute("data-too-long").replace("{count}", String(chars)).replace("{max}", String(maxChars));
    }
    var files = text.form.querySelector("input[type=file]");
    var bytes = chars * 4;
    if (files && files.files) {
      Array.prototype.forEach.call(files.files, function (f) { bytes += f.size; });
    }
    if (!message && files && files.files && bytes > maxBytes) { message = limits.getAttribute("data-too-large"); }
    if (message) {
      event.preventDefault();
      refused.textContent = message;
      refused.classList.remove("d-none");
      refused.scrollIntoView();
      return;
    }
    if (sending) { event.preventDefault(); return; }  // a second click would upload the files twice
    sending = true;
    showProgress();
  });

  // while the request runs the page would otherwise sit still for seconds: say that it works and for how long
  var progress = document.getElementById("upload-progress");
  var sending = false;
  function showProgress() {
    if (!progress) { return; }
    refused.classList.add("d-none");
    var out = progress.querySelector(".upload-progress-text");
    var started = Date.now();
    var tick = function () {
      var seconds = Math.floor((Date.now() - started) / 1000);
      out.textContent = progress.getAttribute("data-sending").replace("{seconds}", String(seconds));
    };
    tick();
    progress.classList.remove("d-none");
    window.setInterval(tick, 1000);
    Array.prototype.forEach.call(text.form.querySelectorAll("[type=submit]"), function (b) {
      b.classList.add("disabled");
      b.setAttribute("aria-disabled", "true");
    });
  }
}());
