"""A deck check at the table, between games: the dealer spreads the deck face up, in one spread or several
(a 52-card deck does not lie separated in one camera frame), and the table camera's settled, voted
observations are taken in here instead of by the game. Each spread is what was laid since the previous
one and still lies there when the dealer says "next spread"; the verdict is `vision.deck_check.check_deck`
over every spread. Pure: observations in, progress and verdict out.

After the verdict the deck still lies on the table: the check keeps taking the camera's observations until
the table is gathered, so its cards never reach the next game's table picture.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from vision.deck import FULL_DECK, PIQUET_DECK, Deck, deck_named
from vision.deck_check import DeckCheck, check_deck
from vision.observations import CardPlaced, CardRemoved, TableChange


def tally(cards: Counter[str], change: TableChange) -> None:
    """`cards`, what lies on the table, after the camera's `change` (a card placed or removed)."""
    if isinstance(change, CardPlaced):
        cards[change.card] += 1
    elif isinstance(change, CardRemoved):
        cards[change.card] = max(0, cards[change.card] - 1)


def game_deck(game: str) -> Deck:
    """The deck a game is played with: Färbeln's 32 cards (7..A), the 52 of cribbage and Femkort."""
    return PIQUET_DECK if game == "ferbli" else FULL_DECK


class DeckCheckError(ValueError):
    """A step the check cannot take now (the message says why, for the console)."""


@dataclass
class DeckCheckRun:
    deck: Deck
    spreads: list[Counter[str]] = field(default_factory=list)  # the spreads the dealer closed
    fresh: Counter[str] = field(default_factory=Counter)  # laid since the last spread closed, still lying
    lying: Counter[str] = field(default_factory=Counter)  # everything on the table as the camera sees it
    verdict: DeckCheck | None = None

    @classmethod
    def for_deck(cls, name: str) -> DeckCheckRun:
        return cls(deck_named(name))

    @property
    def gathered(self) -> bool:
        """Finished and the table cleared: the camera's observations go to the game again."""
        return self.verdict is not None and not +self.lying

    def see(self, observation: TableChange) -> None:
        """One camera observation (placed / removed; face-down counts and duplicates say nothing of a
        face-up spread: a card read twice at once is two placements already)."""
        tally(self.lying, observation)
        if self.verdict is None or isinstance(observation, CardRemoved):  # a finished check's spread only shrinks
            tally(self.fresh, observation)

    def next_spread(self) -> None:
        self._checking()
        if not +self.fresh:
            raise DeckCheckError("no card of this spread was seen yet: spread the cards face up, apart, and "
                                 "wait until the count rises")
        self.spreads.append(+self.fresh)
        self.fresh = Counter()

    def result(self) -> DeckCheck:
        """The verdict over every spread, this one too (`close` makes it final)."""
        self._checking()
        if not any(self.spreads) and not +self.fresh:
            raise DeckCheckError("no card was seen: spread the deck face up on the table first")
        return check_deck(self._cards(), self.deck)

    def close(self, verdict: DeckCheck) -> None:
        """The check is over; the camera's observations still come here until the deck is gathered."""
        if +self.fresh:
            self.spreads.append(+self.fresh)
            self.fresh = Counter()
        self.verdict = verdict

    def _checking(self) -> None:
        if self.verdict is not None:
            raise DeckCheckError("this deck check is finished: start a new one")

    def _cards(self) -> Iterable[str]:
        return (card for spread in (*self.spreads, self.fresh) for card in spread.elements())

    def progress(self) -> dict[str, Any]:
        """The check as the console shows it (dealer only: it names the cards)."""
        so_far = self.verdict or check_deck(self._cards(), self.deck)
        size = self.deck.size
        return {**so_far.to_json(), "state": self.state, "size": size, "read": size - len(so_far.missing),
                "spread": len(self.spreads) + (self.verdict is None), "lying": sum((+self.lying).values()),
                "summary": so_far.summary() if self.verdict else None}

    @property
    def state(self) -> str:
        if self.verdict is None:
            return "checking"
        return "passed" if self.verdict.passed else "failed"

