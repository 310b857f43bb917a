"""Drawing for the deal (FB-R4, FB-R5): the highest rank deals, A > K > Q > J > 10 > 9 > 8 > 7.

Everyone who may deal draws (GAP-FB-2); equal highest ranks draw again, only the tied players
(GAP-FB-1). A draw is written as rounds, one list per round with a card per seat, `None` for a seat that
does not draw in that round.
"""
from __future__ import annotations

from typing import Sequence

from ..cards import Card, highest_seats
from .hands import HandError, check_in_deck, strength


class DrawError(ValueError):
    """A draw that does not follow FB-R4/FB-R5 or does not name a dealer."""


def dealer_by_draw(rounds: Sequence[Sequence[Card | None]], drawers: Sequence[int]) -> int:
    """The seat that deals after the draw: every seat in `drawers` draws, ties redraw until one is highest."""
    if not rounds:
        raise DrawError("a draw needs at least one round of cards")
    expected = sorted(drawers)
    for number, cards in enumerate(rounds, start=1):
        leaders = _round_leaders(number, cards, expected)
        if len(leaders) == 1:
            if number != len(rounds):
                raise DrawError(f"round {number} already has one highest card (seat {leaders[0]}); no redraw follows")
            return leaders[0]
        expected = leaders
    raise DrawError(f"the draw ends tied between seats {', '.join(map(str, expected))}: they must draw again")


def _round_leaders(number: int, cards: Sequence[Card | None], expected: list[int]) -> list[int]:
    drawn = {seat: card for seat, card in enumerate(cards) if card is not None}
    if sorted(drawn) != expected:
        raise DrawError(f"draw round {number}: seats {', '.join(map(str, expected))} must draw, "
                        f"got cards from seats {', '.join(map(str, sorted(drawn))) or 'none'}")
    if len(set(drawn.values())) != len(drawn):
        raise DrawError(f"draw round {number}: the same card is drawn twice")
    for card in drawn.values():
        try:
            check_in_deck(card)
        except HandError as error:
            raise DrawError(f"draw round {number}: {error}") from None
    return highest_seats(drawn, strength)
