"""Enrolled mode: the candidates no reading kept (the CNN called them junk, or unsure, so they reached no
card), named by the enrolled views. Most cards an enrolled recognizer still missed in fans had no corner
reading at all; their index was a candidate the CNN, not knowing the typeface, declined.

A declined candidate names card X when its embedding is nearest, of all enrolled views, to a view of X
(NAME_SIMILAR, NAME_LEAD, as `Prototypes.name`), its ink is of X's colour, and the re-check holds: the
index CNN's suit head reads X's suit at NAME_SUIT, and every jittered cut of it (the recognizer's four
shifts) is nearest X's views too, at RECHECK_SIMILAR or more. Then by place: a candidate on an isolated
card's outline names that card (every candidate named on it must agree, with its corners' guesses too, and
its face: the pips count X's rank, none on a court or an ace), none if that card is named; elsewhere, a
candidate that is an index of a card read (a cut of one of its indices, or its opposite corner: within a
card's diagonal and pointing the other way; of_one_card, opposite_corners) is left when that card is
named, names it when it is unknown (its corners' guesses agreeing), and any other is a card of its own.
(Under a blue cast a 7D's far corner, declined, was named 7S as a card of its own while its near corner,
unknown, guessed 7D.) X must be of the deck in play, not read elsewhere in the frame, and named at one
place only.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

import cv2
import numpy as np

from vision.cnn import CnnModel
from vision.deck import Deck
from vision.glyphs import IndexCandidate
from vision.index_pairs import opposite_corners, quad_from_index, same_index
from vision.model import SUITS
from vision.outline import CardOutline
from vision.pips import face_agrees, read_face
from vision.prototypes import NAME_LEAD, NAME_SIMILAR, NAME_SUIT, Prototypes, class_name
from vision.readings import UNKNOWN, CardReading, IndexReading
from vision.recognize import _JITTERS, colour_consistent, in_colour, jittered

# Every jittered cut of a declined candidate must be nearest the named card's views, at least this close.
RECHECK_SIMILAR = 0.8


@dataclass
class FrameCandidates:
    """The candidates an enrolled model scored on one frame (the frame itself kept to tell it apart)."""

    frame: np.ndarray | None = None
    cands: list[IndexCandidate] = field(default_factory=list)
    embedding: list[np.ndarray] = field(default_factory=list)
    redness: list[np.ndarray] = field(default_factory=list)

    def add(self, frame: np.ndarray, cands: list[IndexCandidate], embedding: np.ndarray, redness: np.ndarray) -> None:
        if frame is not self.frame:  # a new frame: what was scored on the last one is no longer wanted
            self.frame, self.cands, self.embedding, self.redness = frame, [], [], []
        if not cands:
            return
        self.cands += cands
        self.embedding.append(embedding)
        self.redness.append(redness)

    def of(self, frame: np.ndarray) -> "FrameCandidates | None":
        return self if frame is self.frame and self.cands else None


@dataclass(frozen=True)
class _Proposal:
    cand: IndexCandidate
    card: int  # card class (rank * 4 + suit)

    @property
    def name(self) -> str:
        return class_name(self.card)


def may_name(card: int, redness: Iterable[np.ndarray], read: set[str], deck: Deck, colourful: bool) -> bool:
    """Whether the views may name card class `card` whose corners' ink measured `redness`: a card of the deck
    in play, not read elsewhere in the frame (`read`), every corner's ink of its suit's colour."""
    name = class_name(card)
    return name not in read and deck.allows(name) and \
        all(colour_consistent(card % len(SUITS), red, colourful) for red in redness)


def name_declined(base: CnnModel, prototypes: Prototypes, confidence: float, frame: np.ndarray,
                  cards: list[CardReading], scored: FrameCandidates, deck: Deck,
                  outlines: Sequence[CardOutline]) -> None:
    """Name cards, in place (`cards` gains the new ones, at `confidence`), from the declined candidates."""
    proposals = _rechecked(base, prototypes, frame, _proposals(prototypes, frame, cards, scored, deck))
    places: dict[int, list[_Proposal]] = {}
    where: dict[int, tuple[_Place, _Proposal]] = {}
    for p in proposals:
        place = _place(p, cards, outlines)
        if place is None:
            continue
        key = id(place.outline or place.card or p)
        places.setdefault(key, []).append(p)
        where[key] = (place, p)
    # one name per place, each name at one place
    named = {key: {p.name for p in ps} for key, ps in places.items()}
    count = Counter(n for names in named.values() for n in names)
    for key, names in named.items():
        if len(names) != 1:
            continue
        (name,) = names
        place, p = where[key]
        if count[name] > 1 or place.outline is not None and not face_agrees(read_face(frame, place.outline), name[:-1]):
            continue
        corner = IndexReading(p.cand, name, confidence)
        if place.card is not None:
            if any(rd.guess not in (None, name) for rd in place.card.corners):
                continue
            place.card.card, place.card.confidence = name, confidence
            place.card.corners.append(corner)
        else:
            quad = place.outline.to_list() if place.outline is not None else quad_from_index(p.cand)
            cards.append(CardReading(name, confidence, quad, [corner]))


def _proposals(prototypes: Prototypes, frame: np.ndarray, cards: list[CardReading], scored: FrameCandidates,
               deck: Deck) -> list[_Proposal]:
    """Declined candidates (no glyph of theirs in any card's reading) whose nearest views name a card of the
    deck, not read in the frame, closely and by a lead, in its ink's colour."""
    used = {id(g) for card in cards for rd in card.corners for g in (rd.candidate.rank, rd.candidate.suit)}
    free = [i for i, c in enumerate(scored.cands) if id(c.rank) not in used and id(c.suit) not in used]
    if not free or not len(prototypes.classes):
        return []
    embedding, redness = np.concatenate(scored.embedding)[free], np.concatenate(scored.redness)[free]
    card, similar, lead = prototypes.nearest(embedding)
    read = {c.card for c in cards}
    colourful = in_colour(frame)
    out = []
    for j in np.flatnonzero((similar >= NAME_SIMILAR) & (lead >= NAME_LEAD)):
        if may_name(int(card[j]), [redness[j]], read, deck, colourful):
            out.append(_Proposal(scored.cands[free[j]], int(card[j])))
    return out


def _rechecked(base: CnnModel, prototypes: Prototypes, frame: np.ndarray, proposals: list[_Proposal]
               ) -> list[_Proposal]:
    """The proposals whose suit the CNN reads at NAME_SUIT and whose jittered cuts the views name alike."""
    if not proposals:
        return []
    k = len(_JITTERS) + 1
    cuts = [c for p in proposals for c in [p.cand] + [jittered(p.cand, dx, dy) for dx, dy in _JITTERS]]
    _, suit_p, embedding = base.forward_embedded(base.patches(frame, cuts)[0], 1.0)  # the first member's
    card, similar, _ = prototypes.nearest(embedding)
    out = []
    for n, p in enumerate(proposals):
        rows = slice(n * k, (n + 1) * k)
        if suit_p[n * k, p.card % len(SUITS)] >= NAME_SUIT and (card[rows] == p.card).all() \
                and (similar[rows] >= RECHECK_SIMILAR).all():
            out.append(p)
    return out


class _Place(NamedTuple):
    card: CardReading | None  # the unknown card the candidate is an index of, or lies on
    outline: CardOutline | None  # the isolated card it lies on


def _place(p: _Proposal, cards: list[CardReading], outlines: Sequence[CardOutline]) -> _Place | None:
    """Where the candidate lies (nowhere known: a card of its own), or None when that is a named card."""
    for outline in outlines:
        if cv2.pointPolygonTest(outline.quad, p.cand.centre, False) >= 0:
            on = [c for c in cards if c.quad == outline.to_list()]
            if any(c.card != UNKNOWN for c in on):
                return None
            return _Place(on[0] if on else None, outline)
    for card in cards:  # a cut of a read card's index: that card's
        if any(same_index(p.cand, rd.candidate) for rd in card.corners):
            return None if card.card != UNKNOWN else _Place(card, None)
    for card in cards:  # an unknown card's other corner (pointing the other way, within its diagonal)
        if card.card == UNKNOWN and any(opposite_corners(p.cand, rd.candidate) for rd in card.corners):
            return _Place(card, None)
    return _Place(None, None)

