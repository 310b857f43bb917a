"""Femkort's pure trick rules: card order, trick winner, follow suit and heading (FK-R2, FK-R10..13, V3, V5).

No state here: functions of a hand, the cards already in the trick (in play order) and the hand's rules.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Sequence

from ..cards import Card, Suit

HeadSemantics = Literal["beat_current_winner", "beat_all_cards"]


def rank_value(card: Card) -> int:
    """FK-R2: A K Q J 10 .. 2, ace high (2..14)."""
    return 14 if card.rank == 1 else card.rank


@dataclass(frozen=True)
class TrickRules:
    """What a hand's tricks obey: the trump suit (V5, else None) and the heading rule (FK-R11, V3, I-1)."""

    trump: Suit | None = None
    head_obligation: bool = True
    head_semantics: HeadSemantics = "beat_current_winner"


@dataclass(frozen=True)
class Claim:
    """What an accepted play says about the rest of an unread hand: no card of `suit` (bar None), or
    none ranked above `bar`. A later card of the seat that contradicts it proves a revoke."""

    suit: Suit
    bar: int | None

    @property
    def kind(self) -> str:
        return "revoke" if self.bar is None else "failure_to_head"

    def contradicted_by(self, card: Card) -> bool:
        return card.suit == self.suit and (self.bar is None or rank_value(card) > self.bar)


def winning_index(trick: Sequence[Card], trump: Suit | None = None) -> int:
    """FK-R13 / V5: the highest trump if any was played, else the highest card of the led suit."""
    suit = trump if trump is not None and any(c.suit is trump for c in trick) else trick[0].suit
    # A plain loop: this runs on every play (heading) and every trick; cards of one suit never tie.
    best, best_value = 0, 0
    for index, card in enumerate(trick):
        if card.suit is suit:
            value = 14 if card.rank == 1 else card.rank
            if value > best_value:
                best, best_value = index, value
    return best


def head_bar(trick: Sequence[Card], rules: TrickRules) -> Card | None:
    """The card a led-suit card must outrank to head the trick, or None when no led-suit card can (I-2)."""
    if rules.head_semantics == "beat_all_cards":
        return max(trick, key=rank_value)  # I-1 literal reading: off-suit discards count too
    winner = trick[winning_index(trick, rules.trump)]
    return winner if winner.suit == trick[0].suit else None


def _followers(hand: Sequence[Card], suit: Suit) -> list[Card]:
    return [c for c in hand if c.suit == suit]


def _headers(followers: Sequence[Card], trick: Sequence[Card], rules: TrickRules) -> list[Card]:
    bar = head_bar(trick, rules) if rules.head_obligation else None
    return [] if bar is None else [c for c in followers if rank_value(c) > rank_value(bar)]


def legal_cards(hand: Sequence[Card], trick: Sequence[Card], rules: TrickRules) -> list[Card]:
    """The cards of `hand` that may be played to `trick` (FK-R10, FK-R11, FK-R12, V3, V5)."""
    if not trick:
        return list(hand)
    followers = _followers(hand, trick[0].suit)
    if not followers:
        return list(hand)  # FK-R12 (and GAP-FK-12: trumping is allowed, never compulsory)
    return _headers(followers, trick, rules) or followers


def illegal_reason(hand: Sequence[Card], card: Card, trick: Sequence[Card], rules: TrickRules,
                   seat: int) -> str | None:
    """Why playing `card` from `hand` breaks FK-R10/FK-R11, or None when it is legal.

    Same judgement as `card in legal_cards(...)`, without comparing cards (this runs on every play)."""
    if not trick:
        return None
    led = trick[0].suit
    followers = _followers(hand, led)
    if card.suit != led:
        return f"illegal: seat {seat} must follow {led.word} (holds {_listed(followers)})" if followers else None
    bar = head_bar(trick, rules) if rules.head_obligation else None
    if bar is None or rank_value(card) > rank_value(bar):
        return None
    headers = _headers(followers, trick, rules)
    if not headers:
        return None
    return f"illegal: seat {seat} must head the trick with a {led.word} card above {bar} (holds {_listed(headers)})"


def claim_of(card: Card, trick: Sequence[Card], rules: TrickRules) -> Claim | None:
    """What playing `card` to `trick` claims about the player's other cards, if anything."""
    if not trick:
        return None
    led = trick[0].suit
    if card.suit != led:
        return Claim(led, None)
    bar = head_bar(trick, rules) if rules.head_obligation else None
    if bar is not None and rank_value(card) <= rank_value(bar):
        return Claim(led, rank_value(bar))
    return None


def _listed(cards: Sequence[Card]) -> str:
    return ", ".join(str(c) for c in sorted(cards, key=rank_value, reverse=True))
