/* 7 Wonders Dice's board on the replay page: the Forum's dice with their sections and costs, then
 * each city's buildings with their spaces in board order (crossed ones filled), coins, resources,
 * bonuses and VP by category. Given ctx (see docs/page.md), returns HTML. */
return function (ctx) {
  var s = ctx.state, esc = ctx.esc, layout = ctx.board;
  var COLOURS = { grey: "#9aa3af", blue: "#3b82f6", red: "#dc2626", yellow: "#eab308", green: "#16a34a",
                  black: "#111827", white: "#f3f4f6", purple: "#9333ea" };
  function colourOf(die) { return COLOURS[String(die).replace(/[0-9]+$/, "")] || "#9aa3af"; }
  var forum = Object.keys(s.forum).map(function (die) {
    var rolled = String(s.forum[die]).split("@");
    var section = rolled.length > 1 ? parseInt(rolled[1], 10) : null;
    var cost = section !== null && layout.forum_sections ? layout.forum_sections[section] : null;
    return '<span data-path="forum.' + esc(die) + '" title="' + esc(die) + '" style="display:inline-block;margin:2px 4px;padding:3px 7px;' +
      "border-radius:5px;border:2px solid " + colourOf(die) + '">' + esc(rolled[0]) +
      (cost !== null ? ' <small>section ' + section + ", cost <b>" + cost + "</b></small>" : "") + "</span>";
  }).join("");
  var seats = s.players.map(function (p, seat) {
    var buildings = (layout.seats ? layout.seats[seat] : []).map(function (b) {
      var crossed = p.crossed[b.id] || [];
      var spaces = b.spaces.map(function (space) {
        var on = crossed.indexOf(space.id) >= 0;
        var tip = space.id + (space.cost ? " · cost " + space.cost : "") + (space.gives.length ? " · " + space.gives.join(", ") : "");
        return '<span class="space' + (on ? " crossed" : "") + '" data-space="' + esc(b.id + "/" + space.id) + '" title="' + esc(tip) +
          '" style="display:inline-block;min-width:20px;height:20px;margin:1px;padding:0 3px;font-size:10px;line-height:18px;text-align:center;' +
          "border:1px solid #aab2c0;border-radius:3px;" + (on ? "background:#334155;color:#fff" : "background:#fff") + '">' +
          (on ? "✓" : (space.cost ? space.cost : "·")) + "</span>";
      }).join("");
      return '<div data-path="players[' + seat + "].crossed." + esc(b.id) + '" style="white-space:nowrap">' +
        '<span style="display:inline-block;width:150px;overflow:hidden;vertical-align:middle;border-left:4px solid ' + (b.colour ? colourOf(b.colour) : "#b45309") +
        ';padding-left:4px">' + esc(b.name) + ' <small>' + crossed.length + "/" + b.spaces.length + "</small></span>" + spaces + "</div>";
    }).join("");
    var vp = Object.keys(p.vp).map(function (k) { return esc(k) + " " + p.vp[k]; }).join(", ");
    var total = ctx.totals ? ctx.totals[seat] : null;
    return '<div class="seat' + (seat === ctx.acting ? " acting" : "") + '" data-seat="' + seat + '">' +
      '<span class="name">' + esc(p.name) + "</span> · " + esc(p.city) +
      (s.phase === "actions" && s.next_seat === seat ? " · to act" : "") +
      '<div><span class="stat">coins <b class="num" data-path="players[' + seat + '].coins" data-value="' + p.coins + '">' + p.coins + "</b></span>" +
      '<span class="stat">resources <b class="num" data-path="players[' + seat + '].resources">' + Math.max(0, p.resources) + "</b></span>" +
      (total !== null && total !== undefined ? '<span class="stat">VP so far <b class="num" data-vp="' + seat + '">' + total + "</b></span>" : "") +
      '<span class="stat" data-path="players[' + seat + '].bonuses">bonuses ' + p.bonuses.map(function (b) { return b ? "■" : "□"; }).join("") + "</span>" +
      (p.unlocked.length ? '<span class="stat" data-path="players[' + seat + '].unlocked">unlocked ' + esc(p.unlocked.join(", ")) + "</span>" : "") +
      "</div>" + buildings + (vp ? '<div class="meta" data-path="players[' + seat + '].vp">VP scored: ' + vp + "</div>" : "") + "</div>";
  }).join("");
  return '<div class="meta">turn <b data-path="turn">' + s.turn + "</b> · " + esc(s.phase) +
    (s.final_turn ? " · final turn " + s.final_turn : "") + '</div><div data-path="forum">Forum: ' + forum + "</div>" + seats;
};
