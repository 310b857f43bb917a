"""Synthetic corner indices rendered from TrueType fonts: many glyph shapes for the index CNN, which the few
decks in the training photos do not show.

Each sample is a card corner as a camera sees it: off-white paper with a rounded corner and the table (or
another card) beyond its two edges, the rank above the suit in a random DejaVu face, weight, width and
spacing (suits from the fonts or drawn with varied proportions), sometimes a court card's frame and art or
a pip nearby; then a random rotation, slight perspective, scale (rank-to-suit distance L of 8-40 px), uneven
light, blur, noise, grey and JPEG. The patch is cut exactly as at run time: each glyph's ink centroid in the
final image (its mask warped with the scene) is the candidate's blob centre, and `encode` cuts the patches.

Positives are jittered like the photos' (`samples.jitter`); junk is the flipped pair (suit read as rank),
the rank paired with a nearby pip, two pips of a card's middle, and a rank above a stray non-suit blob.
"""
from __future__ import annotations

from functools import cache
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from vision.blobs import Blob
from vision.glyphs import IndexCandidate
from vision.model import JUNK_RANK, JUNK_SUIT, RANKS, SUITS
from vision.training.samples import Encoder, SampleSet, jitter

FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
SUIT_CHARS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
_STRAY_CHARS = "EFGHLMNPRTUVWXYZ#%&@"
# Rank shapes DejaVu does not draw that decks print: a flat-topped 3 (the letter ezh, U+01B7, in the same
# face), whose top bar is a 5's to a network that saw only round ones (the leave-one-deck-out fold read a
# photographed deck's flat-topped 3s as 5s on both corners at 1.0). Drawn instead of the digit this often.
_RANK_VARIANTS = {"3": "\u01b7"}
_VARIANT_SHARE = 0.35


@cache
def _fonts() -> tuple[tuple[Path, ...], tuple[Path, ...]]:
    """(rank fonts, suit fonts): every DejaVu face, but ExtraLight has no suit glyphs and the maths face's
    letters and digits repeat DejaVu Serif's."""
    paths = tuple(sorted(FONT_DIR.glob("DejaVu*.ttf")))
    if not paths:
        raise ValueError(f"no DejaVu fonts under {FONT_DIR} (apt-get install fonts-dejavu-core fonts-dejavu-extra)")
    ranks = tuple(p for p in paths if "Math" not in p.name)
    suits = tuple(p for p in paths if "ExtraLight" not in p.name)
    return ranks, suits


@cache
def _font(path: Path, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(path), size)


