"""Cards of deck designs never trained on that the recognizer used to name wrong with full confidence
(issue 27: never confidently wrong on a deck it does not know), on frames rendered from Debian's card
themes (tests/data/decks, GPL-3+, see its README)."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.readings import UNKNOWN
from vision.recognize import Recognizer

DATA = Path(__file__).parent / "data" / "decks"


@pytest.fixture(scope="module")
def recognizer() -> Recognizer:
    return Recognizer()


def _named(recognizer: Recognizer, frame: np.ndarray) -> list[str]:
    return [c.card for c in recognizer.read(frame) if c.card != UNKNOWN]


def test_a_card_whose_two_corners_disagree_is_not_named_by_the_one(recognizer: Recognizer) -> None:
    """anglo_modern's blocky spades: one index of its 3S reads 3C at 0.998, the opposite one guesses 3S
    (0.76). The card is not named from the one corner (it was: a confident wrong 3C); its three spade pips
    then name it. Every card of the frame is read, none wrong."""
    frame = cv2.imread(str(DATA / "anglo_modern_separated_0.webp"))
    named = _named(recognizer, frame)
    assert "3C" not in named
    assert sorted(named) == ["2C", "3H", "3S", "5H", "6S", "8C", "AC", "AH"]


def test_one_card_read_from_two_corners_that_did_not_group_is_one_card(recognizer: Recognizer) -> None:
    """paris in grey: its QS's outline is lost in its court art, and each index read alone implied a card;
    the two readings did not group and the frame held two QS. One card lies under both: it is read once."""
    frame = cv2.imread(str(DATA / "paris_grey_separated_4_lower_left.png"))
    named = _named(recognizer, frame)
    assert Counter(named)["QS"] == 1
    assert set(named) <= {"5H", "7S", "QS", "3S", "AS", "QD", "JS", "QH"}  # the frame's cards
    assert len(named) == len(set(named))
