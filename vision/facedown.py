"""Face-down regions: how many cards show their outline.

A region is peeled like a pile seen from above: the card-size rectangle whose whole visible outline lies
on card edges (a card's light border against what lies outside it), with no unexplained edge inside it,
is the top card; it then hides what lies under it, and the next card is looked for. Card poses come from
the region's long straight edges, and for each one the region is mapped (turned, and sheared by the few
degrees a tilted camera skews cards) so that every position of a card, either way round, is scored at
once from integral images. Each card found is then nudged onto its edges, and a card whose visible
outline is all claimed by the others is dropped, so the count errs low (a hidden card) rather than high.
"""
from __future__ import annotations

import math

import cv2
import numpy as np

from vision.calibration import Calibration
from vision.ink import box_sums

# Regions are analysed at about this card width (px): finer costs time, coarser loses the thin borders.
_WORK_WIDTH = 64.0
# A card edge, in grey levels per px: a light card border against the table or the card below gives
# ~50; the back's printed pattern and sensor noise stay well under this.
_EDGE = 12.0
# The rounded corners (radius ~5 % of the width, plus blur) are no evidence: sides are scored this share of
# the card width short of each corner.
_CORNER = 0.06


def _lookup(img: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Nearest-pixel values at (..., 2) points, clamped to the image."""
    x = np.clip(np.rint(pts[..., 0]).astype(np.int32), 0, img.shape[1] - 1)
    y = np.clip(np.rint(pts[..., 1]).astype(np.int32), 0, img.shape[0] - 1)
    return img[y, x]


def _along_sides(ii: tuple[np.ndarray, ...], A: int, B: int, ys: np.ndarray, xs: np.ndarray, corner: int
                 ) -> np.ndarray:
    """Sums of integral images (top, bottom, left, right) along those sides of A x B cards at (xs, ys),
    `corner` px short of each rounded corner, which is no evidence: (4, positions)."""
    top, bottom, left, right = ii
    return np.stack([box_sums(top, xs + corner, ys, xs + A - corner, ys + 1),
                     box_sums(bottom, xs + corner, ys + B - 1, xs + A - corner, ys + B),
                     box_sums(left, xs, ys + corner, xs + 1, ys + B - corner),
                     box_sums(right, xs + A - 1, ys + corner, xs + A, ys + B - corner)])


def _edge_directions(grey: np.ndarray, card_w: float) -> list[tuple[float, float]]:
    """Directions (degrees mod 180) of the region's long straight edges, clustered within 3 degrees, as
    (direction, length): each card that shows a fair stretch of outline gives one or two."""
    lines = cv2.createLineSegmentDetector().detect(grey)[0]
    if lines is None:
        return []
    d = lines.reshape(-1, 4)[:, 2:] - lines.reshape(-1, 4)[:, :2]
    length = np.hypot(d[:, 0], d[:, 1])
    keep = length >= 0.3 * card_w
    angle, length = np.degrees(np.arctan2(d[keep, 1], d[keep, 0])) % 180, length[keep]
    clusters: list[list[float]] = []  # [sum of angle * length, sum of length, last angle]
    for a, n in sorted(zip(angle.tolist(), length.tolist())):
        if clusters and a - clusters[-1][2] <= 3:
            clusters[-1][0] += a * n
            clusters[-1][1] += n
            clusters[-1][2] = a
        else:
            clusters.append([a * n, n, a])
    if len(clusters) > 1 and clusters[0][2] + 180 - clusters[-1][2] <= 3:  # 179.5 and 0.5 degrees meet
        total, n, _ = clusters.pop()
        clusters[0][0] += total - 180 * n
        clusters[0][1] += n
    return [(total / n % 180, n) for total, n, _ in clusters]


def _card_poses(grey: np.ndarray, card_w: float) -> list[tuple[float, float]]:
    """Directions (degrees) of the two sides of each card pose the region shows. A camera not quite
    overhead skews cards away from the middle of the frame by a few degrees, so a card's sides are
    paired when within 6 degrees of square."""
    directions = _edge_directions(grey, card_w)
    poses: list[tuple[float, float]] = []
    for a, n in directions:
        if n < 0.5 * card_w:
            continue
        off = [(abs((b - a) % 180 - 90), b) for b, _ in directions]
        skew, b = min(off, default=(90.0, a))
        pose = (a, b) if skew <= 6 else (a, a + 90)
        if not any(abs(pose[0] - q[1]) < 1e-6 and abs(pose[1] - q[0]) < 1e-6 for q in poses):
            poses.append(pose)
    return poses


class _Pose:
    """One card pose: the region mapped so that cards with sides along directions (u, v) are
    axis-aligned rectangles, with the positions (every other pixel; refined later) where a card of either
    way round fits in the region."""

    def __init__(self, directions: tuple[float, float], smooth: np.ndarray, mask: np.ndarray,
                 card: tuple[float, float], tol: int) -> None:
        u, v = (np.array([math.cos(math.radians(a)), math.sin(math.radians(a))], np.float64) for a in directions)
        if u[0] * v[1] - u[1] * v[0] < 0:  # keep v clockwise of u (image y points down)
            v = -v
        square = np.linalg.inv(np.stack([u, v], 1))  # u -> x axis, v -> y axis, lengths along them kept
        rows, cols = mask.shape
        corners = np.array([[0, 0], [cols, 0], [cols, rows], [0, rows]], np.float64) @ square.T
        low = corners.min(0) - 1
        self.size = tuple(int(x) for x in np.ceil(corners.max(0) - low) + 1)
        self.M = np.hstack([square, -low[:, None]])
        self.back = cv2.invertAffineTransform(self.M)
        grey = cv2.warpAffine(smooth, self.M, self.size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        gu = cv2.Sobel(grey, cv2.CV_32F, 1, 0, scale=1 / 8)
        gv = cv2.Sobel(grey, cv2.CV_32F, 0, 1, scale=1 / 8)
        across_rows, across_cols = np.ones((2 * tol + 1, 1), np.uint8), np.ones((1, 2 * tol + 1), np.uint8)
        # a card's outline is lighter inside (its border) than outside, on each of its four sides
        self.top = cv2.dilate((gv >= _EDGE).astype(np.uint8), across_rows)
        self.bottom = cv2.dilate((gv <= -_EDGE).astype(np.uint8), across_rows)
        self.left = cv2.dilate((gu >= _EDGE).astype(np.uint8), across_cols)
        self.right = cv2.dilate((gu <= -_EDGE).astype(np.uint8), across_cols)
        self.strong = (np.hypot(gu, gv) >= 2 * _EDGE).astype(np.uint8)
        self.region = self.warp(mask) // 255
        near = cv2.integral(self.warp(cv2.dilate(mask, np.ones((2 * tol + 1,) * 2, np.uint8))) // 255)
        self.fits: list[tuple[int, int, np.ndarray, np.ndarray]] = []
        for a, b in (card, card[::-1]):
            A, B = round(a), round(b)
            ys, xs = np.mgrid[0:max(0, self.size[1] - B):2, 0:max(0, self.size[0] - A):2]
            inside = box_sums(near, xs, ys, xs + A, ys + B) >= 0.95 * A * B
            if inside.any():
                self.fits.append((A, B, ys[inside], xs[inside]))

    def warp(self, img: np.ndarray, interp: int = cv2.INTER_NEAREST) -> np.ndarray:
        return cv2.warpAffine(img, self.M, self.size, flags=interp)

    def best(self, found: np.ndarray, hidden: np.ndarray, card_w: float) -> tuple[float, np.ndarray] | None:
        """The best next card in this pose, as (score, quad in region pixels), given the area of the
        cards `found` so far and what they hide; drops positions that can no longer become a card."""
        seen = (self.warp(hidden) == 0).astype(np.uint8)
        new = cv2.integral(self.region * (self.warp(found) == 0))
        occluders = cv2.integral(self.strong * seen)
        top, bottom, left, right = (cv2.integral(m * seen) for m in (self.top, self.bottom, self.left, self.right))
        visible = cv2.integral(seen)
        inset = round(0.12 * card_w)
        corner = round(_CORNER * card_w)
        best, fits = None, []
        for A, B, ys, xs in self.fits:
            on_sides = _along_sides((top, bottom, left, right), A, B, ys, xs, corner)
            shown_sides = _along_sides((visible,) * 4, A, B, ys, xs, corner)
            on, shown = on_sides.sum(0), shown_sides.sum(0)
            # every side that shows must be mostly edge too, not just the outline as a whole
            sides_ok = ((shown_sides < 0.15 * card_w) | (on_sides >= 0.6 * shown_sides)).all(0)
            perimeter = 2 * (A + B - 4 * corner)  # as _along_sides counts it
            # both only shrink as cards are found: a position failing them is done with
            alive = (shown >= 0.2 * perimeter) & (box_sums(new, xs, ys, xs + A, ys + B) >= 0.1 * A * B)
            fits.append((A, B, ys[alive], xs[alive]))
            ratio = on / np.maximum(shown, 1)
            # a card still under an unfound one shows that card's edge inside it
            clear = box_sums(occluders, xs + inset, ys + inset, xs + A - inset, ys + B - inset) < 0.3 * card_w
            score = np.where(alive & clear & sides_ok & (ratio >= 0.85), ratio + 0.1 * shown / perimeter, -1.0)
            i = int(np.argmax(score))
            if score[i] > 0 and (best is None or score[i] > best[0]):
                x, y = xs[i], ys[i]
                rect = np.array([[x, y], [x + A, y], [x + A, y + B], [x, y + B]], np.float32)
                best = (float(score[i]), cv2.transform(rect[None], self.back)[0])
        self.fits = [f for f in fits if len(f[3])]
        return best


def _outline(quad: np.ndarray, step: float) -> tuple[np.ndarray, np.ndarray]:
    """Points every `step` px along a quad's sides, rounded corners skipped, and their outward normals."""
    pts, normals = [], []
    width = float(min(np.linalg.norm(quad[1] - quad[0]), np.linalg.norm(quad[2] - quad[1])))
    for a, b in zip(quad, np.roll(quad, -1, 0)):
        length = float(np.linalg.norm(b - a))
        t = np.arange(_CORNER * width, length - _CORNER * width, step, dtype=np.float32)[:, None] / length
        n = np.array([a[1] - b[1], b[0] - a[0]], np.float32) / length
        n *= 1 if n @ ((a + b) / 2 - quad.mean(0)) > 0 else -1
        pts.append(a + t * (b - a))
        normals.append(np.repeat(n[None], len(t), 0))
    return np.concatenate(pts), np.concatenate(normals)


def _edge_hits(pts: np.ndarray, normals: np.ndarray, grey: np.ndarray, hidden: np.ndarray, reach: int) -> np.ndarray:
    """Which outline points are visible card edges: lighter `reach` px inside than `reach` px outside."""
    step_up = _lookup(grey, pts - reach * normals) - _lookup(grey, pts + reach * normals)
    return (_lookup(hidden, pts) == 0) & (step_up >= 2 * reach * _EDGE)


def _moved(pts: np.ndarray, centre: np.ndarray, moves: np.ndarray) -> np.ndarray:
    """(M, 2) points turned about `centre` and shifted by each (degrees, dx, dy) move: (K, M, 2)."""
    r = np.radians(moves[:, 0])
    c, s = np.cos(r)[:, None], np.sin(r)[:, None]
    x, y = (pts - centre).T
    return np.stack([c * x - s * y, s * x + c * y], -1) + centre + moves[:, None, 1:]


def _refine(quad: np.ndarray, grey: np.ndarray, hidden: np.ndarray) -> np.ndarray:
    """The card turned (up to 4.5 degrees) and moved (up to 3 px) to put most of its visible outline on
    edges: the search above is coarse (clustered directions, every other pixel). Moves are listed
    smallest first, so a tie keeps the card where it was."""
    pts, normals = _outline(quad, 1.5)
    centre = quad.mean(0)
    best = np.zeros(3, np.float32)  # degrees, dx, dy
    steps = np.array([0, -1, 1, -2, 2, -3, 3], np.float32)
    for unit in ([1, 0, 0], [0.5, 0, 0], [0, 1, 0], [0, 0, 1]):
        moves = best + steps[:, None] * np.array(unit, np.float32)
        turned_normals = _moved(normals, np.zeros(2), moves * [1, 0, 0])  # normals turn, they do not move
        hits = _edge_hits(_moved(pts, centre, moves), turned_normals, grey, hidden, 1)
        best = moves[int(np.argmax(hits.sum(1)))]
    return _moved(quad, centre, best[None])[0]


def _prune(cards: list[np.ndarray], grey: np.ndarray, card_w: float, tol: int) -> list[np.ndarray]:
    """Drop, weakest first, cards whose visible edges are all claimed by the others' outlines."""
    near = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (4 * tol + 1,) * 2)
    grow = np.ones((2 * tol + 1,) * 2, np.uint8)
    shape = grey.shape
    while len(cards) > 1:
        above = np.zeros(shape, np.uint8)  # cards are in peeling order: earlier ones lie on top
        shown = []
        for quad in cards:
            pts, normals = _outline(quad, 1.0)
            hit = _edge_hits(pts, normals, grey, cv2.dilate(above, grow), tol)
            claim = np.zeros(shape, np.uint8)
            xy = np.clip(np.rint(pts[hit]).astype(np.int32), 0, [shape[1] - 1, shape[0] - 1])
            claim[xy[:, 1], xy[:, 0]] = 1
            shown.append((pts, hit, cv2.dilate(claim, near)))
            cv2.fillConvexPoly(above, np.rint(quad).astype(np.int32), 1)
        claims = np.sum([claim for _, _, claim in shown], 0)
        own = [int((hit & (_lookup(claims - claim, pts) == 0)).sum()) for pts, hit, claim in shown]
        weakest = int(np.argmin(own))
        if own[weakest] >= 0.3 * card_w:
            break
        cards.pop(weakest)
    return cards


