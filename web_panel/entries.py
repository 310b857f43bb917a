"""What the dealer sends, checked before the table sees it: a clear error naming the bad part, or the
entry the console port takes. Whether an entry is legal now is the session's to judge, not this."""
from __future__ import annotations

from typing import Any

from controller.cards import Card, CardError
from controller.service.config import DECKS, GAMES

from .ports import CHECK_STEPS, ENROLMENT_STEPS, GameStart

MAX_PLAYERS = 8
DEALS = ("closed", "open")


class EntryError(ValueError):
    """A console entry that cannot be sent on; the message names the field."""


def game_start(body: dict[str, Any]) -> GameStart:
    game = body.get("game")
    if game not in GAMES:
        raise EntryError(f"game: must be one of {', '.join(GAMES)}, not {game!r}")
    players = body.get("players")
    if not isinstance(players, list) or not 1 <= len(players) <= MAX_PLAYERS:
        raise EntryError(f"players: a list of 1 to {MAX_PLAYERS} names, not {players!r}")
    names = [name.strip() if isinstance(name, str) else name for name in players]
    if not all(isinstance(name, str) and name for name in names):
        raise EntryError(f"players: every name must be non-empty text, not {players!r}")
    dealer = body.get("dealer", 0)
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < len(names):
        raise EntryError(f"dealer: a seat 0..{len(names) - 1}, not {dealer!r}")
    deal = body.get("deal", "closed")
    if deal not in DEALS:
        raise EntryError(f"deal: must be closed or open, not {deal!r}")
    options = body.get("options", {})
    if not isinstance(options, dict):
        raise EntryError(f"options: must be an object of option names and values, not {options!r}")
    chips = body.get("chips")
    if chips is not None and (not isinstance(chips, list) or len(chips) != len(names)
                              or not all(type(c) is int and c >= 0 for c in chips)):
        raise EntryError(f"chips: one whole number of chips per player, not {chips!r}")
    return GameStart(game, tuple(names), dealer, deal, dict(options), None if chips is None else tuple(chips))


def table_event(body: dict[str, Any]) -> dict[str, Any]:
    event = body.get("event")
    if not isinstance(event, dict) or not isinstance(event.get("type"), str) or not event["type"]:
        raise EntryError(f"event: a hand-history event object with a \"type\", not {event!r}")
    return event


def card(body: dict[str, Any]) -> str:
    text = body.get("card")
    if not isinstance(text, str):
        raise EntryError(f"card: the held card as text like 10H or QS, not {text!r}")
    try:
        return str(Card.parse(text))
    except CardError as error:
        raise EntryError(f"card: {error}") from None


def confirmed(body: dict[str, Any], what: str) -> None:
    """A destructive action is sent with "confirm": true, after the page asked the dealer."""
    if body.get("confirm") is not True:
        raise EntryError(f"confirm: {what}; send \"confirm\": true once the dealer agrees")


def deck_check(body: dict[str, Any]) -> tuple[str, str | None]:
    """A deck check's step, and the deck a `start` names (None: the game's)."""
    step = body.get("step")
    if step not in CHECK_STEPS:
        raise EntryError(f"step: one of {', '.join(CHECK_STEPS)}, not {step!r}")
    deck = body.get("deck")
    if deck is not None and (step != "start" or deck not in DECKS):
        raise EntryError(f"deck: {' or '.join(DECKS)} with the step start (or left out for the game's deck), "
                         f"not {deck!r}" + ("" if step == "start" else f" with {step}"))
    return step, deck


def enrolment(body: dict[str, Any]) -> tuple[str, str | None]:
    """A live enrolment's step, and with `answer` the dealer's answer (text: empty, a card, or skip)."""
    step = body.get("step")
    if step not in ENROLMENT_STEPS:
        raise EntryError(f"step: one of {', '.join(ENROLMENT_STEPS)}, not {step!r}")
    answer = body.get("answer")
    if (step == "answer") != isinstance(answer, str):
        raise EntryError(f"answer: the dealer's answer as text with the step answer (\"\" for the card suggested, "
                         f"a card like QS, or skip), and only then; not {answer!r} with {step}")
    return step, answer
