"""Index readings -> cards: the cards of a fan stay apart, one index is read once, and two readings that
must be one card but name two cards make it unknown."""
from __future__ import annotations

import numpy as np
import pytest

from vision.blobs import Blob
from vision.glyphs import IndexCandidate, placed_index
from vision.grouping import group_corners, unname_one_card_read_two_ways
from vision.index_pairs import quad_from_index
from vision.model import JUNK_RANK, JUNK_SUIT, RANKS, SUITS
from vision.outline import CardOutline
from vision.readings import UNKNOWN, CardReading, IndexReading
from vision.recognize import Recognizer
from vision.synthetic import FACE_W, PlacedCard, SceneStyle, _faces, render

L = 10.0  # px from rank to suit centre in these indices


def index(x: float, y: float) -> IndexCandidate:
    """An upright index (rank above suit) whose rank glyph is centred at (x, y)."""
    return IndexCandidate(*(Blob(x, cy, int(x) - 3, int(cy) - 4, 6, 8, 30) for cy in (y, y + L)))


def test_fanned_cards_a_little_apart_are_two_cards() -> None:
    """A tight fan puts the next card's index ~0.8 L to the side: the two imply nearly the same card
    outline, yet they are two cards (before, the pair was taken for one card misread, and both were lost)."""
    cards = group_corners([IndexReading(index(100, 100), "3H", 1.0), IndexReading(index(108, 100), "8H", 0.99)])
    assert sorted(c.card for c in cards) == ["3H", "8H"]


def test_one_card_read_twice_side_by_side_is_one_card() -> None:
    """The same name from two parallel readings close together is one card (one index read twice), not
    a duplicate."""
    (card,) = group_corners([IndexReading(index(100, 100), "10D", 1.0), IndexReading(index(108, 100), "10D", 0.9)])
    assert card.card == "10D" and card.confidence == 1.0


def test_one_index_read_as_two_cards_is_unknown() -> None:
    """Two readings a fifth of an L apart are one index: naming two cards, it is unknown."""
    (card,) = group_corners([IndexReading(index(100, 100), "3H", 1.0), IndexReading(index(102, 100), "8H", 0.99)])
    assert card.card == UNKNOWN


def _opposite(c: IndexCandidate) -> IndexCandidate:
    """The index in the diagonally opposite corner of c's card (turned half round about the card's centre)."""
    cx, cy = np.mean(np.array(quad_from_index(c)), axis=0)
    return IndexCandidate(*(Blob(2 * cx - b.cx, 2 * cy - b.cy, b.x, b.y, b.w, b.h, b.area) for b in (c.rank, c.suit)))


def test_two_corners_guessing_the_same_card_name_it() -> None:
    """A card's two index corners, each declined (below the threshold) but each guessing 8D at PAIR_LOW or
    more, are two reads of two prints that agree: the card is 8D, both corners' doubt combined. Two guesses
    that differ, a corner with no guess, or two guesses from one corner (one index read twice) name nothing."""
    top = index(100, 100)
    bottom = _opposite(top)

    def declined(c: IndexCandidate, guess: str | None, conf: float = 0.8) -> IndexReading:
        return IndexReading(c, UNKNOWN, conf, guess=guess)

    (card,) = group_corners([declined(top, "8D", 0.83), declined(bottom, "8D")])
    assert card.card == "8D" and card.confidence == pytest.approx(1 - 0.17 * 0.2)
    assert [c.card for c in group_corners([declined(top, "8D"), declined(bottom, "8H")])] == [UNKNOWN]
    assert [c.card for c in group_corners([declined(top, "8D"), declined(bottom, None)])] == [UNKNOWN]
    assert [c.card for c in group_corners([declined(top, "8D"), declined(index(101, 100.5), "8D")])] == [UNKNOWN]


