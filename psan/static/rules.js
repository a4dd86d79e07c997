// Rules page enhancements (CSP: no inline scripts).  Without JavaScript the forms post normally.
// Strings from the server are only ever inserted with textContent.
"use strict";
(function () {
  // translated status texts come from data-msg-* attributes of the rules table
  var texts = document.querySelector("[data-msg-saved]");
  function text(name, fallback) {
    return (texts && texts.getAttribute("data-msg-" + name)) || fallback;
  }

  function csrfToken(form) {
    var input = form.querySelector('input[name="csrf_token"]');
    return input ? input.value : "";
  }

  document.querySelectorAll("form[data-confirm]").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      if (!window.confirm(form.getAttribute("data-confirm"))) {
        event.preventDefault();
      }
    });
  });

  document.querySelectorAll("form.js-confidence").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var status = form.querySelector(".js-status");
      status.textContent = "…";
      fetch(form.action, {
        method: "POST",
        credentials: "same-origin",
        headers: {"X-CSRFToken": csrfToken(form), "Accept": "application/json"},
        body: new FormData(form)
      }).then(function (response) {
        return response.json().then(function (data) { return {ok: response.ok, data: data}; });
      }).then(function (result) {
        if (!result.ok) {
          status.textContent = String(result.data.error || text("error", "error"));
          return;
        }
        var cell = document.querySelector('[data-decision-of="' + String(Number(result.data.id)) + '"]');
        if (cell) { cell.textContent = String(result.data.decision_name || result.data.decision); }
        status.textContent = text("saved", "saved");
      }).catch(function () {
        status.textContent = text("network-error", "network error");
      });
    });
  });
})();
