// The hall board: draw /api/board, then follow /api/events (one whole board per version); re-sync on wake.
"use strict";

(() => {
  const RECONNECT_MS = 2000;
  const GAMES = {cribbage: "Cribbage", femkort: "Femkort", ferbli: "Färbeln"};
  let version = -1, source = null;
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

  function show(doc) {
    if (doc.version <= version) return;
    version = doc.version;
    document.getElementById("title").textContent = `Club evening: ${doc.club}`;
    document.getElementById("tables").innerHTML = doc.tables.map(tableCard).join("") || '<p class="card dim">no table yet</p>';
    document.getElementById("standing-rows").innerHTML = "<tr><th>player</th><th>points</th><th>won</th><th>played</th></tr>" +
      doc.standings.map((r) => `<tr><td>${esc(r.player)}</td><td>${r.points}</td><td>${r.won}</td><td>${r.played}</td></tr>`).join("");
    document.getElementById("game-list").innerHTML = doc.games.slice().reverse().map((g) =>
      `<li>${esc(g.table)} #${g.game} ${esc(GAMES[g.kind] || g.kind)}: ${esc(g.players.join(", "))} <a href="${esc(g.download)}" download>hand history</a></li>`).join("")
      || '<li class="dim">none yet</li>';
    document.body.dataset.version = String(doc.version);
  }

  function setLive(state) {
    const badge = document.getElementById("live");
    badge.dataset.state = state;
    badge.textContent = state;
  }

  async function resync() {
    try {
      const reply = await fetch("/api/board", {cache: "no-store"});
      version = -1;  // a restarted hall counts from 1 again: take what it says
      show(await reply.json());
    } catch (e) { setLive("offline"); }
  }

  function connect() {
    if (source) source.close();
    source = new EventSource("/api/events");
    source.onopen = () => { version = -1; setLive("live"); };
    source.onmessage = (message) => show(JSON.parse(message.data));
    source.onerror = () => {
      if (source.readyState !== EventSource.CLOSED) { setLive("connecting"); return; }
      setLive("offline");
      setTimeout(() => resync().then(connect), RECONNECT_MS);
    };
  }

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") { resync(); connect(); }
  });
  resync().then(connect);
})();
