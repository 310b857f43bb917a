"""Isolated cards by their outline: found, ordered so that the index corners are known, read from those
corners only, and reported with the card's own edges as the quad."""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.blobs import Blob
from vision.glyphs import IndexCandidate
from vision.grouping import group_corners
from vision.outline import CardOutline, corner_candidates, find_outlines, order_quad
from vision.readings import UNKNOWN, IndexReading
from vision.recognize import Recognizer
from vision.sources import load_image
from vision.synthetic import PlacedCard, SceneStyle, _faces, render, scene_calibration

STYLE = SceneStyle(size=(800, 450), card_width=110)
DATA = Path(__file__).parent / "data" / "cards"


@pytest.fixture(scope="module")
def recognizer() -> Recognizer:
    return Recognizer()


def _corner_error(found: np.ndarray, truth: np.ndarray) -> float:
    """Largest corner distance, the truth's corners taken in the best cyclic order."""
    return min(float(np.abs(np.roll(truth, k, axis=0) - found).max()) for k in range(4))


def test_isolated_cards_found_touching_ones_left_to_the_general_proposer() -> None:
    cards = [PlacedCard("QS", 150, 150, 20), PlacedCard("7D", 620, 300, -70),
             # two cards overlapping: not one card's outline
             PlacedCard("9C", 380, 250, 0), PlacedCard("2H", 440, 270, 10)]
    frame, quads = render(cards, STYLE, seed=3)
    outlines, rest = find_outlines(frame)
    assert len(outlines) == 2
    for outline, truth in zip(sorted(outlines, key=lambda o: o.quad[:, 0].mean()), (quads[0], quads[1])):
        assert _corner_error(outline.quad, truth) < 4  # px, on a 110 px wide card
        assert outline.height / outline.width == pytest.approx(384 / 256, abs=0.08)
    # what is left for the general proposer is the overlapping pair, not the isolated cards
    ys, xs = np.nonzero(rest)
    assert len(xs) and 300 / 4 < xs.mean() < 520 / 4


def test_a_court_whose_art_reaches_its_edges_is_an_isolated_card() -> None:
    """Court art is ink to the paper mask, so a court's paper is a ring round it; where the art reaches the
    card's edges (paris, gm-paris) the ring is broken, and the region's contour ran round the art inside,
    filling a fraction of the card. The ring's gaps are bridged."""
    faces = dict(_faces())
    court = faces["KH"].copy()
    court[180:200, 40:] = (60, 40, 150)  # art from the middle out to the card's right edge
    faces["KH"] = court
    frame, quads = render([PlacedCard("KH", 400, 225, 30)], STYLE, seed=5, faces=faces)
    (outline,), _ = find_outlines(frame)
    assert _corner_error(outline.quad, quads[0]) < 4


def test_index_corners_are_the_cards_top_left_and_bottom_right() -> None:
    """quad[0] and quad[2] are where the indices are, whichever way the card is turned."""
    for angle in (0, 35, 90, 160, 200, 290):
        frame, quads = render([PlacedCard("5C", 400, 225, angle)], STYLE, seed=angle)
        (outline,), _ = find_outlines(frame)
        truth = quads[0]  # clockwise from the card's top-left: the indices are at truth[0] and truth[2]
        gaps = [float(np.abs(outline.quad[0] - truth[k]).max()) for k in (0, 2)]
        k = int(np.argmin(gaps))
        assert gaps[k] < 4 and np.abs(outline.quad[2] - truth[(2, 0)[k]]).max() < 4, angle


@pytest.mark.parametrize("angle", [0, 90])
def test_a_near_square_card_is_read_from_any_corner(recognizer: Recognizer, angle: int) -> None:
    """A card foreshortened to near-square (a steep camera, or a photo stretched to a square by dataset
    tools): its short sides cannot be told from its long ones, so its index may sit at any corner. It is an
    outline with all four corners searched, and read from its own corners (lying upright or sideways).
    A square region is no card (two overlapping cards can make one)."""
    frame, quads = render([PlacedCard("7C", 400, 220, angle)], STYLE, seed=4)
    squash = 1.12 / 1.5 if angle == 0 else 1.5 / 1.12  # height / width 1.5 -> 1.12
    near_square = cv2.resize(frame, None, fx=1.0, fy=squash, interpolation=cv2.INTER_AREA)
    (outline,), _ = find_outlines(near_square)
    assert outline.corners == (0, 1, 2, 3) and 1.05 < outline.height / outline.width < 1.25
    readings, on_card, *_ = recognizer._read(near_square)
    named = [rd for rd in readings if rd.card != UNKNOWN]
    assert [rd.card for rd in named] == ["7C", "7C"] and all(on_card[id(rd.candidate)] is not None for rd in named)
    square = cv2.resize(frame, None, fx=1.0, fy=1 / 1.5 if angle == 0 else 1.5, interpolation=cv2.INTER_AREA)
    assert find_outlines(square)[0] == []


