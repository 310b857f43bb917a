"""What every simulated table shares: a chosen event with its truth update, and the step loop."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterator

from controller.engine import Effect, Engine, Event


def _nothing() -> None:
    return None


@dataclass
class Move:
    event: dict[str, Any]
    commit: Callable[[], None] = _nothing  # keeps the truth in step once the engine has accepted the event


class SimulatedTable:
    """A random legal table for `game`: subclasses say what happens next (`choose`), None when it is over."""

    game: Engine

    def choose(self) -> Move | None:
        raise NotImplementedError

    def step(self) -> tuple[Event, list[Effect]]:
        move = self.choose()
        assert move is not None, "the game is over"
        effects = self.game.apply(move.event)
        move.commit()
        return move.event, effects

    def events(self, limit: int = 5000) -> Iterator[tuple[Event, list[Effect]]]:
        """Play on until the game is over or `limit` events were accepted."""
        for _ in range(limit):
            move = self.choose()
            if move is None:
                return
            effects = self.game.apply(move.event)
            move.commit()
            yield move.event, effects
