// The dealer console: sign in, draw the dealer document on every change, send entries with the CSRF token.
"use strict";

(() => {
  let csrf = document.querySelector('meta[name="csrf-token"]').content;
  let current = null;
  const $ = (id) => document.getElementById(id);

  function say(text, bad) {
    const box = $("answer");
    box.hidden = false;
    box.textContent = text;
    box.className = bad ? "card warn" : "card";
  }

  async function post(path, body) {
    const reply = await fetch(path, {method: "POST", headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf},
                                     body: JSON.stringify(body || {}), credentials: "same-origin"});
    const answer = await reply.json().catch(() => ({error: `HTTP ${reply.status}`}));
    if (answer.csrf) csrf = answer.csrf;
    if (reply.ok) say(answer.message || "done", false); else say(answer.error, true);
    refresh();
    return reply.ok;
  }

  function showDesk(signedIn) {
    $("sign-in").hidden = signedIn;
    $("desk").hidden = !signedIn;
    $("sign-out").hidden = !signedIn;
  }

  function drawHold(hold) {
    $("hold-panel").hidden = !hold;
    if (!hold) return;
    $("hold-reason").textContent = `${hold.reason}${hold.seat != null ? ` (seat ${hold.seat + 1})` : ""}`;
    const crop = $("crop");
    crop.hidden = true;
    crop.onload = () => { crop.hidden = false; };
    crop.src = `/console/api/hold/crop?v=${current.version}`;
    $("possible").innerHTML = (hold.possible || []).map((c) => `<button data-resolve="${Render.esc(c)}">${Render.card(c)}</button>`).join(" ");
  }

  function drawHands(t) {
    const hands = t.hands || [];
    $("hands").innerHTML = "<h2>Hands read</h2><ul>" + hands.map((h, seat) => {
      const cards = Array.isArray(h) ? h : (h.known || []);
      return `<li>${Render.esc(Render.name(t, seat))}: ${Render.cards(cards)}</li>`;
    }).join("") + "</ul>";
  }

  function drawCheck(status) {
    const mode = status.deck_check_mode, check = status.deck_check;
    $("deck-check").hidden = mode === "off";
    $("check-required").hidden = mode !== "required";
    const running = Boolean(check && check.state === "checking");
    $("check-start").hidden = running;
    $("check-next").hidden = $("check-finish").hidden = !running;
    $("check-gathered").hidden = running || !(check && check.lying);
    if (!check) { $("check-progress").innerHTML = ""; return; }
    const twice = Object.entries(check.twice || {}).map(([c, n]) => `${Render.card(c)} (${n}\u00d7)`).join(" ");
    let html = `<p id="check-count" data-state="${Render.esc(check.state)}"><strong>${check.read} of ${check.size}</strong> read`
      + (running ? `, spread ${check.spread}` : "") + `</p>`;
    if (check.summary) html += `<p id="check-verdict" class="${check.passed ? "" : "warn"}">${Render.esc(check.summary)}</p>`;
    if (check.at) html += `<p class="dim">checked ${Render.esc(check.at)}</p>`;
    html += `<p>Missing: <span id="check-missing">${Render.cards(check.missing)}</span></p>`;
    if (twice) html += `<p>Read twice: <span id="check-twice">${twice}</span></p>`;
    if (check.unread) html += `<p id="check-unread">${check.unread} seen but not read (spread them apart, in the light)</p>`;
    if ((check.foreign || []).length) html += `<p>Not of this deck: ${Render.cards(check.foreign)}</p>`;
    if (check.state === "failed") {
      html += `<p id="check-enrol">If the cards lay apart and still were not read, enrol this deck (below: Enrol the deck), then check it again.</p>`;
    }
    if (check.lying && !running) html += `<p class="dim">${check.lying} cards of the check still lie face up: gather them.</p>`;
    $("check-progress").innerHTML = html;
  }

  function drawEnrolment(e) {
    const running = Boolean(e && e.state === "enrolling"), review = Boolean(e && e.state === "review");
    $("enrol-start").hidden = running || review;
    $("enrol-finish").hidden = !running;
    $("enrol-line").textContent = (e && e.line) || "";
    $("enrol-said").textContent = e && running ? e.said : "";
    $("enrol-question").hidden = !(running && e.question);
    if (running && e.question) {
      $("enrol-asked").textContent = e.question.text + (e.question.suggestion ? ` (empty: ${e.question.suggestion})` : "");
    }
    $("enrol-review").hidden = !review;
    $("enrol-failed").innerHTML = review ? Render.cards(e.failed) : "";
    // a saved enrolment says when (the journal's) and how many cards: also the last one, after a restart
    const saved = e && e.state === "enrolled" ? `Enrolled${e.at ? " " + e.at : ""}${e.cards ? `: ${e.cards.length} cards` : ""}` : "Not saved yet";
    $("enrol-result").textContent = !e || !e.read_back ? "" : `${saved}. Test deal: ${e.read_back}.${e.glyphs ? " " + e.glyphs : ""}`;
  }

  async function refresh() {
    const reply = await fetch("/console/api/state", {cache: "no-store", credentials: "same-origin"});
    if (reply.status === 401) { showDesk(false); return; }
    current = await reply.json();
    showDesk(true);
    document.body.dataset.version = String(current.version);
    $("state").innerHTML = Render.status(current) + Render.game(current, []);
    drawHands(current.table || {});
    drawHold(current.status.hold);
    drawCheck(current.status);
    drawEnrolment(current.status.enrolment);
  }

  $("sign-in").addEventListener("submit", async (e) => {
    e.preventDefault();
    if (await post("/console/sign-in", {pin: $("pin").value})) $("pin").value = "";
  });
  $("sign-out").addEventListener("click", () => post("/console/sign-out"));
  $("possible").addEventListener("click", (e) => {
    const button = e.target.closest("[data-resolve]");
    if (button) post("/console/api/resolve", {card: button.dataset.resolve});
  });
  $("relay").addEventListener("click", () => post("/console/api/relay"));
  $("check-start").addEventListener("click", () => post("/console/api/deck-check", {step: "start", ...($("check-deck").value ? {deck: $("check-deck").value} : {})}));
  $("check-next").addEventListener("click", () => post("/console/api/deck-check", {step: "next"}));
  $("enrol-start").addEventListener("click", () => post("/console/api/enrolment", {step: "start"}));
  $("enrol-finish").addEventListener("click", () => post("/console/api/enrolment", {step: "finish"}));
  $("enrol-retake").addEventListener("click", () => post("/console/api/enrolment", {step: "retake"}));
  $("enrol-keep").addEventListener("click", () => post("/console/api/enrolment", {step: "keep"}));
  $("enrol-skip").addEventListener("click", () => post("/console/api/enrolment", {step: "answer", answer: "skip"}));
  $("enrol-question").addEventListener("submit", async (e) => {
    e.preventDefault();
    if (await post("/console/api/enrolment", {step: "answer", answer: $("enrol-card").value})) $("enrol-card").value = "";
  });
  $("check-finish").addEventListener("click", () => post("/console/api/deck-check", {step: "finish"}));
  $("check-gathered").addEventListener("click", () => post("/console/api/deck-check", {step: "gathered"}));
  $("undo").addEventListener("click", () => {
    if (confirm("Undo the last accepted event?")) post("/console/api/undo", {confirm: true});
  });
  $("end").addEventListener("click", () => {
    if (confirm("End the game where it stands?")) post("/console/api/end", {confirm: true});
  });
  $("entry").addEventListener("submit", (e) => {
    e.preventDefault();
    const type = $("entry-type").value, event = {type};
    if (type !== "time_up") event.seat = Number($("entry-seat").value) - 1;
    const amount = $("entry-amount").value;
    if (["stake", "mus", "bet", "raise"].includes(type)) event.amount = Number(amount);
    if (type === "claim") event.points = Number(amount);
    post("/console/api/event", {event});
  });
  $("start").addEventListener("submit", (e) => {
    e.preventDefault();
    let options;
    try { options = JSON.parse($("start-options").value || "{}"); } catch (err) { say("options: not JSON", true); return; }
    const chipsText = $("start-chips").value.trim();
    const chips = chipsText ? chipsText.split(",").map((n) => Number(n.trim())) : null;
    const playing = current && current.table && current.table.game && !current.table.game_over;
    if (playing && !confirm("A game is being played: end it and start this one?")) return;
    post("/console/api/start", {game: $("start-game").value, players: $("start-players").value.split(",").map((n) => n.trim()),
                                dealer: Number($("start-dealer").value) - 1, deal: $("start-deal").value, options, chips, confirm: playing});
  });

  const source = new EventSource("/api/events");  // the public stream says when something changed
  source.onmessage = () => { if (!$("desk").hidden) refresh(); };
  if (document.body.dataset.signedIn === "yes") refresh(); else showDesk(false);
})();
