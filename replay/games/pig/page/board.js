/* Pig's board on the replay page: each player's banked score against the target, and the turn
 * total of the player to roll. Given ctx (see docs/page.md), returns HTML. */
return function (ctx) {
  var s = ctx.state, esc = ctx.esc;
  var target = s.target || Math.max.apply(null, s.scores.concat([1]));
  var seats = s.names.map(function (name, seat) {
    var width = Math.min(100, 100 * s.scores[seat] / target);
    var playing = seat === s.current && !s.ended;
    return '<div class="seat' + (seat === ctx.acting ? " acting" : "") + '" data-seat="' + seat + '">' +
      '<span class="name">' + esc(name) + "</span>" + (s.winners.indexOf(seat) >= 0 ? " · winner" : "") +
      (playing ? " · to roll" : "") +
      '<div><span class="stat">banked <b class="num" data-path="scores[' + seat + ']" data-value="' + s.scores[seat] + '">' +
      s.scores[seat] + "</b></span>" +
      (playing ? '<span class="stat">this turn <b class="num" data-path="turn_total">' + s.turn_total + "</b></span>" : "") +
      '</div><div style="height:6px;background:#eef1f6;border-radius:3px"><div style="height:6px;border-radius:3px;background:#2f6fde;width:' +
      width + '%"></div></div></div>';
  }).join("");
  return '<div class="meta">turn <b data-path="turn">' + s.turn + "</b>" + (s.target ? " · target " + s.target : "") + "</div>" + seats;
};
