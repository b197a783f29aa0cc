/* The replay page's core: scrubs through the steps of one game (or two versions of it).
 *
 * The data (replay/services/page.py) holds, per version and per view, the whole state every
 * `keyframe_every` events and each event's patch; a step is the nearest snapshot with at most
 * that many patches applied. A game's board script (ReplayPage.registerBoard) draws its board;
 * without one, the state is drawn as a tree. Everything is drawn from the data: no network. */
"use strict";

var ReplayPage = (function () {
  var boards = {};
  var data = null;
  var ui = { at: 0, view: "all", selected: null };
  var cache = {};
  /* Card colours as the card games print them, for boards to share. */
  var CARD_COLOURS = { brown: "#a16207", grey: "#9ca3af", yellow: "#eab308", blue: "#3b82f6", green: "#16a34a",
                       red: "#dc2626", purple: "#9333ea", black: "#111827", white: "#f3f4f6" };
  var PALETTE = ["#2f6fde", "#d92d20", "#12864a", "#b54708", "#7a2ed6", "#0e7c86", "#c11574", "#475467"];

  function esc(value) {
    return String(value).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }

  /* A card as a small chip with its colour on the left; `path` marks it for the change highlight. */
  function chip(text, colour, path, title) {
    return '<span data-path="' + esc(path) + '" title="' + esc(title || text) + '" style="display:inline-block;margin:2px;' +
      "padding:1px 6px;border-radius:4px;border-left:5px solid " + (CARD_COLOURS[colour] || colour || "#cbd5e1") +
      ';background:#f8fafc">' + esc(text) + "</span>";
  }

  function pathText(path) {
    var out = "";
    path.forEach(function (key) {
      if (typeof key === "number") { out += "[" + key + "]"; } else { out += out ? "." + key : key; }
    });
    return out;
  }

  /* Mirrors apply_patch in replay/services/page.py: [path, value] sets, [path] removes a key,
   * [path, start, count, items] splices a list. */
  function applyPatch(state, ops) {
    var root = [state];
    ops.forEach(function (op) {
      var parent = root, key = 0;
      op[0].forEach(function (step) { parent = parent[key]; key = step; });
      if (op.length === 1) { delete parent[key]; }
      else if (op.length === 4) { Array.prototype.splice.apply(parent[key], [op[1], op[2]].concat(clone(op[3]))); }
      else { parent[key] = clone(op[1]); }
    });
    return root[0];
  }

  function clone(value) { return value === undefined ? undefined : JSON.parse(JSON.stringify(value)); }

  /* The state of version v, view `view`, after event i: the cached one moved forward, or the
   * nearest snapshot with its patches applied. */
  function viewName(version, view) {
    var name = version.view_alias[view] || view;
    return version.views[name] ? name : "all";
  }

  function stateAt(v, view, i) {
    view = viewName(data.versions[v], view);
    var record = data.versions[v].views[view];
    var key = v + "/" + view;
    var hit = cache[key];
    if (hit && hit.i === i) { return hit.state; }
    var state, from;
    if (hit && hit.i < i && i - hit.i <= data.keyframe_every) {
      state = hit.state; from = hit.i;
    } else {
      from = Math.floor(i / data.keyframe_every) * data.keyframe_every;
      while (!(String(from) in record.keyframes) && from > 0) { from -= data.keyframe_every; }
      state = clone(record.keyframes[String(from)]);
    }
    for (var j = from + 1; j <= i; j++) { state = applyPatch(state, record.patches[j]); }
    cache[key] = { i: i, state: state };
    return state;
  }

  function lastIndex() {
    return Math.max.apply(null, data.versions.map(function (v) { return v.events.length - 1; }));
  }

  /* The first event of each turn (or round, for a game without turns, or when `key` asks for
   * rounds), for shift+arrows and the timeline's ticks. */
  function turnStarts(version, key) {
    var starts = [], previous = null;
    key = key || (version.events.some(function (e) { return e.turn !== null; }) ? "turn" : "round");
    version.events.forEach(function (e, i) {
      var t = e[key];
      if (t !== null && t !== previous) { starts.push(i); previous = t; }
    });
    return starts;
  }

  function go(i) {
    ui.at = Math.max(0, Math.min(lastIndex(), i));
    draw();
  }

  function jumpTurn(direction) {
    var starts = turnStarts(data.versions[0]);
    var target = null;
    if (direction > 0) {
      target = starts.find(function (s) { return s > ui.at; });
    } else {
      starts.forEach(function (s) { if (s < ui.at) { target = s; } });
    }
    if (starts.length === 0) { target = ui.at + 10 * direction; }
    if (target !== null && target !== undefined) { go(target); }
  }

  // ------------------------------------------------------------------ drawing

  function header() {
    var v0 = data.versions[0];
    var audits = data.versions.map(function (v) {
      return v.audit.ok ? '<span class="audit-ok">audit: no problem</span>'
        : '<span class="audit-bad">audit: ' + v.audit.problems + " problem(s)</span>";
    }).join(" · ");
    var pack = v0.pack ? esc(v0.pack.id) + " " + esc(v0.pack.version) + " (" + esc(v0.pack.hash.slice(0, 12)) + ")" : "";
    var views = "";
    if (data.hidden_information) {
      views = '<label>view <select id="view"><option value="all">the whole table</option>' +
        v0.names.map(function (n) { return '<option value="' + esc(n) + '">what ' + esc(n) + " sees</option>"; }).join("") +
        "</select></label>";
    }
    return "<header><h1>" + esc(data.title) + '</h1><span class="meta">' + esc(v0.kind) + " · pack " + pack +
      " · " + esc(data.generator) + "</span>" + audits + views + "</header>";
  }

  function controls() {
    return '<div class="controls"><div class="row">' +
      '<button id="first" title="first event (Home)">|&lt;</button>' +
      '<button id="prev-turn" title="previous turn (shift+←)">&lt;&lt;</button>' +
      '<button id="prev" title="previous event (←)">&lt;</button>' +
      '<button id="next" title="next event (→)">&gt;</button>' +
      '<button id="next-turn" title="next turn (shift+→)">&gt;&gt;</button>' +
      '<button id="last" title="last event (End)">&gt;|</button>' +
      '<input id="scrubber" type="range" min="0" max="' + lastIndex() + '" value="0" aria-label="event">' +
      '<span id="counter"></span><span id="position"></span>' +
      '<span class="keys">← → event · shift+← → turn · Home/End</span></div>' +
      '<div class="timeline" id="timeline"></div></div>';
  }

  function timeline() {
    var last = Math.max(1, lastIndex());
    var html = "";
    var v0 = data.versions[0];
    var rounds = v0.events.some(function (e) { return e.round !== null; });
    turnStarts(v0, rounds ? "round" : null).forEach(function (s) {
      html += '<span class="tick" style="left:' + (100 * s / last) + '%"></span>';
    });
    if (data.first_difference !== null) {
      html += '<span class="difference" style="left:' + (100 * data.first_difference / last) + '%;right:0"></span>';
    }
    data.versions.forEach(function (v, vi) {
      v.problems.forEach(function (p, pi) {
        html += '<button class="marker v' + vi + '" data-version="' + vi + '" data-problem="' + pi + '" data-event="' +
          p.event + '" style="left:' + (100 * p.event / last) + '%" title="event ' + p.event + ": [" + esc(p.rule_id) +
          "] " + esc(p.message) + '"></button>';
      });
    });
    return html + '<span class="cursor" id="cursor"></span>';
  }

  function shownVersions() {
    if (data.versions.length === 1) { return [0]; }
    return data.first_difference !== null && ui.at >= data.first_difference ? [0, 1] : [0];
  }

  function problemHtml(p, vi, pi) {
    var where = [];
    if (p.where && p.where.turn !== undefined) { where.push("turn " + p.where.turn); }
    if (p.where && p.where.player) { where.push(p.where.player); }
    if (p.where && p.where.line !== undefined) { where.push("line " + p.where.line); }
    var selected = ui.selected && ui.selected[0] === vi && ui.selected[1] === pi ? " selected" : "";
    return '<div class="problem' + selected + '" data-rule="' + esc(p.rule_id) + '"><div><span class="rule">[' +
      esc(p.rule_id) + "]</span> " + esc(p.message) + (where.length ? " <small>(" + esc(where.join(", ")) + ")</small>" : "") +
      "</div>" + (p.expected !== undefined || p.found !== undefined
        ? '<div>expected <b class="expected">' + esc(p.expected) + '</b>; found <b class="found">' + esc(p.found) + "</b></div>" : "") +
      (p.explanation ? "<div>" + esc(p.explanation) + "</div>" : "") + "</div>";
  }

  function treeHtml(value, path) {
    if (value === null || typeof value !== "object") {
      return '<span data-path="' + esc(path) + '">' + esc(JSON.stringify(value)) + "</span>";
    }
    var keys = Array.isArray(value) ? value.map(function (_, i) { return i; }) : Object.keys(value);
    if (Array.isArray(value) && value.every(function (x) { return x === null || typeof x !== "object"; })) {
      return '<span data-path="' + esc(path) + '">[' + value.map(function (x) { return esc(JSON.stringify(x)); }).join(", ") + "]</span>";
    }
    return '<ul data-path="' + esc(path) + '">' + keys.map(function (k) {
      var child = typeof k === "number" ? path + "[" + k + "]" : (path ? path + "." + k : k);
      return '<li><span class="key">' + esc(k) + ":</span> " + treeHtml(value[k], child) + "</li>";
    }).join("") + "</ul>";
  }

  function boardHtml(version, state, index, viewer) {
    var event = version.events[index];
    var draw = boards[version.kind];
    var ctx = { state: state, board: version.board, names: version.names, acting: event.seat, viewer: viewer,
                event: event, totals: version.totals ? version.totals[index] : null, esc: esc, chip: chip,
                colours: CARD_COLOURS };
    if (draw) {
      try { return draw(ctx); } catch (err) {
        return '<p class="audit-bad">the board could not be drawn (' + esc(err.message) + '); the state:</p>' +
          '<div class="tree">' + treeHtml(state, "") + "</div>";
      }
    }
    return '<div class="tree">' + treeHtml(state, "") + "</div>";
  }

  function scoresSvg(version, i) {
    if (!version.totals) { return ""; }
    var W = 600, H = 150, L = 34, B = 18, T = 8;
    var totals = version.totals, last = Math.max(1, totals.length - 1);
    var max = 1;
    totals.forEach(function (row) { if (row) { row.forEach(function (t) { max = Math.max(max, t); }); } });
    var x = function (j) { return L + (W - L - 6) * j / last; };
    var y = function (t) { return T + (H - T - B) * (1 - t / max); };
    var lines = version.names.map(function (name, seat) {
      var pts = [];
      totals.forEach(function (row, j) { if (row && row[seat] !== undefined) { pts.push(x(j).toFixed(1) + "," + y(row[seat]).toFixed(1)); } });
      return '<polyline class="series" data-seat="' + seat + '" fill="none" stroke-width="1.6" stroke="' +
        PALETTE[seat % PALETTE.length] + '" points="' + pts.join(" ") + '"><title>' + esc(name) + "</title></polyline>";
    }).join("");
    var axis = '<line x1="' + L + '" y1="' + y(0) + '" x2="' + W + '" y2="' + y(0) + '" stroke="#cfd6e3"/>' +
      '<text x="' + (L - 4) + '" y="' + (y(max) + 4) + '" text-anchor="end">' + max + "</text>" +
      '<text x="' + (L - 4) + '" y="' + (y(0) + 4) + '" text-anchor="end">0</text>' +
      '<text x="' + L + '" y="' + (H - 4) + '">event 0</text><text x="' + W + '" y="' + (H - 4) + '" text-anchor="end">event ' + last + "</text>";
    var cursor = '<line id="score-cursor" x1="' + x(i) + '" x2="' + x(i) + '" y1="' + T + '" y2="' + y(0) + '" stroke="#2f6fde" stroke-dasharray="3 2"/>';
    var now = totals[Math.min(i, totals.length - 1)];
    var legend = '<div class="legend">' + version.names.map(function (name, seat) {
      return '<span><i style="background:' + PALETTE[seat % PALETTE.length] + '"></i>' + esc(name) +
        (now ? ' <b class="num" data-seat-total="' + seat + '">' + now[seat] + "</b>" : "") + "</span>";
    }).join("") + "</div>";
    return '<div class="panel"><h3>Score progression</h3><svg class="scores" viewBox="0 0 ' + W + " " + H +
      '">' + axis + lines + cursor + "</svg>" + legend + "</div>";
  }

  function logHtml(version, i) {
    var problemEvents = {};
    version.problems.forEach(function (p) { problemEvents[p.event] = true; });
    if (version.notation) {
      var current = version.notation.lines[i];
      var problemLines = {};
      Object.keys(problemEvents).forEach(function (e) { var l = version.notation.lines[e]; if (l) { problemLines[l] = true; } });
      return '<div class="log" data-kind="notation">' + version.notation.text.map(function (text, k) {
        var n = k + 1;
        return '<div class="line' + (n === current ? " current" : "") + (problemLines[n] ? " problem-line" : "") +
          '" data-line="' + n + '">' + esc(text || " ") + "</div>";
      }).join("") + "</div>";
    }
    return '<div class="log" data-kind="headlines">' + version.events.map(function (e, k) {
      return '<div class="line' + (k === i ? " current" : "") + (problemEvents[k] ? " problem-line" : "") +
        '" data-event="' + k + '">' + k + ". " + esc(e.headline) + "</div>";
    }).join("") + "</div>";
  }

  function columnHtml(vi) {
    var version = data.versions[vi];
    var last = version.events.length - 1;
    var i = Math.min(ui.at, last);
    var view = viewName(version, ui.view);
    var state = stateAt(vi, view, i);
    var event = version.events[i];
    var viewer = ui.view === "all" ? null : version.names.indexOf(ui.view);
    var problems = version.problems.map(function (p, pi) { return [p, pi]; }).filter(function (x) { return x[0].event === i; });
    var changes = version.views[view].changes[i] || [];
    var where = [];
    if (event.round !== null) { where.push("round " + event.round); }
    if (event.turn !== null) { where.push("turn " + event.turn); }
    if (event.seat !== null && version.names[event.seat] !== undefined) { where.push(version.names[event.seat]); }
    var ended = ui.at > last ? '<p class="banner">This version ends at event ' + last + ".</p>" : "";
    return '<section class="version" data-version="' + vi + '">' +
      (data.versions.length > 1 ? "<h2>" + esc(version.label) + "</h2>" : "") + ended +
      '<div class="panel"><div class="headline" id="headline-' + vi + '">' + esc(event.headline) + "</div>" +
      '<div class="meta">event ' + i + " · seq " + event.seq + (where.length ? " · " + esc(where.join(" · ")) : "") + "</div>" +
      problems.map(function (x) { return problemHtml(x[0], vi, x[1]); }).join("") + "</div>" +
      '<div class="layout"><div><div class="panel board" id="board-' + vi + '"><h3>Board</h3>' +
      boardHtml(version, state, i, viewer) + "</div>" +
      '<div class="panel"><h3>What this event changed</h3>' + (changes.length
        ? '<ul class="changes">' + changes.map(function (c) { return "<li>" + esc(c) + "</li>"; }).join("") + "</ul>"
        : "<p>nothing</p>") + "</div>" + scoresSvg(version, i) + "</div>" +
      '<div><div class="panel"><h3>' + (version.notation ? "Log (notation)" : "Log") + "</h3>" + logHtml(version, i) + "</div>" +
      (i === last && version.summary ? '<div class="panel"><h3>Result</h3><pre>' + esc(version.summary) + "</pre></div>" : "") +
      "</div></div></section>";
  }

  /* Marks what the current event changed: every element whose data-path is, or is inside, or
   * holds a path the event's patch touched. */
  function markChanged(root, vi) {
    var version = data.versions[vi];
    var i = Math.min(ui.at, version.events.length - 1);
    var view = viewName(version, ui.view);
    var paths = i > 0 ? version.views[view].patches[i].map(function (op) { return pathText(op[0]); }) : [];
    if (!paths.length) { return; }
    root.querySelectorAll("[data-path]").forEach(function (el) {
      var p = el.getAttribute("data-path");
      var hit = paths.some(function (c) {
        return c === p || c.indexOf(p + ".") === 0 || c.indexOf(p + "[") === 0 || p.indexOf(c + ".") === 0 || p.indexOf(c + "[") === 0;
      });
      if (hit && p !== "") { el.classList.add("changed"); }
    });
  }

  function draw() {
    var last = lastIndex();
    var v0 = data.versions[0];
    var e = v0.events[Math.min(ui.at, v0.events.length - 1)];
    document.getElementById("scrubber").value = ui.at;
    document.getElementById("counter").textContent = "event " + ui.at + " / " + last;
    document.getElementById("position").textContent = e.turn !== null ? "turn " + e.turn : (e.round !== null ? "round " + e.round : "");
    document.getElementById("cursor").style.left = (100 * ui.at / Math.max(1, last)) + "%";
    var shown = shownVersions();
    var columns = document.getElementById("columns");
    columns.style.setProperty("--columns", shown.length);
    columns.classList.toggle("two", shown.length > 1);
    columns.innerHTML = shown.map(columnHtml).join("");
    shown.forEach(function (vi) { markChanged(document.getElementById("board-" + vi), vi); });
    document.querySelectorAll(".log").forEach(function (log) {  // the log scrolls, never the window
      var line = log.querySelector(".current");
      if (line) { log.scrollTop = Math.max(0, line.offsetTop - log.clientHeight / 2); }
    });
    var banner = document.getElementById("banner");
    if (data.versions.length > 1) {
      banner.style.display = "";
      banner.innerHTML = data.first_difference === null ? "The two versions are identical."
        : "The versions agree up to event " + (data.first_difference - 1) + " and differ from event " +
          data.first_difference + ' on; from there they are shown side by side. <button id="to-difference">go to the first difference</button>';
    }
  }

  /* A bundle made as one HTML file carries its files (events, notation, audit, pack): offered for download. */
  function attachments() {
    if (!data.attachments || !data.attachments.length) { return ""; }
    return '<div class="columns"><div class="panel" id="files"><h3>Files of this bundle</h3>' +
      data.attachments.map(function (f, k) {
        return '<div><a href="#" data-attachment="' + k + '">' + esc(f.name) + "</a> <small>(" + f.text.length + " characters)</small></div>";
      }).join("") + "</div></div>";
  }

  function download(k) {
    var f = data.attachments[k];
    var link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([f.text], { type: "text/plain;charset=utf-8" }));
    link.download = f.name.replace(/\//g, "_");
    document.body.appendChild(link);
    link.click();
    link.remove();
  }

  function bind() {
    var on = function (id, f) { var el = document.getElementById(id); if (el) { el.addEventListener("click", f); } };
    on("first", function () { go(0); });
    on("last", function () { go(lastIndex()); });
    on("prev", function () { go(ui.at - 1); });
    on("next", function () { go(ui.at + 1); });
    on("prev-turn", function () { jumpTurn(-1); });
    on("next-turn", function () { jumpTurn(1); });
    document.getElementById("scrubber").addEventListener("input", function (ev) { go(parseInt(ev.target.value, 10)); });
    document.getElementById("timeline").addEventListener("click", function (ev) {
      var m = ev.target.closest(".marker");
      if (!m) { return; }
      ui.selected = [parseInt(m.getAttribute("data-version"), 10), parseInt(m.getAttribute("data-problem"), 10)];
      go(parseInt(m.getAttribute("data-event"), 10));
    });
    document.getElementById("banner").addEventListener("click", function (ev) {
      if (ev.target.id === "to-difference") { go(data.first_difference); }
    });
    var files = document.getElementById("files");
    if (files) {
      files.addEventListener("click", function (ev) {
        var a = ev.target.closest("[data-attachment]");
        if (a) { ev.preventDefault(); download(parseInt(a.getAttribute("data-attachment"), 10)); }
      });
    }
    var select = document.getElementById("view");
    if (select) { select.addEventListener("change", function () { ui.view = select.value; draw(); }); }
    document.addEventListener("keydown", function (ev) {
      if (ev.target && ev.target.tagName === "SELECT") { return; }
      var handled = true;
      if (ev.key === "ArrowRight") { if (ev.shiftKey) { jumpTurn(1); } else { go(ui.at + 1); } }
      else if (ev.key === "ArrowLeft") { if (ev.shiftKey) { jumpTurn(-1); } else { go(ui.at - 1); } }
      else if (ev.key === "Home") { go(0); }
      else if (ev.key === "End") { go(lastIndex()); }
      else { handled = false; }
      if (handled) { ev.preventDefault(); }
    });
  }

  function start() {
    data = JSON.parse(document.getElementById("replay-data").textContent);
    document.title = data.title;
    var app = document.getElementById("app");
    app.innerHTML = header() + controls() + '<div class="banner" id="banner" style="display:none"></div>' +
      '<div class="columns" id="columns"></div>' + attachments();
    document.getElementById("timeline").innerHTML = timeline();
    bind();
    var wanted = /^#event=(\d+)$/.exec(window.location.hash);
    go(wanted ? parseInt(wanted[1], 10) : 0);
  }

  return {
    start: start,
    registerBoard: function (kind, drawBoard) { boards[kind] = drawBoard; },
    esc: esc,
    pathText: pathText,
    applyPatch: applyPatch,
    stateAt: function (v, view, i) { return clone(stateAt(v, view, i)); },
    at: function () { return ui.at; },
    go: go
  };
})();