def count_outlines(image: np.ndarray, mask: np.ndarray, card: tuple[float, float]) -> int:
    """Face-down cards whose outline shows in one region: `image` (BGR) and `mask` (255 = region) cropped
    around it, `card` the calibrated (width, height) in px. Cards with nothing of their outline showing
    (a squared pile) are not counted."""
    scale = min(1.0, _WORK_WIDTH / card[0])
    if scale < 1:
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        mask = cv2.resize(mask, image.shape[1::-1], interpolation=cv2.INTER_NEAREST)
    w, h = card[0] * scale, card[1] * scale
    tol = max(1, round(0.04 * w))  # perspective makes cards a few % larger or smaller across the table
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    smooth = cv2.GaussianBlur(grey.astype(np.float32), (0, 0), 1.0)
    poses = [_Pose(directions, smooth, mask, (w, h), tol) for directions in _card_poses(grey, w)]
    found = np.zeros(mask.shape, np.uint8)
    grow = np.ones((2 * tol + 1,) * 2, np.uint8)
    cards: list[np.ndarray] = []
    while poses:
        hidden = cv2.dilate(found, grow)
        candidates = [b for pose in poses if (b := pose.best(found, hidden, w))]
        poses = [pose for pose in poses if pose.fits]
        if not candidates:
            break
        quad = _refine(max(candidates, key=lambda b: b[0])[1], smooth, hidden)
        cards.append(quad)
        cv2.fillConvexPoly(found, np.rint(quad).astype(np.int32), 255)
    return len(_prune(cards, smooth, w, tol))


def count_in_region(frame: np.ndarray, contour: np.ndarray, cal: Calibration) -> int:
    """`count_outlines` on one region of the frame, cropped with a margin so its outline's edges show."""
    margin = round(0.1 * cal.card_width_px)
    x, y, w, h = cv2.boundingRect(contour)
    x0, y0 = max(0, x - margin), max(0, y - margin)
    x1, y1 = min(frame.shape[1], x + w + margin), min(frame.shape[0], y + h + margin)
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.drawContours(mask, [contour - [x0, y0]], -1, 255, -1)
    return count_outlines(frame[y0:y1, x0:x1], mask, (cal.card_width_px, cal.card_height_px))