def test_a_card_read_on_two_corners_is_not_undone_by_a_fanned_card_on_it() -> None:
    """A 2D read on both its index corners, and a 10D lying on it (a fan) whose index implies nearly the
    same outline (0.8 L off, pointing like the 2D's bottom corner): two cards, not one card whose corners
    disagree. One 2D corner alone against the 10D is still a contradiction, and so is the pair when a 10D
    is read elsewhere already (a four-index deck shows a fanned card's four corners)."""
    top = index(100, 100)
    bottom = _opposite(top)
    on_it = _opposite(index(100 + 0.8 * L, 100))
    two = IndexReading(top, "2D", 1.0)
    ten = IndexReading(on_it, "10D", 0.999)
    cards = group_corners([two, ten, IndexReading(bottom, "2D", 0.998)])
    assert sorted((c.card, len(c.corners)) for c in cards) == [("10D", 1), ("2D", 2)]
    assert [c.card for c in group_corners([two, ten])] == [UNKNOWN]
    elsewhere = IndexReading(index(400, 100), "10D", 1.0)
    cards = group_corners([two, ten, IndexReading(bottom, "2D", 0.998), elsewhere])
    assert sorted(c.card for c in cards) == ["10D", UNKNOWN]


def test_a_named_corner_and_its_opposite_guessing_the_same_card_confirm_it() -> None:
    """As above, with the 2D's other corner declined but guessing 2D (a fan's top card: its far index read
    surely, its own top index at 0.82): two prints agree, the 2D is read and the card lying on it is
    another card. A guess of another card, or a doubted one, confirms nothing: the card stays unknown."""
    top = index(100, 100)
    two = IndexReading(_opposite(top), "2D", 1.0)
    ten = IndexReading(index(100 + 0.8 * L, 100), "10D", 0.999)
    cards = group_corners([two, ten, IndexReading(top, UNKNOWN, 0.82, guess="2D")])
    assert sorted((c.card, len(c.corners)) for c in cards) == [("10D", 1), ("2D", 2)]
    assert [c.card for c in group_corners([two, ten, IndexReading(top, UNKNOWN, 0.82, guess="2H")])] == [UNKNOWN]
    doubted = IndexReading(top, UNKNOWN, 0.82, doubted=True, guess="2D")
    assert [c.card for c in group_corners([two, ten, doubted])] == [UNKNOWN]


def test_a_fans_top_card_takes_back_its_far_index_from_the_card_below() -> None:
    """A KS lying on a 7D (a fan) shows both its indices; its far one implies nearly the 7D's outline. Read
    before the KS's own top index, it was grouped with the 7D, which became unknown (two names), and the
    7D was lost: it goes back to the KS, whose opposite corner (or, on a four-index deck, the index beside it)
    reads KS, and the 7D is named again. Where no corner of the same card reads KS, the 7D stays unknown."""
    seven = IndexReading(index(100, 100), "7D", 1.0)
    far = _opposite(index(100 + 0.8 * L, 100))
    king_far, king_top = IndexReading(far, "KS", 0.999), IndexReading(_opposite(far), "KS", 0.97)
    cards = group_corners([seven, king_far, king_top])
    assert sorted((c.card, len(c.corners)) for c in cards) == [("7D", 1), ("KS", 2)]
    assert sorted(c.card for c in group_corners([seven, king_far])) == [UNKNOWN]
    elsewhere = IndexReading(index(400, 100), "KS", 0.97)  # a KS, but not this corner's card
    assert sorted(c.card for c in group_corners([seven, king_far, elsewhere])) == ["KS", UNKNOWN]
    # a deck printing four indices: the KS read beside the far one, on the same edge, is its card too
    beside = IndexCandidate(*(Blob(b.cx + 5.36 * L, b.cy, b.x, b.y, b.w, b.h, b.area) for b in (far.rank, far.suit)))
    cards = group_corners([seven, king_far, IndexReading(beside, "KS", 0.97)])
    assert sorted((c.card, len(c.corners)) for c in cards) == [("7D", 1), ("KS", 2)]


def test_a_doubted_corner_whose_seen_suit_is_the_cards_supports_it() -> None:
    """One corner names 5S; the other was read 5C by the index CNN, and the suit verifier doubted it, seeing
    a spade there: the verifier and the other corner agree, the card is 5S. A doubted corner whose seen suit
    is another (or none) still makes the card unknown."""
    top = index(100, 100)
    bottom = _opposite(top)

    def doubted(guess: str | None) -> IndexReading:
        return IndexReading(bottom, UNKNOWN, 0.99, doubted=True, guess=guess)

    assert [c.card for c in group_corners([IndexReading(top, "5S", 1.0), doubted("5S")])] == ["5S"]
    assert [c.card for c in group_corners([IndexReading(top, "5S", 1.0), doubted("5H")])] == [UNKNOWN]
    assert [c.card for c in group_corners([IndexReading(top, "5S", 1.0), doubted(None)])] == [UNKNOWN]
    # two doubted corners seeing the same card name nothing on their own
    assert [c.card for c in group_corners([IndexReading(top, UNKNOWN, 0.99, doubted=True, guess="5S"),
                                           doubted("5S")])] == [UNKNOWN]


