"""Where a card's corner indices lie, in units of L (the index's rank-to-suit centroid distance): the card
outline one index implies, and what two index candidates can be to each other (one index cut twice, a
card's two opposite corners, the two top indices of a card printed with four, two fanned cards)."""
from __future__ import annotations

import math

import numpy as np

from vision.glyphs import IndexCandidate

# Card geometry in units of L, the rank-to-suit centroid distance of the index (measured on standard
# poker-size faces: W = 6.4 L, H = 9.6 L, index centre 0.52 L right of and 1.5 L below the corner).
CARD_W_L, CARD_H_L = 6.4, 9.6
INDEX_RIGHT_L, INDEX_DOWN_L = 0.52, 1.5
# Two index corners of one card lie at least this many L apart (diagonally opposite corners: ~11 L), so a
# corner never confirms itself.
OTHER_CORNER_L = 3.0
# Two readings pointing the same way (cosine above this) at least SAME_INDEX_L apart are two cards'
# indices, not one index read twice (readings of one index share the index's centre to a fraction of L).
PARALLEL_COS = 0.8
SAME_INDEX_L = 0.5
# Two glyphs this close (in L) are one glyph (cut two ways, a '10' moves its centre by ~0.35 L); a tight
# fan's indices lie ~0.8 L apart or more.
SAME_GLYPH_L = 0.45
# The two top indices of a card printed with four lie this far apart across the card (in L; 5.36 on
# standard faces, 4.29 on dondorf's: at 4.3 its 3S in a fan was two cards). Two cards side by side,
# touching, put their top-left indices 6.4 L apart: a second deck's twin there stays a second card.
TOP_SPAN_L = (4.0, 6.0)
# A card's two opposite prints point apart at least this exactly (cosine of their up directions): a card is
# rigid, its prints antiparallel to the few degrees an index's up is read to (-0.98 to -1.0 on the photo
# and the designs where they disagreed); a fan turns its neighbours further (a neighbour's far index
# against a card's near one, naming that card's rank: -0.82 and -0.91 on the designs' fans).
ONE_CARD_COS = -0.95
# A card's two opposite prints lie apart along its length (in L) by 6.6 on standard faces: at least
# OPPOSITE_ALONG_L (a table camera's tilt shortens it, and a deck's small index lengthens L against the
# card: a webcam's 2D at 2.9 L one way, 4.2 the other), at most OPPOSITE_ALONG_MAX_L (a photo stretched
# square lengthens it in units of L, whose index it shortens, by up to ~1.5x). Two neighbours' indices
# side by side across a card lie at -0.3 to +3.6 L.
OPPOSITE_ALONG_L = 1.5
OPPOSITE_ALONG_MAX_L = 1.15 * CARD_H_L


def quad_from_index(c: IndexCandidate) -> list[list[float]]:
    """Card outline implied by one corner index (clockwise from the index's corner)."""
    ux, uy = c.up
    rx, ry = -uy, ux
    L = c.length
    cx, cy = c.centre
    tlx = cx - INDEX_RIGHT_L * L * rx + INDEX_DOWN_L * L * ux
    tly = cy - INDEX_RIGHT_L * L * ry + INDEX_DOWN_L * L * uy
    w, h = CARD_W_L * L, CARD_H_L * L
    return [[tlx, tly], [tlx + w * rx, tly + w * ry], [tlx + w * rx - h * ux, tly + w * ry - h * uy],
            [tlx - h * ux, tly - h * uy]]


def opposite_corners(a: IndexCandidate, b: IndexCandidate) -> bool:
    """Could a and b be the two indices of one card (within a card diagonal, pointing apart)? Exactly
    antiparallel ones may be further apart: a stretched image (resized to a square by dataset tools, or
    a steep camera) shortens L along the index but not the card, by up to ~1/3."""
    dot = up_cos(a, b)
    span = np.hypot(a.centre[0] - b.centre[0], a.centre[1] - b.centre[1]) / max(a.length, b.length)
    diagonal = np.hypot(CARD_W_L, CARD_H_L)
    return (dot < 0.3 and span < 1.1 * diagonal) or (dot < -0.8 and span < 1.4 * diagonal)


