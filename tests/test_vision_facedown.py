"""Face-down cards through real rendering, the real Detector and the real TableTracker: the cards one
frame shows (outlines of a fan, a spread; a squared pile shows one), and a pile counted as cards land on
it, which no single frame can."""
from __future__ import annotations

from collections.abc import Iterable

import cv2
import numpy as np
import pytest

from vision.calibration import Calibration, default_zones
from vision.detect import Detector
from vision.observations import FaceDownCount, TableChange
from vision.synthetic import PlacedCard, SceneStyle, render, scene_calibration
from vision.tracking import TableTracker

STYLE = SceneStyle(size=(640, 360), card_width=60)  # small frames keep the file to a few seconds
W, H = STYLE.size
CRIB = tuple(float(v) for v in np.mean(default_zones(STYLE.size)["crib"], axis=0))  # the middle of the crib zone
SKIN = (125, 160, 215)  # BGR
# Each toss onto the crib: offset (px) from the first card and angle (degrees): a loosely squared pile.
TOSSES = [(0, 0, 3), (5, -3, -6), (-4, 4, 9), (3, 5, -2)]


@pytest.fixture(scope="module")
def cal() -> Calibration:
    return scene_calibration(STYLE)


@pytest.fixture(scope="module")
def detector(cal: Calibration) -> Detector:
    return Detector(calibration=cal)


@pytest.fixture(scope="module")
def empty() -> np.ndarray:
    return render([], STYLE, seed=0)[0]


def back(x: float, y: float, angle: float) -> PlacedCard:
    return PlacedCard("", x, y, angle, face_up=False)


def still(image: np.ndarray, n: int, seed: int) -> list[np.ndarray]:
    """`n` frames of a still table, each with its own sensor noise."""
    rng = np.random.default_rng(seed)
    return [np.clip(image + 1.5 * rng.standard_normal(image.shape, np.float32), 0, 255).astype(np.uint8)
            for _ in range(n)]


def with_hand(image: np.ndarray, x: float, y: float) -> np.ndarray:
    """A hand over the table at (x, y), its forearm reaching in from the bottom edge."""
    out = image.copy()
    cv2.ellipse(out, (int(x), int(y)), (34, 24), 30, 0, 360, SKIN, -1)
    cv2.line(out, (int(x), int(y)), (int(x) + 200, H), SKIN, 30)
    return out


def face_down(tracker: TableTracker, frames: Iterable[np.ndarray]) -> list[str]:
    obs: list[TableChange] = [o for f in frames for o in tracker.process(f)]
    return [str(o) for o in obs if isinstance(o, FaceDownCount)]


def tracker_for(detector: Detector, cal: Calibration) -> TableTracker:
    return TableTracker(detector.detect, cal.zones, k=2, n=3, settle_frames=1)


def test_one_frame_counts_the_outlines_it_shows(detector: Detector) -> None:
    fan = [back(470 + 14 * k, 250, -24 + 12 * k) for k in range(5)]
    spread = [back(80 + 22 * k, 120, a) for k, a in enumerate((91, 88, 92))]
    squared = [back(300, 200, 30)] * 3  # the two lower cards show nothing
    messy = [back(180 + dx, 290 + dy, a) for dx, dy, a in ((0, 0, 0), (-30, 10, 50))]
    groups = detector.detect(render(fan + spread + squared + messy, STYLE, seed=1)[0]).face_down
    by_x = sorted(groups, key=lambda g: float(np.mean(g.quad, 0)[0]))
    assert [g.count for g in by_x] == [3, 2, 1, 5]  # spread, messy pair, squared pile, fan
    assert all(g.card_area == pytest.approx(60 * 90) and len(g.outline) >= 4 for g in groups)


def test_crib_counted_as_cards_land(detector: Detector, cal: Calibration, empty: np.ndarray) -> None:
    tracker = tracker_for(detector, cal)
    assert face_down(tracker, still(empty, 3, 0)) == []
    pile: list[PlacedCard] = []
    before, seen = empty, []
    for i, (dx, dy, angle) in enumerate(TOSSES):  # each card brought in by hand, then the hand leaves
        pile.append(back(CRIB[0] + dx, CRIB[1] + dy, angle))
        scene = render(pile, STYLE, seed=i + 1)[0]
        hand = [with_hand(before, CRIB[0] + 60, CRIB[1] + 40), with_hand(scene, CRIB[0] + 20, CRIB[1] + 10)]
        seen.append(face_down(tracker, hand + still(scene, 5, i + 1)))
        before = scene
    assert seen == [[f"{n} face-down cards in crib"] for n in (1, 2, 3, 4)]
    assert sum(g.count for g in detector.detect(before).face_down) < 4  # one frame cannot see them all

    # a hand passing over without touching the pile, then a long still: nothing new
    passing = [with_hand(before, CRIB[0] + 40, CRIB[1] + 20), with_hand(before, CRIB[0] + 90, CRIB[1] + 60)]
    assert [o for f in passing + still(before, 8, 9) for o in tracker.process(f)] == []

    taken = [with_hand(before, CRIB[0] + 10, CRIB[1]), with_hand(empty, CRIB[0] + 30, CRIB[1] + 10)]
    assert face_down(tracker, taken + still(empty, 5, 10)) == ["0 face-down cards in crib"]


def test_fanned_hand_laid_in_a_seat(detector: Detector, cal: Calibration, empty: np.ndarray) -> None:
    tracker = tracker_for(detector, cal)
    scene = render([back(290 + 14 * k, 300, -24 + 12 * k) for k in range(5)], STYLE, seed=5)[0]
    frames = still(empty, 2, 0) + [with_hand(scene, 330, 290)] + still(scene, 5, 1)
    assert face_down(tracker, frames) == ["5 face-down cards in seat-1"]


def test_a_card_taken_from_a_spread_is_no_arrival(detector: Detector, cal: Calibration, empty: np.ndarray) -> None:
    tracker = tracker_for(detector, cal)
    spread = [back(230 + 22 * k, 300, -2 + 2 * k) for k in range(3)]
    three, two = (render(cards, STYLE, seed=6)[0] for cards in (spread, spread[1:]))
    assert face_down(tracker, still(empty, 2, 0) + still(three, 4, 1)) == ["3 face-down cards in seat-1"]
    # the pixels in the footprint change, as for an arrival, but part of the footprint is bare table now
    frames = [with_hand(three, 230, 300)] + still(two, 4, 2)
    assert face_down(tracker, frames) == ["2 face-down cards in seat-1"]