def test_two_overlapping_cards_are_no_near_square_card_with_a_calibrated_size() -> None:
    """Two cards overlapping a little offset make a near-square region that fills its quad as one card's
    does; a calibrated card size tells them apart (a foreshortened card is smaller than the calibrated one,
    not larger), and the pair is left to the general proposer. Without a calibration it is taken for one."""
    style = SceneStyle()
    frame, _ = render([PlacedCard("9C", 560, 300, 0), PlacedCard("2H", 600, 320, 10)], style, seed=3)
    (union,), _ = find_outlines(frame)
    assert union.corners == (0, 1, 2, 3)
    assert find_outlines(frame, scene_calibration(style).card_area)[0] == []


def test_order_quad_is_clockwise_from_a_short_side() -> None:
    tall = np.array([[0, 0], [0, 140], [100, 140], [100, 0]], np.float32)  # counter-clockwise on screen
    q = order_quad(tall)
    assert cv2.contourArea(q, oriented=True) > 0
    assert np.linalg.norm(q[1] - q[0]) == pytest.approx(100)


def test_candidates_only_in_the_index_corners() -> None:
    frame, quads = render([PlacedCard("10H", 400, 225, 25)], STYLE, seed=1)
    outlines, _ = find_outlines(frame)
    cands, owners = corner_candidates(frame, outlines)
    assert cands and set(owners) == {0}
    index_corners = quads[0][[0, 2]]
    for c in cands:  # every candidate within ~2 L of an index corner (L = 110 / 6.4 px)
        assert min(np.hypot(*(np.array(c.centre) - p)) for p in index_corners) < 2.2 * 110 / 6.4


def test_a_merged_rank_keeps_its_parts_in_image_pixels() -> None:
    """The '1' and '0' of a ten, merged into one rank in the index window, keep their parts' centres
    (the suit verifier looks at each), mapped to the image as every blob is: onto the digits' own blobs."""
    frame, _ = render([PlacedCard("10H", 300, 300, 20)], SceneStyle(size=(700, 600), card_width=200), seed=6)
    cands, _ = corner_candidates(frame, find_outlines(frame)[0])
    singles = np.array([(b.cx, b.cy) for c in cands for b in (c.rank, c.suit) if not b.parts])
    merged = [c.rank for c in cands if c.rank.parts]
    assert len(merged) == 2  # one per corner
    for rank in merged:
        for part in rank.parts:
            assert np.hypot(*(singles - part).T).min() < 0.01
        (ax, ay), (bx, by) = rank.parts
        assert np.hypot(bx - ax, by - ay) < 0.5 * 200 / 6.4  # the two digits side by side, < 0.5 L apart


def test_the_window_mosaic_is_paper_outside_the_windows() -> None:
    """Five cards give ten index windows, in two rows of eight cells: the six empty cells and the gutters
    read as paper (a window's card once ran on over the cells beside and below it and left the empty ones
    black, which darkened the ink threshold of the windows next to them)."""
    from vision.outline import _COLUMNS, _PAPER, _PITCH_X, _PITCH_Y, TILE_H, TILE_W, _window_mosaic
    names = ["QS", "7D", "10H", "2C", "KH"]
    frame, _ = render([PlacedCard(name, 90 + 155 * k, 225, 8 * k) for k, name in enumerate(names)], STYLE, seed=2)
    outlines, _ = find_outlines(frame)
    maps = [m for o in outlines for m in o.index_frames()]
    assert len(maps) == 10
    mosaic = _window_mosaic(frame, maps)
    assert mosaic.shape == (2 * _PITCH_Y, _COLUMNS * _PITCH_X)
    assert (mosaic[_PITCH_Y:, 2 * _PITCH_X:] == _PAPER).all()  # the empty cells
    assert (mosaic[TILE_H:_PITCH_Y] == _PAPER).all() and (mosaic[:, TILE_W:_PITCH_X] == _PAPER).all()  # gutters
    assert (mosaic[_PITCH_Y:_PITCH_Y + TILE_H, _PITCH_X:_PITCH_X + TILE_W] < 128).any()  # the last window's ink


