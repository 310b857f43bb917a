"""Helpers for the Färbeln tests: build a table, play events checking chip conservation, assert rejections."""
from __future__ import annotations

import copy
from typing import Any

import pytest

from controller.engine import Event, IllegalEvent, effects_json
from controller.ferbli.game import FerbliGame, new_game
from controller.history import Header

NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal")


def table(players: int = 3, chips: int | list[int] = 100, dealer: int = 0, **options: Any) -> FerbliGame:
    balances = chips if isinstance(chips, list) else [chips] * players
    return new_game(Header("ferbli", NAMES[:players], dealer, {"min": 1, "max": 10, **options}, tuple(balances)))


def play(game: FerbliGame, *events: Event) -> list[dict[str, Any]]:
    """Apply events that must be accepted; the chip total must not change. Returns the last event's effects
    as the replay prints them."""
    total = game.chips.total
    effects: list[dict[str, Any]] = []
    for event in events:
        effects = effects_json(game.apply(event))
        assert game.chips.total == total, f"chips not conserved after {event}"
    return effects


def rejected(game: FerbliGame, event: Event, fragment: str) -> str:
    """The event must be rejected with a reason containing `fragment`, and change nothing."""
    before = copy.deepcopy(game)
    with pytest.raises(IllegalEvent) as info:
        game.apply(event)
    assert fragment in str(info.value), str(info.value)
    assert game == before
    return str(info.value)


def chips_of(effects: list[dict[str, Any]]) -> dict[tuple[int, str], int]:
    """Chip movements of a list of effects, summed per (seat, reason)."""
    moves: dict[tuple[int, str], int] = {}
    for effect in effects:
        if "chips" in effect:
            key = (effect["seat"], effect["reason"])
            moves[key] = moves.get(key, 0) + effect["chips"]
    return moves


def deal(*hands: list[str | None]) -> Event:
    return {"type": "deal", "hands": [list(hand) for hand in hands]}


def card(seat: int, text: str | None, **extra: Any) -> Event:
    return {"type": "deal", "seat": seat, "card": text, **extra}


def act(kind: str, seat: int, amount: int | None = None, **fields: Any) -> Event:
    event: Event = {"type": kind, "seat": seat, **fields}
    if amount is not None:
        event["amount"] = amount
    return event


def join(seat: int) -> Event:
    return act("join", seat)


def fold(seat: int) -> Event:
    return act("fold", seat)


def buy(seat: int, option: str, *discard: str | None) -> Event:
    return act("buy", seat, option=option, discard=list(discard))
