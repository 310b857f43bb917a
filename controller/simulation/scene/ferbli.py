"""Färbeln players at the physical table: each move of the simulated table (controller.simulation.ferbli)
as the players make it (the table protocol's Färbeln moments). A hand lies face down before its player
(so the camera counts the first card dealt); the upcard is dealt face up into the buyer's zone; forehand
turns the two demanded cards up where they lie; a buyer lays his discard face down into the centre, then
the console enters the option; at the showdown a player turns his hand up. Amounts and answers come from
the console, a join or fold now and then from the seat's CONFIRM or GO. In a closed deal the dealer
presses NEXT after each run of face-down cards.
"""
from __future__ import annotations

import random

from controller.ferbli.phases import Phase
from controller.simulation.ferbli import FerbliTable
from controller.simulation.scene.actions import Action, Clear, Console, Lay, Press, Read, Take, TurnUp
from controller.simulation.scene.refusal import refused
from controller.simulation.scene.table import PhysicalTable
from controller.simulation.table import Move
from vision.observations import seat_zone

CENTRE = "centre"
BUTTONS = {"join": "confirm", "fold": "go"}  # a seat's buttons while it answers a bet


class FerbliPlayers:
    """The simulated table tells its engine every card, never in the `hands` shorthand, and never misdeals."""

    def __init__(self, sim: FerbliTable, table: PhysicalTable, open_deal: bool, rng: random.Random) -> None:
        self._sim, self.table, self.open_deal, self.rng = sim, table, open_deal, rng
        self._dealt_down = False  # face-down cards dealt since the dealer last pressed NEXT

    @property
    def sim(self) -> FerbliTable:
        return self._sim

    def actions(self, move: Move) -> list[Action]:
        event = move.event
        kind = event["type"]
        if kind == "deal":
            return self._deal(event)
        before = self._next_pressed() + self._showdown()
        if kind == "expose":
            return before + [TurnUp(seat_zone(event["seat"]), tuple(event["cards"]))]
        if kind == "buy":
            return before + self._buy(event)
        if kind == "reveal":  # a hand shown again after the deal is settled: it lies face up already
            return before
        if kind == "new_hand":
            return before + [Clear(), Press("next")]
        if kind in BUTTONS and self.rng.random() < 0.5:
            return before + [Press(BUTTONS[kind], event["seat"])]
        return before + [Console({"event": event})]

    def mistake(self, move: Move, rng: random.Random) -> list[Action]:
        """CONFIRM pressed by a seat that is not answering a bet."""
        game = self.sim.game
        seats = [seat for seat in range(game.players) if refused(game, {"type": "join", "seat": seat})]
        return [Press("confirm", rng.choice(seats))] if seats else []

    def finish(self) -> list[Action]:
        return self._next_pressed() + self._showdown()

    def _showdown(self) -> list[Action]:
        """Once the deal is settled, the seats at the showdown turn their hands face up (the simulated
        table's engine knows every card: it settled without a reveal; the session needs to see them)."""
        game = self.sim.game
        if game.phase not in (Phase.HAND_OVER, Phase.SHOWDOWN):
            return []
        zones = [seat_zone(seat) for seat in game.shown]
        return [TurnUp(zone) for zone in zones if self.table.cards_in(zone, face_up=False)]

    def _deal(self, event: dict) -> list[Action]:
        zone, card, up = seat_zone(event["seat"]), event["card"], bool(event.get("up"))
        read: list[Action] = [Read(card)] if self.open_deal else []
        if up:  # a face-up card needs no NEXT: the face-down ones before it do
            return self._next_pressed() + read + [Lay(zone, card)]
        self._dealt_down = not self.open_deal
        return read + [Lay(zone, card, face_up=False)]

    def _next_pressed(self) -> list[Action]:
        pressed, self._dealt_down = self._dealt_down, False
        return [Press("next")] if pressed else []

    def _buy(self, event: dict) -> list[Action]:
        """The discard laid face down into the centre, then the option entered (open deal too: the table
        counts the cards going down, and the engine keeps the read hand as the cards it may still hold)."""
        zone, seat = seat_zone(event["seat"]), event["seat"]
        moves: list[Action] = []
        for card in event["discard"]:
            moves += [Take(zone, card), Lay(CENTRE, card, face_up=False)]
        return moves + [Console({"event": {"type": "buy", "seat": seat, "option": event["option"]}})]
