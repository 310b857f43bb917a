// Draws the table's documents as HTML. Pure: a document in, markup out (the spectator page and the
// console both use it). Every value from a document goes through esc().
"use strict";

const Render = (() => {
  const esc = (v) => String(v ?? "").replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
  const SUITS = {S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663"};
  const card = (text) => {
    if (text === null || text === undefined) return '<span class="dim">?</span>';
    const suit = text.slice(-1), rank = text.slice(0, -1);
    const red = suit === "H" || suit === "D";
    return `<span class="${red ? "red" : ""}" data-card="${esc(text)}">${esc(rank)}${SUITS[suit] || esc(suit)}</span>`;
  };
  const cards = (list) => `<span class="cards">${(list || []).map(card).join(" ") || '<span class="dim">none</span>'}</span>`;
  const name = (table, seat) => (table.players && table.players[seat]) || `Seat ${seat + 1}`;

  function status(doc) {
    const s = doc.status || {};
    const check = s.deck_check;
    const deck = !check ? null : check.state === "checking" ? `checking the ${check.deck}-card deck`
      : `${check.deck}-card deck ${check.state === "passed" ? "checked \u2713" : "failed its check \u2717"}`;
    const rows = [["Camera", s.camera], ["Peg board", s.pegboard], ...(deck ? [["Deck", deck]] : [])];
    let html = `<h2>Table</h2><table>${rows.map(([k, v]) => `<tr><th>${k}</th><td data-status="${k}">${esc(v)}</td></tr>`).join("")}</table>`;
    if (s.fault) html += `<p class="warn">Stopped: ${esc(s.fault)}</p>`;
    if (s.waiting) html += `<p class="warn" id="waiting">${esc(s.waiting[0].toUpperCase() + s.waiting.slice(1))}</p>`;
    if (s.club) html += `<p class="warn" id="club">Club: ${esc(s.club)}</p>`;
    if (s.hold) html += `<p class="warn" id="hold">On hold: ${esc(s.hold.reason)}${s.hold.seat != null ? ` (seat ${s.hold.seat + 1})` : ""}</p>`;
    if (s.last_refusal) html += `<p id="refusal">Last refused: ${esc(s.last_refusal.error)}</p>`;
    return html;
  }

  // ----- cribbage -----------------------------------------------------------------------------
  const PART_WORDS = {fifteen: "fifteen", pair: "a pair", run: "a run", flush: "a flush", nobs: "nobs"};

  function showWords(show) {
    // "fifteen two, fifteen four, a pair is six, and nobs is seven": the running total said aloud
    let total = 0;
    const said = show.breakdown.map((part) => {
      total += part.points;
      const what = part.reason === "run" ? `a run of ${part.cards.length}` : (PART_WORDS[part.reason] || part.reason);
      return `${what} ${part.reason === "fifteen" ? "" : "is "}${total}`;
    });
    if (!said.length) return "nineteen (nothing)";
    if (said.length > 1) said[said.length - 1] = "and " + said[said.length - 1];
    return said.join(", ");
  }

  function pegBoard(t) {
    const target = t.target, w = 340, left = 10, span = w - 2 * left, rowH = 22;
    const x = (score) => left + span * Math.min(score, target) / target;
    const colours = ["#c62828", "#1565c0", "#2e7d32", "#f9a825"];
    let svg = `<svg viewBox="0 0 ${w} ${t.pegs.length * rowH + 14}" role="img" aria-label="peg board" id="pegboard">`;
    svg += `<rect x="0" y="0" width="${w}" height="${t.pegs.length * rowH + 14}" rx="6" fill="#8d6e63"/>`;
    const lines = t.skunk_lines || {};
    for (const [label, at] of [["skunk", lines.skunk], ["double", lines.double]]) {
      if (at == null) continue;
      svg += `<line x1="${x(at)}" x2="${x(at)}" y1="2" y2="${t.pegs.length * rowH + 4}" stroke="#fff" stroke-dasharray="3 2" data-line="${label}"/>`;
    }
    t.pegs.forEach((peg, side) => {
      const y = 12 + side * rowH;
      svg += `<line x1="${left}" x2="${w - left}" y1="${y}" y2="${y}" stroke="#5d4037" stroke-width="6" stroke-linecap="round"/>`;
      svg += `<circle cx="${x(peg.back)}" cy="${y}" r="5" fill="${colours[side]}" opacity=".55" data-peg="back-${side}" data-score="${peg.back}"/>`;
      svg += `<circle cx="${x(peg.front)}" cy="${y}" r="7" fill="${colours[side]}" stroke="#fff" data-peg="front-${side}" data-score="${peg.front}"/>`;
    });
    svg += `<text x="${w - left}" y="${t.pegs.length * rowH + 12}" font-size="10" text-anchor="end" fill="#fff">${target}</text></svg>`;
    return svg;
  }

  function raceChart(t, race) {
    // the scores after each change this page saw, one line per side
    if (!race || race.length < 2) return "";
    const w = 340, h = 120, target = t.target;
    const colours = ["#c62828", "#1565c0", "#2e7d32", "#f9a825"];
    const sides = race[0].length;
    let svg = `<svg viewBox="0 0 ${w} ${h}" role="img" aria-label="score race" id="race"><rect width="${w}" height="${h}" fill="#fff"/>`;
    for (let side = 0; side < sides; side++) {
      const pts = race.map((scores, i) => `${(w * i / (race.length - 1)).toFixed(1)},${(h - h * Math.min(scores[side], target) / target).toFixed(1)}`);
      svg += `<polyline points="${pts.join(" ")}" fill="none" stroke="${colours[side]}" stroke-width="2"/>`;
    }
    return svg + "</svg>";
  }

  function review(t) {
    // after the hand: each discard against the best keep, and what a muggins claim missed
    const r = t.review;
    const throws = r.discards.map((d) => {
      if (!d.reviewed) return `<li>${esc(name(t, d.seat))}: ${esc(d.why)}</li>`;
      const verdict = d.rank === 1 ? "the best keep" :
        `keep #${esc(d.rank)} of 15; best was to throw ${cards(d.best.discard)} (${esc(d.best.net.toFixed(2))}), ${esc(d.cost.toFixed(2))} points better`;
      return `<li>${esc(name(t, d.seat))} threw ${cards(d.discard)}: ${esc(d.net.toFixed(2))} expected, ${verdict}</li>`;
    });
    const missed = r.missed.map((m) => `<li>${esc(name(t, m.seat))}${m.crib ? "'s crib" : ""}: claimed ${esc(m.claimed)} of ${esc(m.total)}, missed ${esc(m.missed)}</li>`);
    return `<h2>After the hand</h2><ul id="review">${throws.join("")}${missed.join("")}</ul>`;
  }

  function cribbage(t, race) {
    let html = `<h2>Cribbage to ${esc(t.target)}</h2>`;
    html += `<table>${t.scores.map((s, side) => `<tr><th>${esc(name(t, side))}${side === t.dealer ? " (deals)" : ""}</th><td data-score="${side}">${esc(s)}</td></tr>`).join("")}</table>`;
    html += pegBoard(t) + raceChart(t, race);
    if (t.winner != null) html += `<p class="warn">${esc(name(t, t.winner))} wins</p>`;
    html += `<p>Count <strong id="count">${esc(t.count)}</strong>: ${cards(t.series)}</p>`;
    if (t.starter) html += `<p>Starter ${cards([t.starter])}</p>`;
    const last = (t.shows || [])[t.shows.length - 1];
    if (last) {
      const whose = last.crib ? `${name(t, last.seat)}'s crib` : name(t, last.seat);
      html += `<p id="show">${esc(whose)}: ${cards(last.cards)} <br>&ldquo;${esc(showWords(last))}&rdquo; (${esc(last.total)})</p>`;
    }
    if (t.review) html += review(t);
    return html;
  }

  // ----- Femkort ------------------------------------------------------------------------------
  function femkort(t) {
    let html = `<h2>Femkort, hand ${esc(t.hand)}</h2>`;
    if (t.trump) html += `<p>Trump ${cards([t.trump])}</p>`;
    if (t.leader != null) html += `<p>Trick ${esc(t.trick_number)}, ${esc(name(t, t.leader))} leads</p>`;
    html += `<p id="trick">${t.trick.map((p) => `${esc(name(t, p.seat))} ${card(p.card)}`).join(", ") || '<span class="dim">no card on the table</span>'}</p>`;
    html += `<p>Pot <strong id="pot">${esc(t.pot)}</strong>, carry ${esc(t.carry)}, stake ${esc(t.stake)}</p>`;
    html += `<table><tr><th>Player</th><th>Tricks</th><th>Chips</th><th>Pots</th></tr>${t.seats.map((seat) =>
      `<tr><td>${esc(name(t, seat))}</td><td>${esc(t.tricks_won[seat])}</td><td>${esc(t.chips[seat])}</td><td>${esc(t.pots_won[seat])}/${esc(t.pots_to_win)}</td></tr>`).join("")}</table>`;
    if (t.winner != null) html += `<p class="warn">${esc(name(t, t.winner))} wins the match</p>`;
    return html;
  }

  // ----- Färbeln ------------------------------------------------------------------------------
  function ferbli(t) {
    let html = `<h2>F\u00e4rbeln</h2><p>Pot <strong id="pot">${esc(t.pot)}</strong>, carry ${esc(t.carry)}, level ${esc(t.level)}</p>`;
    if (t.round) html += `<p>${esc(name(t, t.round.bettor))} bets (${esc(t.round.reason)})${t.round.waiting.length ? `, waiting for ${t.round.waiting.map((s) => esc(name(t, s))).join(", ")}` : ""}</p>`;
    html += `<table><tr><th>Player</th><th>Chips</th><th>Paid</th><th>Up</th></tr>${t.seats.map((seat) =>
      `<tr${t.live.includes(seat) ? "" : ' class="dim"'}><td>${esc(name(t, seat))}${t.live.includes(seat) ? "" : " (out)"}</td><td>${esc(t.chips[seat])}</td><td>${esc(t.committed[seat])}</td><td>${cards(t.upcards[seat])}</td></tr>`).join("")}</table>`;
    if (t.exposed && t.exposed.length) html += `<p>Exposed ${cards(t.exposed)}</p>`;
    if (t.showdown && t.showdown.length) {
      html += `<h2>Showdown</h2><ul id="showdown">${t.showdown.map((h) => `<li>${esc(name(t, h.seat))}: ${cards(h.cards)} ${h.hand ? `&mdash; ${esc(h.hand)}` : ""}</li>`).join("")}</ul>`;
    }
    if (t.hand_winner != null) html += `<p>${esc(name(t, t.hand_winner))} takes the pot</p>`;
    return html;
  }

  const GAMES = {cribbage, femkort, ferbli};

  function game(doc, race) {
    const t = doc.table || {};
    const draw = GAMES[t.game];
    if (!draw) return '<p class="dim">No game is being played.</p>';
    return `<div data-game="${esc(t.game)}" data-version="${esc(doc.version)}">${draw(t, race)}</div>`;
  }

  return {esc, card, cards, status, game, showWords, name};
})();
