"""A lone number card read from its face: its pips counted, their suit seen by the suit network.

An index in a typeface the CNN has never seen can leave a card unread although its face is plain to
see: a seven of hearts shows seven hearts in the standard layout, whatever the deck. For an isolated
card (outline.py) the pips are a second reading, independent of the index: the card is warped upright,
the ink blobs of its central field that are alike in size and lie in a symmetric layout are its pips,
their count is its rank, and a network of suit patches (suits.SuitNetwork, models/pip.onnx, built by
training/pips.py) reads each of them as the suit verifier reads an index's suit glyph. A court's face
shows a picture instead, a blob far bigger than a pip filling much of its box (`read_face`): a number card
named on such a face, or a court the index grid names on a face without one, is no card to trust.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import NamedTuple

import cv2
import numpy as np

from vision.glyphs import IndexCandidate, placed_index
from vision.ink import ink_colour, ink_image
from vision.model import SUITS
from vision.outline import CardOutline
from vision.shipped import shipped_file
from vision.suits import SuitNetwork

DEFAULT_PIP_NET = shipped_file("vision.models", "pip.onnx")
# The card is warped upright to this width (px); its height follows its outline's aspect.
CARD_W = 64
# Ink: darker than this share of the card's paper level.
_INK = 0.65
# The indices' columns (share of the card's width from either side) are no pips' place.
_INDEX_COLUMN = 0.15
# An ink component this thin (share of the card's width) is a line: a drawn border or rule.
_LINE = 0.05
# Pip centres lie between the two index columns (share of the card's width from either side).
_FIELD_X = 0.18
# A pip's larger side, as a share of the card's width (an ace's or a court's art is larger).
_PIP_SIZE = (0.08, 0.34)
# A court's picture: a blob this wide and tall (shares of the card's width and height) that fills this share
# of its box. On the 32 designs' scenes the pictures measure 0.41-0.81 high and fill 0.29 or more; number
# cards' big blobs are frames drawn round the pips (filling 0.03-0.17, or lines 0.03-0.08 wide), pips run
# together (0.25-0.40 high), an ace's pip 0.24-0.37 high.
_ART_SIZE = (0.2, 0.42)
_ART_FILL = 0.25
# Rows left out at the card's top and foot when looking for a picture (px of the upright card).
_ART_RIM = 2
# All pips of a card are alike in area: within this factor of their median.
_PIP_AREA_SPREAD = 1.8
# Two pips are mirror images of each other when within this share of the card's width.
_MIRROR_TOL = 0.07
# The suit network's 1 L patch holds an index's suit glyph; a pip of this many L fills it alike.
PIP_L = 0.45


@dataclass(frozen=True)
class Pips:
    """The pips of a number card, found on the card warped upright (`card`, BGR): their centres there,
    their ink's components and the map back to the frame."""
    card: np.ndarray
    labels: np.ndarray  # connected components of the card's ink
    pip_labels: np.ndarray
    centres: np.ndarray
    size: float  # a pip's side, px on `card`
    ink_cut: float  # darker than this on `card` is ink
    to_card: np.ndarray  # the perspective map from the frame to `card`

    @property
    def rank(self) -> str:
        return str(len(self.centres))

    def cuts(self, card_width: float) -> list[tuple[IndexCandidate, IndexCandidate]]:
        """Each pip as an index candidate whose suit glyph it is, on a card `card_width` px wide: cut
        pointing to the card's top, and to its foot (a standard deck prints its lower half's pips on their
        heads, some decks do not, and a middle pip may stand either way)."""
        length = self.size / PIP_L * card_width / CARD_W
        to_image = np.linalg.inv(self.to_card)
        return [(_pip_as_suit(to_image, x, y, -1.0, length), _pip_as_suit(to_image, x, y, 1.0, length))
                for x, y in self.centres]

    def suit(self, network: SuitNetwork, frame: np.ndarray, card_width: float, most: int | None = None
             ) -> tuple[str, float]:
        """The pips' suit by the pip network and its mean probability over them (over the `most` first,
        the card's top pips, if given), each pip read the way up it reads likelier (the network takes a suit
        on its head for junk, not for another suit)."""
        cuts = [c for pair in self.cuts(card_width)[:most] for c in pair]
        per_pip = network.probabilities(frame, cuts)[:, :len(SUITS)].reshape(-1, 2, len(SUITS)).max(axis=1)
        mean = per_pip.mean(axis=0)
        best = int(mean.argmax())
        return SUITS[best], float(mean[best])

    def redness(self) -> np.ndarray:
        """The pips' ink colour against the card's paper (not the indices' ink): ink.ink_colour's least and
        most."""
        inked = np.isin(self.labels, self.pip_labels)
        counted = inked | (ink_image(self.card) >= self.ink_cut)
        return ink_colour(self.card[counted][None].astype(np.float32), inked[counted][None])[0]


@dataclass(frozen=True)
class Face:
    """What an isolated card's face shows: a number card's pips (None if it shows no such layout), and
    whether it shows a court's picture (`art`)."""
    pips: Pips | None
    art: bool


