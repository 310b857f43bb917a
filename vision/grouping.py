"""Merge the corner readings of one card into a card reading: by the isolated card's outline they lie on,
or by name and the card centre they imply; corners naming two cards make it unknown, unless the geometry
says they are two cards (a fan's card lying on another, a card's far index grouped with the card below)."""
from __future__ import annotations

import itertools

import cv2
import numpy as np

from vision.index_pairs import (at_two_ends, card_centre, offset_in_card, opposite_corners, prints_of_one_card,
                                quad_from_index, same_card_opposite, side_by_side, top_corners, two_corners)
from vision.outline import CardOutline
from vision.readings import UNKNOWN, CardReading, IndexReading, either


def group_corners(readings: list[IndexReading], on_card: dict[int, CardOutline] | None = None) -> list[CardReading]:
    """Merge the two corner indices of one card. Readings on an isolated card's outline (`on_card`, by id
    of the candidate) are that card, which takes the outline's quad, unless they name different cards
    (two overlapping cards can look like one); others pair up by name and implied card centre.

    Two corners of the very same card naming different cards contradict each other: that card becomes
    unknown rather than either guess (unless one name is read on two opposite corners of it: then the
    other reading is another card lying on it, `_split_off_other_cards`); so does a card one of whose
    readings has its suit doubted, unless the suit the verifier sees there is the one the card's other
    corners name (the index CNN misread that corner's suit; the verifier and the other corner agree).
    """
    on_card = _consistent_outlines(readings, on_card or {})
    cards: list[CardReading] = []
    by_outline: dict[int, CardReading] = {}
    centres: dict[int, np.ndarray] = {}
    for rd in sorted(readings, key=lambda x: (x.card == UNKNOWN, -x.confidence)):
        outline = on_card.get(id(rd.candidate))
        if outline is not None:
            card = by_outline.get(id(outline))
            if card is None:
                by_outline[id(outline)] = card = CardReading(rd.card, rd.confidence, outline.to_list(), [])
                cards.append(card)
            else:
                _add_corner(card, rd, rd.card == card.card)
            card.corners.append(rd)
            continue
        centre = centres[id(rd)] = card_centre(rd.candidate)
        for card in cards:
            first = card.corners[0]
            if id(first) not in centres:  # an isolated card: it holds its own two index corners, but a card
                # printed with four indices shows a third beside one, which the general proposer may read
                if rd.card != UNKNOWN and rd.card == card.card and any(top_corners(rd.candidate, o.candidate)
                                                                       for o in card.corners):
                    _add_corner(card, rd, True)
                    card.corners.append(rd)
                    break
                continue
            other = first.candidate
            # a webcam's KC top-right index 4.3 L beside the KS's bottom-left one, pointing the other way, was
            # taken for the KS's far corner: one card of three corners, the KS read twice (at_two_ends here,
            # not inside opposite_corners: through prints_of_one_card the recognizer's check of a card's two
            # prints uses that too, and there it lost a real photo's 3C print, tests/test_vision_ranks.py)
            if rd.card == card.card and opposite_corners(rd.candidate, other) and at_two_ends(rd.candidate, other):
                _add_corner(card, rd, True)
                card.corners.append(rd)
                break
            if rd.card == card.card and top_corners(rd.candidate, other):  # not a second card of that name
                _add_corner(card, rd, True)
                card.corners.append(rd)
                if offset_in_card(rd.candidate, other)[0] < 0:  # the card's outline from its top-left index
                    card.quad = quad_from_index(rd.candidate)
                break
            if float(np.hypot(*(centre - centres[id(first)]))) / other.length < 1.0:
                if side_by_side(rd.candidate, other):
                    if rd.card != card.card:
                        continue  # a fan's next card: its implied outline nearly matches, it is another card
                    card.corners.append(rd)  # the same card read twice: one index, or a second deck's twin
                    break
                _add_corner(card, rd, False)
                card.corners.append(rd)
                break
        else:
            cards.append(CardReading(rd.card, rd.confidence, quad_from_index(rd.candidate), [rd]))
    _reunite_opposite_corners([c for c in cards if id(c.corners[0]) in centres])
    read = {c.card for c in cards}
    split: list[CardReading] = []
    for card in cards:
        parts = _split_off_other_cards(card, read)
        read |= {c.card for c in parts}  # a second split naming the same card would make a duplicate
        split += parts
    cards = split
    for card in cards:
        if any(rd.doubted and rd.guess != card.card for rd in card.corners) or (
                id(card.corners[0]) not in centres and _contradicted(card)):  # an isolated card's own corners
            card.card = UNKNOWN
    named = [np.array(c.quad, np.float32) for c in cards if c.card != UNKNOWN]
    # pips of a card we read, or its other corners (a deck printing four indices), are no news
    cards = [c for c in cards if c.card != UNKNOWN or not any(
        cv2.pointPolygonTest(q, c.corners[0].candidate.centre, False) >= 0 for q in named)]
    cards = _one_card_once(cards)
    read = {c.card for c in cards}
    for card in cards:
        if card.card == UNKNOWN and _name_by_agreeing_corners(card, read):
            read.add(card.card)
    for card in cards:
        if len(card.corners) > 2 and id(card.corners[0]) in centres:  # outline from the most central corner
            # (card_centre, not `centres`: _one_card_once may have joined an isolated card's corners to it)
            middle = np.array([card_centre(r.candidate) for r in card.corners])
            best = int(np.argmin(np.linalg.norm(middle - np.median(middle, axis=0), axis=1)))
            card.quad = quad_from_index(card.corners[best].candidate)
    return cards


