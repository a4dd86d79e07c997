// Keyboard for the workspace pages (search, home, adjudication): no inline code (strict CSP).
(function () {
  "use strict";
  function typing(e) {
    var t = e.target;
    return t && (t.tagName === "INPUT" && t.type !== "checkbox" || t.tagName === "TEXTAREA" || t.tagName === "SELECT");
  }
  var rows = Array.prototype.slice.call(document.querySelectorAll(".kwic-row, .home-row, .span-row"));
  var current = -1;
  function focusRow(i) {
    if (!rows.length) { return; }
    current = Math.max(0, Math.min(rows.length - 1, i));
    rows[current].focus();
    var marks = document.querySelectorAll("mark.adj-span");
    marks.forEach(function (m) { m.classList.toggle("adj-focus", m.dataset.span === String(current)); });
  }
  function pick(value) {
    if (current < 0 || !value) { return; }
    var radio = rows[current].querySelector("input[type=radio][value=" + value + "]");
    if (radio) { radio.checked = true; }
  }
  // a form of span rows (the second annotation) starts on its first row, so the first p or s is not lost
  if (rows.length && document.getElementById("second-spans")) { focusRow(0); }
  var all = document.getElementById("select-all");
  if (all) {
    all.addEventListener("change", function () {
      document.querySelectorAll(".kwic-check").forEach(function (c) { c.checked = all.checked; });
    });
  }
  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey) { return; }
    if (e.key === "/" && !typing(e)) {
      var q = document.getElementById("q");
      if (q) { e.preventDefault(); q.focus(); q.select(); }
      return;
    }
    if (typing(e)) {
      if (e.key === "Escape") { e.target.blur(); }
      return;
    }
    if (e.key === "j") { focusRow(current + 1); }
    else if (e.key === "k") { focusRow(current - 1); }
    else if (e.key === "p") { pick("PUBLIC"); }
    else if (e.key === "s") { pick("PRIVATE"); }
    else if ((e.key === "1" || e.key === "2") && current >= 0) {
      pick(e.key === "1" ? rows[current].dataset.first : rows[current].dataset.second);
    }
    else if (e.key === "u" && document.getElementById("bulk-undo")) { document.getElementById("bulk-undo").click(); }
    else if (e.key === "c" && document.getElementById("continue-link")) { document.getElementById("continue-link").click(); }
    else if ((e.key === "x" || e.key === " ") && current >= 0) {
      var box = rows[current].querySelector("input[type=checkbox]");
      if (box) { e.preventDefault(); box.checked = !box.checked; }
    } else if (e.key === "a" && all) { all.checked = !all.checked; all.dispatchEvent(new Event("change")); }
    else if (e.key === "Enter" && current >= 0) {
      var link = rows[current].querySelector("a, button");
      if (link) { e.preventDefault(); link.click(); }
    }
  });
})();
