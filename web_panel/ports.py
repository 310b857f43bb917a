"""What the panel needs from the service, as Protocols the service implements (the panel imports no service).

`ConsolePort` is the dealer console's way into the table: each call is judged by the table session in
order with everything else and returns the session's answer. `Archive` is the journal's read side: the
games played, and a finished game as a hand history (the journal's `games()` and `history_lines()`).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol


# a deck check's, in the order the dealer takes them; "gathered": the dealer says the deck is off the table
# (when the camera cannot see the last of it go, e.g. under the pile)
CHECK_STEPS = ("start", "next", "finish", "gathered")
# a live enrolment's: "finish" enrols and reads back (a test deal); "retake" lays again the cards it did not
# read, "keep" saves the deck as it is
ENROLMENT_STEPS = ("start", "answer", "finish", "retake", "keep")


@dataclass(frozen=True)
class ConsoleAnswer:
    """The session's word on a console entry: accepted or not, and why in words."""

    ok: bool
    message: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "message": self.message}


@dataclass(frozen=True)
class GameStart:
    """A new game as the console asks for it (the table-log header's setup)."""

    game: str
    players: tuple[str, ...]
    dealer: int = 0
    deal: str = "closed"  # "open" when the deal reader reads every dealt card
    options: dict[str, Any] = field(default_factory=dict)
    chips: tuple[int, ...] | None = None  # each player's chips (Färbeln is played for chips)


class ConsolePort(Protocol):
    def start_game(self, start: GameStart) -> ConsoleAnswer:
        """End the current game (if any) and start this one."""
        ...

    def console_event(self, event: dict[str, Any]) -> ConsoleAnswer:
        """A hand-history event no camera sees: a Färbeln amount or answer, a muggins claim, time up."""
        ...

    def resolve_hold(self, card: str) -> ConsoleAnswer:
        """The dealer names the held card."""
        ...

    def relay(self) -> ConsoleAnswer:
        """The dealer asks the player to lay the held card again."""
        ...

    def undo(self) -> ConsoleAnswer:
        """Take back the last accepted event."""
        ...

    def end_game(self) -> ConsoleAnswer:
        """End the current game where it stands."""
        ...

    def hold_crop(self) -> bytes | None:
        """The held card's crop as a PNG, if the camera has one."""
        ...

    def deck_check(self, step: str, deck: str | None = None) -> ConsoleAnswer:
        """A deck check between games: `start` (of the deck `deck`, "52" or "32", or the game's), the
        `next` spread, `finish` (the verdict)."""
        ...

    def enrolment(self, step: str, answer: str | None = None) -> ConsoleAnswer:
        """Live enrolment of the table's deck between games: `start`, the `answer` to the view put to the
        dealer (nothing for the card suggested, a card, or skip), `finish` (enrol, test deal, read with it
        unless a card did not read back), `retake` (lay those cards again, then `finish`), `keep` (as it is)."""
        ...


class GameRecord(Protocol):
    """One game of the journal (controller.journal.GameRecord)."""

    @property
    def id(self) -> int: ...

    @property
    def header(self) -> dict[str, Any]: ...

    @property
    def started(self) -> str: ...

    @property
    def ended(self) -> str | None: ...

    @property
    def summary(self) -> dict[str, Any] | None: ...

    @property
    def events(self) -> int: ...


class Archive(Protocol):
    def games(self) -> Sequence[GameRecord]: ...

    def history_lines(self, game_id: int) -> Iterable[str]: ...
