/* 7 Wonders' board on the replay page: each city's Wonder (stages built of all), coins, military
 * tokens and structures by colour; the hands (in one seat's view, only its own); the discard pile.
 * Given ctx (see docs/page.md), returns HTML. */
return function (ctx) {
  var s = ctx.state, esc = ctx.esc, cards = ctx.board.cards || {}, wonders = ctx.board.wonders || [];
  function card(id, path) {
    var c = cards[id] || { name: id, colour: "" };
    return ctx.chip(c.name, c.colour, path, id);
  }
  function hand(h, seat) {
    if (!Array.isArray(h)) { return '<span class="meta">' + h + " cards in hand</span>"; }
    return h.length ? "hand: " + h.map(function (id, k) { return card(id, "hands[" + seat + "][" + k + "]"); }).join("") : "";
  }
  var seats = s.names.map(function (name, seat) {
    var w = wonders[seat] || { name: s.wonders[seat][0], side: s.wonders[seat][1], stages: "?" };
    var built = s.built[seat].map(function (id, k) { return card(id, "built[" + seat + "][" + k + "]"); }).join("");
    var tokens = s.tokens[seat].length ? s.tokens[seat].join(" ") : "none";
    return '<div class="seat' + (seat === ctx.acting ? " acting" : "") + '" data-seat="' + seat + '">' +
      '<span class="name">' + esc(name) + "</span> · " + esc(w.name) + " " + esc(String(w.side).toUpperCase()) +
      '<div><span class="stat">coins <b class="num" data-path="coins[' + seat + ']" data-value="' + s.coins[seat] + '">' +
      s.coins[seat] + '</b></span><span class="stat">Wonder <b class="num" data-path="stages[' + seat + ']">' + s.stages[seat] +
      "</b>/" + w.stages + '</span><span class="stat" data-path="tokens[' + seat + ']">tokens ' + esc(tokens) + "</span>" +
      (ctx.totals ? '<span class="stat">points so far <b class="num">' + ctx.totals[seat] + "</b></span>" : "") + "</div>" +
      '<div data-path="built[' + seat + ']">' + (built || '<span class="meta">no structure yet</span>') + "</div>" +
      "<div>" + hand(s.hands[seat] === undefined ? [] : s.hands[seat], seat) + "</div></div>";
  }).join("");
  var discard = Array.isArray(s.discard) ? s.discard.length : s.discard;
  return '<div class="meta">Age <b data-path="age">' + s.age + "</b> · turn " + s.turn + " · " + esc(s.phase) +
    ' · discard pile <b data-path="discard">' + discard + "</b></div>" + seats;
};
