// The spectator page: draw /api/state, then follow /api/events (live.js); re-sync when the phone wakes.
"use strict";

(() => {
  const race = [];  // the scores after each change seen (cribbage's chart)

  function draw(doc) {
    const t = doc.table || {};
    if (t.game === "cribbage" && Array.isArray(t.scores)) {
      const last = race[race.length - 1];
      if (!last || last.join() !== t.scores.join()) race.push(t.scores.slice());
    }
    document.getElementById("status").innerHTML = Render.status(doc);
    document.getElementById("game").innerHTML = Render.game(doc, race);
  }

  async function loadGames() {
    try {
      const reply = await fetch("/api/history", {cache: "no-store"});
      const {games} = await reply.json();
      document.getElementById("game-list").innerHTML = games.map((g) =>
        `<li>#${g.id} ${Render.esc(g.game)}: ${Render.esc((g.players || []).join(", "))} ${g.download ? `<a href="${g.download}" download>hand history</a>` : '<span class="dim">playing</span>'}</li>`).join("")
        || '<li class="dim">none yet</li>';
    } catch (e) { /* the list waits for the next re-sync */ }
  }

  Live.follow("/api/state", "/api/events", draw, loadGames);
})();
