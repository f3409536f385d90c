// logcodec docs: the decode page. generated/docs/decode.js is a copy of generator/docs/templates/docs_decode.js.
// It sends the input to POST /api/decode of `logcodec docs` and shows the answer: the value as a
// tree, the bytes as an annotated hex view, and the error with its offset and path. A format that
// reads a second input (an Inkless object and its metadata, a client's requests and the broker's
// responses) gets a second box, and its findings (where the two inputs disagree, frames that do not
// read) are listed, marked in the tree and in the hex view.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const COLOURS = 8, ROW_H = 22, PER_ROW = 16, SHOW = 100;
  const state = {maxBytes: 1 << 20, maxBody: 3 << 20, online: false, bytes: null, ranges: {}, owner: null,
                 leaves: [], sel: null, err: null, consumed: 0, nodes: new Map(), texts: {},
                 needs: new Map(), marks: new Set(), flagged: new Map(), above: new Set(), labels: {},
                 params: new Map()};

  function status(text, cls) { const s = $("status"); s.textContent = text; s.className = "status " + (cls || ""); }
  function hex2(b) { return (b < 16 ? "0" : "") + b.toString(16); }
  function toHex(bytes) { const parts = []; for (let i = 0; i < bytes.length; i++) parts.push(hex2(bytes[i])); return parts.join(""); }
  function plural(n, w) { return n.toLocaleString("en") + " " + w + (n === 1 ? "" : "s"); }

  // ------------------------------------------------------------------ input

  function textToBytes(text, how) {
    let t = text.replace(/\s+/g, "");
    if (how === "hex" || (how === "auto" && /^(0x)?[0-9a-fA-F]*$/.test(t))) {
      if (t.slice(0, 2).toLowerCase() === "0x") t = t.slice(2);
      if (!/^[0-9a-fA-F]*$/.test(t) || t.length % 2) return null;
      const out = new Uint8Array(t.length / 2);
      for (let i = 0; i < out.length; i++) out[i] = parseInt(t.substr(2 * i, 2), 16);
      return out;
    }
    try {
      t = t.replace(/-/g, "+").replace(/_/g, "/");
      const bin = atob(t + "=".repeat((4 - t.length % 4) % 4));
      const out = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
      return out;
    } catch (e) { return null; }
  }

  function requestBody() {
    const text = $("input").value, how = $("encoding").value;
    const body = {format: $("format").value, stream: $("stream").checked};
    const t = text.replace(/\s+/g, "");
    if (how === "hex" || (how === "auto" && /^(0x)?[0-9a-fA-F]*$/.test(t))) body.hex = text; else body.base64 = text;
    const need = currentNeed(), second = secondInput();
    if (need && second) body[need.key] = second;
    const params = paramValues();
    if (params) body.params = params;
    return body;
  }

  // The root params the picked format needs (a response's API), as the boxes hold them.
  function paramValues() {
    const names = state.params.get($("format").value);
    if (!names || !names.length) return null;
    const out = {};
    for (const n of names) {
      const v = $("param-" + n).value.trim();
      if (v !== "") out[n] = /^-?\d+$/.test(v) ? Number(v) : v === "true" || v === "false" ? v === "true" : v;
    }
    return out;
  }

  // A box per param of the picked format; hidden when it needs none. Values typed stay.
  function updateParams() {
    const names = state.params.get($("format").value) || [], row = $("params-row"), holder = $("params");
    row.hidden = !names.length;
    for (const n of names) {
      if ($("param-" + n)) continue;
      const label = document.createElement("label"), input = document.createElement("input");
      input.id = "param-" + n; input.name = n; input.size = 6; input.inputMode = "numeric";
      label.append(n + " ", input); holder.appendChild(label);
    }
    for (const label of holder.children) label.hidden = !names.includes(label.firstElementChild.name);
  }

  // The second input a format needs (the one picked, or with "detect" any that needs one), or null.
  function currentNeed() {
    const f = $("format").value;
    if (f === "auto") return state.needs.size ? state.needs.values().next().value : null;
    return state.needs.get(f) || null;
  }

  function secondInput() {
    const text = $("second").value, how = $("second-encoding").value, t = text.replace(/\s+/g, "");
    if ($("second-box").hidden || !t) return null;
    if (how === "hex" || (how === "auto" && /^(0x)?[0-9a-fA-F]+$/.test(t))) return {hex: text};
    // Text (YAML or JSON) has a colon or a bracket; base64 has neither.
    if (how === "base64" || (how === "auto" && /^[A-Za-z0-9+/_-]+=*$/.test(t) && !/[:{[]/.test(text))) return {base64: text};
    return {text: text};
  }

  // The second box: open for a format that needs it, closed (optional) with "detect", else hidden.
  function updateSecond() {
    const need = currentNeed(), box = $("second-box"), auto = $("format").value === "auto";
    box.hidden = !need;
    $("stream").disabled = !!need && !auto;
    if (!need) return;
    $("second-label").textContent = need.label;
    $("second-help").textContent = auto ? "(optional: given, the input is read as " + need.format + ")" : ": " + need.help;
    if (!auto) box.open = true;
  }

  async function decode() {
    if (!state.online) { $("offline").hidden = false; return; }
    const body = requestBody();
    const payload = JSON.stringify(body);
    if (payload.length > state.maxBody) {
      showMessage("The input is too large: " + plural(payload.length, "character") + " to send; the limit is " +
                  state.maxBytes.toLocaleString("en") + " bytes of input.");
      return;
    }
    status("Decoding…", "busy");
    let resp, answer;
    try {
      resp = await fetch("api/decode", {method: "POST", headers: {"Content-Type": "application/json"}, body: payload});
      answer = await resp.json();
    } catch (e) {
      showMessage("No answer from the server (" + e + "). Is `logcodec docs` still running?");
      return;
    }
    if (!resp.ok) { showMessage(answer.message || ("The server answered " + resp.status)); return; }
    show(answer, textToBytes($("input").value, $("encoding").value));
  }

  function showMessage(text) {
    $("result").hidden = true;
    const e = $("error");
    e.hidden = false;
    e.className = "callout err";
    e.textContent = text;
    status("", "");
  }

  async function readFile(file) {
    if (!file) return;
    if (file.size > state.maxBytes) {
      showMessage("The file " + file.name + " is " + plural(file.size, "byte") + "; the decode page takes up to " +
                  plural(state.maxBytes, "byte") + ". It was not loaded. Decode it with `logcodec decode` instead.");
      return;
    }
    if (file.size === 0) { showMessage("The file " + file.name + " is empty."); return; }
    const bytes = new Uint8Array(await file.arrayBuffer());
    $("input").value = toHex(bytes);
    $("encoding").value = "hex";
    $("input-info").textContent = file.name + ": " + plural(bytes.length, "byte");
    decode();
  }

  async function readSecondFile(file) {
    if (!file) return;
    if (file.size > state.maxBytes) {
      showMessage("The file " + file.name + " is " + plural(file.size, "byte") + "; the limit is " + plural(state.maxBytes, "byte") + ".");
      return;
    }
    const bytes = new Uint8Array(await file.arrayBuffer());
    let text = null;
    const magic = bytes.length >= 4 && bytes[0] === 0x49 && bytes[1] === 0x4b && bytes[2] === 0x42 && bytes[3] === 0x4d;  // "IKBM"
    if (!magic) { try { text = new TextDecoder("utf-8", {fatal: true}).decode(bytes); } catch (e) { text = null; } }
    if (text !== null) {
      $("second").value = text; $("second-encoding").value = "text";
    } else {
      $("second").value = toHex(bytes); $("second-encoding").value = "hex";
    }
    $("second-info").textContent = file.name + ": " + plural(bytes.length, "byte");
    $("second-box").open = true;
    if ($("input").value.trim()) decode();
  }

  // ------------------------------------------------------------------ result

  function stripRoot(path) {
    return (path || "").replace(/^[A-Za-z_][A-Za-z0-9_]*/, "").replace(/^\./, "");
  }

  function show(answer, bytes) {
    $("error").hidden = true;
    state.bytes = bytes || new Uint8Array(0);
    state.ranges = answer.ranges || {};
    state.err = answer.error;
    state.consumed = answer.consumed || 0;
    state.sel = null;
    state.labels = answer.labels || {};
    state.texts = answer.texts || {};
    const findings = answer.findings || [];
    state.marks = new Set(findings.map((f) => f.offset).filter((o) => o !== null));
    if (answer.error && answer.error.offset !== null) state.marks.add(answer.error.offset);
    state.errBytes = answer.error ? inputBytesOf(stripRoot(answer.error.path)) : null;
    paintOwners();
    // With "auto", a format is claimed only on evidence (`detected`); otherwise the nearest reading is
    // shown under a warning that says why nothing was claimed (`undetected`).
    let text = answer.undetected ? "No format detected; the nearest reading is " + answer.format :
               answer.format + (answer.detected ? " (detected" + (answer.candidates && answer.candidates.length > 1 ?
               "; also reads as " + answer.candidates.filter((c) => c !== answer.format).join(", ") : "") + ")" : "");
    text += ": " + plural(answer.size, "byte");
    if (answer.value !== null && !answer.findings) text += ", " + plural(answer.consumed, "byte") + " read";
    if (answer.metadata) text += " · metadata in the " + answer.metadata.form + " form, " + answer.metadata.entries +
                                 (answer.metadata.entries === 1 ? " entry" : " entries");
    if (answer.conversation) text += " · " + plural(answer.conversation.exchanges, "request") + ", " +
                                     answer.conversation.answered.toLocaleString("en") + " answered" +
                                     (answer.conversation.listed < answer.conversation.exchanges ? " · the first " +
                                      answer.conversation.listed.toLocaleString("en") + " listed" : "") +
                                     (answer.conversation.findings > findings.length ? " · " +
                                      findings.length.toLocaleString("en") + " of " +
                                      answer.conversation.findings.toLocaleString("en") + " findings listed" : "");
    if (answer.findings) text += " · " + (findings.length ? plural(findings.length, "finding") :
                                          answer.conversation ? "no finding" : "no finding: the inputs agree");
    status(text, answer.error || findings.length ? "bad" : answer.undetected ? "warn" : "ok");
    const msgs = [];
    if (answer.undetected) msgs.push("<p><strong>No format detected:</strong> " + esc(answer.undetected) +
                                     ". Choose the format to read it as.</p>");
    if (answer.error) msgs.push(errorHtml("Error", answer.error));
    if (answer.error && answer.error.kind === "trailing_bytes" && !$("stream").checked) {
      msgs.push("<p>The value above ends before the input does: tick <em>values end to end</em> to read what follows as more values.</p>");
    }
    if (answer.partial) msgs.push(errorHtml("The last value is cut short (a partial trailing entry)", answer.partial));
    if (findings.length) {
      const what = answer.conversation ? "frames that do not read, responses that answer nothing or out of order" :
                   "where the inputs disagree";
      msgs.push("<p><strong>" + plural(findings.length, "finding") + ":</strong> " + what + " (each is marked in the tree and in the bytes)</p><ol class=\"findings\">" +
                findings.map((f) => "<li>" + findingHtml(f) + "</li>").join("") + "</ol>");
    }
    // A cut-off last entry is normal in a format that was chosen or detected; in a reading nothing
    // was claimed for, the warning above says what it is worth.
    for (const p of answer.undetected ? [] : answer.partial_tails || []) {
      const r = state.ranges[p];
      msgs.push("<p><strong>A partial trailing entry:</strong> <code>" + esc(p) + "</code> holds the " +
                plural(r[1] - r[0], "byte") + " of a last entry cut short by the end of the data (at offset " + r[0] +
                "), as a fetch size cuts it. That is not an error.</p>");
    }
    const e = $("error");
    if (msgs.length) {
      e.hidden = false;
      e.className = "callout " + (answer.error || findings.length ? "err" : "warn");
      e.innerHTML = msgs.join("");
      e.querySelectorAll("a.goto").forEach((a) => a.addEventListener("click", (ev) => {
        ev.preventDefault(); scrollToByte(+a.dataset.offset);
        const p = a.dataset.plain ? nearestInValue(a.dataset.path) : stripRoot(a.dataset.path);
        if (state.nodes.has(p) || a.dataset.plain) selectPath(p, false);
      }));
    }
    $("result").hidden = false;
    const before = answer.value === null && answer.partial_value !== null && answer.partial_value !== undefined;
    state.value = before ? answer.partial_value : answer.value;
    flag(findings);
    renderTree(state.value, before);
    renderHex();
    if (answer.error) {
      if (answer.error.offset !== null) scrollToByte(answer.error.offset);
      const el = errorNode(stripRoot(answer.error.path), answer.error.kind);
      if (el) {
        el.querySelector(":scope > .line").classList.add("errnode");
        el.querySelector(":scope > .line").title += " — the error is here: " + answer.error.kind;
        el.querySelector(":scope > .line").scrollIntoView({block: "nearest"});
      }
    }
    if (findings.length && !answer.error) {  // the first finding in sight, its node open
      if (findings[0].offset !== null) scrollToByte(findings[0].offset);
      const el = revealNode(nearestInValue(findings[0].path));
      if (el) el.querySelector(":scope > .line").scrollIntoView({block: "nearest"});
    }
  }

  // The node of the field an error names (the whole value only when it names none). A field the
  // error stopped before it was decoded gets a node of its own, under the deepest part of its path
  // that the tree has (`records` of a batch cut short, with the bytes that were left for it).
  function errorNode(path, kind) {
    if (!path) return state.nodes.get("") || null;
    const found = revealNode(path);
    if (found) return found;
    const parts = path.match(/\[\d+\]|[^.[\]]+/g) || [];
    for (let k = parts.length - 1; k >= 0; k--) {
      const above = joinPath(parts.slice(0, k));
      const el = above ? revealNode(above) : state.nodes.get("");
      if (!el) continue;
      const kids = el.querySelector(":scope > .kids");
      if (!kids) return el;  // (a leaf: the error is in its bytes)
      const label = joinPath(parts.slice(k)).replace(/^\./, "");
      const missing = missingNode(path, label, kind);
      kids.appendChild(missing);
      return missing;
    }
    return null;
  }

  // [start, end] in the input of a field's bytes (of the processed field that holds them, for a
  // field inside decompressed bytes), or null; the whole value has none.
  function inputBytesOf(path) {
    const r = path ? state.ranges[path] : null;
    if (!r) return null;
    return r.length === 2 ? r : (state.ranges[r[2]] || null);
  }

  function joinPath(parts) {
    return parts.reduce((p, part) => part[0] === "[" ? p + part : (p ? p + "." + part : part), "");
  }

  function missingNode(path, label, kind) {
    const el = document.createElement("div");
    el.className = "node missing";
    el.dataset.path = path;
    const line = document.createElement("div");
    line.className = "line" + (state.ranges[path] ? "" : " nobytes");
    for (const [cls, text] of [["tog", ""], ["key", label], ["val", "not decoded (" + kind + ")"], ["rng", rangeText(path)]]) {
      const span = document.createElement("span");
      span.className = cls;
      span.textContent = text;
      line.appendChild(span);
    }
    line.title = path + ": the error stopped the decoding in this field";
    line.addEventListener("click", () => selectPath(path, true));
    el.appendChild(line);
    state.nodes.set(path, el);
    return el;
  }

  // Where findings are: each one's node (the nearest the value has) marked, and the nodes above it.
  function flag(findings) {
    state.flagged = new Map();
    state.above = new Set();
    for (const f of findings) {
      const p = nearestInValue(f.path);
      state.flagged.set(p, (state.flagged.has(p) ? state.flagged.get(p) + "; " : "") + f.kind + ": " + f.detail);
      for (let q = p; q;) { q = q.replace(/(^|\.)[^.[\]]+$|\[\d+\]$/, ""); state.above.add(q); }
    }
  }

  // The longest start of `path` that names a part of the value shown.
  function nearestInValue(path) {
    const parts = (path || "").match(/\[\d+\]|[^.[\]]+/g) || [];
    let v = state.value, p = "";
    for (const part of parts) {
      const key = part[0] === "[" ? +part.slice(1, -1) : part;
      if (v === null || typeof v !== "object" || !(key in v)) break;
      v = v[key];
      p = part[0] === "[" ? p + part : (p ? p + "." + part : part);
    }
    return p;
  }

  function findingHtml(f) {
    return "<a class=\"kind\" href=\"index.html#error-" + esc(f.kind) + "\"><code>" + esc(f.kind) + "</code></a>" +
      (f.offset !== null ? " at <a href=\"#\" class=\"goto\" data-plain=\"1\" data-offset=\"" + f.offset + "\" data-path=\"" +
      esc(f.path) + "\">offset " + f.offset + " (0x" + f.offset.toString(16) + ")</a>" : "") +
      (f.path ? " in <code class=\"err-path\">" + esc(f.path) + "</code>" : "") + ": <span class=\"detail\">" + esc(f.detail) + "</span>";
  }

  function esc(s) { return String(s).replace(/[&<>"]/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c])); }

  function errorHtml(title, e) {
    return "<p><strong>" + esc(title) + ":</strong> <a class=\"kind\" href=\"index.html#error-" + esc(e.kind) + "\"><code>" +
      esc(e.kind) + "</code></a>" + (e.offset !== null ? " at <a href=\"#\" class=\"goto\" data-offset=\"" + e.offset +
      "\" data-path=\"" + esc(e.path) + "\">offset " + e.offset + " (0x" + e.offset.toString(16) + ")</a>" : "") +
      (e.path ? " in <code class=\"err-path\">" + esc(e.path) + "</code>" : "") + ": <span class=\"detail\">" + esc(e.detail) + "</span></p>";
  }

  // Each byte's innermost field (the shortest range over it), and each field's colour.
  function paintOwners() {
    const n = state.bytes.length;
    const owner = new Int32Array(n).fill(-1);
    const leaves = Object.entries(state.ranges).filter(([, r]) => r.length === 2 && r[1] > r[0])
      .sort((a, b) => a[1][0] - b[1][0] || (b[1][1] - b[1][0]) - (a[1][1] - a[1][0]));
    leaves.forEach(([, r], k) => { for (let i = r[0]; i < Math.min(r[1], n); i++) owner[i] = k; });
    const colour = new Map();
    let c = 0, last = -1;
    for (let i = 0; i < n; i++) {
      if (owner[i] >= 0 && owner[i] !== last && !colour.has(owner[i])) colour.set(owner[i], c++ % COLOURS);
      last = owner[i];
    }
    state.owner = owner;
    state.leaves = leaves;
    state.colour = colour;
  }

  // ------------------------------------------------------------------ tree

  function renderTree(value, before) {
    const tree = $("tree");
    tree.textContent = "";
    state.nodes = new Map();
    if (value === null || value === undefined) { tree.innerHTML = "<p class=\"muted\">No value: see the error.</p>"; return; }
    if (before) {
      const note = document.createElement("p");
      note.className = "muted before";
      note.textContent = "What was decoded before the error (the field in error is marked; a stored length or checksum shows the value the bytes hold):";
      tree.appendChild(note);
    }
    tree.appendChild(node("", Array.isArray(value) ? "values" : "value", value, 0));
  }

  function rangeText(path) {
    const r = state.ranges[path];
    if (!r) return "";
    return r.length === 2 ? "@" + r[0] + "+" + (r[1] - r[0]) : "@" + r[0] + "+" + (r[1] - r[0]) + " in " + r[2];
  }

  function node(path, label, value, depth) {
    const el = document.createElement("div");
    el.className = "node";
    el.dataset.path = path;
    state.nodes.set(path, el);
    const line = document.createElement("div");
    line.className = "line" + (state.ranges[path] ? "" : " nobytes") +
      (state.flagged.has(path) ? " errnode" : state.above.has(path) ? " errinside" : "");
    const isObj = value !== null && typeof value === "object";
    const tog = document.createElement("span");
    tog.className = "tog";
    tog.textContent = isObj ? (depth < 2 ? "▾" : "▸") : "";
    line.appendChild(tog);
    const k = document.createElement("span");
    k.className = "key";
    k.textContent = label;
    line.appendChild(k);
    const v = document.createElement("span");
    v.className = "val";
    if (Array.isArray(value)) v.textContent = "[" + value.length + "]";
    else if (isObj) v.textContent = "{" + Object.keys(value).length + "}";
    else v.textContent = typeof value === "string" && !/^-?\d+$/.test(value) ? JSON.stringify(value) : String(value);
    if (isObj && state.labels[path]) { v.textContent = state.labels[path]; v.classList.add("label"); }
    if (!isObj && typeof value === "string" && value.length > 80) v.title = value;
    line.appendChild(v);
    if (!isObj && state.texts[path] !== undefined) {  // bytes that read as text: the text beside their hex
      const t = document.createElement("span");
      t.className = "txt";
      t.textContent = JSON.stringify(state.texts[path]);
      t.title = "these bytes as UTF-8 text";
      line.appendChild(t);
    }
    const r = document.createElement("span");
    r.className = "rng";
    r.textContent = rangeText(path);
    line.appendChild(r);
    line.title = (path || "(the whole value)") + (state.ranges[path] ? "" : " (no bytes of its own: computed, or absent)") +
      (state.flagged.has(path) ? " — " + state.flagged.get(path) : "");
    el.appendChild(line);
    line.addEventListener("click", (ev) => {
      if (ev.target === tog && isObj) { toggle(el); return; }
      selectPath(path, true);
    });
    if (isObj) {
      const kids = document.createElement("div");
      kids.className = "kids";
      el.appendChild(kids);
      el._fill = () => {
        if (el._filled) return;
        el._filled = true;
        const entries = Array.isArray(value) ? value.map((x, i) => ["[" + i + "]", x]) : Object.entries(value);
        const put = (from) => {
          for (const [key, x] of entries.slice(from, from + SHOW)) {
            const p = key[0] === "[" ? path + key : (path ? path + "." + key : key);
            kids.appendChild(node(p, key, x, depth + 1));
          }
          if (entries.length > from + SHOW) {
            const more = document.createElement("button");
            more.type = "button"; more.className = "more";
            more.textContent = "show " + Math.min(SHOW, entries.length - from - SHOW) + " more of " + entries.length;
            more.addEventListener("click", () => { more.remove(); put(from + SHOW); });
            kids.appendChild(more);
          }
        };
        put(0);
      };
      if (depth < 2) el._fill(); else el.classList.add("closed");
    }
    return el;
  }

  function toggle(el, open) {
    const closed = open === undefined ? !el.classList.contains("closed") : !open;
    if (!closed && el._fill) el._fill();
    el.classList.toggle("closed", closed);
    const t = el.querySelector(":scope > .line > .tog");
    if (t && el._fill) t.textContent = closed ? "▸" : "▾";
  }

  // Open the tree down to `path` (filling closed nodes on the way) and return its node.
  function revealNode(path) {
    const parts = path.match(/\[\d+\]|[^.[\]]+/g) || [];
    let p = "";
    let el = state.nodes.get("");
    for (const part of parts) {
      if (el) toggle(el, true);
      p = part[0] === "[" ? p + part : (p ? p + "." + part : part);
      if (!state.nodes.has(p) && el) {  // beyond the elements shown so far
        let more, guard = 0;
        while (!state.nodes.has(p) && (more = el.querySelector(":scope > .kids > button.more")) && guard++ < 10000) more.click();
      }
      el = state.nodes.get(p) || el;
    }
    return state.nodes.get(path) || null;
  }

  function selectPath(path, scroll) {
    document.querySelectorAll(".tree .line.selected").forEach((l) => l.classList.remove("selected"));
    const el = revealNode(path);
    if (el) {
      const line = el.querySelector(":scope > .line");
      line.classList.add("selected");
      line.scrollIntoView({block: "nearest"});
    }
    const r = state.ranges[path];
    state.sel = r ? [r[0], r[1], r[2] || null] : null;
    const s = $("selection");
    if (!r) {
      s.textContent = (path || "the value") + ": no bytes of its own (a computed value, or absent)";
    } else if (r.length === 2) {
      s.innerHTML = "<code>" + esc(path || "(the whole value)") + "</code>: bytes " + r[0] + "–" + (r[1] - 1) +
        " (" + plural(r[1] - r[0], "byte") + ", 0x" + r[0].toString(16) + "–0x" + Math.max(r[0], r[1] - 1).toString(16) + ")";
    } else {
      const o = state.ranges[r[2]];
      s.innerHTML = "<code>" + esc(path) + "</code>: bytes " + r[0] + "–" + (r[1] - 1) + " of the decompressed <code>" +
        esc(r[2]) + "</code>" + (o ? ", whose compressed bytes " + o[0] + "–" + (o[1] - 1) + " are highlighted" : "");
      if (o) state.sel = [o[0], o[1], r[2]];
    }
    renderHex();
    if (state.sel && scroll) scrollToByte(state.sel[0], true);
  }

  // ------------------------------------------------------------------ hex view (only the rows in sight are drawn)

  function renderHex() {
    const box = $("hex"), rows = $("hex-rows");
    const n = state.bytes.length, nrows = Math.ceil(n / PER_ROW);
    rows.style.height = (nrows * ROW_H) + "px";
    const first = Math.max(0, Math.floor(box.scrollTop / ROW_H) - 10);
    const last = Math.min(nrows, Math.ceil((box.scrollTop + box.clientHeight) / ROW_H) + 10);
    const width = Math.max(4, (n.toString(16)).length);
    const out = [];
    const sel = state.sel, marks = state.marks, errBytes = state.errBytes;
    const owner = state.owner;
    for (let r = first; r < last; r++) {
      const base = r * PER_ROW;
      let h = "<div class=\"hrow\" style=\"top:" + (r * ROW_H) + "px\"><span class=\"hoff\">" +
              base.toString(16).padStart(width, "0") + "</span><span class=\"hbytes\">";
      let a = "<span class=\"hascii\">";
      for (let i = base; i < Math.min(base + PER_ROW, n); i++) {
        const o = owner[i], b = state.bytes[i];
        let cls = o >= 0 ? "c" + state.colour.get(o) : (i >= state.consumed ? "rest" : "gap");
        if (i % PER_ROW === 0 || owner[i - 1] !== o) cls += " fs";
        if (i % PER_ROW === PER_ROW - 1 || i + 1 === n || owner[i + 1] !== o) cls += " fe";
        if (sel && i >= sel[0] && i < sel[1]) cls += " sel";
        if (marks.has(i)) cls += " err";
        else if (errBytes && i >= errBytes[0] && i < errBytes[1]) cls += " errf";
        h += "<span class=\"" + cls + "\" data-o=\"" + i + "\">" + hex2(b) + "</span>";
        if (i % PER_ROW === 7) h += "<span class=\"g8\"></span>";
        a += "<span class=\"" + cls + "\" data-o=\"" + i + "\">" + (b >= 32 && b < 127 ? esc(String.fromCharCode(b)) : "·") + "</span>";
      }
      out.push(h + "</span>" + a + "</span></div>");
    }
    rows.innerHTML = out.join("");
  }

  function scrollToByte(offset, nearest) {
    const box = $("hex"), y = Math.floor(offset / PER_ROW) * ROW_H;
    if (nearest && y >= box.scrollTop && y + ROW_H <= box.scrollTop + box.clientHeight) return;
    box.scrollTop = Math.max(0, y - ROW_H * 2);
    renderHex();
  }

  function clickByte(offset) {
    const o = state.owner[offset];
    const s = $("selection");
    if (o === undefined) return;
    if (o < 0) {
      state.sel = null;
      renderHex();
      s.textContent = "byte " + offset + " (0x" + offset.toString(16) + ") = 0x" + hex2(state.bytes[offset]) +
        (offset >= state.consumed ? ": after what was decoded" : ": no field holds it");
      return;
    }
    const path = state.leaves[o][0];
    selectPath(path, false);
    s.insertAdjacentHTML("afterbegin", "byte " + offset + " (0x" + offset.toString(16) + ") = 0x" +
                         hex2(state.bytes[offset]) + " · ");
  }

  // ------------------------------------------------------------------ start

  async function start() {
    const form = $("decode-form");
    form.addEventListener("submit", (ev) => { ev.preventDefault(); decode(); });
    $("input").addEventListener("keydown", (ev) => { if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) { ev.preventDefault(); decode(); } });
    $("input").addEventListener("paste", () => setTimeout(decode, 0));
    $("second").addEventListener("keydown", (ev) => { if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) { ev.preventDefault(); decode(); } });
    $("second").addEventListener("paste", () => setTimeout(() => { if ($("input").value.trim()) decode(); }, 0));
    $("file").addEventListener("change", (ev) => readFile(ev.target.files[0]));
    $("second-file").addEventListener("change", (ev) => readSecondFile(ev.target.files[0]));
    $("format").addEventListener("change", () => { updateSecond(); updateParams(); });
    const box = $("second-box");
    ["dragenter", "dragover"].forEach((t) => box.addEventListener(t, (ev) => { ev.preventDefault(); ev.stopPropagation(); box.classList.add("over"); }));
    ["dragleave", "drop"].forEach((t) => box.addEventListener(t, (ev) => { ev.preventDefault(); ev.stopPropagation(); box.classList.remove("over"); }));
    box.addEventListener("drop", (ev) => readSecondFile(ev.dataTransfer.files[0]));
    const drop = $("drop");
    ["dragenter", "dragover"].forEach((t) => drop.addEventListener(t, (ev) => { ev.preventDefault(); drop.classList.add("over"); }));
    ["dragleave", "drop"].forEach((t) => drop.addEventListener(t, (ev) => { ev.preventDefault(); drop.classList.remove("over"); }));
    drop.addEventListener("drop", (ev) => readFile(ev.dataTransfer.files[0]));
    document.querySelectorAll("button.example").forEach((b) => b.addEventListener("click", () => {
      $("input").value = b.dataset.hex; $("encoding").value = "hex"; $("format").value = b.dataset.format;
      $("input-info").textContent = "golden vector " + b.title; updateSecond(); updateParams();
      for (const [n, v] of Object.entries(JSON.parse(b.dataset.params || "{}"))) if ($("param-" + n)) $("param-" + n).value = v;
      decode();
    }));
    $("hex").addEventListener("scroll", () => window.requestAnimationFrame(renderHex));
    $("hex").addEventListener("click", (ev) => { const o = ev.target.dataset && ev.target.dataset.o; if (o !== undefined) clickByte(+o); });
    const params = new URLSearchParams(location.hash.slice(1));
    try {
      const resp = await fetch("api/formats");
      if (!resp.ok) throw new Error(resp.status);
      const info = await resp.json();
      state.online = true;
      state.maxBytes = info.max_bytes; state.maxBody = info.max_body;
      const sel = $("format");
      const known = new Set([...sel.options].map((o) => o.value));
      for (const f of info.formats) {
        if (!known.has(f.name)) {
          const o = document.createElement("option");
          o.value = f.name; o.textContent = f.name + ": " + f.title + (f.user ? " (your schema)" : "");
          sel.insertBefore(o, sel.options[1]);
        }
      }
      for (const o of [...sel.options]) if (o.value !== "auto" && !info.formats.some((f) => f.name === o.value)) o.disabled = true;
      for (const f of info.formats) if (f.needs) state.needs.set(f.name, Object.assign({format: f.name}, f.needs));
      for (const f of info.formats) if (f.params && f.params.length) state.params.set(f.name, f.params);
      pairedExamples(info.formats.filter((f) => f.needs && f.examples && f.examples.length));
    } catch (e) {
      $("offline").hidden = false;
      $("go").disabled = true;
    }
    if (params.get("format")) $("format").value = params.get("format");
    updateSecond(); updateParams();
    for (const n of state.params.get($("format").value) || []) if (params.get(n) !== null) $("param-" + n).value = params.get(n);
    if (params.get("hex")) { $("input").value = params.get("hex"); $("encoding").value = "hex"; if (state.online) decode(); }
    document.body.dataset.ready = state.online ? "online" : "offline";
  }

  // Buttons that fill both inputs with a format's examples (its check vectors).
  function pairedExamples(formats) {
    const row = $("paired-examples");
    for (const f of formats) {
      row.appendChild(document.createTextNode(f.title + " (check vectors):"));
      for (const e of f.examples) {
        const b = document.createElement("button");
        b.type = "button"; b.className = "example"; b.textContent = e.tcId; b.title = e.comment;
        b.addEventListener("click", () => {
          $("input").value = e.hex; $("encoding").value = "hex"; $("format").value = f.name;
          const [how, text] = Object.entries(e[f.needs.key])[0];
          $("second").value = text; $("second-encoding").value = how;
          $("input-info").textContent = "check vector " + e.tcId; $("second-info").textContent = "";
          updateSecond(); decode();
        });
        row.appendChild(b);
      }
      row.hidden = false;
    }
  }

  start();
})();
