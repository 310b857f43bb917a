"""Nothing hidden leaks: complete random games of the three, open deal (the deal reader reads every
card), through the table session; after every input the table is published to the hub as the service
does, and every public answer (/api/state) and stream message is scanned for a card hidden at that
moment. Hidden is worked out from the table log alone: a card read in the deal reader's slot stays
hidden until it lies face up on the table (played, turned, shown, exposed). Cards turned and laid down
one after another count as laid at once: at a Färbeln showdown the hands are shown the moment it is
called, and a counted crib the moment pegging ends, while the log lays their cards in the lines that
follow."""
from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from controller.cards import Card, CardError
from controller.history import Header
from controller.service.hub import StateHub
from controller.simulation import cribbage as cribbage_sim, femkort as femkort_sim, ferbli as ferbli_sim
from controller.table.inputs import READER
from controller.table.log import parse_table_log
from controller.table.session import TableSession
from panel_support import RecordingConsole, published, sse_messages
from table_logs import Line, cribbage_log, femkort_log, ferbli_log
from web_panel import create_app


def cards_named(text: str) -> set[Card]:
    """Every card a JSON text names, wherever it is."""
    found: set[Card] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, str):
            try:
                found.add(Card.parse(value))
            except CardError:
                pass

    walk(json.loads(text))
    return found


class HiddenCards:
    """The cards hidden at each moment, from the lines: read at the deal and not yet seen face up."""

    def __init__(self) -> None:
        self.hidden: set[Card] = set()

    def see(self, line: Line) -> None:
        if line.get("type") != "placed" or line.get("card") in (None, "unknown"):
            return
        card = Card.parse(line["card"])
        if line["zone"] == READER:
            self.hidden.add(card)  # dealt again in a later hand: hidden again
        else:
            self.hidden.discard(card)


GAMES: dict[str, Callable[[int], tuple[list[Line], dict[str, Any]]]] = {
    "cribbage": lambda seed: cribbage_log(cribbage_sim.header(2 + seed % 2, seed % 2, muggins=seed % 2 == 0),
                                          "open", seed),
    "femkort": lambda seed: femkort_log(femkort_sim.header(3 + seed % 2, seed % 3, [6, 6, 6, 6][:3 + seed % 2],
                                                           trump=seed % 2 == 1), "open", seed),
    "ferbli": lambda seed: ferbli_log(ferbli_sim.header(3, seed % 3, [12, 12, 12]), "open", seed),
}


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("seed", [0, 1])
def test_no_public_output_names_a_hidden_card(game: str, seed: int) -> None:
    lines, _ = GAMES[game](seed)
    header, parsed = parse_table_log(json.dumps(line) for line in lines)
    session = TableSession(header.header, header.deal)
    hub = StateHub()
    client = create_app(hub, RecordingConsole()).test_client()
    stream = client.get("/api/events")
    messages = sse_messages(iter(stream.response))
    next(messages), next(messages)  # the retry hint, then version 0
    truth = HiddenCards()
    checked = hidden_seen = 0
    body = lines[1:]
    for number, (raw, line) in enumerate(zip(body, parsed)):
        truth.see(raw)
        for following in body[number + 1:]:  # the cards being laid down at this moment
            if following.get("type") not in ("placed", "face_down") or following.get("zone") == READER:
                break
            truth.see(following)
        session.feed(line.input)
        hub.publish(*published(session))
        hidden_seen += bool(truth.hidden)
        state = client.get("/api/state").get_data(as_text=True)
        frame = next(messages)["data"]
        for where, text in (("/api/state", state), ("the stream", frame)):
            leaked = cards_named(text) & truth.hidden
            assert not leaked, f"{where} names hidden {sorted(map(str, leaked))} after line {line.number}: {raw}"
        dealer_cards = cards_named(json.dumps(hub.snapshot().dealer_document()))
        checked += bool(truth.hidden & dealer_cards)
    assert session.engine.game_over, "the simulated game was played to its end"
    assert hidden_seen and checked, "hidden cards were in play and the dealer's document named them"
    stream.close()
