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
    }
  });
}());
