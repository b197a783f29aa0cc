/* St. Petersburg's board on the replay page: the upper and lower rows, the decks (a count each),
 * each seat's play area by colour, hand, roubles, points and markers; what the rules wait for.
 * Given ctx (see docs/page.md), returns HTML. In one seat's view the other hands are a count. */
return function (ctx) {
  var s = ctx.state, esc = ctx.esc, cards = (ctx.board && ctx.board.cards) || {};
  var colours = {worker: "#dff3e0", building: "#dde9fb", aristocrat: "#fbe0de"};
  var phases = ["worker", "building", "aristocrat", "trading"];
  function chip(id, path) {
    var c = cards[id] || {};
    var bg = colours[c.colour] || "#eee";
    var border = c.deck === "trading" ? "2px solid #8a6d3b" : "1px solid #c9ced8";
    var title = (c.name || id) + (c.cost !== undefined ? " · cost " + c.cost : "") +
      (c.rubles ? " · " + c.rubles + " roubles" : "") + (c.points ? " · " + c.points + " points" : "");
    return '<span data-path="' + path + '" title="' + esc(title) + '" style="display:inline-block;padding:2px 5px;margin:2px;' +
      "border:" + border + ";border-radius:4px;background:" + bg + '">' + esc(c.name || id) + "</span>";
  }
  function row(list, key) {
    return list.length ? list.map(function (c, k) { return chip(c, key + "[" + k + "]"); }).join("") : '<span class="meta">empty</span>';
  }
  function deckCount(d) {
    var v = s.decks[d];
    if (typeof v === "number") return v;
    var n = 0;
    for (var k in v) n += v[k];
    return n;
  }
  var next = Array.isArray(s.expect) ? esc(String(s.expect[0]).replace(/_/g, " ")) +
    (typeof s.expect[1] === "number" && s.names[s.expect[1]] !== undefined ? " by " + esc(s.names[s.expect[1]]) : "") : "";
  var seats = s.names.map(function (name, seat) {
    var marks = phases.filter(function (p, i) { return s.markers[i] === seat; }).join(", ");
    var hand = s.hand[seat];
    var handHtml = Array.isArray(hand) ? row(hand, "hand[" + seat + "]") : '<span class="meta">' + hand.count + " hidden</span>";
    return '<div class="seat' + (seat === ctx.acting ? " acting" : "") + '" data-seat="' + seat + '">' +
      '<span class="name">' + esc(name) + "</span>" + (s.winners.indexOf(seat) >= 0 ? " · winner" : "") +
      (marks ? " · starts " + esc(marks) : "") +
      ' · <span class="stat">roubles <b class="num" data-path="rubles[' + seat + ']">' + s.rubles[seat] + "</b></span>" +
      '<span class="stat">points <b class="num" data-path="points[' + seat + ']" data-value="' + s.points[seat] + '">' +
      s.points[seat] + "</b></span>" +
      '<div data-path="tableau[' + seat + ']">' + row(s.tableau[seat], "tableau[" + seat + "]") + "</div>" +
      '<div data-path="hand[' + seat + ']">hand: ' + handHtml + "</div></div>";
  }).join("");
  return '<div class="meta">round <b data-path="round">' + s.round + "</b> · " + esc(phases[s.phase] || "") + " phase" +
    (s.last_round ? " · last round" : "") + " · decks " +
    phases.map(function (d) { return esc(d) + " " + deckCount(d); }).join(", ") + (next ? " · next: " + next : "") + "</div>" +
    '<div data-path="top">upper row: ' + row(s.top, "top") + "</div>" +
    '<div data-path="bottom">lower row (1 rouble less): ' + row(s.bottom, "bottom") + "</div>" + seats;
};
