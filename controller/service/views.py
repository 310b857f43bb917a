"""The one builder of what the hub shows of the session: the public view (spectators, the panel's page,
/api/state, the stream) and the dealer view (the console, behind its PIN).

Public: the engine's `public_view()` (scores, pegs, the trick, pots and chips: what lies open at a real
table) with the players' names, the cards lying face up as the camera sees them, except in the deal
reader's slot (every dealt card is read face up there, then goes into a hand), and after a cribbage hand
the review of its discards and missed points (web_panel.review), once every card of it is shown.
Dealer: the engine's `dealer_view()` (the hands the deal reader read) with the same additions, the
reader's slot and the current hand's events. The hold goes in the hub's status, beside the view.

A refused event goes to spectators too ("Last refused: ..."), but the engine's reason is written for the
dealer and may name hidden cards (a Färbeln reveal refused names the cards the hand may hold): the
public refusal names only cards the public view shows, and a refused dealt card not at all; and it names
players, where the engines count seats from 0 ("seat 1 is to play" is Bo, not the first player).
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from controller.cribbage.game import CribbageGame, Phase
from controller.table.inputs import READER
from controller.table.session import TableSession
from web_panel.review import hand_review


DEAL_REFUSED = "a dealt card was refused (the dealer console says why)"  # its card is hidden
HIDDEN_CARD = "a hidden card"
SEAT_NUMBER = re.compile(r"\bseat (\d+)\b")  # the engines' words for a seat: its index from 0
CARD_NAME = re.compile(r"\b(?:10|[2-9AJQK])[SHDC]\b")  # controller.cards' names: 10H, QS, AD


def views(session: TableSession) -> tuple[dict[str, Any], dict[str, Any]]:
    """The public and the dealer view of the session as it stands, for one publish. The table part (names,
    the picture, a cribbage hand's review: some milliseconds) is built once and goes into both."""
    table = _table(session)
    reader = session.table.faces.get(READER, [])
    dealer = {**session.engine.dealer_view(), **table, "reader": list(reader), "hand_events": session.hand_events()}
    return {**session.engine.public_view(), **table}, dealer


def public_view(session: TableSession) -> dict[str, Any]:
    """The public view alone (what a refusal may name)."""
    return {**session.engine.public_view(), **_table(session)}


def _table(session: TableSession) -> dict[str, Any]:
    """What both views add to the engine's: the players' names, the table picture, the hand's review."""
    picture = session.table
    table = {"players": list(session.setup.players),
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


def public_refusal(entry: dict[str, Any], public: dict[str, Any]) -> dict[str, Any]:
    """A refused event (a Step's JSON entry) as spectators may see it beside the `public` view."""
    event = entry["event"]
    if event.get("type") == "deal":
        return {"type": "deal", "error": DEAL_REFUSED}
    shown = set(_card_names(public))
    error = CARD_NAME.sub(lambda card: card[0] if card[0] in shown else HIDDEN_CARD, entry["error"])
    players = public.get("players", [])
    error = SEAT_NUMBER.sub(lambda seat: players[int(seat[1])] if int(seat[1]) < len(players) else seat[0], error)
    return {"type": event.get("type"), "seat": event.get("seat"), "error": error}


def _card_names(value: Any) -> Iterator[str]:
    """Every card name anywhere in a view (its values only: keys are field names)."""
    if isinstance(value, str):
        if CARD_NAME.fullmatch(value):
            yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _card_names(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _card_names(item)
