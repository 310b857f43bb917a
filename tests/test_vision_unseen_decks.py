"""Cards of deck designs never trained on that the recognizer used to name wrong with full confidence
(issue 27: never confidently wrong on a deck it does not know), on frames rendered from Debian's card
themes (tests/data/decks, GPL-3+, see its README)."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.outline import find_outlines
from vision.pips import read_face
from vision.readings import UNKNOWN
from vision.recognize import Recognizer
from vision.training.casts import CASTS, apply_cast

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


@pytest.mark.parametrize("cast", ["pink", "blue"])
def test_under_a_tinted_light_the_pips_suit_vetoes_the_index_suit(recognizer: Recognizer, cast: str) -> None:
    """anglo_modern's frame under casts.py's pink and blue light: its 6S's blocky spades were read 6C on both
    corners at 0.99 (colour tells red from black, not a spade from a club); its six pips, which the pip
    network reads as spades, now veto that name. The other cards are read as before."""
    frame = apply_cast(cv2.imread(str(DATA / "anglo_modern_separated_0.webp")), CASTS[cast], seed=0)
    cards = [c.card for c in recognizer.read(frame)]
    assert "6C" not in cards
    assert sorted(c for c in cards if c != UNKNOWN) == ["2C", "3H", "3S", "5H", "8C", "AC", "AH"]


@pytest.mark.parametrize("card", ["8C", "2C"])
def test_under_a_warm_light_club_pips_veto_a_spade_index(recognizer: Recognizer, card: str) -> None:
    """jolly-royal under casts.py's warm light: its clubs' indices read as spades on both corners at 1.0 (the
    suit verifier, which doubts them in plain light, sees spades or junk under the lamp); the pips read as
    clubs, and the card is unknown, not a confident wrong spade."""
    frame = cv2.imread(str(DATA / f"jolly-royal_warm_separated_0_{card}.webp"))
    cards = recognizer.read(frame)
    assert [c.card for c in cards] == [UNKNOWN]
    assert {rd.card for c in cards for rd in c.corners} == {card[:-1] + "S"}


def test_one_card_whose_two_corners_name_two_cards_is_neither(recognizer: Recognizer) -> None:
    """ancient-egyptians' JH in grey: one index read JH, the other (its heart seen as a spade, no colour to
    veto it) JS, each at 1.0; each implied an outline of its own and the two did not group, so a wrong JS
    was reported beside the right JH. Each lies on the other's outline, pointing apart: one card, two
    names, and neither is named."""
    frame = cv2.imread(str(DATA / "ancient-egyptians_grey_separated_2_JH.png"))
    cards = recognizer.read(frame)
    assert sorted(rd.card for c in cards for rd in c.corners) == ["JH", "JS"]
    assert [c.card for c in cards] == [UNKNOWN, UNKNOWN]


def test_a_number_card_named_on_a_courts_picture_is_unknown(recognizer: Recognizer) -> None:
    """gnomangelo_bitmap's QS, its 'Q' read as a 6 on all four corners at 0.999: no pips on its face to
    count, but a court's picture, which no number card shows. The card is unknown."""
    frame = cv2.imread(str(DATA / "gnomangelo_bitmap_separated_4_QS.webp"))
    (outline,) = find_outlines(frame, None)[0]
    face = read_face(frame, outline)
    assert face.art and face.pips is None
    assert [c.card for c in recognizer.read(frame)] == [UNKNOWN]


def test_a_frame_drawn_round_the_pips_is_no_picture(recognizer: Recognizer) -> None:
    """ornamental draws a frame with flourishes round its pips: a blob too big for a pip, but no court's
    picture (it fills little of its box). Its 5H and 6S are read."""
    frame = cv2.imread(str(DATA / "ornamental_separated_0_5H_6S.webp"))
    outlines = find_outlines(frame, None)[0]
    assert len(outlines) == 2 and not any(read_face(frame, o).art for o in outlines)
    assert sorted(c.card for c in recognizer.read(frame)) == ["5H", "6S"]


def test_the_index_grid_names_no_court_on_a_face_without_a_picture(recognizer: Recognizer) -> None:
    """bellot's 7D: its corners' French '7' doubted, the index grid read JD on both corners at 1.0, and its
    seven pips in bellot's layout are no standard one, so no pips contradicted it. A jack shows a picture;
    this face shows none, so the grid names nothing."""
    frame = cv2.imread(str(DATA / "bellot_separated_3_7D.webp"))
    (outline,) = find_outlines(frame, None)[0]
    face = read_face(frame, outline)
    assert face.pips is None and not face.art
    assert [c.card for c in recognizer.read(frame)] == [UNKNOWN]
