"""Whole-frame detection: face-up cards from their corner indices, plus card-shaped regions without a
readable index (face-down cards, counted by the card outlines they show, or face-up cards we could not
read: unknown).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.calibration import Calibration, foreground
from vision.facedown import count_in_region
from vision.ink import as_bgr
from vision.readings import UNKNOWN, CardReading
from vision.recognize import Recognizer
from vision.sources import check_frame


@dataclass(frozen=True)
class FaceDownGroup:
    """One non-table region of face-down cards. `count` is what this frame shows (cards whose outline is
    visible, at least what the area needs); a squared pile hides cards, which only tracking can count.
    `outline` is the region's contour and `card_area` the calibrated card area (px), for the tracker."""
    count: int
    quad: list[list[float]]
    outline: list[list[float]] = field(default_factory=list)
    card_area: float = 0.0

    def to_json(self) -> dict[str, object]:
        return {"count": self.count, "quad": [[round(x, 1), round(y, 1)] for x, y in self.quad]}


@dataclass
class Detection:
    cards: list[CardReading] = field(default_factory=list)
    face_down: list[FaceDownGroup] = field(default_factory=list)
    # what is not bare table (255), with a calibrated table only: where cards lie, read or not
    covered: np.ndarray | None = None

    def to_json(self) -> dict[str, object]:
        return {"cards": [c.to_json() for c in self.cards], "face_down": [g.to_json() for g in self.face_down]}


# A read card's quad is within a few px of its outline: its edge, grown this much, is no second card.
QUAD_SLACK = 5


def _unread_beside(frame: np.ndarray, region: np.ndarray, covered: np.ndarray, cards: list[CardReading],
                   cal: Calibration) -> list[CardReading]:
    """Face-up cards nobody read in a region that also holds read cards: a card under glare touching its
    neighbour in a row makes one region with it, and would go unseen. What is left of the region once the
    read cards are cut out, card-sized (0.6 of a card, so no sliver past a read card's edge) and card
    paper, is an unread card; a face-down card touching a read one stays part of that region, as before."""
    x, y, w, h = cv2.boundingRect(region)
    inside = np.zeros((h, w), np.uint8)
    cv2.drawContours(inside, [region - [x, y]], -1, 255, -1)
    rest = cv2.bitwise_and(inside, covered[y:y + h, x:x + w])
    for card in cards:
        quad = np.rint(np.array(card.quad, np.float32) - [x, y]).astype(np.int32)
        cv2.fillConvexPoly(rest, quad, 0)
        cv2.polylines(rest, [quad], True, 0, 2 * QUAD_SLACK)
    found: list[CardReading] = []
    for part in cv2.findContours(rest, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]:
        if cv2.contourArea(part) >= 0.6 * cal.card_area and _paper_fraction(frame, part + [x, y]) > 0.5:
            found.append(CardReading(UNKNOWN, 0.0, (cv2.boxPoints(cv2.minAreaRect(part)) + [x, y]).tolist()))
    return found


def _paper_fraction(frame: np.ndarray, contour: np.ndarray) -> float:
    """Share of a region that is bright, unsaturated card stock (faces are mostly white, backs not)."""
    x, y, w, h = cv2.boundingRect(contour)
    roi = frame[y:y + h, x:x + w]
    mask = np.zeros((h, w), np.uint8)
    cv2.drawContours(mask, [contour - [x, y]], -1, 255, -1)
    hsv = cv2.cvtColor(roi, cv2.COLOR_BGR2HSV)
    paper = (hsv[..., 2] > 150) & (hsv[..., 1] < 60) & (mask > 0)
    return float(paper.sum()) / max(1, int((mask > 0).sum()))


class Detector:
    def __init__(self, recognizer: Recognizer | None = None, calibration: Calibration | None = None) -> None:
        self.calibration = calibration
        self.recognizer = recognizer or Recognizer(glyph_px=calibration.glyph_px() if calibration else None,
                                                   card_area=calibration.card_area if calibration else None)

    def check(self, frame: np.ndarray) -> np.ndarray:
        """`frame` if this detector can read it (sources.check_frame; at the calibrated size), else a
        ValueError saying why."""
        check_frame(frame)
        if self.calibration:
            self.calibration.check_size(frame)
        return frame

    def detect(self, frame: np.ndarray) -> Detection:
        frame = as_bgr(self.check(frame))
        cards = self.recognizer.read(frame)
        cal = self.calibration
        if cal is None:
            return Detection(cards)
        covered = foreground(frame, cal.table_lab, cal.table_lab_std)
        return Detection(cards, self._face_down(frame, cards, covered, cal), covered)

    def _face_down(self, frame: np.ndarray, cards: list[CardReading], covered: np.ndarray, cal: Calibration
                   ) -> list[FaceDownGroup]:
        """Non-table regions (of the `covered` mask) of card size holding no index we saw; needs the
        calibrated table and scale."""
        contours, _ = cv2.findContours(covered, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        centres = [np.mean(np.array([r.candidate.centre for r in c.corners] or c.quad), axis=0) for c in cards]
        groups: list[FaceDownGroup] = []
        for cnt in contours:
            area = cv2.contourArea(cnt)
            if area < 0.6 * cal.card_area:
                continue
            if any(cv2.pointPolygonTest(cnt, (float(x), float(y)), False) >= 0 for x, y in centres):
                cards.extend(_unread_beside(frame, cnt, covered, cards, cal))
                continue
            if _paper_fraction(frame, cnt) > 0.5:
                cards.append(CardReading(UNKNOWN, 0.0, cv2.boxPoints(cv2.minAreaRect(cnt)).tolist()))
                continue
            # a card may look up to ~15 % larger than calibrated (perspective, blur), so area gives a floor
            least = max(1, math.ceil(area / (1.15 * cal.card_area)))
            outline = cv2.approxPolyDP(cnt, 1.0, True).reshape(-1, 2).astype(float).tolist()
            groups.append(FaceDownGroup(max(least, count_in_region(frame, cnt, cal)),
                                        cv2.boxPoints(cv2.minAreaRect(cnt)).tolist(), outline, cal.card_area))
        return groups
