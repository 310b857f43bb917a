// Following a live document (the panel's table, the hall's board): draw it from STATE_URL, then from the
// stream at EVENTS_URL; re-sync when the phone wakes or the stream gave up. The #live badge says how it goes.
"use strict";

const Live = (() => {
  const RECONNECT_MS = 2000;

  function setLive(state) {
    const badge = document.getElementById("live");
    badge.dataset.state = state;
    badge.textContent = state;
  }

  // draw(doc) is called for each newer version; resynced() after each re-sync (more to fetch, if any).
  function follow(stateUrl, eventsUrl, draw, resynced = () => {}) {
    let version = -1, source = null;

    function show(doc) {
      if (doc.version <= version && doc.version !== 0) return;
      version = doc.version;
      draw(doc);
      document.body.dataset.version = String(doc.version);
    }

    async function resync() {
      try {
        const reply = await fetch(stateUrl, {cache: "no-store"});
        version = -1;  // a restarted server counts again from the start: take what it says
        show(await reply.json());
        resynced();
      } catch (e) { setLive("offline"); }
    }

    function connect() {
      if (source) source.close();
      source = new EventSource(eventsUrl);
      source.onopen = () => { version = -1; setLive("live"); };
      source.onmessage = (message) => show(JSON.parse(message.data));
      source.onerror = () => {
        if (source.readyState !== EventSource.CLOSED) { setLive("connecting"); return; }
        // the browser gives up on a stream that answered with an error (a server shutting down): try again
        setLive("offline");
        setTimeout(() => resync().then(connect), RECONNECT_MS);
      };
    }

    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") { resync(); connect(); }
    });
    resync().then(connect);
  }

  return {follow};
})();