def _text_mask(text: str, font: Path, height: int, stretch: float) -> np.ndarray:
    """Ink coverage (0..1) of `text`, cropped to its ink and scaled to `height` px, width x `stretch`."""
    f = _font(font, 2 * height)  # rendered large and scaled down: smooth, unhinted-looking edges
    x0, y0, x1, y1 = (int(v) for v in f.getbbox(text))
    img = Image.new("L", (x1 - x0 + 2, y1 - y0 + 2))
    ImageDraw.Draw(img).text((1 - x0, 1 - y0), text, font=f, fill=255)
    m = np.asarray(img, np.float32) / 255.0
    ys, xs = np.nonzero(m > 0.02)
    m = m[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    w = max(2, round(m.shape[1] * height / m.shape[0] * stretch))
    return cv2.resize(m, (w, height), interpolation=cv2.INTER_AREA)


def _rank_mask(rank: str, height: int, rng: np.random.Generator) -> np.ndarray:
    font = _fonts()[0][rng.integers(len(_fonts()[0]))]
    stretch = rng.uniform(0.8, 1.2)
    if rank in _RANK_VARIANTS and rng.random() < _VARIANT_SHARE:
        return _text_mask(_RANK_VARIANTS[rank], font, height, stretch)
    if rank != "10":
        return _text_mask(rank, font, height, stretch)
    # '10' is often printed narrow, its digits close or touching
    if rng.random() < 0.5:
        stretch *= rng.uniform(0.55, 0.8)
    one, zero = (_text_mask(d, font, height, stretch) for d in "10")
    gap = round(height * rng.uniform(-0.04, 0.15))
    out = np.zeros((height, max(one.shape[1] + gap, 0) + zero.shape[1]), np.float32)
    out[:, :one.shape[1]] = one
    x = out.shape[1] - zero.shape[1]
    out[:, x:] = np.maximum(out[:, x:], zero)
    return out


def _drawn_suit(suit: str, height: int, rng: np.random.Generator) -> np.ndarray:
    """A suit shape drawn from its geometry with varied proportions (decks' suits differ from the fonts')."""
    k = 4  # supersampling
    h = height * k
    w = round(h * rng.uniform(0.75, 1.05))
    m = np.zeros((h, w), np.uint8)
    t = np.linspace(0, 2 * np.pi, 90)
    if suit == "D":
        hw = w * rng.uniform(0.32, 0.42)
        bend = rng.uniform(0.0, 0.12)  # concave sides
        s = np.linspace(0, 1, 12)
        sides = []
        for (ax, ay), (bx, by) in (((0, -1), (1, 0)), ((1, 0), (0, 1)), ((0, 1), (-1, 0)), ((-1, 0), (0, -1))):
            px, py = ax + (bx - ax) * s, ay + (by - ay) * s
            inward = 1 - bend * np.sin(np.pi * s)
            sides.append(np.stack([px * inward * hw + w / 2, py * inward * h / 2 + h / 2], 1))
        cv2.fillPoly(m, [np.concatenate(sides).astype(np.int32)], 255)
    elif suit in "HS":
        # the classic heart curve with perturbed harmonics: rounder or pointier lobes
        c = rng.uniform(0.85, 1.15, 3)
        x = np.sin(t) ** 3
        y = -(13 * np.cos(t) - 5 * c[0] * np.cos(2 * t) - 2 * c[1] * np.cos(3 * t) - c[2] * np.cos(4 * t))
        body = 1.0 if suit == "H" else rng.uniform(0.72, 0.85)  # a spade leaves room for its stem
        x = (x - x.min()) / np.ptp(x) * (w - 1)
        y = (y - y.min()) / np.ptp(y) * (h * body - 1)
        if suit == "S":
            y = h * body - 1 - y  # point up
            sw = w * rng.uniform(0.1, 0.2)
            cv2.fillPoly(m, [np.array([[w / 2 - sw / 2, h * body * 0.7], [w / 2 + sw / 2, h * body * 0.7],
                                       [w / 2 + sw * 1.6, h - 1], [w / 2 - sw * 1.6, h - 1]], np.int32)], 255)
        cv2.fillPoly(m, [np.stack([x, y], 1).astype(np.int32)], 255)
    else:
        # three lobes, apart or run together into a rounded trefoil (a small club blurred by a webcam: the
        # leave-one-deck-out fold read a deck's such clubs as spades, separate round lobes being all it knew)
        r = round(w * rng.uniform(0.22, 0.3))
        top, side = r, round(r * rng.uniform(1.7, 2.7))
        cv2.circle(m, (w // 2, top), r, 255, -1)
        cv2.circle(m, (r, side), r, 255, -1)
        cv2.circle(m, (w - 1 - r, side), r, 255, -1)
        cv2.circle(m, (w // 2, (top + side) // 2), round(r * rng.uniform(0.7, 1.0)), 255, -1)  # the lobes' middle
        sw = w * rng.uniform(0.05, 0.12)
        flare = rng.uniform(2.0, 4.0)
        cv2.fillPoly(m, [np.array([[w / 2 - sw, side], [w / 2 + sw, side], [w / 2 + sw * flare, h - 1],
                                   [w / 2 - sw * flare, h - 1]], np.int32)], 255)
    return cv2.resize(m.astype(np.float32) / 255.0, (max(2, w // k), height), interpolation=cv2.INTER_AREA)


def _suit_mask(suit: str, height: int, rng: np.random.Generator) -> np.ndarray:
    if rng.random() < 0.3:
        return _drawn_suit(suit, height, rng)
    fonts = _fonts()[1]
    return _text_mask(SUIT_CHARS[suit], fonts[rng.integers(len(fonts))], height, rng.uniform(0.85, 1.2))


def _stray_mask(height: int, rng: np.random.Generator) -> np.ndarray:
    """A blob where a suit would be that is no suit: a bar, a ring or a letter (court art, text, dirt)."""
    kind = rng.integers(3)
    if kind == 2:
        fonts = _fonts()[0]
        return _text_mask(str(rng.choice(list(_STRAY_CHARS))), fonts[rng.integers(len(fonts))], height, 1.0)
    w = round(height * rng.uniform(0.3, 1.5))
    m = np.zeros((height, w), np.float32)
    if kind == 0:
        t = max(1, round(min(height, w) * rng.uniform(0.15, 0.4)))
        if rng.random() < 0.5:
            m[(height - t) // 2:(height + t) // 2 + 1] = 1
        else:
            m[:, (w - t) // 2:(w + t) // 2 + 1] = 1
    else:
        cv2.ellipse(m, (w // 2, height // 2), (max(1, w // 2 - 2), height // 2 - 2), 0, 0, 360, 1.0,
                    max(1, round(height * rng.uniform(0.08, 0.2))))
    return m


def _paste(layer: np.ndarray, mask: np.ndarray, x: float, y: float) -> tuple[slice, slice]:
    """Put `mask` into the empty `layer` with its centre at (x, y), clipped to the layer; the region it took."""
    h, w = mask.shape
    x0, y0 = round(x - w / 2), round(y - h / 2)
    ax0, ay0 = max(x0, 0), max(y0, 0)
    ax1, ay1 = max(min(x0 + w, layer.shape[1]), ax0), max(min(y0 + h, layer.shape[0]), ay0)
    layer[ay0:ay1, ax0:ax1] = mask[ay0 - y0:ay1 - y0, ax0 - x0:ax1 - x0]
    return slice(ay0, ay1), slice(ax0, ax1)


def _blend(img: np.ndarray, mask: np.ndarray, x: float, y: float, colour: np.ndarray) -> np.ndarray:
    """Ink `mask` in `colour` into `img` (in place) with its centre at (x, y); the mask laid on an empty
    layer of img's size."""
    layer = np.zeros(img.shape[:2], np.float32)
    box = _paste(layer, mask, x, y)
    a = layer[box][..., None]  # blended in its own box only: full-canvas blends cost most of the time
    img[box] = img[box] * (1 - a) + colour * a
    return layer


def _ink_colour(red: bool, rng: np.random.Generator) -> np.ndarray:
    """BGR ink: reds from orange-red to dark red and magenta-ish; blacks from black to dark grey/blue-black."""
    if red:
        return np.array([rng.uniform(0, 90), rng.uniform(0, 70), rng.uniform(120, 235)], np.float32)
    base = rng.uniform(0, 70)
    return np.array([base + rng.uniform(0, 25), base + rng.uniform(0, 8), base], np.float32)


def _table(shape: tuple[int, int], rng: np.random.Generator, unit: float, fans: bool) -> np.ndarray:
    """What lies beyond the card's edges: felt, wood, a plain surface, or another card (`unit`: L in px;
    `fans`: that card's face shows its pips or letters now and then)."""
    h, w = shape
    kind = rng.integers(5)
    if kind == 0:
        base = rng.uniform([20, 70, 10], [90, 150, 70])  # green felt
    elif kind == 1:
        base = rng.uniform([20, 50, 90], [80, 120, 180])  # wood
    elif kind == 2:
        base = np.full(3, rng.uniform(10, 80)) + rng.uniform(-10, 10, 3)  # dark
    elif kind == 3:
        base = rng.uniform(170, 245) + rng.uniform(-12, 12, 3)  # another card, or a light table
    else:
        base = rng.uniform(10, 230, 3)
    img = np.ones((h, w, 3), np.float32) * base.astype(np.float32)
    low = cv2.resize(rng.normal(0, 1, (4, 4)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    img += (low * rng.uniform(0, 15))[..., None]
    if kind == 1:  # grain along a random direction
        a = rng.uniform(0, np.pi)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        grain = np.sin((xx * np.cos(a) + yy * np.sin(a)) * rng.uniform(0.1, 0.5) + rng.uniform(0, 6))
        img += (grain * rng.uniform(3, 15))[..., None]
    img += rng.normal(0, rng.uniform(0, 6), (h, w, 1)).astype(np.float32)
    if fans and kind == 3 and rng.random() < 0.7:
        _face_content(img, rng, unit)
    return img


def _face_content(img: np.ndarray, rng: np.random.Generator, unit: float) -> None:
    """Another card's face in a fan or a pile: its pips, letters or art strewn over `img`, in place."""
    h, w = img.shape[:2]
    for _ in range(rng.integers(1, 5)):
        height = max(4, round(unit * rng.uniform(0.5, 1.6)))
        if rng.random() < 0.6:
            glyph = _suit_mask(str(rng.choice(list(SUITS))), height, rng)
        else:
            glyph = _rank_mask(str(rng.choice(list(RANKS))), height, rng)
        if rng.random() < 0.5:
            glyph = glyph[::-1]
        _blend(img, glyph, rng.uniform(0, w), rng.uniform(0, h), _ink_colour(rng.random() < 0.5, rng))


def _corner_distance(shape: tuple[int, int], left: float, top: float, radius: float) -> np.ndarray:
    """Signed distance to the edge of a card whose top-left corner (rounded by `radius`) is at (left, top),
    > 0 beyond it."""
    yy, xx = np.mgrid[0:shape[0], 0:shape[1]].astype(np.float32)
    qx = np.maximum(left + radius - xx, 0)
    qy = np.maximum(top + radius - yy, 0)
    return np.hypot(qx, qy) - radius


def _edge_alpha(distance: np.ndarray) -> np.ndarray:
    """Antialiased coverage of the side of an edge where `distance` (signed, > 0 beyond it) is negative."""
    return np.clip(0.5 - distance, 0, 1)


class _Scene:
    """One rendered corner in design pixels: the picture and each named glyph's own ink mask."""

    def __init__(self, h: int, w: int, rng: np.random.Generator, fans: bool = False) -> None:
        self.rng = rng
        self.fans = fans  # cards overlap as in a fan or a pile (see `rendered_indices`)
        self.paper = (rng.uniform(205, 250) + rng.uniform(-10, 6, 3)).astype(np.float32)
        self.img = np.ones((h, w, 3), np.float32) * self.paper
        self.masks: dict[str, np.ndarray] = {}

    def ink(self, mask: np.ndarray, colour: np.ndarray) -> None:
        a = mask[..., None]
        self.img = self.img * (1 - a) + colour * a

    def glyph(self, g: np.ndarray, x: float, y: float, colour: np.ndarray, name: str | None = None) -> None:
        layer = _blend(self.img, g, x, y, colour)
        if name:
            self.masks[name] = layer

    def card_edge(self, left: float, top: float, radius: float, unit: float) -> None:
        """Everything above `top` or left of `left` (bar the rounded corner) becomes table or another card
        below this one (`unit`: L in px)."""
        distance = _corner_distance(self.img.shape[:2], left, top, radius)
        self._beyond(distance, _table(self.img.shape[:2], self.rng, unit, self.fans), unit, beyond_on_top=False)

    def covered(self, x: float, y: float, slope: float, unit: float) -> None:
        """A fan's next card lying over this one: everything right of the line through (x, y) that runs
        `slope` px right per px down is that card's face."""
        yy, xx = np.mgrid[0:self.img.shape[0], 0:self.img.shape[1]].astype(np.float32)
        distance = (xx - x - (yy - y) * slope) / np.hypot(1, slope)  # > 0 right of the line
        other = np.ones_like(self.img) * (self.paper + self.rng.uniform(-15, 8, 3).astype(np.float32))
        if self.rng.random() < 0.7:
            _face_content(other, self.rng, unit)
        self._beyond(distance, other, unit, beyond_on_top=True)

    def _beyond(self, distance: np.ndarray, beyond: np.ndarray, unit: float, beyond_on_top: bool) -> None:
        """Show `beyond` where `distance` > 0 (this card's visible edge at 0); now and then with the upper
        card's soft shadow on the lower one, and a border line printed just inside the upper card's edge
        (many decks draw one). Glyph masks are cut to what stays visible."""
        alpha = _edge_alpha(distance)
        lower, upper_side = (self.img, 1.0) if beyond_on_top else (beyond, -1.0)
        if self.rng.random() < 0.5:
            d = self.rng.uniform(1, 6)
            upper = 1 - alpha if beyond_on_top else alpha
            shadow = cv2.GaussianBlur(np.roll(upper, (round(d), round(d)), (0, 1)), (0, 0), d)
            lower *= (1 - self.rng.uniform(0.2, 0.6) * shadow)[..., None]
        if self.fans and self.rng.random() < 0.3:
            t = max(unit * self.rng.uniform(0.03, 0.1), 1.0)
            line = np.clip(1 - np.abs(distance - upper_side * t / 2) / (t / 2), 0, 1)[..., None]
            upper_img = beyond if beyond_on_top else self.img
            upper_img *= 1 - line
            upper_img += line * self.rng.uniform(0, 90)
        self.img = self.img * alpha[..., None] + beyond * (1 - alpha[..., None])
        for m in self.masks.values():
            m *= alpha


def _court_art(scene: _Scene, x: float, y: float, unit: float, rng: np.random.Generator) -> None:
    """A court card's frame line from (x, y) right and down, and now and then coloured art inside it."""
    h, w = scene.img.shape[:2]
    colour = rng.uniform(0, 200, 3).astype(np.float32)
    layer = np.zeros((h, w), np.float32)
    t = max(1, round(unit * rng.uniform(0.03, 0.1)))
    cv2.line(layer, (round(x), round(y)), (w, round(y)), 1.0, t)
    cv2.line(layer, (round(x), round(y)), (round(x), h), 1.0, t)
    scene.ink(layer, colour)
    if rng.random() < 0.6:
        for _ in range(rng.integers(2, 8)):
            art = np.zeros((h, w), np.float32)
            cx, cy = rng.uniform(x + t + 2, w), rng.uniform(y + t + 2, h)
            axes = (round(unit * rng.uniform(0.1, 0.8)), round(unit * rng.uniform(0.1, 0.8)))
            cv2.ellipse(art, (round(cx), round(cy)), axes, rng.uniform(0, 180), 0, 360, 1.0,
                        -1 if rng.random() < 0.6 else max(1, t))
            art[:round(y) + t + 1] = 0
            art[:, :round(x) + t + 1] = 0
            scene.ink(art, rng.uniform(0, 255, 3).astype(np.float32))


def _compose(kind: str, rank: str, suit: str, rank_h: int, rng: np.random.Generator, fans: bool
             ) -> tuple[_Scene, float]:
    """Draw one scene in design pixels (rank glyph `rank_h` px high); returns it and its L.

    `kind`: 'index' (rank above suit at a card corner), 'pips' (two suit pips of a card's middle, no corner
    near) or 'stray' (a rank above a non-suit blob at a card corner). Glyph masks: 'top', 'bottom', and
    'pip' if a pip was drawn beside the index."""
    red = suit in "HD"
    colour = _ink_colour(red, rng)
    suit_h = round(rank_h * rng.uniform(0.55, 1.05))
    if kind == "pips":
        g = _suit_mask(suit, round(rank_h * rng.uniform(0.8, 1.4)), rng)
        top, bottom = g, (g[::-1] if rng.random() < 0.5 else g)  # lower-half pips are printed upside down
    else:
        top = _rank_mask(rank, rank_h, rng)
        bottom = _stray_mask(suit_h, rng) if kind == "stray" else _suit_mask(suit, suit_h, rng)
    gap = rank_h * (rng.uniform(0.03, 0.4) if kind != "pips" else rng.uniform(0.1, 0.8))
    dy = (top.shape[0] + bottom.shape[0]) / 2 + gap
    dx = rank_h * rng.uniform(-0.12, 0.12)
    length = float(np.hypot(dx, dy))
    # canvas: the index centre at (cx, cy) with room for the patch (x +-1 L, y -1.8..1.4 L), its jitter and a pip
    cx, cy = 2.3 * length, 2.7 * length
    scene = _Scene(round(5.2 * length), round(5.2 * length), rng, fans)
    scene.glyph(top, cx - dx / 2, cy - dy / 2, colour, "top")
    scene.glyph(bottom, cx + dx / 2, cy + dy / 2, colour, "bottom")
    if kind == "pips":
        if rng.random() < 0.3:  # a card edge, but well away from the pips
            scene.card_edge(cx - rng.uniform(1.4, 2.2) * length, cy - rng.uniform(2.0, 2.6) * length,
                            rng.uniform(0.2, 0.8) * length, length)
        return scene, length
    half_w = max(top.shape[1], bottom.shape[1]) / 2
    right = cx + half_w
    if rng.random() < 0.25:
        _court_art(scene, right + length * rng.uniform(0.1, 0.5), cy - dy / 2 - top.shape[0] / 2
                   + length * rng.uniform(-0.6, 0.6), length, rng)
    elif rng.random() < 0.3:
        pip = _suit_mask(suit, round(suit_h * rng.uniform(1.0, 1.8)), rng)
        scene.glyph(pip[::-1] if rng.random() < 0.3 else pip, cx + rng.uniform(1.1, 2.1) * length,
                    cy + rng.uniform(-0.3, 1.8) * length, colour, "pip")
    left = cx - half_w - rng.uniform(0.08, 0.5) * length
    top_edge = cy - dy / 2 - top.shape[0] / 2 - rng.uniform(0.12, 0.8) * length
    scene.card_edge(left, top_edge, rng.uniform(0.1, 0.9) * length, length)
    if fans and rng.random() < 0.2:  # a fan: the next card over this one, its edge clear of the index's glyphs
        slope = np.tan(np.radians(rng.uniform(-20, 20)))
        reach = abs(slope) * (top.shape[0] + bottom.shape[0] + gap) / 2
        scene.covered(right + reach + rng.uniform(0.05, 0.6) * length, cy, slope, length)
    return scene, length


def _photograph(scene: _Scene, length: float, target: float, rng: np.random.Generator
                  ) -> tuple[np.ndarray, dict[str, Blob]]:
    """Light, scale (L to `target` px), rotate, tilt and degrade the scene; each glyph's Blob in image pixels."""
    h, w = scene.img.shape[:2]
    # scale first with area averaging (no aliasing), then rotate and tilt at about 1:1
    s = target / length
    size = (max(8, round(w * s)), max(8, round(h * s)))
    small = cv2.resize(scene.img, size, interpolation=cv2.INTER_AREA)
    masks = {k: cv2.resize(m, size, interpolation=cv2.INTER_AREA) for k, m in scene.masks.items()}
    sw, sh = size
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    a = rng.uniform(0, 2 * np.pi)
    light = 1 + rng.uniform(0, 0.5) * ((xx * np.cos(a) + yy * np.sin(a)) / max(sh, sw) - 0.5)
    small *= (light * rng.uniform(0.55, 1.15))[..., None] * rng.uniform(0.92, 1.08, 3).astype(np.float32)
    src = np.array([[0, 0], [sw, 0], [sw, sh], [0, sh]], np.float32)
    dst = src + rng.uniform(-0.06, 0.06, (4, 2)).astype(np.float32) * np.array([sw, sh], np.float32)
    rot = cv2.getRotationMatrix2D((sw / 2, sh / 2), rng.uniform(0, 360), 1.0)
    dst = dst @ rot[:, :2].T + rot[:, 2]
    dst -= dst.min(0)
    out_size = (int(np.ceil(dst[:, 0].max())) + 1, int(np.ceil(dst[:, 1].max())) + 1)
    H = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
    img = cv2.warpPerspective(small, H, out_size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    blobs = {}
    for k, m in masks.items():
        m = cv2.warpPerspective(m, H, out_size, flags=cv2.INTER_LINEAR)
        mom = cv2.moments(m)
        if mom["m00"] < 1e-3:
            continue
        x, y, bw, bh = cv2.boundingRect((m > 0.5).astype(np.uint8))
        blobs[k] = Blob(mom["m10"] / mom["m00"], mom["m01"] / mom["m00"], x, y, bw, bh, int((m > 0.5).sum()))
    if rng.random() < 0.6:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 0.9))
    img += np.asarray(rng.normal(0, rng.uniform(1, 8), img.shape), np.float32)
    if rng.random() < 0.25:
        img[:] = img.mean(axis=2, keepdims=True)  # grey camera
    out = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.8:
        _, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 91))])
        out = np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR))
    return out, blobs


def _shot(kind: str, rank: str, suit: str, rng: np.random.Generator, fans: bool
          ) -> tuple[np.ndarray, dict[str, Blob]]:
    """One scene (see `_compose`) photographed at L of 8-40 px."""
    target = rng.uniform(8, 40)
    rank_h = int(np.clip(1.4 * target, 16, 48))  # drawn at ~1.5x the final size (speed), then area-averaged
    scene, length = _compose(kind, rank, suit, rank_h, rng, fans)
    return _photograph(scene, length, target, rng)


def rendered_indices(count: int, out: SampleSet, *, encode: Encoder, seed: int = 0, jitters: int = 1,
                     turn_deg: float = 0.0, scale: float = 0.0, junk_scenes: float = 0.5, fans: bool = False) -> int:
    """Add `count` rendered corner indices to `out`: each as a positive plus `jitters` jittered copies, and
    its flipped pair (and rank-with-pip pair, if a pip was drawn) as junk; plus, per index, `junk_scenes`
    junk scenes on average (pips of a card's middle, or a rank above a stray blob). Returns the positives.

    `fans`: cards overlap as in a hand or a pile: the card beyond an index's edges may show its pips or
    letters, a border line may be printed round a card, and one index in five has the fan's next card lying
    over it, its edge (up to 20 degrees off the index's axis) clear of the glyphs by 0.05-0.6 L."""
    rng = np.random.default_rng(seed)
    found = 0
    while found < count:
        r, s = int(rng.integers(len(RANKS))), int(rng.integers(len(SUITS)))
        img, blobs = _shot("index", RANKS[r], SUITS[s], rng, fans)
        if "top" not in blobs or "bottom" not in blobs:
            continue  # a glyph cut off by the card's edge: not an index any more
        c = IndexCandidate(blobs["top"], blobs["bottom"])
        pos = [c] + [jitter(c, rng, 0.06, turn_deg, scale) for _ in range(jitters)]
        junk = [IndexCandidate(c.suit, c.rank)]
        if "pip" in blobs:
            junk.append(IndexCandidate(blobs["top"], blobs["pip"]))
        rows = encode(img, pos + junk)
        for row in rows[:len(pos)]:
            out.add(row, r, s)
        for row in rows[len(pos):]:
            out.add(row, JUNK_RANK, JUNK_SUIT)
        found += 1
        if rng.random() < junk_scenes:
            kind = "pips" if rng.random() < 0.6 else "stray"
            img, blobs = _shot(kind, RANKS[r], SUITS[s], rng, fans)
            if "top" in blobs and "bottom" in blobs:
                out.add(encode(img, [IndexCandidate(blobs["top"], blobs["bottom"])])[0], JUNK_RANK, JUNK_SUIT)
    return found
