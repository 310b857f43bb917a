"""A test driver for the Femkort engine that checks the engine's invariants on every single event:
chips are conserved, and a rejected event leaves the whole state exactly as it was."""
from __future__ import annotations

import copy
from typing import Any

import pytest

from controller.engine import IllegalEvent, effects_json

EffectJson = dict[str, Any]  # an effect as the replay prints it
from controller.femkort import FemkortGame, new_game
from controller.history import Header


class Table:
    def __init__(self, players: int = 3, dealer: int = 0, chips: list[int] | None = None, **options: Any):
        names = tuple(f"P{i}" for i in range(players))
        self.game: FemkortGame = new_game(Header("femkort", names, dealer, options,
                                                 None if chips is None else tuple(chips)))
        self.total = self.game.state.chips.total

    @property
    def chips(self) -> list[int]:
        return self.game.state.chips.balances

    def ok(self, event: dict[str, Any]) -> list[EffectJson]:
        effects = effects_json(self.game.apply(event))
        assert self.game.state.chips.total == self.total
        return effects

    def bad(self, event: dict[str, Any], fragment: str) -> None:
        before = copy.deepcopy(self.game.state)
        with pytest.raises(IllegalEvent, match=fragment):
            self.game.apply(event)
        assert self.game.state == before

    def deal(self, *hands: str | list[str | None]) -> list[EffectJson]:
        cards = [h.split() if isinstance(h, str) else h for h in hands]
        return self.ok({"type": "deal", "hands": cards})

    def play(self, seat: int, card: str) -> list[EffectJson]:
        return self.ok({"type": "play", "seat": seat, "card": card})

    def run(self, cards: str) -> list[EffectJson]:
        """Play these cards in turn order (whoever is to play); return all effects."""
        effects: list[EffectJson] = []
        for card in cards.split():
            seat = self.game.to_act()
            assert seat is not None, f"nobody is to play {card}"
            effects += self.play(seat, card)
        return effects

    def play_trick(self) -> list[EffectJson]:
        """Complete the current trick with the first legal card of each player in turn."""
        effects: list[EffectJson] = []
        for _ in self.game.state.hand.order[len(self.game.state.hand.trick):]:
            seat = self.game.to_act()
            assert seat is not None
            effects += self.play(seat, str(self.game.legal_plays(seat)[0]))
        return effects

    def play_out(self) -> list[EffectJson]:
        """Finish the hand with the first legal card of whoever is to play."""
        effects: list[EffectJson] = []
        while (seat := self.game.to_act()) is not None and self.game.state.hand.started:
            effects += self.play(seat, str(self.game.legal_plays(seat)[0]))
        return effects


def chip_moves(effects: list[EffectJson]) -> list[tuple[int, int, str]]:
    return [(e["seat"], e["chips"], e["reason"]) for e in effects if "chips" in e]


def notes(effects: list[EffectJson], kind: str) -> list[EffectJson]:
    return [e for e in effects if e.get("note") == kind]


# A deal that `winner` wins at every trick: he holds the four aces (he must head any lead) and KH.
WINNER_CARDS = "AS AH AD AC KH"
FILLER = [f"{r}{s}" for s in "SHDC" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q")]


def deal_won_by(winner: int, seats: list[int], players: int) -> list[str]:
    """Hands (one string per table seat) in which `winner` takes every trick; `seats` play the hand."""
    filler = iter(FILLER)
    return [WINNER_CARDS if s == winner else " ".join(next(filler) for _ in range(5)) if s in seats else ""
            for s in range(players)]
