// Annotation window (psan/templates/annotate/index.html).  CSP: no inline code, no inline styles.
// Every piece of document text, label name or rule condition reaches the DOM through textContent
// or createTextNode, never innerHTML.  Decisions go through fetch() without page reloads.
"use strict";
(function () {
  var root = document.getElementById("annotate");
  if (!root) { return; }
  var API = root.getAttribute("data-api");
  var LABELS_API = root.getAttribute("data-labels-api");
  var CSRF = (document.querySelector('meta[name="csrf-token"]') || {}).content || "";
  // translations {english: text} from a JSON data block of the template (never executed: CSP-safe)
  var MESSAGES = {};
  try { MESSAGES = JSON.parse((document.getElementById("annotate-messages") || {}).textContent || "{}") || {}; }
  catch (e) { MESSAGES = {}; }
  // t("tokens %(first)s of %(count)s", {first: 1, count: 9}): the translation, or the English text
  function t(text, values) {
    var s = Object.prototype.hasOwnProperty.call(MESSAGES, text) ? String(MESSAGES[text]) : String(text);
    return s.replace(/%\((\w+)\)s/g, function (all, key) {
      return values && Object.prototype.hasOwnProperty.call(values, key) ? String(values[key]) : all;
    });
  }
  function byId(id) { return document.getElementById(id); }
  var els = {
    text: byId("ann-text"), message: byId("ann-message"), where: byId("ann-where"), status: byId("ann-status"),
    selection: byId("ann-selection"), detail: byId("ann-detail"), mode: byId("ann-mode"), widen: byId("ann-widen"),
    labelDialog: byId("ann-label-dialog"), labelForm: byId("ann-label-form"), labelName: byId("ann-label-name"),
    labelList: byId("ann-label-list"), labelCategory: byId("ann-label-category"),
    labelAlways: byId("ann-label-always"), labelCancel: byId("ann-label-cancel"), labelSpan: byId("ann-label-span"),
    help: byId("ann-help"), helpButton: byId("ann-help-button"), helpClose: byId("ann-help-close"),
    history: byId("ann-history")
  };
  var state = {data: null, sel: null, byAnnotation: true, labels: [], busy: false, detailId: null, cover: {},
    mergeFrom: null};

  // --- server ------------------------------------------------------------------------------------------
  function request(method, path, body) {
    var options = {method: method, credentials: "same-origin", headers: {"Accept": "application/json"}};
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.headers["X-CSRFToken"] = CSRF;
      options.body = JSON.stringify(body);
    }
    return fetch(path, options).then(function (response) {
      return response.json().catch(function () { return {error: t("unexpected answer")}; }).then(function (data) {
        return {ok: response.ok, status: response.status, data: data};
      });
    }, function () { return {ok: false, status: 0, data: {error: t("network error")}}; });
  }

  // a decision's id: a retry after a lost answer (network, restart) carries it, and the server does not
  // decide twice (psan/store/annotation/decision_requests.py)
  function newRequestId() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  function save(path, body) {
    body.request_id = newRequestId();
    var attempts = 0;
    function attempt() {
      return request("POST", API + path, body).then(function (result) {
        var lost = result.status === 0 || result.status === 502 || result.status === 503 || result.status === 504;
        if (!lost || attempts >= 2) { return result; }
        attempts += 1;
        return new Promise(function (resolve) { window.setTimeout(resolve, 1500 * attempts); }).then(attempt);
      });
    }
    return attempt();
  }

  function showMessage(text, kind) {
    els.message.className = "alert py-2 alert-" + (kind || "info");
    els.message.textContent = String(text);
    if (!text) { els.message.classList.add("d-none"); }
  }

  function accept(result, keepSelection) {
    if (result.status === 401) { window.location.reload(); return false; }
    if (!result.ok) { showMessage(result.data.error ? t(result.data.error) : t("error %(status)s", {status: result.status}), "warning"); return false; }
    var previous = state.sel;
    state.data = result.data;
    render();
    if (!state.data.window) { return true; }
    // the offered public rules of the window's project (public_offers.js)
    document.dispatchEvent(new CustomEvent("psan:window", {detail: {project_id: state.data.window.project_id,
      key: [state.data.window.document_id, state.data.window.first_token, state.data.window.end_token].join(":")}}));
    if (keepSelection && previous && inWindow(previous.first, previous.end)) {
      select(previous.first, previous.end);
    } else {
      selectNextUndecided(state.data.window.first_token - 1, 1) || selectAt(state.data.window.first_token);
    }
    return true;
  }

  // --- rendering ---------------------------------------------------------------------------------------
  function decisionClass(a) {
    if (a.decision === "PUBLIC") { return "dec-public"; }
    if (a.decision === "PRIVATE") { return a.has_label ? "dec-private-label" : "dec-private-nolabel"; }
    // the app's suggestion for an undecided span ("a" accepts the window's remaining suggestions)
    if (a.suggestion === "PRIVATE") { return "dec-suspicious sugg-private"; }
    if (a.suggestion === "PUBLIC") { return "dec-suspicious sugg-public"; }
    return "dec-suspicious";
  }

  function layers() {
    // greedy interval colouring: longer (outer) spans first, each on the lowest free level
    var anns = state.data.annotations.slice().sort(function (a, b) {
      return a.first_token - b.first_token || b.end_token - a.end_token;
    });
    var levelEnds = [];
    var cover = {};
    anns.forEach(function (a) {
      var level = 0;
      while (level < levelEnds.length && levelEnds[level] > a.first_token) { level += 1; }
      levelEnds[level] = a.end_token;
      for (var i = a.first_token; i < a.end_token; i += 1) {
        (cover[i] = cover[i] || [])[level] = a;
      }
    });
    return cover;
  }

  function wrap(text, annsByLevel) {
    var node = document.createTextNode(text);
    (annsByLevel || []).forEach(function (a, level) {
      if (!a) { return; }
      var span = document.createElement("span");
      span.className = "ann lvl-" + Math.min(level, 3) + " " + decisionClass(a);
      span.setAttribute("data-ann", String(a.id));
      span.appendChild(node);
      node = span;
    });
    return node;
  }

  function routingMessage(data) {
    // a reading window (review by risk): say why this text is read in full
    var r = data && data.window && data.routing;
    if (!r || !r.why) { return ""; }
    return t("Read this text in full and mark any personal data nobody marked. Shown because: %(why)s",
      {why: r.why.map(String).join("; ")});
  }

  function render() {
    var data = state.data;
    els.text.replaceChildren();
    els.detail.replaceChildren();
    state.detailId = null;
    if (!data || !data.window) {
      els.where.textContent = "";
      els.status.textContent = "";
      els.selection.textContent = "";
      showMessage(t((data && data.message) || "Nothing to annotate."), "info");
      return;
    }
    setIsolated(els.where, [{user: data.project.name}, " · ", {user: data.document.name}, " · " +
      t("tokens %(first)s–%(end)s", {first: data.window.first_token, end: data.window.end_token})]);
    els.status.textContent = data.document.status_name || t(data.document.status);
    els.status.setAttribute("data-status", String(data.document.status));
    els.widen.classList.toggle("d-none", !data.window.can_widen);
    els.mode.textContent = t(state.byAnnotation ? "selecting annotations (m: tokens)" : "selecting tokens (m: annotations)");
    state.cover = layers();
    var fragment = document.createDocumentFragment();
    var say = t;  // "t" is the token below
    data.tokens.forEach(function (t, pos) {
      var span = document.createElement("span");
      span.className = "tok";
      span.setAttribute("data-i", String(t.i));
      span.appendChild(wrap(t.text, state.cover[t.i]));
      fragment.appendChild(span);
      if (t.after) {
        var next = data.tokens[pos + 1];
        var shared = [];
        (state.cover[t.i] || []).forEach(function (a, level) {
          if (a && next && a.end_token > next.i) { shared[level] = a; }
        });
        var gap = document.createElement("span");
        gap.className = "gap";
        gap.setAttribute("data-after", String(t.i));
        gap.appendChild(wrap(t.after, shared));
        fragment.appendChild(gap);
      }
      var following = data.tokens[pos + 1];
      if (following && following.i > t.i + 1) {  // the elided middle of an over-long span (data.elided)
        var elided = document.createElement("span");
        elided.className = "elided text-muted";
        elided.textContent = say("[… %(count)s tokens not shown …]", {count: following.i - t.i - 1});
        fragment.appendChild(elided);
      }
    });
    els.text.appendChild(fragment);
    if (data.routing) { showMessage(routingMessage(data), "info"); }
  }

  // --- selection ---------------------------------------------------------------------------------------
  function inWindow(first, end) {
    var w = state.data && state.data.window;
    return !!w && w.first_token <= first && first < end && end <= w.end_token;
  }

  function annotationFor(first, end) {
    var found = null;
    (state.data ? state.data.annotations : []).forEach(function (a) {
      if (a.first_token === first && a.end_token === end) { found = a; }
    });
    return found;
  }

  function outermostAt(i) {
    var best = null;
    (state.cover[i] || []).forEach(function (a) {
      if (a && (!best || a.end_token - a.first_token > best.end_token - best.first_token)) { best = a; }
    });
    return best;
  }

  function tokenText(first, end) {
    var parts = [];
    state.data.tokens.forEach(function (t) {
      if (t.i >= first && t.i < end) { parts.push(t.text + (t.i < end - 1 ? t.after : "")); }
    });
    return parts.join("");
  }

  function select(first, end) {
    if (!inWindow(first, end)) { return false; }
    state.sel = {first: first, end: end};
    els.text.querySelectorAll(".sel").forEach(function (n) { n.classList.remove("sel"); });
    var firstNode = null;
    for (var i = first; i < end; i += 1) {
      var tok = els.text.querySelector('.tok[data-i="' + i + '"]');
      if (tok) { tok.classList.add("sel"); firstNode = firstNode || tok; }
      if (i < end - 1) {
        var gap = els.text.querySelector('.gap[data-after="' + i + '"]');
        if (gap) { gap.classList.add("sel"); }
      }
    }
    var a = annotationFor(first, end);
    var pieces = ["“", {user: tokenText(first, end)}, "”"];
    if (a) {
      pieces.push(" — " + t(a.decision).toLowerCase());
      if (a.label) { pieces.push(" (", {user: a.label}, ")"); }
    }
    if (a && a.decision === "SUSPICIOUS" && a.suggestion) {
      pieces.push(" · " + t("suggested: %(decision)s", {decision: t(a.suggestion).toLowerCase()}));
    }
    setIsolated(els.selection, pieces);
    if (firstNode && firstNode.scrollIntoView) { firstNode.scrollIntoView({block: "nearest"}); }
    loadDetail(a);
    return true;
  }

  function selectAt(i) {
    var a = state.byAnnotation ? outermostAt(i) : null;
    return a ? select(a.first_token, a.end_token) : select(i, i + 1);
  }

  // A click reaches every span at the token: an undecided one first (innermost first: a suspicious span
  // nested in a private one must be reachable, or its document never gets done), then the others, outermost
  // first; a click on the selected span's token goes on to the next span there.
  function clickAt(i) {
    if (!state.byAnnotation) { return select(i, i + 1); }
    var covering = (state.cover[i] || []).filter(function (a) { return !!a; });
    if (!covering.length) { return select(i, i + 1); }
    var size = function (a) { return a.end_token - a.first_token; };
    covering.sort(function (a, b) {
      var sa = a.decision === "SUSPICIOUS" ? 0 : 1;
      var sb = b.decision === "SUSPICIOUS" ? 0 : 1;
      if (sa !== sb) { return sa - sb; }
      return sa === 0 ? size(a) - size(b) : size(b) - size(a);
    });
    var k = 0;
    if (state.sel) {
      covering.forEach(function (a, j) {
        if (a.first_token === state.sel.first && a.end_token === state.sel.end) { k = (j + 1) % covering.length; }
      });
    }
    return select(covering[k].first_token, covering[k].end_token);
  }

  function selectNextUndecided(from, direction) {
    var anns = state.data.annotations.filter(function (a) { return a.decision === "SUSPICIOUS"; });
    if (direction < 0) { anns.reverse(); }
    for (var k = 0; k < anns.length; k += 1) {
      var a = anns[k];
      if ((direction > 0 && a.first_token > from) || (direction < 0 && a.first_token < from)) {
        return select(a.first_token, a.end_token);
      }
    }
    return false;
  }

  // Text with user parts (names, labels, document text) each in its own <bdi>, so a right-to-left
  // override or similar inside one cannot reorder the text around it.  Strings are psan's own text.
  function setIsolated(el, pieces) {
    el.replaceChildren();
    pieces.forEach(function (piece) {
      if (typeof piece === "string") { el.appendChild(document.createTextNode(piece)); return; }
      var b = document.createElement("bdi");
      b.textContent = piece.user === null || piece.user === undefined ? "" : String(piece.user);
      el.appendChild(b);
    });
  }

  // --- detail ------------------------------------------------------------------------------------------
  function cell(row, text, header) {
    var c = document.createElement(header ? "th" : "td");
    c.textContent = text === null || text === undefined ? "" : String(text);
    row.appendChild(c);
  }

  function table(headers, rows) {
    var t = document.createElement("table");
    t.className = "table table-sm";
    var head = t.createTHead().insertRow();
    headers.forEach(function (h) { cell(head, h, true); });
    var body = t.createTBody();
    rows.forEach(function (r) {
      var row = body.insertRow();
      r.forEach(function (v) { cell(row, v); });
    });
    return t;
  }

  function loadDetail(a) {
    if (!a) { els.detail.replaceChildren(); state.detailId = null; return; }
    if (state.detailId === a.id) { return; }
    state.detailId = a.id;
    request("GET", API + "annotation/" + encodeURIComponent(a.id)).then(function (result) {
      if (state.detailId !== a.id) { return; }
      els.detail.replaceChildren();
      if (!result.ok) { els.detail.textContent = t(result.data.error || "unavailable"); return; }
      var d = result.data;
      var p = document.createElement("p");
      p.className = "mb-1";
      var parts = [t("Decision: %(decision)s", {decision: t(d.decision)})];
      if (d.label) { parts.push(" · " + t("label %(label)s", {label: ""}).trim() + " ", {user: d.label}); }
      parts.push(" · " + t("rule level %(level)s", {level: d.rule_level}));
      var neNames = d.ne_type_names || d.ne_types;  // words ("country, city or state"), never the bare codes
      if (neNames.length) { parts.push(" · " + t("entity %(types)s", {types: neNames.join(", ")})); }
      // special categories (GDPR art. 9): the topic, already translated by the server
      if (d.topics && d.topics.length) { parts.push(" · " + t("special category: %(topics)s", {topics: d.topics.join(", ")})); }
      setIsolated(p, parts);
      els.detail.appendChild(p);
      if (d.entity) { els.detail.appendChild(entityBox(d.entity)); }
      var seen = {};
      var rows = [];
      d.rules.forEach(function (r) {
        // the project model's rule: "model, p = 0.93" (its probability for this span)
        var reason = (typeof r.model_score === "number") ? t("model, p = %(p)s", {p: r.model_score.toFixed(2)})
          : (r.reason || (t(r.lookup ? "lookup" : r.type) + ": " + r.condition));
        var vote = t("%(vote)s (weight %(weight)s)", {vote: r.vote_name || r.vote, weight: r.confidence});
        var row = [reason, vote, r.author || ""];
        var key = row.join("\u0000");
        if (!seen[key]) { seen[key] = true; rows.push(row); }  // the same reason twice is said once
      });
      if (d.token_decision) {
        rows.unshift([t("token decision") + (d.token_decision.label ? " · " + d.token_decision.label : ""),
          d.token_decision.decision_name || t(d.token_decision.decision), d.token_decision.author]);
      }
      els.detail.appendChild(table([t("Reason"), t("Vote"), t("Author")], rows));
      if (d.history.length) {
        els.detail.appendChild(table([t("History"), t("Decision"), t("By")], d.history.map(function (h) {
          return [(h.action_name || t(h.action)) + (h.label ? " · " + h.label : ""),
            h.decision_name || (h.decision ? t(h.decision) : ""), h.author];
        })));
      }
    });
  }

  // --- entities (psan/store/annotation/entities.py): see, split off, merge ---------------------------------------------
  function entityBox(e) {
    var box = document.createElement("p");
    box.className = "mb-1";
    var text = document.createElement("span");
    text.textContent = t("Entity: %(category)s · mentions in this window: %(mentions)s",
      {category: e.category, mentions: e.mentions}) +
      (e.label ? " · " + t("label %(label)s", {label: e.label.name}) : "");
    box.appendChild(text);
    function button(label, handler) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "btn btn-sm btn-outline-secondary ms-2";
      b.textContent = label;
      b.addEventListener("click", handler);
      box.appendChild(b);
    }
    var span = {document_id: state.data.window.document_id, first_token: e.first_token, end_token: e.end_token};
    button(t("Split off"), function () { entityAction("entity/split", span, t("Entity split.")); });
    var from = state.mergeFrom;
    if (from && from.document_id === span.document_id &&
        (from.first_token !== span.first_token || from.end_token !== span.end_token)) {
      button(t("Merge with the remembered entity"), function () {
        state.mergeFrom = null;
        entityAction("entity/merge", {document_id: span.document_id, first_token: from.first_token,
          end_token: from.end_token, other_first_token: span.first_token, other_end_token: span.end_token},
          t("Entities merged."));
      });
    } else {
      button(t("Remember for merging"), function () {
        state.mergeFrom = span;
        showMessage(t("Select a span of the other entity and merge it from its detail."), "info");
      });
    }
    return box;
  }

  function entityAction(path, body, done) {
    request("POST", API + path, body).then(function (result) {
      if (result.status === 401) { window.location.reload(); return; }
      if (!result.ok) { showMessage(t(result.data.error || "unavailable"), "warning"); return; }
      showMessage(done, "info");
      var a = state.sel && annotationFor(state.sel.first, state.sel.end);
      state.detailId = null;
      loadDetail(a);
    });
  }

  // --- actions -----------------------------------------------------------------------------------------
  function spanPayload() {
    return {document_id: state.data.window.document_id, first_token: state.sel.first, end_token: state.sel.end};
  }

  function afterDecision(result, decision, scope) {
    if (!accept(result, true)) { return; }
    var done = state.data.document && state.data.document.status === "DONE";
    var kept = scope === "entity" && result.data.kept_private;
    showMessage(done ? t("Document finished: nothing suspicious is left. Press w for the next window.")
      : kept ? t("Every mention of the entity decided, except %(count)s that you had decided private: they stay private.",
                 {count: kept})
      : t(scope === "entity" ? "Every mention of the entity decided." : "Saved."), done ? "success" : "info");
    var a = state.sel && annotationFor(state.sel.first, state.sel.end);
    // the label dialog opens by itself only when the project asks for labels (otherwise e opens it),
    // or when nothing recognized overlaps the span and no label has a category: ask (else it is [OTHER])
    var askLabels = state.data.project && state.data.project.ask_labels;
    if (result.data.category_needed) {
      showMessage(t("Nothing recognized here: choose a category for this span."), "warning");
    }
    if ((askLabels || result.data.category_needed) && decision === "PRIVATE" && scope !== "ne_type" && scope !== "entity" && a && !a.has_label) {
      openLabelDialog();
    }
  }

  function decide(decision, scope) {
    if (!state.sel || !state.data || !state.data.window || state.busy) { return; }
    state.busy = true;
    var body = spanPayload();
    body.decision = decision;
    body.scope = scope;
    save("decide", body).then(function (result) {
      state.busy = false;
      afterDecision(result, decision, scope);
      if (result.ok) { refreshHistory(); }
    });
  }

  function acceptSuggestions() {
    if (!state.data || !state.data.window || state.busy) { return; }
    state.busy = true;
    save("accept", {document_id: state.data.window.document_id}).then(function (result) {
      state.busy = false;
      if (!accept(result, false)) { return; }
      var done = state.data.document && state.data.document.status === "DONE";
      showMessage(t(done ? "Document finished: nothing suspicious is left. Press w for the next window."
        : "Suggestions accepted."), done ? "success" : "info");
      refreshHistory();
    });
  }

  // --- undo and the annotator's own history (POST undo, GET history) --------------------------------------
  function showHistory(actions) {
    if (!els.history) { return; }
    els.history.replaceChildren();
    if (!actions.length) {
      var none = document.createElement("li");
      none.className = "text-muted";
      none.textContent = t("Nothing yet.");
      els.history.appendChild(none);
    }
    actions.forEach(function (a) {
      var li = document.createElement("li");
      li.className = "mb-1";
      var what = document.createElement("span");
      var kind = a.kind_name || t(a.kind);
      var decision = a.decision_name || (a.decision ? t(a.decision) : "");
      var counts = {kind: kind, decision: decision, spans: a.spans, rules: a.rules};
      what.textContent = a.spans === null ? kind + " " + decision  // an entity: no counts
        : a.rules ? t("%(kind)s %(decision)s · %(spans)s span(s), %(rules)s rule(s)", counts)
          : t("%(kind)s %(decision)s · %(spans)s span(s)", counts);  // s and a make no rule: none is mentioned
      if (a.undone) { what.className = "text-decoration-line-through text-muted"; }
      li.appendChild(what);
      if (a.undone) {
        li.appendChild(document.createTextNode(" (" + t("undone") + ")"));
      } else {
        var button = document.createElement("button");
        button.type = "button";
        button.className = "btn btn-link btn-sm py-0";
        button.setAttribute("data-undo", String(a.id));
        button.textContent = t("Undo");
        button.addEventListener("click", function () { undo(a.id); });
        li.appendChild(button);
      }
      els.history.appendChild(li);
    });
  }

  function refreshHistory() {
    request("GET", API + "history?limit=20").then(function (result) {
      if (result.ok) { showHistory(result.data.actions || []); }
    });
  }

  function undo(actionId) {
    if (state.busy) { return; }
    state.busy = true;
    request("POST", API + "undo", actionId ? {action_id: actionId} : {}).then(function (result) {
      state.busy = false;
      if (!accept(result, true)) { return; }
      showMessage(t("Undone."), "info");
      showHistory(result.data.history || []);
    });
  }

  function nextWindow() {
    if (state.busy) { return; }
    state.busy = true;
    request("POST", API + "next", {}).then(function (result) {
      state.busy = false;
      if (accept(result, false)) {
        showMessage(state.data.window ? routingMessage(state.data) : t(state.data.message || ""), "info");
      }
    });
  }

  function widen() {
    var w = state.data && state.data.window;
    if (!w || !w.can_widen) { return; }
    var size = Math.min(20000, (w.end_token - w.first_token) * 2);
    request("POST", API + "open", {document_id: w.document_id, start: w.first_token, size: size}).then(function (r) {
      accept(r, true);
    });
  }

  // --- label dialog ------------------------------------------------------------------------------------
  function openLabelDialog() {
    if (!state.sel || !state.data || !state.data.window) { return; }
    els.labelSpan.textContent = "“" + tokenText(state.sel.first, state.sel.end) + "”";
    var a = annotationFor(state.sel.first, state.sel.end);
    els.labelName.value = a && a.label ? a.label : "";
    els.labelAlways.checked = false;
    els.labelDialog.classList.remove("d-none");
    els.labelName.focus();
    if (!els.labelName.value) {  // propose the label the span's entity already has elsewhere
      var sel = state.sel;
      request("GET", API + "entity?" + new URLSearchParams({document_id: state.data.window.document_id,
        first_token: sel.first, end_token: sel.end}).toString()).then(function (result) {
        var e = result.ok && result.data.entity;
        if (e && e.label && state.sel === sel && !els.labelName.value) { els.labelName.value = String(e.label.name); }
      });
    }
    request("GET", LABELS_API + encodeURIComponent(state.data.project.id)).then(function (result) {
      if (!result.ok) { return; }
      state.labels = result.data.labels || [];
      els.labelList.replaceChildren();
      state.labels.forEach(function (l) {
        var option = document.createElement("option");
        option.value = String(l.name);
        els.labelList.appendChild(option);
      });
    });
  }

  function closeOverlays() {
    els.labelDialog.classList.add("d-none");
    els.help.classList.add("d-none");
    els.helpButton.setAttribute("aria-expanded", "false");
    els.text.focus();
  }

  els.labelForm.addEventListener("submit", function (event) {
    event.preventDefault();
    var name = els.labelName.value.trim();
    if (!name || !state.sel) { return; }
    var body = spanPayload();
    var existing = state.labels.filter(function (l) { return l.name === name; })[0];
    if (existing) { body.label_id = existing.id; } else {
      body.label_name = name;
      if (els.labelCategory.value) { body.label_category = els.labelCategory.value; }
    }
    body.always = els.labelAlways.checked;
    save("label", body).then(function (result) {
      if (accept(result, true)) {
        closeOverlays();
        showMessage(t("Label saved."), "info");
        refreshHistory();
      }
    });
  });
  els.labelCancel.addEventListener("click", closeOverlays);

  function toggleHelp() {
    var hidden = els.help.classList.toggle("d-none");
    els.helpButton.setAttribute("aria-expanded", hidden ? "false" : "true");
    if (!hidden) { els.helpClose.focus(); } else { els.text.focus(); }
  }
  els.helpButton.addEventListener("click", toggleHelp);
  els.helpClose.addEventListener("click", closeOverlays);

  // --- mouse -------------------------------------------------------------------------------------------
  els.text.addEventListener("click", function (event) {
    var tok = event.target.closest ? event.target.closest(".tok") : null;
    if (!tok || !state.data || !state.data.window) { return; }
    var i = Number(tok.getAttribute("data-i"));
    if (event.shiftKey && state.sel) {
      select(Math.min(state.sel.first, i), Math.max(state.sel.end, i + 1));
    } else {
      clickAt(i);
    }
    els.text.focus();
  });

  root.querySelectorAll("[data-action]").forEach(function (button) {
    button.addEventListener("click", function () {
      var action = button.getAttribute("data-action");
      var actions = {
        "token-private": function () { decide("PRIVATE", "token"); },
        "token-public": function () { decide("PUBLIC", "token"); },
        "type-private": function () { decide("PRIVATE", "word_type"); },
        "type-public": function () { decide("PUBLIC", "word_type"); },
        "ne-private": function () { decide("PRIVATE", "ne_type"); },
        "ne-public": function () { decide("PUBLIC", "ne_type"); },
        "entity-private": function () { decide("PRIVATE", "entity"); },
        "entity-public": function () { decide("PUBLIC", "entity"); },
        "label": openLabelDialog, "next": nextWindow, "widen": widen, "accept": acceptSuggestions,
        "undo": function () { undo(null); }
      };
      if (actions[action]) { actions[action](); }
    });
  });

  // --- keyboard (thesis Table 4.1) -----------------------------------------------------------------------
  var keys = {
    "h": function (s) { return s.first - 1 >= 0 && selectAt(s.first - 1); },
    "l": function (s) { return selectAt(s.end); },
    "H": function (s) { return select(s.first - 1, s.end); },
    "L": function (s) { return select(s.first, s.end + 1); },
    "J": function (s) { return s.end - s.first > 1 && select(s.first + 1, s.end); },
    "K": function (s) { return s.end - s.first > 1 && select(s.first, s.end - 1); },
    "n": function (s) { return selectNextUndecided(s.first, 1); },
    "N": function (s) { return selectNextUndecided(s.first, -1); },
    "s": function () { decide("PRIVATE", "token"); },
    "p": function () { decide("PUBLIC", "token"); },
    "S": function () { decide("PRIVATE", "word_type"); },
    "P": function () { decide("PUBLIC", "word_type"); },
    "c": function () { decide("PRIVATE", "ne_type"); },
    "C": function () { decide("PUBLIC", "ne_type"); },
    "x": function () { decide("PRIVATE", "entity"); },
    "X": function () { decide("PUBLIC", "entity"); },
    "a": function () { acceptSuggestions(); },
    "u": function () { undo(null); },
    "e": function () { openLabelDialog(); },
    "w": function () { nextWindow(); },
    "m": function (s) { state.byAnnotation = !state.byAnnotation; render(); select(s.first, s.end); }
  };

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) { return; }
    if (event.key === "Escape") { closeOverlays(); return; }
    var overlayOpen = !els.labelDialog.classList.contains("d-none") || !els.help.classList.contains("d-none");
    var target = event.target;
    if (target && /^(INPUT|SELECT|TEXTAREA|BUTTON)$/.test(target.tagName) && overlayOpen) { return; }
    if (target && /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName)) { return; }
    if (event.key === "?") { event.preventDefault(); toggleHelp(); return; }
    if (overlayOpen) { return; }
    var action = keys[event.key];
    if (!action || !state.data || !state.data.window) { return; }
    event.preventDefault();
    if (!state.sel) { selectAt(state.data.window.first_token); }
    action(state.sel);
  });

  // --- start -------------------------------------------------------------------------------------------
  var openDocument = root.getAttribute("data-open-document");
  var start = openDocument
    ? request("POST", API + "open", {
      document_id: Number(openDocument), start: Number(root.getAttribute("data-open-start")) || 0,
      size: Number(root.getAttribute("data-open-size")) || undefined,
      exact: root.getAttribute("data-open-exact") === "1" || undefined})
    : request("GET", API + "window");
  start.then(function (result) { accept(result, false); els.text.focus(); refreshHistory(); });
})();
