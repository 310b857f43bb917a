"""Other deck designs as training scenes (vision/training/decks.py, samples.FaceSet): a design's index is
found on its faces, its faces are drawn in the scenes, and its indices become positives of their own cards.
Drawn designs stand in for the rasterised SVG themes (those need Debian's theme packages); needs no torch."""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.model import JUNK_RANK, RANKS, SUITS
from vision.synthetic import FACE_H, FACE_W, SceneStyle, random_layout, render
from vision.training.decks import index_box, load_designs, load_face
from vision.training.samples import FaceSet, SampleSet, label_candidates, scene_indices, synthetic_scenes

CARDS = ("2H", "5S", "7D", "10C")


def _drawn_face(card: str) -> np.ndarray:
    """A plain design: a card border, the rank above a round 'suit' in the top-left corner, a big pip
    beside the index and in the middle, the whole face symmetric under a half turn."""
    ink = (30, 30, 200) if card[-1] in "HD" else (20, 20, 20)
    face = np.full((FACE_H, FACE_W, 3), 255, np.uint8)
    cv2.rectangle(face, (3, 3), (FACE_W - 4, FACE_H - 4), (60, 60, 60), 2)
    cv2.putText(face, card[:-1], (10, 48), cv2.FONT_HERSHEY_SIMPLEX, 1.1, ink, 3)
    cv2.circle(face, (24, 72), 10, ink, -1)
    cv2.circle(face, (95, 70), 18, ink, -1)
    cv2.circle(face, (FACE_W // 2, FACE_H // 2), 30, ink, -1)
    return np.minimum(face, face[::-1, ::-1])


@pytest.fixture(scope="module")
def design() -> FaceSet:
    faces = {card: _drawn_face(card) for card in CARDS}
    boxes = {card: index_box(face) for card, face in faces.items()}
    assert all(boxes.values())
    return FaceSet("drawn", faces, boxes)  # type: ignore[arg-type]


@pytest.mark.parametrize("card", CARDS)
def test_the_index_box_holds_the_rank_and_the_suit_under_it_and_not_the_pip_beside_them(card: str) -> None:
    x0, y0, x1, y1 = index_box(_drawn_face(card))  # type: ignore[misc]
    rank = np.zeros((FACE_H, FACE_W), np.uint8)
    cv2.putText(rank, card[:-1], (10, 48), cv2.FONT_HERSHEY_SIMPLEX, 1.1, 255, 3)
    ys, xs = np.nonzero(rank)  # where the rank's ink is (a '10' is two glyphs: both inside)
    assert x0 <= xs.min() and y0 <= ys.min() and x1 >= max(xs.max(), 24 + 10) and y1 >= 72 + 10  # suit's bottom
    assert x1 < 95 - 18  # the pip beside the index is outside
    assert ys.min() - y0 < 4 and y1 - (72 + 10) < 4  # and the box is tight

def test_a_corner_without_an_index_has_no_box() -> None:
    blank = np.full((FACE_H, FACE_W, 3), 255, np.uint8)
    cv2.rectangle(blank, (3, 3), (FACE_W - 4, FACE_H - 4), (60, 60, 60), 2)  # the border alone
    assert index_box(blank) is None
    court = blank.copy()
    cv2.rectangle(court, (12, 12), (FACE_W - 12, FACE_H - 12), (40, 90, 160), -1)  # art up to the corner
    assert index_box(court) is None


def test_a_rasterised_card_is_laid_on_white_at_face_size(tmp_path: Path) -> None:
    bgra = np.zeros((420, 300, 4), np.uint8)
    bgra[20:400, 20:280] = (0, 0, 255, 255)  # an opaque red card inside a transparent margin
    cv2.imwrite(str(tmp_path / "AS.png"), bgra)
    face = load_face(tmp_path / "AS.png")
    assert face.shape == (FACE_H, FACE_W, 3)
    assert face[0, 0].tolist() == [255, 255, 255]
    assert face[FACE_H // 2, FACE_W // 2].tolist() == [0, 0, 255]
    cv2.imwrite(str(tmp_path / "KS.png"), bgra[:, :, :3])
    with pytest.raises(ValueError, match="KS.png: not a BGRA card image"):
        load_face(tmp_path / "KS.png")


def test_load_designs_keeps_the_listed_designs_cards_with_an_index_and_leaves_out_the_skipped(tmp_path: Path) -> None:
    folder = tmp_path / "drawn"
    folder.mkdir()
    for card in CARDS:
        bgra = cv2.cvtColor(_drawn_face(card), cv2.COLOR_BGR2BGRA)
        cv2.imwrite(str(folder / f"{card}.png"), bgra)
    cv2.imwrite(str(folder / "3C.png"), np.full((420, 300, 4), 255, np.uint8))  # no index found: left out
    (tmp_path / "unlisted").mkdir()
    cv2.imwrite(str(tmp_path / "unlisted" / "2H.png"), cv2.cvtColor(_drawn_face("2H"), cv2.COLOR_BGR2BGRA))
    [loaded] = load_designs(tmp_path, {"drawn": frozenset({"7D"}), "absent": frozenset()})
    assert loaded.name == "drawn"
    assert sorted(loaded.faces) == sorted(loaded.index_boxes) == ["10C", "2H", "5S"]


def _rank_centres(img: np.ndarray, cands: list) -> np.ndarray:
    """An encoder whose row for a candidate is its rank glyph's centre: where each sample was cut."""
    return np.array([c.rank_xy for c in cands], np.float32).reshape(-1, 2)


def test_a_designs_scene_labels_both_indices_of_every_card_with_its_own_name(design: FaceSet) -> None:
    style = SceneStyle(card_width=130.0)
    layout = random_layout(4, style, seed=5, names=list(CARDS))
    assert sorted(c.card for c in layout) == sorted(CARDS)
    img, quads = render(layout, style, seed=5, faces=design.faces)
    boxes, _ = scene_indices(layout, quads, design.index_boxes)
    out = SampleSet()
    found = label_candidates(img, boxes, out, np.random.default_rng(0), encode=_rank_centres, jitters=0)
    assert found == len(boxes) == 8
    x, rank, suit = out.arrays()
    positives = rank != JUNK_RANK
    for (cx, cy), r, s in zip(x[positives], rank[positives], suit[positives]):
        named, _, x0, y0, x1, y1 = next(b for b in boxes if b[2] - 5 < cx < b[4] + 5 and b[3] - 5 < cy < b[5] + 5)
        assert RANKS[r] == named and SUITS[s] == next(b for b in boxes if b[2] == x0 and b[3] == y0)[1]


def test_scenes_of_designs_show_only_their_cards(design: FaceSet) -> None:
    out = SampleSet()
    found = synthetic_scenes(3, out, encode=_rank_centres, jitters=0, designs=[design])
    _, rank, suit = out.arrays()
    named = {RANKS[r] + SUITS[s] for r, s in zip(rank, suit) if r != JUNK_RANK}
    assert found >= 6 and named <= set(CARDS)
