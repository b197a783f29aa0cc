/* Flip 7's board on the replay page: each seat's line of number cards, its modifier and action
 * cards, its status, round score and total; the piles; whose decision comes next. Given ctx (see
 * docs/page.md), returns HTML. In one seat's view the draw pile is only a count. */
return function (ctx) {
  var s = ctx.state, esc = ctx.esc;
  var drawCount = Array.isArray(s.draw) ? s.draw.length : s.draw.count;
  var next = Array.isArray(s.expect) && s.expect.length > 1 && s.names[s.expect[1]] !== undefined
    ? esc(String(s.expect[0]).replace(/_/g, " ")) + " by " + esc(s.names[s.expect[1]]) : "";
  function card(c, path) {
    var number = /^\d+$/.test(c);
    var colour = number ? "#fdf6e3" : (/^[x+]/.test(c) ? "#e7f5ec" : "#fde8e8");
    return '<span data-path="' + path + '" style="display:inline-block;min-width:26px;padding:3px 5px;margin:2px;border:1px solid #c9ced8;' +
      "border-radius:4px;text-align:center;font-weight:600;background:" + colour + '">' + esc(String(c).replace(/_/g, " ")) + "</span>";
  }
  var seats = s.names.map(function (name, seat) {
    var line = s.line[seat].map(function (c, k) { return card(c, "line[" + seat + "][" + k + "]"); }).join("");
    var area = s.area[seat].map(function (c, k) { return card(c, "area[" + seat + "][" + k + "]"); }).join("");
    return '<div class="seat' + (seat === ctx.acting ? " acting" : "") + '" data-seat="' + seat + '">' +
      '<span class="name">' + esc(name) + "</span>" + (seat === s.dealer ? " · dealer" : "") +
      (s.winners.indexOf(seat) >= 0 ? " · winner" : "") +
      ' · <span data-path="status[' + seat + ']">' + esc(s.status[seat]) + "</span>" +
      (s.chance[seat] ? ' · <span data-path="chance[' + seat + ']">Second Chance</span>' : "") +
      '<div data-path="line[' + seat + ']">' + (line || '<span class="meta">no number card</span>') + "</div>" +
      (area ? '<div data-path="area[' + seat + ']">' + area + "</div>" : "") +
      '<div><span class="stat">scored last round <b class="num" data-path="score[' + seat + ']">' + s.score[seat] + "</b></span>" +
      '<span class="stat">total <b class="num" data-path="total[' + seat + ']" data-value="' + s.total[seat] + '">' + s.total[seat] + "</b></span></div></div>";
  }).join("");
  return '<div class="meta">round <b data-path="round">' + s.round + "</b> · " + esc(s.phase) +
    ' · draw pile <b data-path="draw">' + drawCount + '</b> · discard pile <b data-path="discard">' +
    (Array.isArray(s.discard) ? s.discard.length : 0) + "</b>" + (next ? " · next: " + next : "") + "</div>" + seats;
};
