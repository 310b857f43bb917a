"""Femkort players at the physical table: each move of the simulated table (controller.simulation.femkort)
as the players make it (the table protocol's Femkort moments): cards dealt (over the reader in an open
deal; NEXT once dealt in a closed one), each trick's cards laid face up in the players' zones and
gathered face down by its winner, the table cleared and NEXT between hands.
"""
from __future__ import annotations

import random

from controller.femkort.state import Phase
from controller.simulation.femkort import FemkortTable
from controller.simulation.scene.actions import Action, Clear, Gather, Lay, Press, Read
from controller.simulation.scene.refusal import refused
from controller.simulation.scene.table import PhysicalTable
from controller.simulation.table import Move
from vision.observations import seat_zone


class FemkortPlayers:
    """The simulated table tells its engine every card and starts every hand with `new_hand`."""

    def __init__(self, sim: FemkortTable, table: PhysicalTable, open_deal: bool) -> None:
        self._sim, self.table, self.open_deal = sim, table, open_deal

    @property
    def sim(self) -> FemkortTable:
        return self._sim

    def actions(self, move: Move) -> list[Action]:
        event = move.event
        kind = event["type"]
        if kind == "new_hand":  # the match's first hand needs no NEXT for it
            return [Clear(), Press("next")] if self.sim.game.state.hands_finished else []
        if kind == "deal":
            last = len(self.sim.pending) == 1  # the deal's events leave the queue as they are made
            dealt: list[Action] = [Read(event["card"])] if self.open_deal else []
            return dealt + ([Press("next")] if last and not self.open_deal else [])
        if kind == "play":
            return self._gathered() + [Lay(seat_zone(event["seat"]), event["card"])]
        raise ValueError(f"the demo's Femkort table makes no {kind!r} event")

    def mistake(self, move: Move, rng: random.Random) -> list[Action]:
        """A card laid out of turn (a revoke would not do: in a closed deal the table cannot see it yet)."""
        if move.event["type"] != "play":
            return []
        others = [seat for seat in self.sim.game.state.hand.seats if seat != move.event["seat"] and self.sim.hands[seat]]
        if not others:
            return []
        seat = rng.choice(others)
        card = str(self.sim.hands[seat][0])
        event = {"type": "play", "seat": seat, "card": card}
        return self._gathered() + [Lay(seat_zone(seat), card)] if refused(self.sim.game, event) else []

    def finish(self) -> list[Action]:
        return []

    def _gathered(self) -> list[Action]:
        """The last trick's winner gathers it before the next is led (he leads it)."""
        state = self.sim.game.state
        seats = [seat_zone(seat) for seat in state.hand.seats]
        if state.phase is not Phase.PLAYING or state.hand.trick or not any(self.table.cards_in(z, True) for z in seats):
            return []
        return [Gather(tuple(seats), seat_zone(state.hand.order[0]))]
