// The annotate page's panel of offered public rules (psan/rules/offer_views.py): words persons keep deciding
// public, each with the mentions a confirmation would decide now.  Keyboard: "o" moves the focus to the first
// offer's "Confirm" button, Tab / Shift+Tab between the buttons, Enter or Space answers, Esc goes back to the
// text.  Text is set with textContent only.
(function () {
  "use strict";
  var panel = document.getElementById("offers-panel");
  if (!panel) { return; }
  var list = document.getElementById("offers-list");
  var message = document.getElementById("offers-message");
  var API = panel.getAttribute("data-api");
  var csrf = (document.querySelector("meta[name=csrf-token]") || {}).content || "";
  var projectId = null;
  var lastUndo = null;

  function tr(name, values) {
    var s = panel.getAttribute("data-t-" + name) || name;
    return s.replace(/%\((\w+)\)s/g, function (all, key) {
      return values && Object.prototype.hasOwnProperty.call(values, key) ? String(values[key]) : all;
    });
  }

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) { node.className = cls; }
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  function button(label, cls, handler) {
    var b = el("button", "btn btn-sm " + cls, label);
    b.type = "button";
    b.addEventListener("click", handler);
    return b;
  }

  function show(data) {
    list.replaceChildren();
    (data.offers || []).forEach(function (offer) {
      var item = el("li", "border rounded p-2 mb-2 offer");
      item.setAttribute("data-form", offer.form);
      item.appendChild(el("strong", "d-block", offer.form));
      item.appendChild(el("span", "text-muted d-block", tr("evidence", {
        public: offer.public_decisions, documents: offer.documents, undecided: offer.undecided_mentions})));
      if (offer.mentions.length) {
        var mentions = el("ul", "mb-1 ps-3");
        offer.mentions.forEach(function (m) {
          var li = el("li");
          li.appendChild(document.createTextNode("… " + m.before + " "));
          li.appendChild(el("mark", "", m.text));
          li.appendChild(document.createTextNode(" " + m.after + " …"));
          mentions.appendChild(li);
        });
        item.appendChild(mentions);
      }
      var row = el("div", "d-flex gap-2");
      row.appendChild(button(tr("confirm"), "btn-success offer-confirm", function () { answer("confirm", offer.form); }));
      row.appendChild(button(tr("dismiss"), "btn-outline-secondary offer-dismiss",
        function () { answer("dismiss", offer.form); }));
      item.appendChild(row);
      list.appendChild(item);
    });
    var any = (data.offers || []).length > 0 || lastUndo !== null;
    panel.classList.toggle("d-none", !any);
  }

  function load() {
    if (projectId === null) { return Promise.resolve(); }
    return fetch(API + projectId, {credentials: "same-origin", headers: {"Accept": "application/json"}})
      .then(function (r) { return r.ok ? r.json() : {offers: []}; }, function () { return {offers: []}; })
      .then(show);
  }

  function say(text, undoForm) {
    message.replaceChildren(document.createTextNode(text + " "));
    lastUndo = undoForm;
    if (undoForm) {
      message.appendChild(button(tr("undo"), "btn-link p-0 align-baseline offer-undo", function () {
        answer("undo", undoForm);
      }));
    }
  }

  function answer(kind, form) {
    return fetch(API + projectId + "/" + kind, {
      method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json", "Accept": "application/json", "X-CSRFToken": csrf},
      body: JSON.stringify({form: form})
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (data) { return {ok: r.ok, data: data}; });
    }, function () { return {ok: false, data: {}}; }).then(function (result) {
      if (!result.ok) {
        say(result.data.error || tr("error"), null);
        return load();
      }
      say(result.data.message || "", kind === "undo" ? null : form);
      show(result.data);
      var next = list.querySelector(".offer-confirm");
      (next || message.querySelector(".offer-undo") || panel).focus();
      return null;
    });
  }

  // asked once per window (a decision inside the window answers the window again: no new request then)
  var windowKey = null;
  document.addEventListener("psan:window", function (event) {
    var id = event.detail && event.detail.project_id;
    var key = event.detail && event.detail.key;
    if (id !== projectId) { lastUndo = null; message.replaceChildren(); }
    if (id === projectId && key === windowKey) { return; }
    projectId = id;
    windowKey = key;
    load();
  });

  // "o" (outside inputs and dialogs): to the offers; inside the panel, letters do not reach the text's keys
  document.addEventListener("keydown", function (event) {
    if (event.key !== "o" || event.ctrlKey || event.metaKey || event.altKey) { return; }
    var target = event.target;
    if (target && /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName)) { return; }
    if (document.querySelector(".ann-overlay:not(.d-none)") || panel.classList.contains("d-none")) { return; }
    event.preventDefault();
    (list.querySelector(".offer-confirm") || panel).focus();
  });
  panel.addEventListener("keydown", function (event) {
    if (event.key === "Escape") {
      event.stopPropagation();
      var text = document.getElementById("ann-text");
      if (text) { text.focus(); }
      return;
    }
    if (event.key.length === 1 && event.key !== " ") { event.stopPropagation(); }
  });
})();
