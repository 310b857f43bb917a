"""Femkort's state: plain dataclasses with value equality, so a test can compare a deep copy after a
rejected event. The rules that change it live in hand.py (one hand) and game.py (the match)."""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from ..cards import Card
from ..chips import Chips
from ..engine import Violation
from ..holding import Holding
from .options import FemkortOptions
from .tricks import Claim, TrickRules


class Phase(Enum):
    BETWEEN_HANDS = "between_hands"  # the next hand is set up; its stakes are paid on its first line
    DEALING = "dealing"  # stakes paid, cards arriving; no card played yet (V1 requests allowed)
    REDEAL_VOTE = "redeal_vote"  # V1: a request waits for every other player's answer
    PLAYING = "playing"  # tricks 1..5
    MATCH_OVER = "match_over"


@dataclass
class Hand:
    """One hand (deal + five tricks). `seats` is the deal order: forehand first, dealer last (FK-R7)."""

    number: int
    dealer: int
    seats: tuple[int, ...]
    stake: int  # what each seat pays into the pot at the start (FK-R6, FK-R16, V4, GAP-FK-6)
    stake_reason: str  # "stake", or "restake" after a no-winner hand
    holdings: list[Holding]
    started: bool = False
    owner: dict[Card, int] = field(default_factory=dict)  # every read card dealt, and to whom
    rules: TrickRules = field(default_factory=TrickRules)
    trump_card: Card | None = None
    redeal_by: int | None = None  # V1: the seat whose request is being voted on
    agreed: list[int] = field(default_factory=list)
    trick_number: int = 1
    order: tuple[int, ...] = ()  # who plays the current trick, leader first (FK-R9)
    trick: list[Card] = field(default_factory=list)
    tricks_won: dict[int, int] = field(default_factory=dict)
    played: dict[Card, int] = field(default_factory=dict)  # card -> trick it was played to
    claims: list[tuple[int, int, Claim]] = field(default_factory=list)  # (seat, trick, claim), unread hands


@dataclass
class MatchState:
    options: FemkortOptions
    chips: Chips
    hand: Hand
    phase: Phase = Phase.BETWEEN_HANDS
    pots_won: list[int] = field(default_factory=list)
    hands_finished: int = 0
    hand_winner: int | None = None
    decider: tuple[int, ...] | None = None  # FK-R18: the tied seats, once a decider is due
    time_up: bool = False
    winner: int | None = None
    violations: list[Violation] = field(default_factory=list)

    @property
    def players(self) -> int:
        return len(self.chips.balances)

