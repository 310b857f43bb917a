"""Femkort's typed options: the variants V1–V5 and a default for every gap (RULES.md).

Names marked *contract* are fixed by the hand-history contract (controller/HISTORY.md); the others are this
engine's additions.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

MIN_PLAYERS = 3  # FK-R1
MAX_PLAYERS = 8  # FK-R1: 8 × 5 cards; more seats are not Femkort
HAND_SIZE = 5  # FK-R7
TRICKS = 5  # FK-R14: trick 5 wins the pot


@dataclass(frozen=True)
class FemkortOptions:
    stake: int = 1
    """*contract* FK-R3/FK-R6: base stake each player pays into the pot per hand."""
    pots_to_win: int = 3
    """*contract* FK-R3/FK-R17: the match ends when a player has won this many pots."""
    redeal_on_request: bool = False
    """*contract* V1: before the first card is played, a unanimous vote redeals (GAP-FK-7/8)."""
    best_of_three: bool = False
    """*contract* V2: pots are not paid hand by hand; the session kitty goes to the match winner (GAP-FK-9).
    The match still ends at `pots_to_win` pots (3 by default, the variant's name)."""
    no_head_obligation: bool = False
    """*contract* V3: FK-R11 (head the trick) is switched off; FK-R10 (follow suit) stays."""
    stake_escalation: bool = False
    """*contract* V4: the FK-R16 re-stake after a no-winner hand is 2 × stake, for that hand only (GAP-FK-10)."""
    trump: bool = False
    """*contract* V5: the dealer's fifth card is turned up; its suit is trump (GAP-FK-11, GAP-FK-12, I-2)."""
    contender_rule: Literal["all_play", "won_a_trick"] = "all_play"
    """*contract* GAP-FK-2 / FK-R15: reading A (everyone plays trick 5) or reading B (only trick winners)."""
    head_semantics: Literal["beat_current_winner", "beat_all_cards"] = "beat_current_winner"
    """*contract* I-1 / FK-R11: beat the card winning the trick, or (the source read to the letter) every card in it."""
    allow_two_players: bool = False
    """Engine addition, FK-R1: two-player Femkort is refused unless this is set."""
    starting_stack: int = 100
    """Engine addition: each seat's starting chips when the header's `chips` is null."""

    def __post_init__(self) -> None:
        for name in ("stake", "pots_to_win", "starting_stack"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)}")
        if self.trump and self.head_semantics == "beat_all_cards":
            # V5 fixes FK-R11 to its "beat the current winner" meaning (I-2).
            raise ValueError("trump (V5) heads by beating the current winner; "
                             "head_semantics 'beat_all_cards' cannot be combined with it")

    @property
    def min_players(self) -> int:
        return 2 if self.allow_two_players else MIN_PLAYERS
