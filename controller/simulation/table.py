"""What every simulated table shares: a chosen event with its truth update, and the step loop."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Generic, Iterator, TypeVar

from controller.engine import Effect, Engine, Event


def _nothing() -> None:
    return None


@dataclass
class Move:
    event: dict[str, Any]
    commit: Callable[[], None] = _nothing  # keeps the truth in step once the engine has accepted the event


GameT = TypeVar("GameT", bound=Engine)


class SimulatedTable(Generic[GameT]):
    """A random legal table for `game`: subclasses say what happens next (`choose`), None when it is over."""

    game: GameT
    pending: list[Event]  # the rest of a deal being emitted card by card

    def _pending_move(self) -> Move:
        """The next event of the deal being emitted; it leaves the queue once the engine accepts it."""
        return Move(self.pending[0], self._drop_pending)

    def _drop_pending(self) -> None:
        del self.pending[0]

    def choose(self) -> Move | None:
        raise NotImplementedError

    def step(self) -> tuple[Event, list[Effect]]:
        move = self.choose()
        assert move is not None, "the game is over"
        return self._apply_move(move)

    def events(self, limit: int = 5000) -> Iterator[tuple[Event, list[Effect]]]:
        """Play on until the game is over or `limit` events were accepted."""
        for _ in range(limit):
            move = self.choose()
            if move is None:
                return
            yield self._apply_move(move)

    def _apply_move(self, move: Move) -> tuple[Event, list[Effect]]:
        effects = self.game.apply(move.event)
        move.commit()  # only once the engine has accepted the event
        return move.event, effects
