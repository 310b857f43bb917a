"""A bare table (between hands, before the deal) holds no paper, so nothing is searched for glyphs there.

Its felt's noise used to split into 'paper' and 'ink' like any frame, and the general proposer paired
thousands of noise blobs for the networks: 3-4 s a frame, five frames each time the table was cleared.
"""
from __future__ import annotations

import csv
import dataclasses
from pathlib import Path

import cv2
import pytest

from vision.detect import Detector
from vision.glyphs import propose_index_sets
from vision.ink import ink_image, paper_regions
from vision.synthetic import SceneStyle, random_layout, render
from vision.training.casts import CASTS, apply_cast
from vision.watch import SYNTHETIC_STYLE

CARDS = Path(__file__).parent / "data" / "cards"
TABLES = [(60, 110, 40), (40, 40, 120), (90, 60, 30), (30, 30, 30)]  # baize, red, brown, black


@pytest.mark.parametrize("table_bgr", TABLES)
@pytest.mark.parametrize("light", [0.0, 0.35, 0.6])
def test_a_bare_felt_table_proposes_no_index(table_bgr: tuple[int, int, int], light: float) -> None:
    frame, _ = render([], dataclasses.replace(SYNTHETIC_STYLE, table_bgr=table_bgr, light=light), seed=1)
    assert paper_regions(ink_image(frame), margin=20) == []
    assert [len(c) for c in propose_index_sets(frame)] == [0, 0]
    assert Detector().detect(frame).cards == []


def test_cards_on_the_same_felt_are_still_searched_and_read() -> None:
    style = SceneStyle(size=(960, 540), card_width=100)
    cards = random_layout(4, style, seed=3)
    frame, _ = render(cards, style, seed=1)
    assert paper_regions(ink_image(frame), margin=20)  # boxes round the cards
    assert sorted(c.card for c in Detector().detect(frame).cards) == sorted(c.card for c in cards)


def _photos() -> list[Path]:
    with open(CARDS / "manifest.csv", newline="") as f:
        return sorted({CARDS / row["path"] for row in csv.DictReader(f)})


@pytest.mark.parametrize("cast", ["none", *CASTS])
def test_real_photos_keep_their_paper_under_every_cast(cast: str) -> None:
    """The contrast a frame needs to hold paper is below every real photo's, in the dimmest light measured."""
    for i, path in enumerate(_photos()):
        photo = cv2.imread(str(path))
        shown = photo if cast == "none" else apply_cast(photo, CASTS[cast], seed=i)
        assert paper_regions(ink_image(shown), margin=20) != [], f"{path.name} under {cast}: no paper found"
