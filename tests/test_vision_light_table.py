"""Cards on a light table (vision/outline.py): where the table is nearly as bright as the cards, the paper
threshold lumps them and finds no isolated card, so none was read from its corners or checked by its face;
the cards' edges still show, and a lone card found by them is an isolated card like any other. And the
calibration, which measured its card against the table's mean colour, measures what changed."""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.calibration import measure_card
from vision.outline import _paper_outlines, find_outlines, outlines_by_edges
from vision.readings import UNKNOWN
from vision.recognize import Recognizer
from vision.synthetic import PlacedCard, SceneStyle, _faces, render
from vision.training.model_folder import recognizer_from

from test_vision_faces import _index_corners

ROOT = Path(__file__).parent.parent
# A held-out ('test') webcam frame of the photographed deck on a grey table, its lower half (an 8C and an
# 8H), at the size it is scored at (tests/data/cards/README.md).
GREY_TABLE = (Path(__file__).parent / "data" / "cards" / "ammememe_roboflow" / "crops"
              / "WIN_20240627_17_19_03_light_table.png")
LIGHT = SceneStyle(size=(800, 450), card_width=110, table_bgr=(220, 220, 220), light=0.1)


@pytest.fixture(scope="module")
def grey_table() -> np.ndarray:
    frame = cv2.imread(str(GREY_TABLE))
    assert frame is not None
    return frame


def test_cards_on_a_grey_table_are_found_by_their_edges(grey_table: np.ndarray) -> None:
    assert _paper_outlines(grey_table, None)[0] == []  # the table and the cards lumped as paper
    found = find_outlines(grey_table)[0]
    assert len(found) == 2 and len(outlines_by_edges(grey_table, [])) == 2
    for outline in found:
        assert 170 < outline.width < 200 and 1.3 < outline.height / outline.width < 1.6
        assert outline.corners == (0, 2)


def test_a_club_read_as_a_spade_on_a_grey_table_is_unknown_by_its_pips(grey_table: np.ndarray) -> None:
    """The leave-one-deck-out networks (bench/lodo: trained without any photo) read the 8C's index 8S on
    both corners at 1.0; its pips are clubs to the pip network. The shipped networks read both cards right,
    and keep them."""
    fold = recognizer_from(ROOT / "bench" / "lodo")
    assert "8S" in {rd.card for rd in fold.read_indices(grey_table)}
    assert [c.card for c in fold.read(grey_table)] == ["8H", UNKNOWN]
    assert sorted(c.card for c in Recognizer().read(grey_table)) == ["8C", "8H"]


def _light_table(faces: dict[str, np.ndarray]) -> np.ndarray:
    cards = [PlacedCard("5H", 400, 220, 20), PlacedCard("9C", 150, 150, 0),
             PlacedCard("2H", 620, 300, -70), PlacedCard("3D", 660, 310, -50)]  # the last two overlap
    frame, _ = render(cards, LIGHT, seed=3, faces=faces)
    return frame


def test_on_a_light_table_each_lone_card_is_an_outline_and_a_pile_is_not() -> None:
    frame = _light_table(_faces())
    assert _paper_outlines(frame, None)[0] == []
    centres = sorted(tuple(np.round(o.quad.mean(axis=0), -1)) for o in find_outlines(frame)[0])
    assert centres == [(170.0, 160.0), (400.0, 220.0)]  # the 9C and the 5H (the quads' centres, to 10 px)


def test_an_index_read_as_another_suit_on_a_light_table_is_vetoed_by_the_pips() -> None:
    """A 5H printed with a 5S's indices: both corners read 5S; its hearts make it unknown."""
    faces = dict(_faces())
    faces["5H"] = _index_corners(faces["5H"], source=faces["5S"])
    frame = _light_table(faces)
    recognizer = Recognizer()
    assert "5S" in {rd.card for rd in recognizer.read_indices(frame)}
    assert sorted(c.card for c in recognizer.read(frame)) == ["2H", "3D", "9C", UNKNOWN]


def test_a_card_whose_indices_cannot_be_read_is_named_by_its_pips_on_a_light_table_too() -> None:
    """A 5H with blank index corners: its pips name it, on a light table as on a dark one
    (test_vision_faces.py), and the lone cards beside it are read from their corners."""
    faces = dict(_faces())
    faces["5H"] = _index_corners(faces["5H"])
    assert sorted(c.card for c in Recognizer().read(_light_table(faces))) == ["2H", "3D", "5H", "9C"]


def test_a_card_the_frame_cuts_is_no_edge_outline() -> None:
    frame, _ = render([PlacedCard("4D", 30, 225, 0)], LIGHT, seed=5)
    assert outlines_by_edges(frame, []) == []


def _calibration_frames(table: tuple[int, int, int], card: str, turn: float) -> tuple[np.ndarray, np.ndarray]:
    style = SceneStyle(size=(1280, 720), card_width=120, table_bgr=table, light=0.35, blur=1.0)
    return render([], style, seed=1)[0], render([PlacedCard(card, 640, 360, turn)], style, seed=2)[0]


def test_a_card_on_a_light_table_whose_light_falls_off_is_measured() -> None:
    """Against the empty table's mean colour, a 210-grey table whose light falls off across it was table and
    card alike, and a 14 x 19 px pip was measured as the card; what changed from the empty frame is the card."""
    short, long = measure_card(*_calibration_frames((210, 210, 210), "7D", 15))
    assert 118 < short < 128 and 172 < long < 184  # the card is 120 px wide (its shadow and tilt add a little)


def test_a_card_as_white_as_the_table_is_refused_with_a_reason() -> None:
    with pytest.raises(ValueError, match="hardly differs from the table .* darker cloth"):
        measure_card(*_calibration_frames((240, 240, 240), "KS", 40))
