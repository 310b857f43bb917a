"""What the hub shows of the session: the public view (spectators) and the dealer view (the console).

Public: the game, who deals and who acts, the engine's summary (scores, chips, pots, pegs, violations:
all public at a real table) and the cards lying face up on the table as the camera sees them, except in
the deal reader's slot, where every dealt card is read face up and then goes into a hand. The dealer's
view adds the reader's cards, the current hand's events (an open deal's cards among them) and the hold
with the cards it may be.
"""
from __future__ import annotations

from typing import Any

from controller.table.inputs import READER
from controller.table.session import TableSession


def public_view(session: TableSession) -> dict[str, Any]:
    engine, picture = session.engine, session.table
    return {
        "game": session.setup.game, "players": list(session.setup.players), "dealer": engine.dealer,
        "phase": engine.phase.value, "to_act": engine.to_act(), "summary": engine.summary(),
        "face_up": {zone: list(cards) for zone, cards in picture.faces.items() if zone != READER and cards},
        "face_down": {zone: count for zone, count in picture.face_down.items() if count},
    }


def dealer_view(session: TableSession) -> dict[str, Any]:
    reader = session.table.faces.get(READER, [])
    return {**public_view(session), "reader": list(reader), "hand_events": session.hand_events(),
            "hold": session.dealer_hold()}
