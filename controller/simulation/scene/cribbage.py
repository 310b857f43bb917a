"""Cribbage players at the physical table: each move of the simulated table (controller.simulation.cribbage)
as the players make it, with cards, buttons and the console (the table protocol's cribbage moments).
"""
from __future__ import annotations

from controller.cribbage.game import Phase
from controller.simulation.cribbage import Driver
from controller.simulation.scene.actions import Action, Clear, Console, Lay, Press, Read, TurnUp
from controller.simulation.scene.table import PhysicalTable
from controller.simulation.table import Move
from vision.observations import seat_zone


class CribbagePlayers:
    """`open_deal`: every card dealt passes over the deal reader; closed, the dealer presses NEXT when the
    cards are dealt. The driver tells its engine every card (no `unread`): the players hold real cards."""

    def __init__(self, driver: Driver, table: PhysicalTable, open_deal: bool) -> None:
        self.driver, self.table, self.open_deal = driver, table, open_deal

    def actions(self, move: Move) -> list[Action]:
        """What the players do to make `move` (before the simulated table commits it). Once the play is
        over the dealer turns the crib up for the show, whatever the simulated table's engine needs told
        (it knows every card)."""
        show = self.driver.game.phase in (Phase.SHOW, Phase.HAND_OVER) and self.table.cards_in("crib", face_up=False)
        return ([TurnUp("crib")] if show else []) + self._make(move.event)

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
        actions: list[Action] = [Read(event["card"])] if self.open_deal else []
        if event.get("to") == "crib":  # three players: one card dealt straight to the crib
            actions.append(Lay("crib", event["card"], face_up=False))
        if last and not self.open_deal:
            actions.append(Press("next"))
        return actions

    def _reveal(self, event: dict) -> list[Action]:
        if event.get("crib"):
            return []  # turned up as the show began
        zone = seat_zone(event["seat"])
        shown = self.table.cards_in(zone, face_up=True)
        return [Lay(zone, card) for card in event["cards"] if card not in shown]
