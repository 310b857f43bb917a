"""Table calibration: card scale, table colour and zones, from an empty-table frame and one card.

Stored as JSON so zones can be edited by hand. Everything scale-dependent (glyph size, card area)
comes from here, never from constants tuned to one camera height.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.calibration_checks import checked_fields
from vision.index_pairs import CARD_W_L
from vision.observations import ZONES, seat_zone

Polygon = list[list[float]]
# Cards narrower than this (px) are read less, and below ~80 px named wrong more often. The 32 deck
# designs never trained on, separated (`python -m vision.training.decks DIR --card-width W`), read /
# named wrong: 65 px 82.5 % / 22 (precision 99.0 %), 80 px 90.1 % / 7, 100 px 92.9 % / 4, 110-150 px
# 93.6 % / 4.
READABLE_CARD_PX = 100.0
# The rank-glyph sizes looked for, in units of the index length L (see Calibration.glyph_px).
GLYPH_RANGE_L = (0.4, 1.7)
MAX_CALIBRATION_BYTES = 1 << 20  # a calibration file is a few kB; a larger one is not one


@dataclass
class Calibration:
    frame_size: tuple[int, int]  # (width, height)
    card_width_px: float
    card_height_px: float
    table_lab: tuple[float, float, float]  # mean colour of the empty table (OpenCV 8-bit Lab)
    table_lab_std: float
    zones: dict[str, Polygon] = field(default_factory=dict)

    @property
    def card_area(self) -> float:
        return self.card_width_px * self.card_height_px

    def glyph_px(self) -> tuple[float, float]:
        """Expected rank-glyph size range: the index spacing L is card width / 6.4 on standard faces.

        The proposer's least glyph sizes follow from the lower bound (a blob's, and a glyph's cut from a
        blob it ran into). At 0.55 L a fanned card's suit cut off the card's edge beside it was too small:
        on 32 deck designs never trained on, calibrated fans read 2,409 cards against 2,509 uncalibrated;
        from 0.4 L down they read as uncalibrated (2,509; dondorf 69 -> 86 of 100)."""
        L = self.card_width_px / CARD_W_L
        return GLYPH_RANGE_L[0] * L, GLYPH_RANGE_L[1] * L

    def check_size(self, frame: np.ndarray) -> None:
        """A ValueError unless `frame` has the size the table was calibrated at: zones and the card scale
        are in its pixels (a camera set to another resolution would put every card in the wrong zone)."""
        h, w = frame.shape[:2]
        if (w, h) != tuple(self.frame_size):
            width, height = self.frame_size
            raise ValueError(f"frame is {w}x{h} px but the table was calibrated at {width}x{height}: "
                             f"calibrate again at this resolution")

    def scale_warning(self) -> str | None:
        """What to do when the calibrated cards are too small to read well; None when they are not."""
        if self.card_width_px >= READABLE_CARD_PX:
            return None
        return (f"cards are {self.card_width_px:.0f} px wide, below the {READABLE_CARD_PX:.0f} px that read well "
                f"(at 65 px, 82 % of the cards of unseen decks are read and 1 in 100 named wrong): move the "
                f"camera closer or raise its resolution, then calibrate again")

    def to_json(self) -> dict[str, object]:
        return asdict(self)

    def dumps(self) -> str:
        """The calibration file's text (the CLI writes it atomically)."""
        return json.dumps(self.to_json(), indent=2)

    def save(self, path: Path) -> None:
        path.write_text(self.dumps())

    @classmethod
    def load(cls, path: Path) -> "Calibration":
        try:
            with open(path, "rb") as stream:
                raw = json.loads(stream.read(MAX_CALIBRATION_BYTES + 1).decode("utf-8-sig"))
            cal = cls(**checked_fields(raw))  # every value checked, the bad one named
        except OSError as exc:
            raise ValueError(f"bad calibration file {path}: {exc.strerror}") from exc
        except ValueError as exc:  # not UTF-8, not JSON, or a field out of range
            raise ValueError(f"bad calibration file {path}: {exc}") from exc
        for name in cal.zones:
            if name not in ZONES:
                raise ValueError(f"bad calibration file {path}: unknown zone {name!r} (zones: {', '.join(ZONES)})")
        return cal


def table_colour(empty: np.ndarray) -> tuple[tuple[float, float, float], float]:
    lab = cv2.cvtColor(empty, cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32)
    mean = lab.mean(0)
    std = float(np.sqrt(((lab - mean) ** 2).sum(1).mean()))
    return (float(mean[0]), float(mean[1]), float(mean[2])), std


def foreground(frame: np.ndarray, table_lab: tuple[float, float, float], std: float) -> np.ndarray:
    """Pixels that are not table: far from the table colour in Lab."""
    lab = cv2.cvtColor(frame, cv2.COLOR_BGR2LAB).astype(np.float32)
    dist = np.sqrt(((lab - np.array(table_lab, np.float32)) ** 2).sum(2))
    mask = (dist > max(25.0, 3 * std)).astype(np.uint8) * 255
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


