"""Cribbage options (header `options`) and the table layout they imply with the player count.

Option names are the history contract (`target`, `five_card`, `muggins`) plus the skunk lines and the match
values of CR-14. Everything that differs between the variants is data here, so the engine never asks
"which variant is this".
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..engine import SetupError
from ..options import parse_options


@dataclass(frozen=True)
class CribbageOptions:
    target: Literal[121, 61] | None = None  # None: 121, or 61 with five_card (V-five-card)
    five_card: bool = False
    muggins: bool = False
    # CR-14: a loser whose score is below `skunk_line` is skunked, below `double_skunk_line` double
    # skunked. None = the default of the target: 91 / 61 for 121, 31 / none for 61. 0 disables a line.
    skunk_line: int | None = None
    double_skunk_line: int | None = None
    # V-match: what a game is worth to its winner.
    match_win: int = 1
    match_skunk: int = 2
    match_double: int = 3

    def __post_init__(self) -> None:
        if not 0 <= self.double_skunk_below <= self.skunk_below <= self.game_target:
            raise ValueError(f"skunk lines must satisfy 0 <= double ({self.double_skunk_below}) "
                             f"<= skunk ({self.skunk_below}) <= target ({self.game_target})")
        if not 1 <= self.match_win <= self.match_skunk <= self.match_double:
            raise ValueError("match values must satisfy 1 <= match_win <= match_skunk <= match_double")

    @property
    def game_target(self) -> int:
        if self.target is not None:
            return self.target
        return 61 if self.five_card else 121

    @property
    def skunk_below(self) -> int:
        if self.skunk_line is not None:
            return self.skunk_line
        return 91 if self.game_target == 121 else 31

    @property
    def double_skunk_below(self) -> int:
        if self.double_skunk_line is not None:
            return self.double_skunk_line
        return 61 if self.game_target == 121 else 0

    def skunk(self, loser_score: int) -> str:
        """CR-14: "none", "skunk" or "double" for a loser with this score."""
        if loser_score < self.double_skunk_below:
            return "double"
        if loser_score < self.skunk_below:
            return "skunk"
        return "none"

    def match_points(self, skunk: str) -> int:
        return {"none": self.match_win, "skunk": self.match_skunk, "double": self.match_double}[skunk]


@dataclass(frozen=True)
class Layout:
    """How many cards go where, for one player count and variant (CR-4, V-five-card, V-three, V-four)."""

    players: int
    sides: int  # scoring tracks: one per player, or two partnerships (seat % 2)
    dealt: int  # cards dealt to each seat
    to_crib: int  # cards dealt straight to the crib (three players)
    discard: int  # cards each seat lays away to the crib
    single_series: bool  # five-card: the play ends with its first series
    start_bonus: int  # five-card: "three for last" pegged by pone at the start of the game

    @property
    def hand_size(self) -> int:
        """Cards a hand holds for the play and the show."""
        return self.dealt - self.discard

    @property
    def deal_total(self) -> int:
        return self.players * self.dealt + self.to_crib

    def side(self, seat: int) -> int:
        return seat % self.sides


def parse_cribbage_options(raw: dict | None) -> CribbageOptions:
    return parse_options(CribbageOptions, raw)


def table_layout(players: int, options: CribbageOptions) -> Layout:
    if players not in (2, 3, 4):
        raise SetupError(f"cribbage is for 2, 3 or 4 players, got {players}")
    if options.five_card:
        if players != 2:
            raise SetupError(f"five-card cribbage is a two-player game, got {players} players")
        return Layout(2, 2, dealt=5, to_crib=0, discard=2, single_series=True, start_bonus=3)
    if players == 2:
        return Layout(2, 2, dealt=6, to_crib=0, discard=2, single_series=False, start_bonus=0)
    # Three players: 5 each + 1 to the crib; four: 5 each, partners opposite share a track.
    return Layout(players, 3 if players == 3 else 2, dealt=5, to_crib=1 if players == 3 else 0, discard=1,
                  single_series=False, start_bonus=0)