def _scores(names: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    pr, ps = np.full((len(names), 14), 1e-4), np.full((len(names), 5), 1e-4)
    for i, name in enumerate(names):
        pr[i, RANKS.index(name[:-1])] = ps[i, SUITS.index(name[-1])] = 0.99 - 0.01 * i
    r, s = pr.argmax(1), ps.argmax(1)
    return pr, ps, r, s, pr[np.arange(len(names)), r] * ps[np.arange(len(names)), s]


def test_an_index_cut_two_ways_is_read_once() -> None:
    """Two cuts of one index's glyphs (other blobs, same place) are not two readings: the stronger one
    stands; an index a card's fan step away is read too."""
    recognizer = Recognizer()
    cands = [index(100, 100), index(101.5, 101), index(109, 100)]
    readings = recognizer._select(cands, *_scores(["8H", "10H", "3H"]), 0.8)
    assert [(rd.card, rd.candidate) for rd in readings] == [("8H", cands[0]), ("3H", cands[2])]


def test_a_glyph_serves_one_index() -> None:
    """A '10' paired with its suit, and again, turned 45 degrees, with a pip beside it: the index centres
    lie ~0.7 L apart, but the rank glyph is one, so the weaker pairing is not read."""
    ten = index(100, 100)
    turned = IndexCandidate(Blob(102, 103, 99, 99, 6, 8, 30), Blob(109.1, 110.1, 106, 106, 6, 8, 30))
    readings = Recognizer()._select([ten, turned], *_scores(["10D", "10D"]), 0.8)
    assert [rd.candidate for rd in readings] == [ten]


def test_a_named_reading_claims_its_glyphs_before_an_unnamed_cut() -> None:
    """Two cuts sharing the suit glyph: one read 7S for sure, the other as certainly an index but below the
    threshold (its re-check failed). The named one claims the glyphs, whatever the order (before, the
    unnamed cut came first on a tie and the card was lost as unknown)."""
    named = index(100, 100)
    longer = IndexCandidate(Blob(98, 96, 95, 92, 6, 8, 30), named.suit)
    pr, ps, r, s, _ = _scores(["7S", "7S"])
    pr[:, JUNK_RANK] = ps[:, JUNK_SUIT] = 0.0  # both fully index-like ...
    conf = np.array([0.79, 1.0])  # ... but the first one's re-checked confidence fell below the threshold
    (reading,) = Recognizer()._select([longer, named], pr, ps, r, s, conf, 0.8)
    assert (reading.card, reading.candidate) == ("7S", named)


def test_the_two_top_indices_of_a_four_index_card_are_one_card() -> None:
    """Decks that print an index in every corner show a card's two top indices side by side, ~5.4 L apart:
    the same name there is that card, not a second one (which the tracker would flag as a misread or a
    second deck); its outline is the one its top-left index implies, whichever was read more surely."""
    left, right = index(100, 100), index(100 + 5.36 * L, 100)
    (card,) = group_corners([IndexReading(right, "4C", 1.0), IndexReading(left, "4C", 0.99)])
    assert card.card == "4C" and len(card.corners) == 2
    assert np.allclose(card.quad[0], [100 - 0.52 * L, 100 + 0.5 * L - 1.5 * L])  # index centre: 0.5 L below the rank
    # the same name a card's width on (two cards side by side, touching: a second deck), or a different
    # name there, are other cards
    narrow = index(100 + 4.29 * L, 100)  # a design with its indices set further in (dondorf's)
    assert len(group_corners([IndexReading(left, "4C", 1.0), IndexReading(narrow, "4C", 0.99)])) == 1
    twin = index(100 + 6.4 * L, 100)
    assert len(group_corners([IndexReading(left, "4C", 1.0), IndexReading(twin, "4C", 1.0)])) == 2
    assert sorted(c.card for c in group_corners([IndexReading(left, "4C", 1.0), IndexReading(right, "5C", 1.0)])) == [
        "4C", "5C"]


def test_a_fan_of_four_index_cards_reads_each_card_once() -> None:
    """The last card of a fan shows both its top indices (and its bottom ones): one card each."""
    faces = {name: _four_index(_faces()[name]) for name in ("7S", "KD", "4C")}
    frame, quads = render([PlacedCard(n, 300 + 35 * k, 225, 0) for k, n in enumerate(faces)],
                          SceneStyle(size=(800, 450), card_width=110), seed=2, faces=faces)
    cards = Recognizer().read(frame)
    names = [c.card for c in cards if c.card != UNKNOWN]
    assert "4C" in names and len(names) == len(set(names))
    (four,) = [c for c in cards if c.card == "4C"]
    assert min(np.abs(np.roll(np.array(four.quad), k, axis=0) - quads[2]).max() for k in range(4)) < 0.1 * 110


def _four_index(face: np.ndarray) -> np.ndarray:
    """The face with its top-left index also in the top-right corner, and so (turned) in the bottom-left."""
    out = face.copy()
    out[10:100, FACE_W - 36:FACE_W - 2] = face[10:100, 2:36]
    turned = out[::-1, ::-1]
    out[-100:-10, 2:36] = turned[-100:-10, 2:36]
    return out


def _isolated(name: str, confidence: float) -> tuple[CardOutline, list[IndexReading], dict[int, CardOutline]]:
    """An isolated card read `name` on its two index corners (top-left at (100, 100)): its outline, the two
    readings, and the recognizer's map of them onto the outline."""
    top = index(100, 100)
    outline = CardOutline(np.array(quad_from_index(top), np.float32))
    on_outline = [IndexReading(top, name, confidence), IndexReading(_opposite(top), name, confidence)]
    return outline, on_outline, {id(rd.candidate): outline for rd in on_outline}


def test_an_isolated_four_index_cards_third_index_read_beside_it_is_that_card() -> None:
    """An isolated card holds its own two index corners; a deck printing four indices shows a third beside
    one, which the general proposer may read off the outline's edge. The same name there is that card, not
    a second copy; a card's width on, it is another card (a second deck)."""
    _, on_outline, on_card = _isolated("QS", 1.0)
    beside = IndexReading(index(100 + 5.36 * L, 100), "QS", 0.9)
    (card,) = group_corners(on_outline + [beside], on_card)
    assert card.card == "QS" and len(card.corners) == 3
    twin = IndexReading(index(100 + 6.4 * L, 100), "QS", 0.9)
    assert [c.card for c in group_corners(on_outline + [twin], on_card)] == ["QS", "QS"]


def test_an_isolated_cards_third_index_read_more_surely_than_its_own_two_is_that_card() -> None:
    """The third index read first (the surest) makes a card of its own, which the isolated card's two corners
    then join as one card read twice (_one_card_once): a card of three corners whose first is the general
    proposer's. Its outline is then taken from its most central corner; the isolated corners had no implied
    centre kept, and the recognizer raised KeyError (a four-index deck on a light-blue table; the camera's
    watcher died with it)."""
    _, on_outline, on_card = _isolated("QS", 0.9)
    beside = IndexReading(index(100 + 5.36 * L, 100), "QS", 1.0)
    (card,) = group_corners([beside] + on_outline, on_card)
    assert card.card == "QS" and len(card.corners) == 3


def test_a_reading_of_a_cards_name_just_beyond_its_outline_is_that_card() -> None:
    """An outline's corner whose paper the index glyphs bite into is cut off: dondorf's 2D on a light table
    had its fourth index 4 px beyond the quad, read as a second 2D. Within half an index length beyond it, a
    reading of the card's name lies on it; a whole index length beyond, it is another card."""
    outline, on_outline, on_card = _isolated("2D", 0.9)
    left_edge = min(x for x, _ in outline.quad)

    def read_beside(beyond_l: float) -> list[str]:
        # an index whose centre (0.5 L below its rank) lies `beyond_l` L left of the card, halfway down it
        beside = IndexReading(index(left_edge - beyond_l * L, 100 + 4 * L), "2D", 1.0)
        return [c.card for c in group_corners([beside] + on_outline, on_card)]
    assert read_beside(0.3) == ["2D"]
    assert read_beside(1.0) == ["2D", "2D"]


def test_a_four_index_card_named_by_two_corners_is_not_named_again_by_its_other_two() -> None:
    """A four-index KD read on its top-left and bottom-right corners, its other two corners declined but
    both guessing KD: one physical card, one reading. (The two declined readings paired as a card of their
    own, since 'unknown' == 'unknown', and were named KD by their agreeing guesses: the KD was reported
    twice.) Two declined corners guessing a card already read elsewhere in the frame name nothing either:
    one deck holds one KD."""
    top_left = index(100, 100)
    top_right = IndexCandidate(*(Blob(b.cx + 5.36 * L, b.cy, b.x, b.y, b.w, b.h, b.area)
                                 for b in (top_left.rank, top_left.suit)))
    named = [IndexReading(top_left, "KD", 1.0), IndexReading(_opposite(top_left), "KD", 0.999)]
    declined = [IndexReading(c, UNKNOWN, 0.8, guess="KD") for c in (top_right, _opposite(top_right))]
    for readings in (named + declined, declined + named):
        assert [c.card for c in group_corners(readings)] == ["KD"]
    far = [IndexReading(c, UNKNOWN, 0.8, guess="KD") for c in (index(400, 100), _opposite(index(400, 100)))]
    assert sorted(c.card for c in group_corners(named + far)) == ["KD", UNKNOWN]
    assert [c.card for c in group_corners(far)] == ["KD"]  # alone, the two agreeing guesses name it


def _turned(c: IndexCandidate, about: np.ndarray, degrees: float) -> IndexCandidate:
    """c's glyphs turned about the point `about`."""
    t = np.radians(degrees)
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])

    def moved(b: Blob) -> Blob:
        x, y = rot @ (np.array([b.cx, b.cy]) - about) + about
        return Blob(float(x), float(y), b.x, b.y, b.w, b.h, b.area)
    return IndexCandidate(moved(c.rank), moved(c.suit))


