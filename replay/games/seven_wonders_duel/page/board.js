/* 7 Wonders Duel's board on the replay page: the Conflict pawn on the military track, the progress
 * tokens on the board, the Age's structure row by row (face-down cards as backs, the available
 * ones outlined, the taken ones gone), and each city: coins, Wonders (built ones bold, with the
 * card under them), progress tokens and buildings by colour. With Agora, the Senate: each chamber's cubes,
 * its controller and Decree, and each seat's Senators and conspiracies (another seat's only as "prepared" or
 * not). Given ctx (see docs/page.md), returns HTML. */
return function (ctx) {
  var s = ctx.state, esc = ctx.esc, b = ctx.board || {}, cards = b.cards || {}, wonders = b.wonders || {};
  var tokens = b.tokens || {}, capital = b.capital || 9;
  function card(id, path) {
    var c = cards[id] || { name: id, colour: "" };
    return ctx.chip(c.name, c.colour, path, id);
  }
  function named(list, names) {
    return list.map(function (id) { return esc(names[id] || id); }).join(", ");
  }
  var track = "";
  for (var i = -capital; i <= capital; i++) {
    var here = i === s.pawn;
    track += '<span style="display:inline-block;width:1.4em;text-align:center;' + (i === 0 ? "border-left:1px solid #64748b;" : "") +
      (here ? "background:#dc2626;color:white;border-radius:50%" : "color:#94a3b8") + '">' + (here ? "&#9679;" : "&middot;") + "</span>";
  }
  var taken = {};
  (s.taken || []).forEach(function (id) { taken[id] = true; });
  var layout = (b.layouts || {})[String(s.age)] || [];
  var rows = {}, available = {};
  layout.forEach(function (slot) {
    var open = !taken[slot.id] && layout.every(function (o) {
      return !(o.row === slot.row + 1 && Math.abs(o.col - slot.col) === 1) || taken[o.id];
    });
    if (open) { available[slot.id] = true; }
    (rows[slot.row] = rows[slot.row] || []).push(slot);
  });
  var structure = Object.keys(rows).sort(function (x, y) { return x - y; }).map(function (row) {
    var cells = rows[row].map(function (slot) {
      var left = "position:absolute;font-size:0.85em;width:7.8em;overflow:hidden;white-space:nowrap;left:" + (slot.col * 4) + "em;";
      if (taken[slot.id]) { return ""; }
      var id = s.slots[slot.id];
      var face = id ? card(id, "slots." + slot.id) :
        '<span data-path="slots.' + slot.id + '" style="display:inline-block;margin:2px;padding:1px 6px;border-radius:4px;' +
        'background:#334155;color:#cbd5e1">face down</span>';
      return '<span style="' + left + (available[slot.id] ? "outline:2px solid #0ea5e9;border-radius:4px;" : "") + '">' + face + "</span>";
    }).join("");
    return '<div style="position:relative;height:1.9em">' + cells + "</div>";
  }).join("");
  var seats = s.names.map(function (name, seat) {
    var built = {};
    s.built_wonders[seat].forEach(function (w) { built[w] = true; });
    var ws = s.wonders[seat].map(function (w) {
      var k = s.built_wonders[seat].indexOf(w);
      var out = (s.wonders_out || []).indexOf(w) >= 0;
      return built[w] ? "<b>" + esc(wonders[w] || w) + "</b> (" + esc((cards[s.under[seat][k]] || { name: s.under[seat][k] }).name) + ")" :
        '<span style="' + (out ? "text-decoration:line-through;" : "") + 'color:#64748b">' + esc(wonders[w] || w) + "</span>";
    }).join(", ");
    var city = s.built[seat].map(function (id, k) { return card(id, "built[" + seat + "][" + k + "]"); }).join("");
    return '<div class="seat' + (seat === ctx.acting ? " acting" : "") + '" data-seat="' + seat + '">' +
      '<span class="name">' + esc(name) + "</span>" +
      '<div><span class="stat">coins <b class="num" data-path="coins[' + seat + ']" data-value="' + s.coins[seat] + '">' +
      s.coins[seat] + "</b></span>" +
      '<span class="stat" data-path="tokens[' + seat + ']">tokens ' + (named(s.tokens[seat], tokens) || "none") + "</span>" +
      (ctx.totals ? '<span class="stat">points so far <b class="num">' + ctx.totals[seat] + "</b></span>" : "") + "</div>" +
      '<div data-path="built_wonders[' + seat + ']">Wonders: ' + (ws || '<span class="meta">none yet</span>') + "</div>" +
      '<div data-path="built[' + seat + ']">' + (city || '<span class="meta">no building yet</span>') + "</div></div>";
  }).join("");
  /* Pantheon: the spaces (each seat's price; face-down Divinities by their mythology's back), each
   * seat's Mythology and Offering tokens, the coins on Astarte and the Divinities activated. */
  var pantheon = "";
  if (s.pantheon) {
    var pb = b.pantheon || {}, gods = pb.divinities || {}, costs = pb.costs || [], p = s.pantheon;
    var backs = { mesopotamian: "#15803d", phoenician: "#ca8a04", greek: "#1d4ed8", egyptian: "#6b7280", roman: "#b91c1c", gate: "#e2e8f0" };
    var spaces = p.spaces.map(function (sp, i) {
      var c = costs[i] || [0, 0], mine = s.first === 0 ? [c[0], c[1]] : [c[1], c[0]];
      var price = ' <span class="meta">' + mine[0] + "/" + mine[1] + "</span>";
      if (!sp) { return '<span data-path="pantheon.spaces[' + i + ']" class="meta">empty' + price + "</span>"; }
      var g = gods[sp.divinity] || { name: sp.divinity, mythology: sp.mythology || "" };
      var face = sp.face_up ? esc(g.name) : "face down";
      return '<span data-path="pantheon.spaces[' + i + ']" style="display:inline-block;margin:2px;padding:1px 6px;border-radius:4px;' +
        "border:2px solid " + (backs[g.mythology] || "#334155") + '">' + face + price + "</span>";
    }).join(" ");
    var held = s.names.map(function (name, seat) {
      var acts = p.activated[seat].map(function (a) { return esc((gods[a.divinity] || { name: a.divinity }).name) + " (Age " + a.age + ")"; });
      return '<div data-path="pantheon.activated[' + seat + ']">' + esc(name) + ": mythology " + (esc(p.mythology[seat].join(", ")) || "none") +
        " · offerings " + (p.offerings[seat].join(", ") || "none") + (p.reserve[seat] ? " · Astarte " + p.reserve[seat] : "") +
        " · Divinities " + (acts.join(", ") || "none") + "</div>";
    }).join("");
    pantheon = '<div style="margin:6px 0">Pantheon (' + esc(s.names[0]) + "/" + esc(s.names[1]) + " price): " + spaces +
      (p.minerva !== null ? ' · Minerva on <b data-path="pantheon.minerva">' + p.minerva + "</b>" : "") + "</div>" + held;
  }
  // --- Agora: the Senate
  var senate = "";
  if (s.agora) {
    var ag = s.agora, decrees = b.decrees || {}, plots = b.conspiracies || {};
    senate = '<div data-path="agora.influence" style="margin:6px 0">Senate: ' + (b.chambers || []).map(function (ch) {
      var cubes = ag.influence[ch.id] || [0, 0], who = cubes[0] > cubes[1] ? 0 : cubes[1] > cubes[0] ? 1 : -1;
      var held = ag.decrees[ch.id], shown = (Array.isArray(held) ? held : [held]).map(function (d) {  // two after Insider Influence
        return d ? esc(decrees[d] || d) : "Decree face down";
      }).join(" + ") || "no Decree";
      return '<span style="display:inline-block;margin:2px;padding:2px 6px;border:1px solid #94a3b8;border-radius:4px' +
        (who >= 0 ? ";background:#e0f2fe" : "") + '">' + esc(ch.id.replace("_", " ")) + " (" + ch.vp + " VP): " +
        cubes[0] + "&ndash;" + cubes[1] + (who >= 0 ? " <b>" + esc(s.names[who]) + "</b>" : "") + "<br>" +
        '<span class="meta">' + shown + "</span></span>";
    }).join("") + "</div>";
    senate += s.names.map(function (name, seat) {
      var hand = (ag.hands[seat] || []).map(function (c) {
        return (c.id ? esc(plots[c.id] || c.id) : "a conspiracy") + (c.prepared ? " (prepared)" : "");
      }).join(", ");
      return '<div data-path="agora.hands[' + seat + ']">' + esc(name) + ": " + ag.senators[seat].length + " Senators; conspiracies " +
        (hand || "none") + (ag.triggered[seat].length ? "; triggered " + ag.triggered[seat].map(function (c) {
          return esc(plots[c] || c);
        }).join(", ") : "") + (ag.removed && ag.removed.seat === seat && ag.removed.cards.some(Boolean) ?
          "; removed cards seen (Treason): " + ag.removed.cards.filter(Boolean).map(function (c) {
            return esc((cards[c] || {}).name || c);
          }).join(", ") : "") + "</div>";
    }).join("");
  }
  // --- end Agora
  return '<div class="meta">Age <b data-path="age">' + s.age + "</b> · turn " + s.turn + " · " + esc(s.phase) +
    ' · discard pile <b data-path="discard">' + s.discard.length + "</b>" +
    (s.victory ? " · " + esc(s.victory) + " victory" : "") + "</div>" +
    '<div data-path="pawn" data-value="' + s.pawn + '">' + esc(s.names[0]) + "'s capital " + track + " " + esc(s.names[1]) +
    "'s capital</div>" +
    '<div data-path="board_tokens">progress tokens: ' + (named(s.board_tokens, tokens) || "none") + "</div>" +
    senate + '<div style="margin:6px 0">' + structure + "</div>" + seats + pantheon;
};