# The card is the pixels that changed from the empty frame: their Lab distance above CHANGED_NOISE times the
# frames' median distance (the noise: most of the frame is the same table) and at least MIN_CHANGE. Measured
# against the empty table's mean colour instead, a light table whose light falls off across it was table
# and card alike, and a pip was taken for the card (a 14 x 19 px "card" on a 210-grey table).
CHANGED_NOISE = 3.0
MIN_CHANGE = 12.0
# The changed region fills its rectangle (0.87-0.95 on rendered tables, its shadow included); on a table as
# white as the card only the card's ink and shadow change (0.09-0.64), and its size cannot be measured.
MIN_CARD_FILL = 0.8


def measure_card(empty: np.ndarray, with_card: np.ndarray) -> tuple[float, float]:
    """Size (short, long side in px) of the one card lying in `with_card` but not in `empty`."""
    if empty.shape != with_card.shape:
        raise ValueError("calibration frames differ in size")
    before, after = (cv2.cvtColor(f, cv2.COLOR_BGR2LAB).astype(np.float32) for f in (empty, with_card))
    change = np.sqrt(((after - before) ** 2).sum(2))
    mask = (change > max(MIN_CHANGE, CHANGED_NOISE * float(np.median(change)))).astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        raise ValueError("no card found on the calibration frame")
    card = max(contours, key=cv2.contourArea)
    (_, _), (w, h), _ = cv2.minAreaRect(card)
    short, long = sorted((w, h))
    if short < 10 or not 1.2 < long / short < 1.8:
        raise ValueError(f"calibration card has an implausible shape {short:.0f}x{long:.0f} px")
    fill = cv2.contourArea(card) / (w * h)
    if fill < MIN_CARD_FILL:
        raise ValueError(f"the calibration card hardly differs from the table (what changed fills {fill:.0%} of its "
                         f"rectangle): take both photos with a darker cloth where the card lies")
    return float(short), float(long)


# Seats per side of the frame (bottom, left, top, right), numbered clockwise as seen from above from the
# bottom: a top or bottom band takes up to three seats side by side, a side band one.
_SEATS_PER_SIDE = {2: (1, 0, 1, 0), 3: (1, 1, 0, 1), 4: (1, 1, 1, 1), 5: (2, 1, 1, 1), 6: (2, 1, 2, 1),
                   7: (3, 1, 2, 1), 8: (3, 1, 3, 1)}
SIDE_BAND = 0.18  # of the frame's width: a side seat, a card lying across it and a row of five along it
EDGE_BAND = 0.30  # of the frame's height: a top or bottom seat, an upright card and room to fan


def default_zones(size: tuple[int, int], seats: int = 4) -> dict[str, Polygon]:
    """Zones of an overhead frame for 2..8 seats: each seat a band along the frame's edge in front of its
    player (seat-1 at the bottom, then clockwise), and across the middle, left to right, the deck, the
    starter, the crib and the centre. At 9.6 card widths across the frame (960 px, 100 px cards) a seat of
    up to four holds five cards in a row; more seats want about 12.8 (1280 px, 100 px cards), where each
    holds four fanned (`tests/test_vision_zones.py`)."""
    if seats not in _SEATS_PER_SIDE:
        raise ValueError(f"seats must be {min(_SEATS_PER_SIDE)}..{max(_SEATS_PER_SIDE)}, got {seats}")
    w, h = size

    def box(x0: float, y0: float, x1: float, y1: float) -> Polygon:
        return [[x0 * w, y0 * h], [x1 * w, y0 * h], [x1 * w, y1 * h], [x0 * w, y1 * h]]

    bottom, left, top, right = _SEATS_PER_SIDE[seats]
    x0, x1 = (SIDE_BAND if left else 0.0), (1 - SIDE_BAND if right else 1.0)  # the top and bottom bands' span
    # clockwise: the bottom band right to left, the left one upwards, the top left to right, the right downwards
    boxes = ([box(lo, 1 - EDGE_BAND, hi, 1.0) for lo, hi in reversed(_split(x0, x1, bottom))]
             + [box(0.0, lo, SIDE_BAND, hi) for lo, hi in reversed(_split(0.0, 1.0, left))]
             + [box(lo, 0.0, hi, EDGE_BAND) for lo, hi in _split(x0, x1, top)]
             + [box(1 - SIDE_BAND, lo, 1.0, hi) for lo, hi in _split(0.0, 1.0, right)])
    zones = {seat_zone(i): poly for i, poly in enumerate(boxes)}
    y0, y1 = EDGE_BAND, 1 - EDGE_BAND
    zones.update({"deck": box(0.19, y0, 0.33, y1), "starter": box(0.33, y0, 0.46, y1),
                  "crib": box(0.46, y0, 0.63, y1), "centre": box(0.63, y0, 0.81, y1)})
    return zones


def _split(lo: float, hi: float, parts: int) -> list[tuple[float, float]]:
    step = (hi - lo) / parts if parts else 0.0
    return [(lo + k * step, lo + (k + 1) * step) for k in range(parts)]


def calibrate(empty: np.ndarray, with_card: np.ndarray, seats: int = 4) -> Calibration:
    lab, std = table_colour(empty)
    short, long = measure_card(empty, with_card)
    size = (empty.shape[1], empty.shape[0])
    return Calibration(size, short, long, lab, std, default_zones(size, seats))
