"""Synthetic table scenes: card faces (shipped geaxgx renders) or backs laid on a table texture, seen
through a tilted camera with uneven light, shadows, blur and sensor noise. Scripts whole games for the
demo, the tests and the benchmark, with exact ground truth.
"""
from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.calibration import Calibration, Polygon, default_zones, table_colour
from vision.shipped import shipped_file
from vision.sources import Frame

FACES = shipped_file("vision.assets", "faces.npz")
FACE_W, FACE_H = 256, 384
SHADOW_REACH = 24  # px beyond a card its shadow may darken: offset 4 plus the blur's radius (sigma 4)


@dataclass(frozen=True)
class PlacedCard:
    card: str  # "QS"; ignored when face down
    x: float  # centre, table pixels
    y: float
    angle: float = 0.0  # degrees
    face_up: bool = True


@dataclass(frozen=True)
class SceneStyle:
    size: tuple[int, int] = (1280, 720)
    card_width: float = 120.0  # pixels on the table plane
    table_bgr: tuple[int, int, int] = (60, 110, 40)  # green baize
    tilt: float = 0.04  # perspective strength
    light: float = 0.35  # brightness falloff across the frame
    blur: float = 0.8
    noise: float = 4.0
    shadow: float = 0.35


@lru_cache(maxsize=1)
def _faces() -> dict[str, np.ndarray]:
    with np.load(FACES) as z:
        return {k: np.asarray(cv2.imdecode(z[k], cv2.IMREAD_COLOR)) for k in z.files}


def card_names() -> list[str]:
    return sorted(_faces())


@lru_cache(maxsize=1)
def _back() -> np.ndarray:
    back = np.full((FACE_H, FACE_W, 3), 255, np.uint8)
    cv2.rectangle(back, (14, 14), (FACE_W - 15, FACE_H - 15), (40, 40, 170), -1)
    for k in range(-FACE_H, FACE_W + FACE_H, 18):  # diamond lattice
        cv2.line(back, (k, 14), (k + FACE_H, FACE_H), (90, 90, 220), 2)
        cv2.line(back, (k, FACE_H), (k + FACE_H, 14), (90, 90, 220), 2)
    cv2.rectangle(back, (0, 0), (FACE_W - 1, FACE_H - 1), (255, 255, 255), 14)
    return back


def _rounded_mask() -> np.ndarray:
    m = np.zeros((FACE_H, FACE_W), np.uint8)
    r = 12
    cv2.rectangle(m, (r, 0), (FACE_W - r, FACE_H), 255, -1)
    cv2.rectangle(m, (0, r), (FACE_W, FACE_H - r), 255, -1)
    for cx, cy in ((r, r), (FACE_W - r, r), (r, FACE_H - r), (FACE_W - r, FACE_H - r)):
        cv2.circle(m, (cx, cy), r, 255, -1)
    return m


def card_corners(card: PlacedCard, width: float) -> np.ndarray:
    """The card's four corners on the table plane (clockwise from its top-left)."""
    h = width * FACE_H / FACE_W
    a = np.deg2rad(card.angle)
    r = np.array([np.cos(a), np.sin(a)])
    d = np.array([-np.sin(a), np.cos(a)])
    c = np.array([card.x, card.y])
    return np.array([c - r * width / 2 - d * h / 2, c + r * width / 2 - d * h / 2,
                     c + r * width / 2 + d * h / 2, c - r * width / 2 + d * h / 2], np.float32)


def camera_homography(style: SceneStyle) -> np.ndarray:
    """Table plane -> image: a slight keystone, as from a camera not exactly overhead."""
    w, h = style.size
    t = style.tilt
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    dst = np.array([[w * t, h * t], [w * (1 - t), h * t], [w, h], [0, h]], np.float32)
    return cv2.getPerspectiveTransform(src, dst)


def _table(style: SceneStyle, rng: np.random.Generator) -> np.ndarray:
    w, h = style.size
    base = np.empty((h, w, 3), np.float32)
    base[:] = style.table_bgr
    grain = cv2.GaussianBlur(rng.normal(0, 10, (h, w)).astype(np.float32), (0, 0), 1.5)
    return base + grain[..., None]


def render(cards: list[PlacedCard], style: SceneStyle = SceneStyle(), seed: int = 0,
           faces: Mapping[str, np.ndarray] | None = None) -> tuple[np.ndarray, list[np.ndarray]]:
    """A BGR frame and, per card, its quad in image pixels (later cards lie on top). `faces` (FACE_W x
    FACE_H images by card name) draws another deck design; the default is the shipped geaxgx faces."""
    faces = faces or _faces()
    rng = np.random.default_rng(seed)
    w, h = style.size
    canvas = _table(style, rng)
    H = camera_homography(style)
    mask_src = _rounded_mask()
    src_quad = np.array([[0, 0], [FACE_W, 0], [FACE_W, FACE_H], [0, FACE_H]], np.float32)
    quads: list[np.ndarray] = []
    for card in cards:
        quad = cv2.perspectiveTransform(card_corners(card, style.card_width)[None], H)[0]
        quads.append(quad)
        # each card is warped and shaded within its own box (plus its shadow's reach), not the whole frame:
        # a full-frame warp per card made a table of 11 cards cost ~215 ms to render
        x0, y0 = np.maximum(np.floor(quad.min(0)).astype(int) - SHADOW_REACH, 0)
        x1, y1 = np.minimum(np.ceil(quad.max(0)).astype(int) + SHADOW_REACH, (w, h))
        if x0 >= x1 or y0 >= y1:
            continue  # off the frame
        M = cv2.getPerspectiveTransform(src_quad, quad - np.array([x0, y0], np.float32))
        face = faces[card.card] if card.face_up else _back()
        box = (int(x1 - x0), int(y1 - y0))
        warped = cv2.warpPerspective(face, M, box, flags=cv2.INTER_AREA).astype(np.float32)
        alpha = cv2.warpPerspective(mask_src, M, box).astype(np.float32)[..., None] / 255
        roi = canvas[y0:y1, x0:x1]
        if style.shadow:
            shadow = cv2.GaussianBlur(np.roll(alpha[..., 0], (4, 4), (0, 1)), (0, 0), 4)[..., None]
            roi *= 1 - style.shadow * shadow * (1 - alpha)
        roi[:] = roi * (1 - alpha) + warped * alpha
    xs = np.linspace(-1, 1, w)[None, :]
    ys = np.linspace(-1, 1, h)[:, None]
    canvas *= (1 - style.light * (0.5 * (xs + 1) * 0.6 + 0.4 * ys ** 2))[..., None]  # lamp off to one side
    if style.blur:
        canvas = cv2.GaussianBlur(canvas, (0, 0), style.blur)
    canvas += rng.normal(0, style.noise, canvas.shape)
    return np.clip(canvas, 0, 255).astype(np.uint8), quads


