"""The one builder of what the hub shows of the session: the public view (spectators, the panel's page,
/api/state, the stream) and the dealer view (the console, behind its PIN).

Public: the engine's `public_view()` (scores, pegs, the trick, pots and chips: what lies open at a real
table) with the players' names, the cards lying face up as the camera sees them, except in the deal
reader's slot (every dealt card is read face up there, then goes into a hand), and after a cribbage hand
the review of its discards and missed points (web_panel.review), once every card of it is shown.
Dealer: the engine's `dealer_view()` (the hands the deal reader read) with the same additions, the
reader's slot and the current hand's events. The hold goes in the hub's status, beside the view.
"""
from __future__ import annotations

from typing import Any

from controller.cribbage.game import CribbageGame, Phase
from controller.table.inputs import READER
from controller.table.session import TableSession
from web_panel.review import hand_review


def public_view(session: TableSession) -> dict[str, Any]:
    return _with_table(session, session.engine.public_view())


def dealer_view(session: TableSession) -> dict[str, Any]:
    reader = session.table.faces.get(READER, [])
    return {**_with_table(session, session.engine.dealer_view()), "reader": list(reader),
            "hand_events": session.hand_events()}


def _with_table(session: TableSession, view: dict[str, Any]) -> dict[str, Any]:
    picture = session.table
    table = {**view, "players": list(session.setup.players),
             "face_up": {zone: list(cards) for zone, cards in picture.faces.items() if zone != READER and cards},
             "face_down": {zone: count for zone, count in picture.face_down.items() if count}}
    review = cribbage_review(session)
    if review is not None:
        table["review"] = review
    return table


def cribbage_review(session: TableSession) -> dict[str, Any] | None:
    """The finished hand's review, while the table stands between hands (every count shown). Not after a
    win mid-hand: the cards still in the hands were never shown."""
    engine = session.engine
    if not isinstance(engine, CribbageGame) or engine.phase is not Phase.HAND_OVER:
        return None
    return hand_review(session.hand_events(), len(session.setup.players), engine.dealer, engine.options.muggins)
