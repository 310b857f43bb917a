// The hall board: draw /api/board, then follow /api/events (live.js; one whole board per version).
"use strict";

(() => {
  const GAMES = {cribbage: "Cribbage", femkort: "Femkort", ferbli: "Färbeln"};
  const esc = Render.esc;

  function standing(t) {
    const players = t.players || [];
    if (Array.isArray(t.scores)) {  // cribbage: a score per side
      return t.scores.map((s, side) => `${esc(players.filter((_, seat) => seat % t.scores.length === side).join(" & "))} ${s}`).join(" · ");
    }
    if (Array.isArray(t.chips)) {
      return players.map((p, seat) => `${esc(p)} ${t.chips[seat]}`).join(" · ") + (t.pot != null ? ` · pot ${t.pot}` : "");
    }
    return esc(players.join(", "));
  }

  function tableCard(t) {
    const state = t.online === false ? "offline" : t.online ? "online" : "unknown";
    const players = t.players || [];
    const lines = [
      `<h2><span>${esc(t.table)}</span><span class="badge" data-state="${t.online === false ? "offline" : "live"}">${state}</span></h2>`,
      t.game ? `<div>${esc(GAMES[t.game] || t.game)} <span class="dim">${esc(t.phase || "")}</span></div>` : '<div class="dim">no game yet</div>',
      `<div class="score">${standing(t)}</div>`,
    ];
    if (t.winner != null) lines.push(`<div class="who">won by ${esc(players[t.winner] || `seat ${t.winner + 1}`)}</div>`);
    else if (t.to_act != null && players[t.to_act] != null) lines.push(`<div class="dim">to act: ${esc(players[t.to_act])}</div>`);
    if (t.hold) lines.push(`<div class="hold">on hold: ${esc(t.hold.reason || "")}</div>`);
    if (t.fault) lines.push(`<div class="warn">${esc(t.fault)}</div>`);
    if (t.camera && t.camera !== "online") lines.push(`<div class="warn">camera ${esc(t.camera)}</div>`);
    if (t.missing_events) lines.push(`<div class="dim">${t.missing_events} events never arrived</div>`);
    return `<article class="card table-card" data-table="${esc(t.table)}" data-online="${t.online !== false}">${lines.join("")}</article>`;
  }

  function draw(doc) {
    document.getElementById("title").textContent = `Club evening: ${doc.club}, evening ${doc.evening.id}`;
    const fault = document.getElementById("fault");
    fault.hidden = !doc.fault;
    fault.textContent = doc.fault || "";
    document.getElementById("tables").innerHTML = doc.tables.map(tableCard).join("") || '<p class="card dim">no table yet</p>';
    document.getElementById("standing-rows").innerHTML = "<tr><th>player</th><th>points</th><th>won</th><th>played</th></tr>" +
      doc.standings.map((r) => `<tr><td>${esc(r.player)}</td><td>${r.points}</td><td>${r.won}</td><td>${r.played}</td></tr>`).join("");
    document.getElementById("game-list").innerHTML = doc.games.slice().reverse().map((g) =>
      `<li>${esc(g.table)} #${g.game} ${esc(GAMES[g.kind] || g.kind)}: ${esc(g.players.join(", "))} <a href="${esc(g.download)}" download>hand history</a></li>`).join("")
      || '<li class="dim">none yet</li>';
  }

  Live.follow("/api/board", "/api/events", draw);
})();