def _notched_card(radius: int) -> np.ndarray:
    """A plain card on a green table, eight red discs of `radius` px biting into its edges (as pips and
    indices printed close to the edge do at the outline's 1/4 size)."""
    img = np.full((450, 800, 3), (40, 90, 30), np.uint8)
    x0, y0, w, h = 300, 100, 160, 240
    cv2.rectangle(img, (x0, y0), (x0 + w, y0 + h), (235, 235, 235), -1)
    for cx, cy in ((x0 + 30, y0), (x0 + w - 30, y0), (x0, y0 + 40), (x0 + w, y0 + h - 40), (x0 + 30, y0 + h),
                   (x0 + w - 30, y0 + h), (x0, y0 + h // 2), (x0 + w, y0 + h // 2)):
        cv2.circle(img, (cx, cy), radius, (30, 30, 200), -1)
    return img


def test_a_card_notched_by_glyphs_at_its_edge_is_still_an_outline() -> None:
    """Bites of ~16 % of its area (a four-index card whose pips sit close to the edge) leave an isolated
    card an outline, with its corners where the card's are; a region that fills much less of its quad
    (a third bitten away) is not one whole card."""
    (outline,), _ = find_outlines(_notched_card(22))
    assert _corner_error(outline.quad, np.array([[300, 100], [460, 100], [460, 340], [300, 340]], np.float32)) < 4
    assert find_outlines(_notched_card(32))[0] == []


def test_reading_isolated_cards_gives_their_edges_as_quad(recognizer: Recognizer) -> None:
    cards = [PlacedCard("KH", 200, 200, 15), PlacedCard("3S", 560, 230, -40)]
    frame, quads = render(cards, STYLE, seed=7)
    read = {c.card: c for c in recognizer.read(frame)}
    assert set(read) == {"KH", "3S"}
    for card, truth in zip(cards, quads):
        # both corners read, merged into one card (with any unnamed index-like cut on it)
        assert [x.card for x in read[card.card].corners if x.card != UNKNOWN] == [card.card] * 2
        assert _corner_error(np.array(read[card.card].quad), truth) < 4


def test_a_card_cut_by_the_frame_edge_is_not_an_outline() -> None:
    frame, _ = render([PlacedCard("4D", 30, 225, 0)], STYLE, seed=5)
    assert find_outlines(frame)[0] == []


def _close_ups() -> list[tuple[str, np.ndarray, np.ndarray]]:
    """The lone cards of a real table-camera frame, each turned upright into a close-up (card name, the
    card on a 40 px margin of its table, the card's quad there)."""
    frame = load_image(DATA / "edje_pinochle/table/cam_image5.jpg")
    reader = Recognizer()
    shots = []
    for card in reader.read(frame):
        q = np.array(card.quad, np.float32)
        w, h = round(np.linalg.norm(q[1] - q[0])), round(np.linalg.norm(q[2] - q[1]))
        upright = np.array([[40, 40], [40 + w, 40], [40 + w, 40 + h], [40, 40 + h]], np.float32)
        shot = cv2.warpPerspective(frame, cv2.getPerspectiveTransform(q, upright), (w + 80, h + 80))
        shots.append((card.card, shot, upright))
    return shots


def test_a_close_up_filling_the_frame_and_one_against_its_edge_are_outlines(recognizer: Recognizer) -> None:
    """A card filling over a quarter of the frame, and one whose sides lie on the frame's edge (its corners
    rounded off there), is an isolated card: read from its corners, with its face checked."""
    shots = _close_ups()
    assert len(shots) == 4
    for card, shot, quad in shots:
        against = shot[40:, 40:]  # its top and left sides on the frame's edge
        for frame, corners in ((shot, quad), (against, quad - 40)):
            outlines, _ = find_outlines(frame)
            assert len(outlines) == 1, card
            assert _corner_error(outlines[0].quad, corners) < 0.05 * (corners[1, 0] - corners[0, 0])
            named = [c.card for c in recognizer.read(frame) if c.card != UNKNOWN]
            assert card in named and set(named) <= {"10C", "10D", "10H", "10S"}  # (a neighbour in the margin)


def test_a_close_up_the_frame_cuts_is_not_an_outline() -> None:
    """Cut across (a fifth of the card off) its corners at the frame's edge are square and paper: no
    whole card, so no outline whose corners and face would be looked at in the wrong place."""
    for card, shot, quad in _close_ups():
        h = quad[2, 1] - quad[1, 1]
        assert find_outlines(shot[round(40 + h / 5):, 40:])[0] == [], card


def test_outline_index_frames_map_window_pixels_onto_the_card() -> None:
    outline = CardOutline(order_quad(np.array([[100, 100], [164, 100], [164, 196], [100, 196]], np.float32)))
    first = outline.index_frames()[0]
    assert first[:, 2].tolist() == [100, 100]  # window origin at the card's corner
    # 24 window px = 1 L = 10 px across the card, and along it
    assert np.hypot(*first[:, 0]) * 24 == pytest.approx(10) and np.hypot(*first[:, 1]) * 24 == pytest.approx(10)


def test_an_outline_whose_corners_disagree() -> None:
    """Two cards overlapping so that their union looks like one card: its two index corners name
    different cards. Both are reported, each with the quad implied by its own index. When the two
    indices imply the very same card, though, it is one card misread: unknown, as ever."""
    union = CardOutline(order_quad(np.array([[100, 100], [184, 100], [184, 196], [100, 196]], np.float32)))

    def index(rank_xy: tuple[float, float], suit_xy: tuple[float, float]) -> IndexCandidate:
        return IndexCandidate(*(Blob(x, y, int(x) - 3, int(y) - 4, 6, 8, 30) for x, y in (rank_xy, suit_xy)))
    # L = 10 px: each index implies a 64 x 96 card; these two lie 20 px apart
    top_left, bottom_right = index((105, 110), (105, 120)), index((179, 186), (179, 176))
    on_union = {id(top_left): union, id(bottom_right): union}
    cards = group_corners([IndexReading(top_left, "6S", 0.99), IndexReading(bottom_right, "JD", 0.98)], on_union)
    assert sorted(c.card for c in cards) == ["6S", "JD"]
    assert all(c.quad != union.to_list() for c in cards)
    (card,) = group_corners([IndexReading(top_left, "6S", 0.99), IndexReading(bottom_right, "6S", 0.98)], on_union)
    assert card.card == "6S" and card.quad == union.to_list() and card.confidence > 0.99
    one_card = index((159, 186), (159, 176))  # the opposite corner of the very card top_left implies
    outline = CardOutline(order_quad(np.array([[100, 100], [164, 100], [164, 196], [100, 196]], np.float32)))
    (card,) = group_corners([IndexReading(top_left, "6S", 0.99), IndexReading(one_card, "JD", 0.98)],
                            {id(top_left): outline, id(one_card): outline})
    assert card.card == "unknown"


def test_a_calibrated_card_size_rejects_other_sizes() -> None:
    frame, quads = render([PlacedCard("QS", 250, 225, 10), PlacedCard("QS", 560, 225, -10)],
                          STYLE, seed=8)
    area = cv2.contourArea(quads[0].astype(np.float32))
    assert len(find_outlines(frame, card_area=area)[0]) == 2
    assert find_outlines(frame, card_area=2 * area)[0] == []  # calibrated for cards twice as large


def _jumbo_index(face: np.ndarray, scale: float = 2.0) -> np.ndarray:
    """The face with both corner indices enlarged `scale` times (a 'jumbo index' deck, as card rooms use:
    ranks about a sixth of the card tall), on blank paper (the pips and art beside them whited out)."""
    out = face.copy()
    big = cv2.resize(face[18:98, 5:34], None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    h, w = big.shape[:2]
    out[10:20 + h, 2:100] = 255
    out[14:14 + h, 4:4 + w] = big
    turned = out[::-1, ::-1]  # the same corner, turned: the opposite index
    out[-(20 + h):-10, -100:-2] = turned[-(20 + h):-10, -100:-2]
    return out


@pytest.mark.parametrize("card", ["4C", "QH", "10D", "7S", "JD"])
def test_a_jumbo_index_is_read(recognizer: Recognizer, card: str) -> None:
    """Indices twice the usual size (the rank-to-suit distance ~1.9 L, L = card width / 6.4) lie beyond a
    standard index's length: the corner windows take them (they were no candidate at all)."""
    face = _jumbo_index(_faces()[card])
    frame, _ = render([PlacedCard(card, 400, 225, 25)], STYLE, seed=2, faces={card: face})
    assert [c.card for c in recognizer.read(frame)] == [card]