def read_face(frame: np.ndarray, outline: CardOutline) -> Face:
    """The face of an isolated card. Its pips are looked for among the card's ink blobs, then again with the
    indices' columns cleared: a big pip run into an index (guyenne's, paris's) is one blob with it, too big
    for a pip."""
    h = max(1, round(CARD_W * outline.height / outline.width))
    upright = np.array([[0, 0], [CARD_W, 0], [CARD_W, h], [0, h]], np.float32)
    to_card = cv2.getPerspectiveTransform(outline.quad.astype(np.float32), upright)
    card = cv2.warpPerspective(frame, to_card, (CARD_W, h), flags=cv2.INTER_LINEAR)
    ink = ink_image(card)
    sample = ink[::3, ::3].ravel()  # every ninth pixel is enough for the paper's level
    ink_cut = _INK * float(np.partition(sample, len(sample) * 9 // 10)[len(sample) * 9 // 10])
    mask = (ink < ink_cut).astype(np.uint8)
    side = round(_INDEX_COLUMN * CARD_W)
    art = _shows_art(mask, side)
    blobs, run_into_index = _pip_blobs(mask, side)
    if run_into_index:
        mask[:, :side] = mask[:, CARD_W - side:] = 0
        blobs, _ = _pip_blobs(mask, side)
    return Face(None if blobs is None else Pips(card, *blobs, ink_cut, to_card), art)


def pip_counts_either_way(frame: np.ndarray, outline: CardOutline) -> set[str]:
    """The pips counted on a near-square card (outline.SQUARE_ASPECT: a photo stretched square, a steep
    camera) read both ways up, its short sides being unknown: the counts of the layouts found."""
    turned = replace(outline, quad=np.roll(outline.quad, -1, axis=0))
    faces = (read_face(frame, outline), read_face(frame, turned))
    return {face.pips.rank for face in faces if face.pips is not None}


def _shows_art(mask: np.ndarray, side: int) -> bool:
    """Whether an upright card's ink `mask` holds a court's picture: a blob between the index columns
    (`side` px wide, cleared, as is a rim a frame's outline may have left of the table) at least _ART_SIZE
    of the card and filling _ART_FILL of its box."""
    h = mask.shape[0]
    field = np.zeros_like(mask)
    field[_ART_RIM:h - _ART_RIM, side:CARD_W - side] = mask[_ART_RIM:h - _ART_RIM, side:CARD_W - side]
    _, _, stats, _ = cv2.connectedComponentsWithStats(field, connectivity=8)
    _, _, bw, bh, area = stats[1:].T
    return bool(np.any((bw >= _ART_SIZE[0] * CARD_W) & (bh >= _ART_SIZE[1] * h) & (area >= _ART_FILL * bw * bh)))


def face_agrees(face: Face, rank: str) -> bool:
    """A card's face agrees with its rank's name: a number card's pips count its rank, a court shows a
    picture and no pips, an ace no pips."""
    if rank.isdigit():
        return face.pips is not None and face.pips.rank == rank
    return face.pips is None and (face.art or rank == "A")


class _PipBlobs(NamedTuple):
    labels: np.ndarray  # the components of the card's ink
    pip_labels: np.ndarray
    centres: np.ndarray
    size: float  # a pip's side, px


def _pip_blobs(mask: np.ndarray, side: int) -> tuple[_PipBlobs | None, bool]:
    """The ink blobs of an upright card's `mask` that are its pips (None if they are no number card's
    pips), and whether a blob too big for a pip reaches into an index's column (`side` px)."""
    h = mask.shape[0]
    _, labels, stats, centres = cv2.connectedComponentsWithStats(mask, connectivity=8, ltype=cv2.CV_16U)
    x, y, bw, bh, area = stats[1:].T
    cx = centres[1:, 0]
    size = np.maximum(bw, bh) / CARD_W
    inside = (x > 1) & (y > 1) & (x + bw < CARD_W - 1) & (y + bh < h - 1)  # not the card's edge
    line = np.minimum(bw, bh) <= _LINE * CARD_W  # a drawn border or rule
    field = inside & ~line & (cx >= _FIELD_X * CARD_W) & (cx <= (1 - _FIELD_X) * CARD_W)  # not an index
    big = field & (size > _PIP_SIZE[1])
    if np.any(big):  # court art, an ace's big pip, or a pip run into an index
        return None, bool(np.any(big & ((x < side) | (x + bw > CARD_W - side))))
    pips = np.flatnonzero(field & (size >= _PIP_SIZE[0]))
    if not 2 <= len(pips) <= 10:
        return None, False
    areas = sorted(area[pips].tolist())
    median = float(areas[len(areas) // 2])
    if areas[-1] > _PIP_AREA_SPREAD * median or areas[0] < median / _PIP_AREA_SPREAD:
        return None, False
    xy = centres[pips + 1]
    if not _standard_layout(xy, h):
        return None, False
    return _PipBlobs(labels, pips + 1, xy, float(np.sqrt(median))), False


def _standard_layout(xy: np.ndarray, h: int) -> bool:
    """Pips mirror each other across the card's long axis, and those off it under a half turn too (the
    pips on the axis are free: a seven's lies above the middle, and some decks set a three's or five's
    middle one a little low)."""
    tol = _MIRROR_TOL * CARD_W

    def partnered(mirrored: np.ndarray, of: np.ndarray) -> bool:
        d = np.linalg.norm(mirrored[:, None, :] - of[None, :, :], axis=2)
        return bool((d.min(axis=1, initial=np.inf) <= tol).all())

    across = xy * [-1, 1] + [CARD_W, 0]
    beside = xy[np.abs(xy[:, 0] - CARD_W / 2) > tol]
    return partnered(across, xy) and partnered([CARD_W, h] - beside, beside)


def _pip_as_suit(to_image: np.ndarray, x: float, y: float, up: float, length: float) -> IndexCandidate:
    """An index candidate whose suit glyph is the pip at (x, y) on the upright card, the rank `length` px
    away towards `up` (-1: the card's top, 1: its foot)."""
    (sx, sy), (ax, ay) = cv2.perspectiveTransform(np.array([[[x, y], [x, y + up]]], np.float32), to_image)[0]
    ux, uy = ax - sx, ay - sy
    norm = float(np.hypot(ux, uy)) or 1.0
    return placed_index((sx + ux / norm * length, sy + uy / norm * length), (sx, sy))
