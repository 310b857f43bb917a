"""The phases of one Färbeln deal (rules section C..F)."""
from __future__ import annotations

from enum import Enum


class Phase(Enum):
    MUS_DECISION = "mus_decision"  # FB-R11: forehand may declare a mus before the first card
    DEAL_1 = "deal_1"  # FB-R12: two cards each, forehand first, dealer last
    MUS_RESPONSE = "mus_response"  # FB-R13
    OPENING_STAKE = "opening_stake"  # FB-R14
    DEAL_2 = "deal_2"  # FB-R15
    OPENING_RESPONSE = "opening_response"  # FB-R16
    FIRST_DECISION = "first_decision"  # FB-R19: efterhand shows or raises (may first demand an exposure)
    EXPOSE = "expose"  # FB-R19: forehand lays two cards face up
    RAISE_RESPONSE = "raise_response"  # FB-R21
    BUYING = "buying"  # FB-R22..R25, including the cards dealt to each buyer
    DECISION = "decision"  # FB-R26: the decider shows or bets
    BET_RESPONSE = "bet_response"  # FB-R27
    LAST_JOINER = "last_joiner"  # FB-R29: the last joiner shows or raises
    SHOWDOWN = "showdown"  # FB-R33: waiting for the reveals of unread hands
    HAND_OVER = "hand_over"


RESPONSES = (Phase.MUS_RESPONSE, Phase.OPENING_RESPONSE, Phase.RAISE_RESPONSE, Phase.BET_RESPONSE)
DEALING = (Phase.MUS_DECISION, Phase.DEAL_1, Phase.DEAL_2, Phase.BUYING)
DECIDING = (Phase.OPENING_STAKE, Phase.FIRST_DECISION, Phase.DECISION, Phase.LAST_JOINER)  # `actor` decides
BUY_DISCARDS = {"upcard": (1,), "replace": (1, 2, 3), "all": (4,), "stand": (0,)}  # FB-R24