def at_two_ends(a: IndexCandidate, b: IndexCandidate) -> bool:
    """Does each of a and b lie down the other's card (away from the edge its index points to), by a good
    part of a card's length and no more than one, as one card's two opposite prints do? Not two
    neighbouring cards' indices side by side across a card, or beyond its edge."""
    return all(-OPPOSITE_ALONG_MAX_L <= offset_in_card(x, y)[1] <= -OPPOSITE_ALONG_L for x, y in ((a, b), (b, a)))


def top_corners(a: IndexCandidate, b: IndexCandidate) -> bool:
    """Could a and b be the two top (or the two bottom) indices of one card printed with an index in every
    corner: side by side, pointing the same way, a card's width less the two insets apart (6.4 - 2 x 0.52
    = 5.36 L on standard faces; the span allows narrower and wider designs)? A fan's cards lie closer, and
    are other cards (other names) anyway."""
    if up_cos(a, b) <= PARALLEL_COS:
        return False
    sideways, upwards = offset_in_card(a, b)
    return TOP_SPAN_L[0] <= abs(sideways) <= TOP_SPAN_L[1] and abs(upwards) < 1.0


def offset_in_card(a: IndexCandidate, b: IndexCandidate) -> tuple[float, float]:
    """Where a's centre lies from b's, in L along b's card-right and b's up."""
    length = max(a.length, b.length)
    dx, dy = a.centre[0] - b.centre[0], a.centre[1] - b.centre[1]
    ux, uy = b.up
    return (dx * -uy + dy * ux) / length, (dx * ux + dy * uy) / length


def same_index(a: IndexCandidate, b: IndexCandidate) -> bool:
    """Are a and b two cuts of one index (other blobs, same place), or does one glyph serve both (a '10'
    paired with its suit, and its '0' with a pip beside it)? A glyph belongs to one index.

    Plain arithmetic, most pairs decided by the first test: it runs for every reading against every
    reading named before it."""
    length = max(a.length, b.length)
    apart = math.hypot(a.centre[0] - b.centre[0], a.centre[1] - b.centre[1]) / length
    if apart > 1 + SAME_GLYPH_L:  # glyphs lie 0.5 L from their index centre: no glyph of one near the other's
        return False
    if apart <= SAME_INDEX_L:
        return True
    near = SAME_GLYPH_L * length
    return any(math.hypot(p.cx - q.cx, p.cy - q.cy) <= near for p in (a.rank, a.suit) for q in (b.rank, b.suit))


def same_card_opposite(a: IndexCandidate, b: IndexCandidate) -> bool:
    """Are a and b two opposite index corners of one card: pointing apart, implying the same card centre?"""
    apart = float(np.hypot(*(card_centre(a) - card_centre(b))))
    return two_corners(a, b) and apart < max(a.length, b.length)


def two_corners(a: IndexCandidate, b: IndexCandidate) -> bool:
    """Are a and b two index corners of one card: pointing apart, further apart than one corner's cuts?"""
    apart = math.dist(a.centre, b.centre) / max(a.length, b.length)
    return up_cos(a, b) < -PARALLEL_COS and apart > OTHER_CORNER_L


def prints_of_one_card(a: IndexCandidate, b: IndexCandidate) -> bool:
    """Could a and b be one card's two opposite prints: pointing apart as exactly as one card's do
    (ONE_CARD_COS), further apart than one corner's cuts and within a card's diagonal? Not the implied card
    centres (`same_card_opposite`): a foreshortened photo or a design's index placed otherwise moves them."""
    return up_cos(a, b) < ONE_CARD_COS and two_corners(a, b) and opposite_corners(a, b)


def of_one_card(a: IndexCandidate, b: IndexCandidate) -> bool:
    """Could a and b be indices of one card: one index cut twice, the card's two opposite corners (implying
    the same card centre), or the two top indices of a card printed with four?"""
    return same_index(a, b) or same_card_opposite(a, b) or top_corners(a, b)


def side_by_side(a: IndexCandidate, b: IndexCandidate) -> bool:
    """Are a and b the indices of two cards fanned or spread side by side: pointing the same way, and
    further apart than two readings of one index can be? (A card's own two indices point apart.)"""
    return up_cos(a, b) > PARALLEL_COS and not same_index(a, b)


def up_cos(a: IndexCandidate, b: IndexCandidate) -> float:
    """Cosine between two indices' up directions: 1 side by side, -1 a card's two corners."""
    return a.up[0] * b.up[0] + a.up[1] * b.up[1]


def card_centre(c: IndexCandidate) -> np.ndarray:
    return np.mean(np.array(quad_from_index(c)), axis=0)