def _contradicted(card: CardReading) -> bool:
    """Does a declined corner of `card` guess another card (at recognize.PAIR_LOW or more), opposite a
    corner naming it? Two prints of one card disagree: the named one may be the misread (an unseen deck's
    spade read as a club on one corner at 0.998, guessed a spade on the other at 0.76). Made unknown, the
    card is still looked at by its face (its pips then named that 3S)."""
    return card.card != UNKNOWN and any(
        a.card == card.card and b.card == UNKNOWN and b.guess not in (None, card.card)
        and two_corners(a.candidate, b.candidate) for a in card.corners for b in card.corners)


# A reading of a card's name this close beyond its quad (in index lengths) is that card read again: an
# outline's corner whose paper the index glyphs bite into is cut off (dondorf's 2D on a light table: its
# fourth index 4 px outside the quad, a card of its own, the 2D read twice). Not for two names: two
# overlapping 10s of a webcam frame, each just beyond the other's quad, were then taken for one card's
# two prints (unname_one_card_read_two_ways) and both lost.
_ON_QUAD_L = 0.5


def _one_card_once(cards: list[CardReading]) -> list[CardReading]:
    """`cards` without a card whose every corner lies on another card of its name (its quad): one card read
    from two corners that did not group (each outline implied by one index of a court whose art splits its
    paper), not a second card of that name."""
    out: list[CardReading] = []
    for card in cards:
        twin = next((o for o in out if o.card == card.card != UNKNOWN
                     and (_corners_inside(card, o, _ON_QUAD_L) or _corners_inside(o, card, _ON_QUAD_L))), None)
        if twin is None:
            out.append(card)
        else:
            if _corners_inside(twin, card):  # the outline that holds both corners
                twin.quad = card.quad
            twin.corners += card.corners
            twin.confidence = either(twin.confidence, card.confidence)
    return out


def unname_one_card_read_two_ways(cards: list[CardReading]) -> None:
    """Two named cards of one rank and two suits, each of whose corners lies on the other's quad, read from
    corners pointing apart, are one card's two prints read as two cards (each index implying an outline of
    its own, as in `_one_card_once`): they disagree on the suit, so neither is named (ancient-egyptians' JH
    in grey, one corner read JH and the other JS at 1.0). Not two ranks: a fan's cards overlap so, a card's
    near index pointing away from its neighbour's far one (any two names: fans of the designs printing four
    indices lost half their cards, 2,573 -> 2,345 read). For the recognizer to apply once the faces are
    read: an isolated card's face may have settled the clash already (bellot's 3H, one corner read JH on
    its outline, unnamed by its three pips; made unknown before, the 3H's other corner was lost too).
    Pointing apart as one card's two prints do, exactly (index_pairs.prints_of_one_card): a fan's neighbour
    of that rank, its far index pointing away from this card's near one, is turned by the fan's step (cos
    -0.82 and -0.91 on the two fanned pairs that lost a card, ancient-egyptians' -0.998 and -0.999)."""
    named = [c for c in cards if c.card != UNKNOWN]
    clashing = [(a, b) for a, b in itertools.combinations(named, 2)
                if a.card[:-1] == b.card[:-1] and a.card != b.card and _corners_inside(a, b) and _corners_inside(b, a)
                and any(prints_of_one_card(x.candidate, y.candidate) for x in a.corners for y in b.corners)]
    for a, b in clashing:
        a.card = b.card = UNKNOWN


def _corners_inside(card: CardReading, other: CardReading, beyond_l: float = 0.0) -> bool:
    """Do all of `card`'s corner readings lie on `other`'s quad (or within `beyond_l` index lengths beyond it)?"""
    quad = np.array(other.quad, np.float32)
    return all(cv2.pointPolygonTest(quad, rd.candidate.centre, True) >= -beyond_l * rd.candidate.length
               for rd in card.corners)


