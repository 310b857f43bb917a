"""The ink-colour veto (ink.ink_colour + recognize.colour_consistent) under a coloured light: the card's
paper is white, so the ink's colour is judged against it. A red suit under a cool cast, or a black one
under a warm lamp, must not be vetoed; a red suit stays impossible for black ink, and a black suit for red."""
from __future__ import annotations

import numpy as np

from vision.ink import ink_colour
from vision.model import SUITS
from vision.recognize import colour_consistent


def _patch(paper_bgr: tuple[int, int, int], ink_bgr: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    """One index patch of 100 pixels, a third of them ink."""
    inked = np.zeros((1, 100), bool)
    inked[0, :33] = True
    bgr = np.where(inked[..., None], np.array(ink_bgr, np.float32), np.array(paper_bgr, np.float32))
    return bgr.astype(np.float32), inked


def _suits(paper: tuple[int, int, int], ink: tuple[int, int, int], colour_frame: bool = True) -> set[str]:
    (red,) = ink_colour(*_patch(paper, ink))
    return {s for k, s in enumerate(SUITS) if colour_consistent(k, red, colour_frame)}


def test_red_ink_under_a_cool_cast_is_red() -> None:
    """Bluish paper (240, 220, 190) and ink as blue as it is red (110, 95, 110): against the paper it is red.
    (Unbalanced it had colour but no redness, and a heart was vetoed as not red.)"""
    assert _suits((240, 220, 190), (110, 95, 110)) == {"H", "D"}


def test_black_ink_under_a_warm_lamp_is_black() -> None:
    """Orange paper (190, 220, 245) and black ink tinted the same way (40, 45, 65): still black, a spade is
    allowed (unbalanced its redness 0.31 vetoed every black suit)."""
    assert {"S", "C"} <= _suits((190, 220, 245), (40, 45, 65))


def test_black_ink_under_a_pink_light_is_black() -> None:
    """A pink light adds to paper and ink alike: 180/190/180 of white light, plus 35 blue and 60 red, on
    paper reflecting 0.95 and ink 0.1: paper (206, 180, 231), ink (53, 19, 78). Balanced by the paper
    alone its redness was 0.26 and it passed as red (a spade named a diamond at 0.99); by what it absorbs,
    which the added light does not change, it is black."""
    assert _suits((206, 180, 231), (53, 19, 78)) == {"S", "C"}


def test_red_ink_under_a_pink_light_is_red() -> None:
    """Red ink (reflecting 0.15 of blue and green, 0.8 of red) under the same pink light: red."""
    assert _suits((206, 180, 231), (62, 28, 204)) == {"H", "D"}


def test_balanced_colour_still_tells_red_from_black() -> None:
    assert _suits((230, 230, 230), (40, 40, 200)) == {"H", "D"}
    assert _suits((230, 230, 230), (200, 60, 40)) == {"S", "C"}  # blue ink: not red, too colourful for red


def test_black_ink_in_a_colour_frame_is_never_red() -> None:
    """Grey-black ink (no colour at all) in a colour frame: not a heart or a diamond (it used to pass as
    red for having no chroma, and a black 9 with an inverted spade pip was read 6H)."""
    assert _suits((235, 235, 235), (50, 50, 50)) == {"S", "C"}


def test_a_grey_frame_decides_nothing() -> None:
    """In a grey frame the ink's colour says nothing about the suit."""
    assert _suits((200, 200, 200), (60, 60, 60), colour_frame=False) == set(SUITS)