def cards_in_zone(cards: Sequence[str], zone: Polygon, style: SceneStyle = SceneStyle(), spread: float = 0.6,
                  face_up: bool = True) -> list[PlacedCard]:
    """`cards` laid in a row through the middle of `zone` (a polygon in image pixels, as calibrated),
    `spread` card widths apart (0.6 a row overlapping a little, 0.35 a fan, 0 a pile), later ones on top;
    in table-plane coordinates, for `render`."""
    to_table = np.linalg.inv(camera_homography(style))
    flat = cv2.perspectiveTransform(np.array([zone], np.float32), to_table)[0]
    box = cv2.boxPoints(cv2.minAreaRect(flat))
    centre = box.mean(axis=0)
    short, long = sorted((box[1] - box[0], box[2] - box[1]), key=lambda v: float(np.hypot(*v)))
    # a row along the zone's long side, unless it is shorter than a card is long (one card, a pile): then
    # across, so that the cards' long side lies along the zone's
    row_length = 1 + spread * (len(cards) - 1)
    side = long if row_length > FACE_H / FACE_W else short
    along = side / np.hypot(*side)
    if along[0] < 0 or (along[0] == 0 and along[1] < 0):  # one way along, whichever corner minAreaRect starts at
        along = -along
    angle = float(np.degrees(np.arctan2(along[1], along[0])))
    spots = centre + np.outer(np.arange(len(cards)) - (len(cards) - 1) / 2, along * spread * style.card_width)
    return [PlacedCard(card, float(x), float(y), angle, face_up) for card, (x, y) in zip(cards, spots)]


def random_layout(n: int, style: SceneStyle = SceneStyle(), seed: int = 0, face_down: int = 0,
                  names: list[str] | None = None) -> list[PlacedCard]:
    """n separated face-up cards (distinct, drawn from `names`, default all 52) plus `face_down` backs,
    on a loose grid with jitter."""
    rng = np.random.default_rng(seed)
    names = list(rng.permutation(names or card_names())[:n])
    n = len(names)  # a design may have fewer cards
    total = n + face_down
    cols = int(np.ceil(np.sqrt(total * 16 / 9)))
    rows = int(np.ceil(total / cols))
    w, h = style.size
    cells = rng.permutation(cols * rows)[:total]
    out = []
    for k, cell in enumerate(cells):
        cx = (cell % cols + 0.5) * w / cols + rng.uniform(-0.08, 0.08) * w / cols
        cy = (cell // cols + 0.5) * h / rows + rng.uniform(-0.08, 0.08) * h / rows
        out.append(PlacedCard(str(names[k]) if k < n else "", float(cx), float(cy),
                              float(rng.uniform(-180, 180)), face_up=k < n))
    return out


class SyntheticSceneSource:
    """Plays a script: a list of scenes, each shown for `hold` frames (a settled table between moves)."""

    def __init__(self, script: list[list[PlacedCard]], style: SceneStyle = SceneStyle(), hold: int = 5,
                 seed: int = 0) -> None:
        self.script = script
        self.style = style
        self.hold = hold
        self.seed = seed
        self._i = 0
        self.exhausted = False
        self._cache: tuple[int, np.ndarray] | None = None

    @property
    def online(self) -> bool:
        return not self.exhausted

    def read(self) -> Frame | None:
        scene = self._i // self.hold
        if scene >= len(self.script):
            self.exhausted = True
            return None
        if self._cache is None or self._cache[0] != scene:
            self._cache = (scene, render(self.script[scene], self.style, self.seed + scene)[0])
        # each held frame gets its own sensor noise, like a real camera
        noise = np.random.default_rng(self._i).normal(0, 1.5, self._cache[1].shape)
        image = np.clip(self._cache[1] + noise, 0, 255).astype(np.uint8)
        self._i += 1
        return Frame(image, time.monotonic(), self._i - 1)

    def close(self) -> None:
        self.exhausted = True


def scene_calibration(style: SceneStyle, seats: int = 4) -> Calibration:
    """The calibration of rendered scenes, known exactly: their card size, their empty table's colour,
    and the default zones for `seats` players."""
    lab, std = table_colour(render([], style)[0])
    return Calibration(style.size, style.card_width, style.card_width * FACE_H / FACE_W, lab, std,
                       default_zones(style.size, seats))
