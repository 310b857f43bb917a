"""Cards that lie alone on the table, found by their outline.

A bright, card-shaped region standing apart from everything else is one face-up card. Its corner
indices can then only sit at two known corners, so only those two small windows are searched for index
candidates (most of a frame's cost is the classifier, which runs once per candidate), and the card's
quad comes from its own edges rather than from the pose of an index. Everything that is not an isolated
card (fans, piles, touching cards) is left to the general proposer in glyphs.py. On a light table, where no
card stands apart by brightness, a lone card is found by its edge line instead (outlines_by_edges).
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.blobs import Blob, find_blobs
from vision.glyphs import IndexCandidate, placed_index, propose
from vision.ink import ink_image, ink_mask
from vision.resample import Pyramid

# Outlines are looked for at this fraction of the frame's resolution.
_SCALE = 4
# Height over width of a card under a moderately tilted camera: poker 1.40, bridge and piquet ~1.56.
# (Two overlapping cards can make a square outline: those are left to the general proposer.)
ASPECT = (1.25, 1.85)
# Down to this, a card foreshortened by a steep camera (or a photo stretched to a square by dataset tools)
# whose short sides cannot be told from its long ones: an index may sit at any of its four corners.
# ('val' single +1 card, 'train' single +2, none wrong; the deck designs, drawn true, unchanged.)
SQUARE_ASPECT = 1.05
# Two cards overlapping a little offset make a near-square region as clean as one card's (it fills its
# quad as well, ~0.96): with a calibrated card size, a near-square region must not be larger than this.
SQUARE_MAX_AREA = 1.1
# Region area over its quad's area: a card is convex and fills its outline, less the notches that glyphs
# and pips printed close to its edge bite into the 1/4-size paper region (a four-index 5H fills 0.81; at
# 0.88, 3 cards of the 32 designs went to the general proposer instead, one of them read twice).
MIN_FILL = 0.8
# Gaps in a card's paper ring this wide (1/4-size px) are bridged (_bridged).
_BRIDGE = 5
# Smallest card looked for without a calibrated size: 40 px wide, whose index glyphs are ~5 px.
MIN_WIDTH_PX = 40
# A region touching the frame's edge (a crop, a close-up) is a whole card only if each of its corners at
# the edge is rounded, as a card's are (poker and bridge cards: radius 0.03-0.05 x the width); where the frame
# cuts a card, the corner is the frame's, square and paper to its tip. Looked at: the part of the corner's
# square of side ROUND_L x width that lies beyond the arc; rounded when under ROUND_PAPER of it is paper.
ROUND_W = 0.03
ROUND_PAPER = 0.5
# A corner this close to the frame's edge (full-size px) is one the frame may have made.
_AT_EDGE_PX = 3.0
# Index geometry in units of L = card width / 6.4 (standard faces, see recognize.py, index length 1 L),
# with room for 'jumbo' indices (card rooms' decks, ~1.9 L long): the window searched from the corner,
# where an index centre may lie, its length, and how far below the card's top edge its rank's centre
# lies at least (a longer pair from nearer the edge is the edge or a pip paired across the index).
WINDOW_L = (1.7, 3.7)  # card-right, card-down
CENTRE_X_L = (0.15, 1.25)
CENTRE_Y_L = (0.6, 3.3)
LENGTH_L = (0.55, 2.2)
RANK_MIN_DOWN_L = 0.4
MAX_TURN_COS = float(np.cos(np.radians(25)))  # index 'up' vs the card's up
# The geometry-only index grid (CardOutline.index_grid): index lengths from standard to jumbo (L), and
# its rank's centre across and down from the corner (in index lengths): 45 cuts per corner.
GRID_LENGTH_L = (0.8, 1.0, 1.2, 1.5, 1.8)
GRID_ACROSS = (0.35, 0.5, 0.7)
GRID_DOWN = (0.7, 0.95, 1.2)
# Index windows are resampled to this L (px): one scale for every card, so one ink threshold and one
# blob search run over all windows of a frame at once, laid side by side with white gutters.
TILE_L = 24
TILE_W, TILE_H = int(WINDOW_L[0] * TILE_L), int(WINDOW_L[1] * TILE_L)
_GUTTER = TILE_L
_PITCH_X, _PITCH_Y = TILE_W + _GUTTER, TILE_H + _GUTTER
_PAPER = 230  # the paper's level in the windows' ink mosaic
_EDGE = np.ones((3, 3), np.uint8)
_COLUMNS = 8


@dataclass(frozen=True)
class CardOutline:
    """An isolated card. `quad` (4, 2) is clockwise in image pixels with quad[0] -> quad[1] a short side,
    so quad[0] and quad[2] are the two corners that carry an index (top-left and bottom-right of the
    card, whichever way up it lies); of a near-square card (SQUARE_ASPECT), any corner may."""
    quad: np.ndarray
    paper: float = 1.0  # share of the region's area that is paper: a face 0.5-1, a back's white border ~0.17
    corners: tuple[int, ...] = (0, 2)  # the quad's corners that may carry an index

    @property
    def width(self) -> float:
        q = self.quad
        return (math.dist(q[1], q[0]) + math.dist(q[3], q[2])) / 2

    @property
    def height(self) -> float:
        q = self.quad
        return (math.dist(q[2], q[1]) + math.dist(q[0], q[3])) / 2

    def index_frames(self) -> list[np.ndarray]:
        """Per index corner, the affine map (2, 3) from window pixels (TILE_L per L) to image pixels."""
        q = self.quad
        frames = []
        for c in self.corners:
            right, down = q[(c + 1) % 4] - q[c], q[(c + 3) % 4] - q[c]
            # L along each side (a card is 6.4 L wide and 9.6 L high): a foreshortened card comes out true
            right *= 1 / 6.4 / TILE_L
            down *= 1 / 9.6 / TILE_L
            frames.append(np.array([[right[0], down[0], q[c][0]], [right[1], down[1], q[c][1]]], np.float32))
        return frames

    def index_grid(self) -> list[list[IndexCandidate]]:
        """Per index corner, index candidates laid on the card by its geometry alone (no ink blobs): an
        index of length l (in L) with its rank's centre at (a l, b l) from the corner, for each l of
        GRID_LENGTH_L, a of GRID_ACROSS and b of GRID_DOWN. For a card whose index glyphs run into its
        art or border, so that no blob is a glyph."""
        grids = []
        for frame in self.index_frames():
            cands = []
            for length in GRID_LENGTH_L:
                for a in GRID_ACROSS:
                    for b in GRID_DOWN:
                        x, y = a * length * TILE_L, b * length * TILE_L
                        rank, suit = (frame @ np.array([[x, x], [y, y + length * TILE_L], [1.0, 1.0]])).T
                        cands.append(placed_index(tuple(rank), tuple(suit)))
            grids.append(cands)
        return grids

    def to_list(self) -> list[list[float]]:
        return [[float(x), float(y)] for x, y in self.quad]


def order_quad(pts: np.ndarray) -> np.ndarray:
    """Clockwise (in image coordinates, y down) from a corner whose next side is a short one."""
    pts = np.asarray(pts, np.float32).reshape(4, 2)
    if cv2.contourArea(pts, oriented=True) < 0:  # OpenCV: positive = clockwise on screen
        pts = pts[::-1].copy()
    if math.dist(pts[1], pts[0]) > math.dist(pts[2], pts[1]):
        pts = np.roll(pts, -1, axis=0)
    return pts


def find_outlines(frame: np.ndarray, card_area: float | None = None) -> tuple[list[CardOutline], np.ndarray]:
    """Isolated cards in a BGR frame, and the 1/4-size paper mask with those cards erased (what is left
    for the general proposer). With a calibrated `card_area` (px^2), a region must be one card's size.
    Where the paper left covers over LIGHT_TABLE_PAPER of the frame, the table was taken for paper: the
    cards are looked for by their edges too."""
    outlines, paper = _paper_outlines(frame, card_area)
    if cv2.countNonZero(paper) > LIGHT_TABLE_PAPER * paper.size:
        for outline in outlines_by_edges(frame, outlines, card_area):
            outlines.append(outline)
            cv2.fillConvexPoly(paper, np.round(outline.quad / _SCALE - 0.5).astype(np.int32), 0)
    return outlines, paper


def _paper_outlines(frame: np.ndarray, card_area: float | None) -> tuple[list[CardOutline], np.ndarray]:
    """The isolated cards of find_outlines that stand apart by brightness (the ink image's Otsu level), and
    the paper mask with them erased."""
    h, w = frame.shape[:2]
    s = _SCALE
    small = ink_image(cv2.resize(frame, (w // s, h // s), interpolation=cv2.INTER_LINEAR))
    level, paper = cv2.threshold(small, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    contours, _ = cv2.findContours(paper, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    outlines: list[CardOutline] = []
    min_area = (0.65 * card_area if card_area else MIN_WIDTH_PX ** 2 * ASPECT[0]) / (s * s)
    max_area = 1.4 * card_area / (s * s) if card_area else small.size  # a close-up may fill the frame
    whole = _WholeAtEdge(frame, level)
    for cnt in contours:
        if min_area <= cv2.contourArea(cnt) <= max_area:
            outline = _card_outline(cnt, paper.shape, card_area, whole)
            if outline is None:  # a court whose art reaches its edge: a paper ring broken there
                cnt = _bridged(cnt, paper.shape)
                outline = _card_outline(cnt, paper.shape, card_area, whole)
            if outline is not None:
                outlines.append(replace(outline, paper=_paper_share(paper, cnt)))
                cv2.drawContours(paper, [cnt], -1, 0, -1)
    return outlines, paper


# On a light table (white, grey, a beige cloth) a card is hardly brighter than the table: Otsu's one level
# lumps both and no card stands apart (the leave-one-deck-out fold's webcam frames on a grey table: no
# outline at all, so no face check, and an 8C read 8S on both corners stood). The card's edges still show.
# Such a table leaves paper over this share of the frame (the webcam's frames 0.47-0.86, rendered light
# tables up to 0.99; dark tables at most 0.09):
LIGHT_TABLE_PAPER = 0.25
# Canny's hysteresis levels on the 1/4-size ink image:
_EDGE_LEVELS = (20, 50)
# Gaps in a card's edge line this wide (1/4-size px) are closed (an index glyph close to the edge breaks it).
_EDGE_GAP = 5
# An edge-found card's paper is brighter than what lies just beyond each of its four sides by this many ink
# levels (medians of a line inside and one outside, 1/4 size): a pile of cards makes a four-sided hull too,
# across the table and into the cards. The line inside is _INSIDE px in: the edge line, closed and filled,
# lies a pixel or two beyond the card, and the card's own edge and shadow blur across the next two.
PAPER_OVER_TABLE = 8
_INSIDE, _OUTSIDE = 4.0, 2.0


def outlines_by_edges(frame: np.ndarray, found: list[CardOutline], card_area: float | None = None
                      ) -> list[CardOutline]:
    """Isolated cards by their edges, but those `found` already. Each closed edge line with what it encloses
    is one region; its paper is what is brighter than Otsu's level of that region alone (the line runs
    round a card's shadow too, and the paper's own outline is the card's). None at the frame's edge: where
    the frame cuts a card, its corner cannot be told from the card's own."""
    h, w = frame.shape[:2]
    s = _SCALE
    small = ink_image(cv2.resize(frame, (w // s, h // s), interpolation=cv2.INTER_AREA))
    edges = cv2.Canny(cv2.GaussianBlur(small, (3, 3), 0), *_EDGE_LEVELS)
    edges = cv2.morphologyEx(edges, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (_EDGE_GAP,) * 2))
    contours, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    region = np.zeros_like(small)
    cv2.drawContours(region, contours, -1, 255, -1)
    for o in found:
        cv2.fillConvexPoly(region, np.round(o.quad / s - 0.5).astype(np.int32), 0)
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    min_area = (0.65 * card_area if card_area else MIN_WIDTH_PX ** 2 * ASPECT[0]) / (s * s)
    out = []
    for cnt in contours:
        if cv2.contourArea(cnt) < min_area:
            continue
        found_paper = _paper_of_region(small, cnt)
        if found_paper is None or cv2.contourArea(found_paper[0]) < min_area:
            continue
        paper, share = found_paper
        outline = _card_outline(paper, small.shape, card_area, lambda _: False)
        if outline is not None and outline.corners == (0, 2) and _paper_inside(small, outline.quad / s - 0.5):
            out.append(replace(outline, paper=share))
    return out


def _paper_of_region(small: np.ndarray, cnt: np.ndarray) -> tuple[np.ndarray, float] | None:
    """The outer contour of the largest paper patch in the 1/4-size region `cnt` (its pixels brighter than
    Otsu's level of the region's own pixels), and the share of that contour's area that is paper (a card
    back's white border is a small share of it, as in find_outlines)."""
    x, y, bw, bh = cv2.boundingRect(cnt)
    inside = np.zeros((bh, bw), np.uint8)
    cv2.drawContours(inside, [cnt], -1, 255, -1, offset=(-x, -y))
    window = small[y:y + bh, x:x + bw]
    level, _ = cv2.threshold(window[inside > 0].reshape(1, -1), 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    paper = ((window > level) & (inside > 0)).astype(np.uint8)
    patches, _ = cv2.findContours(paper, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not patches:
        return None
    patch = max(patches, key=cv2.contourArea)
    share = min(1.0, cv2.countNonZero(paper) / max(cv2.contourArea(patch), 1.0))
    return patch + np.array([x, y], np.int32), share


def _paper_inside(small: np.ndarray, quad: np.ndarray) -> bool:
    """Is the 1/4-size ink image brighter just inside each side of `quad` (clockwise, 1/4-size pixels) than
    just beyond it, by PAPER_OVER_TABLE?"""
    h, w = small.shape
    centre = quad.mean(axis=0)
    t = np.linspace(0.2, 0.8, 16)[:, None]
    for k in range(4):
        a, b = quad[k], quad[(k + 1) % 4]
        along = a + t * (b - a)
        normal = np.array([b[1] - a[1], a[0] - b[0]]) / max(float(np.hypot(*(b - a))), 1e-6)
        if np.dot(centre - a, normal) > 0:
            normal = -normal  # outwards
        inner, outer = (np.clip(np.round(along + d * normal).astype(int), 0, [w - 1, h - 1])
                        for d in (-_INSIDE, _OUTSIDE))
        if np.median(small[inner[:, 1], inner[:, 0]]) < np.median(small[outer[:, 1], outer[:, 0]]) + PAPER_OVER_TABLE:
            return False
    return True


def _bridged(cnt: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """The outer contour of a 1/4-size region with its narrow gaps closed (_BRIDGE px). A court card's art
    is ink, so its paper is a ring around it, and where the art reaches the card's edge (paris, gm-paris,
    standard) the ring is broken: the region's own contour then runs round the art's edge inside, and
    fills a fraction of its quad."""
    x, y, w, h = cv2.boundingRect(cnt)
    pad = _BRIDGE
    region = np.zeros((h + 2 * pad, w + 2 * pad), np.uint8)
    cv2.drawContours(region, [cnt], -1, 255, -1, offset=(pad - x, pad - y))
    closed = cv2.morphologyEx(region, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (_BRIDGE,) * 2))
    outer, _ = cv2.findContours(closed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    return max(outer, key=cv2.contourArea) + np.array([x - pad, y - pad], np.int32)


def _paper_share(paper: np.ndarray, cnt: np.ndarray) -> float:
    """The share of the contour's area that is paper (both 1/4 size), counted over its bounding box: the
    region stands apart from other paper, so the box's paper is its own (a mask of the region itself cost
    ~0.3 ms a frame)."""
    x, y, w, h = cv2.boundingRect(cnt)
    return min(1.0, cv2.countNonZero(paper[y:y + h, x:x + w]) / max(cv2.contourArea(cnt), 1.0))


def _card_outline(cnt: np.ndarray, shape: tuple[int, ...], card_area: float | None,
                  whole: Callable[[CardOutline], bool]
                  ) -> CardOutline | None:
    """The quad of a 1/4-size paper region in full-size pixels, or None when it is not one whole card
    (`whole` tells a card lying against the frame's edge from one the frame cuts)."""
    x, y, bw, bh = cv2.boundingRect(cnt)
    at_edge = x == 0 or y == 0 or x + bw == shape[1] or y + bh == shape[0]
    hull = cv2.convexHull(cnt)
    approx = cv2.approxPolyDP(hull, 0.04 * cv2.arcLength(hull, True), True)
    if len(approx) != 4:
        return None
    corners = _sharp_corners(cnt.reshape(-1, 2).astype(np.float32), approx.reshape(4, 2).astype(np.float32))
    if corners is None:
        return None
    quad = order_quad((corners + 0.5) * _SCALE)  # + 0.5: small pixel centres
    quad_area = cv2.contourArea(quad)
    if quad_area <= 0 or cv2.contourArea(cnt) * _SCALE ** 2 < MIN_FILL * quad_area:
        return None
    outline = CardOutline(quad)
    aspect = outline.height / outline.width
    if not SQUARE_ASPECT <= aspect <= ASPECT[1] or outline.width < MIN_WIDTH_PX:
        return None
    if card_area and not 0.7 * card_area <= quad_area <= 1.35 * card_area:
        return None
    if aspect < ASPECT[0]:
        if at_edge:
            return None  # a card cut across by the frame is near-square too
        if card_area and quad_area > SQUARE_MAX_AREA * card_area:
            return None  # two cards overlapping, a little offset (foreshortening makes a card smaller, not larger)
        outline = replace(outline, corners=(0, 1, 2, 3))
    if at_edge and not whole(outline):
        return None  # cut by the frame's edge: not a whole card
    return outline


def _beyond_arc() -> np.ndarray:
    """The corner's square on a 16 x 16 grid (units of its side), the points beyond the quarter circle."""
    u, v = np.meshgrid((np.arange(16) + 0.5) / 16, (np.arange(16) + 0.5) / 16)
    beyond = np.hypot(1 - u, 1 - v) > 1
    return np.stack([u[beyond], v[beyond]], axis=1)


_BEYOND_ARC = _beyond_arc()  # made once: every frame's outline search needs it (~0.2 ms a frame)


class _WholeAtEdge:
    """Is an outline against the frame's edge a whole card: is every corner of its quad that lies at the
    edge rounded (see ROUND_W)? Paper: the full-size frame's ink image at the outline search's level."""

    def __init__(self, frame: np.ndarray, level: float) -> None:
        self.frame = frame
        self.level = level
        self._ink: np.ndarray | None = None
        self.grid = _BEYOND_ARC

    def __call__(self, outline: CardOutline) -> bool:
        if self._ink is None:
            self._ink = ink_image(self.frame)
        ink = self._ink
        h, w = ink.shape[:2]
        q = outline.quad.astype(np.float64)
        side = ROUND_W * outline.width
        for k in range(4):
            x, y = q[k]
            if _AT_EDGE_PX < x < w - 1 - _AT_EDGE_PX and _AT_EDGE_PX < y < h - 1 - _AT_EDGE_PX:
                continue  # a corner inside the frame is the card's own
            along = [(q[(k + 1) % 4] - q[k]), (q[(k + 3) % 4] - q[k])]
            along = [a / np.linalg.norm(a) * side for a in along]
            points = q[k] + self.grid[:, :1] * along[0] + self.grid[:, 1:] * along[1]
            px = np.clip(np.round(points).astype(int), 0, [w - 1, h - 1])
            if np.mean(ink[px[:, 1], px[:, 0]] > self.level) >= ROUND_PAPER:
                return False
        return True


def _sharp_corners(points: np.ndarray, approx: np.ndarray) -> np.ndarray | None:
    """The card's corners as the crossings of straight lines fitted to its four sides (away from the
    rounded corners), each pushed out by half a pixel: the contour runs through the edge pixels' centres.
    None when a side has too few points to be a straight edge. Least squares: the points are within 2 px
    of the side already, and a robust (Huber) fit cost 16x the time for corners ~0.2 px worse on average."""
    sx, sy = (approx[[1, 2, 3, 0]] - approx).T  # side k runs from corner k to corner k + 1
    lengths = np.sqrt(sx * sx + sy * sy)
    # (N, 4): each point from each corner, x and y apart (a sum over a last axis of 2 cost a third more)
    rx, ry = points[:, :1] - approx[:, 0], points[:, 1:] - approx[:, 1]
    along = (rx * sx + ry * sy) / lengths ** 2
    across = np.abs(rx * sy - ry * sx) / lengths
    on_side = (along > 0.15) & (along < 0.85) & (across < 2.0)
    centre = approx.sum(axis=0) / 4
    lines = []
    for k in range(4):
        near = points[on_side[:, k]]
        if len(near) < 3:
            return None
        vx, vy, x0, y0 = (float(v) for v in cv2.fitLine(near, cv2.DIST_L2, 0, 0.01, 0.01).ravel())
        nx, ny = (vy, -vx) if (x0 - centre[0]) * vy - (y0 - centre[1]) * vx >= 0 else (-vy, vx)  # outwards
        lines.append((x0 + 0.5 * nx, y0 + 0.5 * ny, vx, vy))
    corners = []
    for k in range(4):
        (px, py, ux, uy), (qx, qy, wx, wy) = lines[k - 1], lines[k]
        det = wx * uy - ux * wy
        if abs(det) < 1e-3:
            return None
        t = (wx * (qy - py) - wy * (qx - px)) / det
        corners.append((px + t * ux, py + t * uy))
    return np.array(corners, np.float32)


def corner_candidates(frame: np.ndarray, outlines: list[CardOutline]) -> tuple[list[IndexCandidate], list[int]]:
    """Index candidates in the index corners of isolated cards (rank above suit, upright in the card's
    frame, where an index can be), and for each the number of its outline.

    Every index window is resampled upright at TILE_L px per L into one mosaic, so the ink threshold, the
    blob search and the pairing run once per frame, not once per corner."""
    frames = [(n, m) for n, o in enumerate(outlines) for m in o.index_frames()]
    if not frames:
        return [], []
    ink = _window_mosaic(frame, [m for _, m in frames])
    lo, hi = 0.55 * TILE_L, 1.7 * TILE_L
    # the plain blob search: the windows are clean paper at a fixed, ample scale (glyphs cut from the
    # table or split at a waist, as glyphs.find_glyphs does, read no more cards here and cost ~5 ms)
    cands = propose(find_blobs(ink_mask(ink, int(hi * 0.8)), lo * 0.4, hi * 1.3), upright_cos=MAX_TURN_COS)
    if not cands:
        return [], []
    rank = np.array([c.rank_xy for c in cands])
    suit = np.array([c.suit_xy for c in cands])
    length = np.array([c.length for c in cands])
    tile = _tile_of(rank)
    # window pixels -> units of L from the window's corner
    left, top = tile % _COLUMNS * _PITCH_X, tile // _COLUMNS * _PITCH_Y
    u = ((rank[:, 0] + suit[:, 0]) / 2 - left) / TILE_L
    v = ((rank[:, 1] + suit[:, 1]) / 2 - top) / TILE_L
    rank_v = (rank[:, 1] - top) / TILE_L
    keep = np.flatnonzero((tile == _tile_of(suit)) & (tile < len(frames))
                          & (length >= LENGTH_L[0] * TILE_L) & (length <= LENGTH_L[1] * TILE_L)
                          & (u >= CENTRE_X_L[0]) & (u <= CENTRE_X_L[1]) & (v >= CENTRE_Y_L[0]) & (v <= CENTRE_Y_L[1])
                          & (rank_v >= RANK_MIN_DOWN_L))
    blobs = {id(b): (b, int(tile[i])) for i in keep for b in (cands[i].rank, cands[i].suit)}
    mapped = dict(zip(blobs, _to_image([b for b, _ in blobs.values()], np.array([t for _, t in blobs.values()]),
                                       np.array([m for _, m in frames]))))
    out = [IndexCandidate(mapped[id(cands[i].rank)], mapped[id(cands[i].suit)]) for i in keep]
    return out, [frames[int(tile[i])][0] for i in keep]


def _window_mosaic(frame: np.ndarray, maps: list[np.ndarray]) -> np.ndarray:
    """The ink image of every index window, upright, side by side: each window's card paper scaled to
    read _PAPER, and the gutters and each window's edge pixels painted as paper, so that one ink
    threshold fits every window.

    A window lies wholly inside its card's quad (two of its sides are the card's edges), so it holds no
    table except in the card's rounded corner, which is left as it is: every figure was measured so."""
    n = len(maps)
    rows, cols = -(-n // _COLUMNS), min(n, _COLUMNS)
    bgr = np.zeros((rows * _PITCH_Y, cols * _PITCH_X, 3), np.uint8)
    inside = np.zeros(bgr.shape[:2], np.uint8)
    cut = Pyramid(frame)
    for t, m in enumerate(maps):
        y0, x0 = t // _COLUMNS * _PITCH_Y, t % _COLUMNS * _PITCH_X
        cut.warp(m, (TILE_W, TILE_H), bgr[y0:y0 + TILE_H, x0:x0 + TILE_W])
        inside[y0:y0 + TILE_H, x0:x0 + TILE_W] = 255
    # nor the card's blurred edge; the erosion leaves the mosaic's own outer edge, so the windows of the
    # top row keep their top edge pixels (painting those too lost 16 of ancient-egyptians' 65 cards, whose
    # ranks stand close under a grey band; keeping every window's top edge lost 6 cards on 4 designs)
    inside = cv2.erode(inside, _EDGE)
    ink = ink_image(bgr)
    # each window's paper level: the 95th percentile of its pixels with the non-card ones zeroed (the
    # card covers well over half of a window)
    card = cv2.bitwise_and(ink, ink, mask=inside)
    tiles = card.reshape(rows, _PITCH_Y, cols, _PITCH_X).swapaxes(1, 2).reshape(rows * cols, -1)
    k = tiles.shape[1] // 20
    paper = np.maximum(np.partition(tiles, -k, axis=1)[:, -k], 24)
    gain = (_PAPER / paper.astype(np.float32)).reshape(rows, 1, cols, 1)
    scaled = (ink.reshape(rows, _PITCH_Y, cols, _PITCH_X) * gain).reshape(ink.shape)
    out = np.clip(scaled, 0, 255).astype(np.uint8)
    out[inside == 0] = _PAPER
    return out


def _tile_of(xy: np.ndarray) -> np.ndarray:
    return (xy[:, 1] // _PITCH_Y).astype(int) * _COLUMNS + (xy[:, 0] // _PITCH_X).astype(int)


def _to_image(blobs: list[Blob], tiles: np.ndarray, maps: np.ndarray) -> list[Blob]:
    """Blobs found in the mosaic's windows (`tiles`: each one's window number; `maps`: the windows'
    window-to-image affine maps), in image pixels: the mapped centre (and a merged blob's parts'), and
    the box and area scaled."""
    if not blobs:
        return []
    m = maps[tiles]  # (N, 2, 3)
    origin = np.stack([tiles % _COLUMNS * _PITCH_X, tiles // _COLUMNS * _PITCH_Y], axis=1)

    def to_image(xy: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """(K, 2) mosaic points of the blobs numbered `rows` -> image pixels."""
        return np.einsum("nij,nj->ni", m[rows, :, :2], xy - origin[rows]) + m[rows, :, 2]

    centre = to_image(np.array([(b.cx, b.cy) for b in blobs]), np.arange(len(blobs)))
    merged = [i for i, b in enumerate(blobs) if b.parts]
    ends = to_image(np.array([p for i in merged for p in blobs[i].parts]).reshape(-1, 2),
                    np.repeat(np.array(merged, int), 2)).tolist()
    parts = {i: (tuple(ends[2 * k]), tuple(ends[2 * k + 1])) for k, i in enumerate(merged)}
    scale = np.hypot(m[:, 0, 0], m[:, 1, 0])
    size = np.array([(b.w, b.h, b.area) for b in blobs], np.float64) * scale[:, None]
    w, h = np.maximum(1, np.round(size[:, 0])), np.maximum(1, np.round(size[:, 1]))
    area = np.maximum(1, np.round(size[:, 2] * scale))
    return [Blob(cx, cy, int(cx - bw / 2), int(cy - bh / 2), int(bw), int(bh), int(a), parts=parts.get(i, ()))
            for i, ((cx, cy), bw, bh, a) in enumerate(zip(centre.tolist(), w.tolist(), h.tolist(), area.tolist()))]
