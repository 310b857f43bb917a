// The spectator page: draw /api/state, then follow /api/events; re-sync when the phone wakes.
"use strict";

(() => {
  const RECONNECT_MS = 2000;
  const race = [];  // the scores after each change seen (cribbage's chart)
  let version = -1, source = null;

  function show(doc) {
    if (doc.version <= version && doc.version !== 0) return;
    version = doc.version;
    const t = doc.table || {};
    if (t.game === "cribbage" && Array.isArray(t.scores)) {
      const last = race[race.length - 1];
      if (!last || last.join() !== t.scores.join()) race.push(t.scores.slice());
    }
    document.getElementById("status").innerHTML = Render.status(doc);
    document.getElementById("game").innerHTML = Render.game(doc, race);
    document.body.dataset.version = String(doc.version);
  }

  function setLive(state) {
    const badge = document.getElementById("live");
    badge.dataset.state = state;
    badge.textContent = state;
  }

  async function resync() {
    try {
      const reply = await fetch("/api/state", {cache: "no-store"});
      version = -1;  // a restarted service counts from 0 again: take what it says
      show(await reply.json());
      loadGames();
    } catch (e) { setLive("offline"); }
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

  function connect() {
    if (source) source.close();
    source = new EventSource("/api/events");
    source.onopen = () => { version = -1; setLive("live"); };  // a restarted service counts from 0 again
    source.onmessage = (message) => show(JSON.parse(message.data));
    source.onerror = () => {
      if (source.readyState !== EventSource.CLOSED) { setLive("connecting"); return; }
      // the browser gives up on a stream that answered with an error (a service shutting down): try again
      setLive("offline");
      setTimeout(() => resync().then(connect), RECONNECT_MS);
    };
  }

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") { resync(); connect(); }
  });
  resync().then(connect);
})();