def _reunite_opposite_corners(cards: list[CardReading]) -> None:
    """A reading that made a card unknown, naming another card whose opposite corner (the same card centre),
    or on a deck printing four indices the index beside it on the same edge, reads that name too, is that
    other card's corner: it moves there, and the card it left is named by its remaining corners again. (In a
    fan the top card's far index implies a card centre close to that of the card below, and was grouped with
    it when read before the top card's own index: the card below was lost.)"""
    for card in cards:
        if card.card != UNKNOWN or len({rd.card for rd in card.corners} - {UNKNOWN}) < 2:
            continue
        for rd in [rd for rd in card.corners if rd.card != UNKNOWN]:
            home = next((other for other in cards if other.card == rd.card
                         and any(same_card_opposite(rd.candidate, o.candidate)
                                 or top_corners(rd.candidate, o.candidate) for o in other.corners)), None)
            if home is not None:
                card.corners.remove(rd)
                home.corners.append(rd)
                _add_corner(home, rd, True)
        left = [rd for rd in card.corners if rd.card != UNKNOWN]
        if left and len({rd.card for rd in left}) == 1:
            card.card, card.confidence = left[0].card, either(*(rd.confidence for rd in left))


def _split_off_other_cards(card: CardReading, read: set[str]) -> list[CardReading]:
    """A card made unknown by readings naming two cards, where one name is read on two opposite corners of
    it (two reads of two prints agree; one of them may be a declined corner guessing that name, as a fan's
    top card's own index is beside its far one read surely: fans +2): that card, and each reading naming
    another card is that other card (in a fan, a card lying on it whose index implies nearly the same
    outline). Not when a card of either name is `read` already (a deck printing four indices shows a
    fanned card's four, two cards' worth). Otherwise the card as it is."""
    named = [rd for rd in card.corners if rd.card != UNKNOWN]
    if card.card != UNKNOWN or len({rd.card for rd in named}) < 2:
        return [card]
    agreed = {a.card for a in named for b in card.corners
              if b is not a and _reads_alike(a, b) and two_corners(a.candidate, b.candidate)}
    if len(agreed) != 1:
        return [card]
    (name,) = agreed
    others = [rd for rd in named if rd.card != name]
    if len({rd.card for rd in others}) != len(others) or read & {rd.card for rd in named}:
        return [card]
    card.card = name
    card.corners = [rd for rd in card.corners if rd.card in (name, UNKNOWN)]
    card.confidence = either(*(rd.confidence for rd in card.corners if rd.card == name))
    return [card] + [CardReading(rd.card, rd.confidence, quad_from_index(rd.candidate), [rd]) for rd in others]


def _reads_alike(named: IndexReading, other: IndexReading) -> bool:
    """Does `other` name the card `named` names, or (declined, not doubted) guess it?"""
    return other.card == named.card or (other.card == UNKNOWN and not other.doubted and other.guess == named.card)


def _name_by_agreeing_corners(card: CardReading, read: set[str]) -> bool:
    """An unknown card whose two opposite index corners guess the same card (each at recognize.PAIR_LOW at
    least, neither doubted, no other reading of it naming or guessing otherwise) takes that name, unless a
    card of that name is `read` in the frame already (guesses are the weakest evidence: one deck holds one
    of each card). Whether it did."""
    if any(rd.card != UNKNOWN or rd.doubted or not rd.guess for rd in card.corners):
        return False
    if len({rd.guess for rd in card.corners}) != 1 or card.corners[0].guess in read:
        return False
    for a, b in itertools.combinations(card.corners, 2):
        if two_corners(a.candidate, b.candidate):
            card.card = str(a.guess)
            card.confidence = either(a.confidence, b.confidence)
            return True
    return False


def _consistent_outlines(readings: list[IndexReading], on_card: dict[int, CardOutline]) -> dict[int, CardOutline]:
    """`on_card` without the outlines whose corners name two different cards: such an outline is two
    cards overlapping end to end, whose readings are grouped like any others."""
    named: dict[int, set[str]] = {}
    for rd in readings:
        if id(rd.candidate) in on_card and rd.card != UNKNOWN:
            named.setdefault(id(on_card[id(rd.candidate)]), set()).add(rd.card)
    return {k: o for k, o in on_card.items() if len(named.get(id(o), ())) <= 1}


def _add_corner(card: CardReading, rd: IndexReading, same_name: bool) -> None:
    """Another corner reading of `card`: agreement raises the confidence, a contradiction makes it unknown."""
    if same_name:
        if card.card != UNKNOWN:
            card.confidence = either(card.confidence, rd.confidence)
    elif UNKNOWN not in (rd.card, card.card):
        card.card = UNKNOWN