def test_one_card_whose_two_prints_name_two_suits_of_its_rank_is_neither() -> None:
    """A card's two opposite corners read alone as JH and JS, each its own card: one card read two ways, so
    neither is named. A neighbour of that rank turned as a fan turns one (25 degrees: two of its steps), or
    another rank, stays a card."""
    top = index(100, 100)
    centre = np.mean(np.array(quad_from_index(top)), axis=0)

    def read(name: str, far: IndexCandidate) -> list[str]:  # both cards given the top index's outline
        cards = [CardReading("JH", 1.0, quad_from_index(top), [IndexReading(top, "JH", 1.0)]),
                 CardReading(name, 1.0, quad_from_index(top), [IndexReading(far, name, 1.0)])]
        unname_one_card_read_two_ways(cards)
        return [c.card for c in cards]
    assert read("JS", _opposite(top)) == [UNKNOWN, UNKNOWN]
    assert read("JS", _turned(_opposite(top), centre, 25)) == ["JH", "JS"]  # cos -0.91, a fan's neighbour
    assert read("QS", _opposite(top)) == ["JH", "QS"]


def test_a_neighbour_s_index_pointing_the_other_way_is_not_a_card_s_far_corner() -> None:
    """A webcam frame (17_15_55, fold networks): the KS's two corners, and 4.3 L across from its
    bottom-left one the KC's top-right index, read KS too and pointing the other way. Within a card's
    diagonal and antiparallel, it was taken for the KS's far corner: one card of three corners, and the KC's
    other corner a second KS. A card's far corner lies down the card, a good part of its length away."""
    def at(x: float, y: float, ux: float, uy: float, length: float) -> IndexCandidate:
        return placed_index((x + ux * length / 2, y + uy * length / 2), (x - ux * length / 2, y - uy * length / 2))

    kc_corner = at(540, 227, 1.0, 0.08, 29.5)
    ks_bottom, ks_top = at(587, 107, -0.95, -0.3, 27.5), at(778, 56, 0.96, 0.27, 28.8)
    cards = group_corners([IndexReading(kc_corner, "KS", 1.0), IndexReading(ks_bottom, "KS", 1.0),
                           IndexReading(ks_top, "KS", 0.997)])
    ks = next(c for c in cards if any(rd.candidate is ks_top for rd in c.corners))
    assert {id(rd.candidate) for rd in ks.corners} == {id(ks_bottom), id(ks_top)}
