"""Cribbage players at the physical table: each move of the simulated table (controller.simulation.cribbage)
as the players make it, with cards, buttons and the console (the table protocol's cribbage moments).
"""
from __future__ import annotations

import random

from controller.cribbage.game import HIGHEST, Phase
from controller.cribbage.pegging import LIMIT
from controller.simulation.cribbage import Driver
from controller.simulation.scene.actions import Action, Clear, Console, Lay, Press, Read, TurnUp
from controller.simulation.scene.refusal import refused
from controller.simulation.scene.table import PhysicalTable
from controller.simulation.table import Move
from vision.observations import seat_zone


class CribbagePlayers:
    """`open_deal`: every card dealt passes over the deal reader; closed, the dealer presses NEXT when the
    cards are dealt. The driver tells its engine every card (no `unread`): the players hold real cards."""

    def __init__(self, driver: Driver, table: PhysicalTable, open_deal: bool) -> None:
        self.driver, self.table, self.open_deal = driver, table, open_deal
        self._crib_card: list[Action] = []  # three players: dealt over the reader last

    @property
    def sim(self) -> Driver:
        return self.driver

    def actions(self, move: Move) -> list[Action]:
        """What the players do to make `move` (before the simulated table commits it). Once the play is
        over the table is shown for the show, whatever the simulated table's engine needs told (it knows
        every card)."""
        return self._show() + self._make(move.event)

    def finish(self) -> list[Action]:
        """The game is won: the table is still shown (a win on the crib's count needs it seen)."""
        return self._show()

    def mistake(self, move: Move, rng: random.Random) -> list[Action]:
        """Something a real player gets wrong while pegging, that the table refuses: a card laid out of turn,
        or GO while every card still fits; nothing when the rules would allow it."""
        game, truth = self.driver.game, self.driver.truth
        seat = game.to_act()
        if game.phase is not Phase.PLAY or seat is None:
            return []
        others = [s for s in range(game.players) if s != seat and truth.holding[s]]
        if others and rng.random() < 0.5:
            other = rng.choice(others)
            card = str(truth.holding[other][0])
            return [Lay(seat_zone(other), card)] if refused(game, {"type": "play", "seat": other, "card": card}) else []
        # GO only where every card fits: a table that did not read the hand refuses only that (above it, it
        # takes the GO and finds the false go at the show, while this engine, which knows the hand, would
        # have refused it: the two tables would part)
        return [Press("go", seat)] if game.state.hand.count + HIGHEST <= LIMIT else []

    def _show(self) -> list[Action]:
        """In counting order, each player lays the cards still in hand face up beside those played (the
        single series of five-card cribbage leaves some), then the dealer turns the crib up."""
        if self.driver.game.phase not in (Phase.SHOW, Phase.HAND_OVER, Phase.GAME_OVER):
            return []
        shown: list[Action] = []
        for seat, crib in self.driver.game.counting_order():
            if crib:
                shown += [TurnUp("crib")] if self.table.cards_in("crib", face_up=False) else []
            else:
                shown += self._lay_face_up(seat, [str(card) for card in self.driver.truth.holding[seat]])
        return shown

    def _make(self, event: dict) -> list[Action]:
        kind = event["type"]
        if kind == "deal":
            return self._deal(event)
        if kind == "discard":
            return [Lay("crib", card, face_up=False) for card in event["cards"]]
        if kind == "starter":
            return [Lay("starter", event["card"])]
        if kind == "play":
            return [Lay(seat_zone(event["seat"]), event["card"])]
        if kind == "go":
            return [Press("go", event["seat"])]
        if kind == "reveal":
            return self._reveal(event)
        if kind == "claim":
            return [Console({"event": event})]
        if kind == "new_hand":
            return [Clear(), Press("next")]
        raise ValueError(f"no cribbage table moment makes a {kind!r} event")

    def _deal(self, event: dict) -> list[Action]:
        last = len(self.driver.pending) == 1  # the deal's events leave the queue as they are made
        dealt: list[Action] = [Read(event["card"])] if self.open_deal else []
        if event.get("to") == "crib":  # three players: one card dealt straight to the crib, the last one
            self._crib_card = dealt + [Lay("crib", event["card"], face_up=False)]
            dealt = []
        if not last:
            return dealt
        crib_card, self._crib_card = self._crib_card, []
        return dealt + crib_card + ([] if self.open_deal else [Press("next")])

    def _reveal(self, event: dict) -> list[Action]:
        if event.get("crib"):
            return []  # turned up as the show began
        return self._lay_face_up(event["seat"], event["cards"])

    def _lay_face_up(self, seat: int, cards: list[str]) -> list[Action]:
        """`cards` laid in the seat's zone, less those already face up there."""
        zone = seat_zone(seat)
        shown = self.table.cards_in(zone, face_up=True)
        return [Lay(zone, card) for card in cards if card not in shown]

