/* Fleet's board on the replay page: the auction row (and the auction in progress), the fish supply,
 * and for each seat its licenses, its boats (captained or not, crates on each), its hand (a count in
 * another seat's view) and processed crates. Given ctx (see docs/page.md), returns HTML. */
return function (ctx) {
  var s = ctx.state, esc = ctx.esc, b = ctx.board || {};
  function chip(text, path, colour) {
    return '<span data-path="' + path + '" style="display:inline-block;padding:2px 6px;margin:2px;border:1px solid #c9ced8;' +
      "border-radius:4px;background:" + (colour || "#eef4fb") + '">' + esc(String(text).replace(/_/g, " ")) + "</span>";
  }
  function count(x) { return Array.isArray(x) ? x.length : x; }
  var row = s.row.map(function (x, k) {
    var info = (b.licenses || {})[x];
    return chip(x + (info ? " $" + info.cost : ""), "row[" + k + "]", "#fdf6e3");
  }).join("");
  var a = s.auction;
  var auction = a ? " · auction: " + esc(a.license.replace(/_/g, " ")) + " at <b data-path=\"auction.bid\">" + a.bid +
    "</b> led by " + esc(s.names[a.leader] || "?") : "";
  var seats = s.names.map(function (name, seat) {
    var lic = s.licenses[seat].map(function (x, k) { return chip(x, "licenses[" + seat + "][" + k + "]", "#fdf6e3"); }).join("");
    var boats = s.boats[seat].map(function (x, k) {
      var captain = x[1] ? " ⚓" : "";
      return chip(x[0] + captain + " " + x[2] + "/" + (b.capacity || 4), "boats[" + seat + "][" + k + "]", x[1] ? "#e7f5ec" : "#f4f4f4");
    }).join("");
    var hand = Array.isArray(s.hand[seat]) ? s.hand[seat].map(function (c, k) { return chip(c, "hand[" + seat + "][" + k + "]"); }).join("")
      : '<span data-path="hand[' + seat + ']">' + s.hand[seat] + " card(s)</span>";
    var total = ctx.totals && ctx.totals[seat] !== undefined ? ctx.totals[seat] : null;
    return '<div class="seat' + (seat === ctx.acting ? " acting" : "") + '" data-seat="' + seat + '">' +
      '<span class="name">' + esc(name) + "</span>" + (seat === s.first_player ? " · first player" : "") +
      (s.winners.indexOf(seat) >= 0 ? " · winner" : "") +
      "<div>licenses " + (lic || '<span class="meta">none</span>') + "</div>" +
      "<div>boats " + (boats || '<span class="meta">none</span>') + "</div>" +
      "<div>hand " + (hand || '<span class="meta">empty</span>') + "</div>" +
      '<div><span class="stat">processed <b class="num" data-path="processed[' + seat + ']">' + s.processed[seat] + "</b></span>" +
      (total !== null ? '<span class="stat">VP <b class="num">' + esc(String(total)) + "</b></span>" : "") + "</div></div>";
  }).join("");
  return '<div class="meta">round <b data-path="round">' + s.round + "</b> · " + esc(s.phase) +
    ' · fish supply <b data-path="supply">' + s.supply + '</b> · boat deck <b data-path="deck">' + count(s.deck) +
    '</b> · licenses left <b data-path="licenses_deck">' + count(s.licenses_deck) + "</b>" + auction + "</div>" +
    '<div data-path="row">auction row ' + (row || '<span class="meta">empty</span>') + "</div>" + seats;
};
