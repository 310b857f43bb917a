"""Helpers for cribbage scenario tests: start a game, apply events, and check a refusal changes nothing."""
from __future__ import annotations

import copy
from typing import Any

import pytest

from controller.cribbage.game import CribbageGame, new_game
from controller.engine import IllegalEvent, effects_json
from controller.history import Header


def make(players: int = 2, dealer: int = 0, chips: Any = None, **options: Any) -> CribbageGame:
    return new_game(Header("cribbage", tuple(f"P{i}" for i in range(players)), dealer, options, chips))


def run(game: CribbageGame, *events: dict[str, Any]) -> list[dict[str, Any]]:
    """Apply events in order; return all their effects, as the replay prints them."""
    effects: list[dict[str, Any]] = []
    for event in events:
        effects += effects_json(game.apply(event))
    return effects


def rejected(game: CribbageGame, event: dict[str, Any], reason: str) -> str:
    """The event is refused with a message matching `reason`, and the state and summary are exactly unchanged."""
    state_before, summary_before = copy.deepcopy(game.state), copy.deepcopy(game.summary())
    with pytest.raises(IllegalEvent, match=reason) as caught:
        game.apply(event)
    assert game.state == state_before
    assert game.summary() == summary_before
    return str(caught.value)


def play(seat: int, card: str) -> dict[str, Any]:
    return {"type": "play", "seat": seat, "card": card}


def show_totals(effects: list[dict[str, Any]]) -> list[tuple[int, str, int]]:
    """(seat, hand|crib, total) per count, in the order counted."""
    totals: list[tuple[int, str, int]] = []
    for e in effects:
        if "show" not in e:
            continue
        if totals and totals[-1][:2] == (e["seat"], e["show"]):
            totals[-1] = (e["seat"], e["show"], totals[-1][2] + e["points"])
        else:
            totals.append((e["seat"], e["show"], e["points"]))
    return totals
