"""Read cards from their corner indices: classify every index candidate, keep the confident ones, merge
the corners of one card (grouping.py), and check each isolated card's face. Below the model's threshold
the answer is 'unknown', never a guess.
"""
from __future__ import annotations

from dataclasses import replace
from typing import NamedTuple

import cv2
import numpy as np

from vision.blobs import Blob
from vision.cnn import CnnModel
from vision.deck import FULL_DECK, Deck
from vision.glyphs import IndexCandidate, propose_indices
from vision.grouping import group_corners, unname_one_card_read_two_ways
from vision.index_pairs import OTHER_CORNER_L, of_one_card, prints_of_one_card, same_index
from vision.ink import as_bgr, ink_image
from vision.model import JUNK_RANK, JUNK_SUIT, NO_RECHECK, RANKS, SUITS, IndexModel
from vision.outline import CardOutline, corner_candidates, find_outlines
from vision.pips import DEFAULT_PIP_NET, Face, Pips, face_agrees, pip_counts_either_way, read_face
from vision.ranks import RankVerifier
from vision.readings import UNKNOWN, CardReading, IndexReading, court_on_both_corners, either, number_on_one_corner
from vision.suits import SuitNetwork, SuitVerifier
from vision.working_scale import at_full_size, expected_length, resized, working_scale

# An index that is at least this likely to be a real index (whatever its class) is reported as unknown.
INDEX_LIKELY = 0.7


class _FrameReadings(NamedTuple):
    readings: list[IndexReading]
    on_card: dict[int, CardOutline]  # by id of a reading's candidate: the isolated card it lies on
    outlines: list[CardOutline]  # every isolated card
    colourful: bool


def in_colour(frame: np.ndarray) -> bool:
    """Does the frame carry colour? A grey camera, or a photo turned grey, has |R-G| + |G-B| ~ 0 nearly
    everywhere (a few grey levels of noise or compression)."""
    if frame.ndim == 2:
        return False
    sample = frame[::8, ::8].astype(np.int16)
    chroma = np.abs(sample[..., 2] - sample[..., 1]) + np.abs(sample[..., 1] - sample[..., 0])
    return float(np.count_nonzero(chroma > 12)) > (1 - _GREY_SHARE) * chroma.size


def colour_consistent(suit: int, red: np.ndarray, colour_frame: bool = True) -> bool:
    """Ink colour must not contradict the suit: black ink for spades and clubs, red for hearts and
    diamonds. `red`: the ink's redness, least and most (ink.ink_colour). A grey frame decides nothing.
    Red ink is red both ways (its least at RED_LEAST or more); black ink is not, nor strongly red either
    way (its most below BLACK_MOST). So ink without colour is no heart (a black 9 beside an inverted spade
    pip was read 6H at 0.996 once)."""
    if suit >= len(SUITS) or not colour_frame:
        return True
    least, most = float(red[0]), float(red[1])
    if SUITS[suit] in "SC":
        return least < RED_LEAST and most < BLACK_MOST
    return least >= RED_LEAST


# Measured on the right readings of real photos under the five casts of training/casts.py (the 'val'
# single and overhead photos, edje's): black ink's least at most 0.11 (a pink cast), red ink's at least
# 0.18 on the dim overhead webcam in plain light; black ink's most at most 0.24. Before, one redness
# white-balanced by the paper: under the pink cast 57 of 58 black glyphs passed as red.
RED_LEAST = 0.14
BLACK_MOST = 0.3


# An isolated card whose corners gave no reading goes to the general proposer if at least this share of
# it is paper: a face (on the rendered faces 0.53-1.0, courts lowest); a back whose white border makes it
# a card-shaped region is 0.15-0.19, and reading its pattern doubled a frame's time.
FACE_PAPER = 0.35
# Paper left outside the isolated cards (1/4-size pixels) from which the general proposer runs too.
_REST_MIN_PX = 16
# In a grey image the ink's colour cannot veto a suit (a spade read as a club or a heart): readings
# there need this confidence (picked on 'val': it removes the one wrong grey reading, at 0.84, and
# costs 2 of 167 right ones).
GREY_THRESHOLD = 0.9
# A frame is grey when this share of its pixels (sampled on a grid) has no colour at all.
_GREY_SHARE = 0.99
# So do the two index corners of one isolated card naming the same card in a colour frame (two
# independent reads agree; speed: the usual case of a card lying alone), OTHER_CORNER_L apart at least.
# An unknown reading's guess at least this confident (after the re-check, and not doubted by the suit
# verifier) names its card when the card's opposite corner guesses the same: two reads of two prints
# agree. In colour frames only. Picked on 'val' and 'train' and the 32 deck designs: at 0.7 +1 card each,
# none wrong; at 0.6 a JS both of whose corners an unlike deck's spade made JC (0.76, 0.62) was named.
PAIR_LOW = 0.7
# A reading the index CNN declines (after the re-check) at this confidence or more is named when both
# glyph verifiers, each seeing its own glyph alone at ~24 px per L, read its rank and suit at VERIFIED or
# more, and no index of another card in the frame names that card. Picked on the deck designs and the photos: at
# 0.9 fans read +101 but 5 new wrong cards (courts and jolly-royal's spade-like clubs); at 0.98 none; at
# 0.99 12 fewer. Two rescued readings of a card read elsewhere were a second corner grouped with the
# wrong card (a 'train' photo's JC lost) and a second QS.
RESCUE_LOW = 0.5
VERIFIED = 0.98
# The index grid's cuts naming a card that are re-checked, per corner (the best of them counts).
GRID_RECHECKED = 3
# A card named by its pips: the suit network's mean probability of their suit.
PIP_SUIT = 0.9
# The pips read to check the suit of a card its indices name (the network's time grows with the pips read:
# all of them cost ~20 % of a bench frame's time under load).
VETO_PIPS = 3
# Glyph-centre shifts (in units of L, along card-right and card-up) for the confidence re-check.
_JITTERS = ((0.06, 0.0), (-0.06, 0.0), (0.0, 0.06), (0.0, -0.06))


def jittered(c: IndexCandidate, dx: float, dy: float) -> IndexCandidate:
    """The candidate with its rank glyph centre moved by (dx, dy) L in the card frame."""
    ux, uy = c.up
    L = c.length
    r = c.rank
    moved = Blob(r.cx + (-uy * dx + ux * dy) * L, r.cy + (ux * dx + uy * dy) * L, r.x, r.y, r.w, r.h, r.area)
    return IndexCandidate(moved, c.suit)


def _confirmed_by_other_corner(cands: list[IndexCandidate], owners: np.ndarray, named: np.ndarray, card: np.ndarray
                               ) -> np.ndarray:
    """Which named readings the other index corner of the same isolated card (outline number `owners`,
    -1 for none) names as the same `card`."""
    confirmed = np.zeros(len(cands), bool)
    on_card = np.flatnonzero(named & (owners >= 0))  # a few per card: not the general proposer's hundreds
    centre = np.array([cands[i].centre for i in on_card], np.float64).reshape(-1, 2)
    length = np.array([cands[i].length for i in on_card], np.float64)
    owner, name = owners[on_card], card[on_card]
    same = (owner[:, None] == owner[None, :]) & (name[:, None] == name[None, :])
    apart = np.linalg.norm(centre[:, None] - centre[None, :], axis=2) > OTHER_CORNER_L * length[:, None]
    confirmed[on_card] = (same & apart).any(axis=1)
    return confirmed


def _other_print_disagrees(i: int, cands: list[IndexCandidate], r: np.ndarray, s: np.ndarray, read: np.ndarray
                           ) -> bool:
    """Does a reading (`read`: named or guessing, at PAIR_LOW or more) that may be the other print of
    candidate i's card (index_pairs.prints_of_one_card) see i's rank with another suit? Then the card's two
    prints disagree on the suit, and the verifiers' word on i's glyphs is no rescue: a 3C's corner read 3S
    at 0.8 was rescued at 0.98 (a dim 'val' photo) while its other corner guessed 3C at 0.86. Not another
    rank: placed as loosely as that (not by the implied card centre, which the photo's foreshortening
    moves), that is likelier a neighbour. Pointing apart loosely too, fanned neighbours of one rank barred
    three right rescues on the designs' fans."""
    return any(r[j] == r[i] and s[j] != s[i] and prints_of_one_card(cands[i], cands[j]) for j in np.flatnonzero(read))


class Recognizer:
    """Generic or enrolled recognizer: the only difference is which model file it loads."""

    def __init__(self, model: IndexModel | None = None, threshold: float | None = None,
                 glyph_px: tuple[float, float] | None = None, card_area: float | None = None,
                 suit_verifier: SuitVerifier | None = None, pip_network: SuitNetwork | None = None,
                 rank_verifier: RankVerifier | None = None, deck: Deck = FULL_DECK) -> None:
        """`glyph_px` (rank-glyph size range) and `card_area` (px^2) come from the table's calibration;
        without them any glyph and card size is accepted. `suit_verifier`, `pip_network`, `rank_verifier`:
        default the shipped ones. `deck`: the cards in play; no other card is named (vision/deck.py)."""
        self.model = model or CnnModel()
        self.suit_verifier = suit_verifier or SuitVerifier()
        self.rank_verifier = rank_verifier or RankVerifier()
        self.pip_network = pip_network or SuitNetwork(DEFAULT_PIP_NET)
        self.threshold = self.model.threshold if threshold is None else threshold
        self.glyph_px = glyph_px
        self.card_area = card_area
        self.deck = deck

    def read_indices(self, frame: np.ndarray) -> list[IndexReading]:
        return self._read(frame).readings

    def _read(self, frame: np.ndarray) -> _FrameReadings:
        """Index readings, the outline of the isolated card each outline-found candidate lies on (by id
        of the candidate), all isolated cards' outlines, and whether the frame is in colour.

        Isolated cards are read from their two index corners first; the general proposer then searches
        the rest of the table, and every isolated card whose corners gave no reading at all: its index is
        not where a card's outline puts it (two cards side by side, touching, make one card-shaped
        region lying sideways, and without a calibrated card size both cards were lost), and the general
        proposer's readings there group on that outline. (Not when its corners gave an unknown reading:
        those were seen and doubted, and a second cut of them named more wrong cards on other decks.)"""
        frame = as_bgr(frame)
        outlines, rest = find_outlines(frame, self.card_area)
        colourful = in_colour(frame)
        threshold = self.threshold if colourful else max(self.threshold, GREY_THRESHOLD)
        cands, owners = corner_candidates(frame, outlines)
        readings = self._readings(frame, cands, owners, colourful, threshold)
        on_card = {id(c): outlines[n] for c, n in zip(cands, owners)}
        seen = {id(on_card[id(rd.candidate)]) for rd in readings}
        unread = [o for o in outlines if id(o) not in seen and o.paper >= FACE_PAPER]  # not a back's border
        handed_over = {id(o) for o in unread}
        blacked_out = [o for o in outlines if id(o) not in handed_over]
        scale = working_scale(expected_length(self.glyph_px, outlines))
        more = general_candidates(frame, self.glyph_px, rest, blacked_out, bool(unread), scale)
        if more:
            readings += self._readings(frame, more, [-1] * len(more), colourful, threshold)
            on_card |= {id(c): o for c in more for o in unread if cv2.pointPolygonTest(o.quad, c.centre, False) >= 0}
        return _FrameReadings(self._doubt(frame, readings), on_card, outlines, colourful)

    def _readings(self, frame: np.ndarray, cands: list[IndexCandidate], owners: list[int], colourful: bool,
                  threshold: float) -> list[IndexReading]:
        """Classify, check colour, re-check the doubtful, one reading per index (`owners`: each
        candidate's outline number, -1 for the general proposer's)."""
        pair_low = min(PAIR_LOW, threshold) if colourful else threshold
        pr, ps, r, s, conf = self._classify(frame, cands, pair_low, colourful)
        named = (conf >= threshold) & (r != JUNK_RANK) & (s != JUNK_SUIT)
        # guesses at pair_low and above are re-checked too (one may name its card with the other corner's),
        # and so is every reading of a glyph close to the paper's edge (glyphs.py, _EDGE_RING), however sure
        at_edge = np.array([c.rank.edge or c.suit.edge for c in cands], bool)
        recheck = (conf >= pair_low) & (r != JUNK_RANK) & (s != JUNK_SUIT) & ((conf < NO_RECHECK) | at_edge)
        if colourful:  # in grey, both corners of a 3S have been read 3C: there the re-check stays
            recheck &= ~_confirmed_by_other_corner(cands, np.array(owners), named, r * (JUNK_SUIT + 1) + s)
        sure = np.flatnonzero(recheck)
        conf[sure] = np.minimum(conf[sure], self._jittered_confidence(frame, [cands[i] for i in sure], r[sure], s[sure],
                                                                      pair_low))
        conf[self._verified(frame, cands, r, s, conf, threshold, pair_low)] = threshold
        return self._select(cands, pr, ps, r, s, conf, threshold, pair_low)

    def _verified(self, frame: np.ndarray, cands: list[IndexCandidate], r: np.ndarray, s: np.ndarray,
                  conf: np.ndarray, threshold: float, pair_low: float) -> np.ndarray:
        """The declined readings (RESCUE_LOW <= conf < threshold) that both glyph verifiers confirm, as a
        mask; not those whose card an index of another card names (see RESCUE_LOW), nor those whose card's
        other corner may read its rank with another suit (`_other_print_disagrees`)."""
        card = r * (JUNK_SUIT + 1) + s
        indexlike = (r != JUNK_RANK) & (s != JUNK_SUIT)
        named = np.flatnonzero(indexlike & (conf >= threshold))
        idx = [i for i in np.flatnonzero(indexlike & (conf >= RESCUE_LOW) & (conf < threshold))
               if not any(card[j] == card[i] and not of_one_card(cands[i], cands[j]) for j in named)]
        idx = [i for i in idx if not _other_print_disagrees(int(i), cands, r, s, indexlike & (conf >= pair_low))]
        out = np.zeros(len(cands), bool)
        if idx:
            declined = [cands[i] for i in idx]
            rows = np.arange(len(idx))
            rank_p = self.rank_verifier.probabilities(frame, declined)[rows, r[idx]]
            suit_p = self.suit_verifier.probabilities(frame, declined)[rows, s[idx]]
            out[idx] = (rank_p >= VERIFIED) & (suit_p >= VERIFIED)
        return out

    def _classify(self, frame: np.ndarray, cands: list[IndexCandidate], floor: float, colourful: bool
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Rank and suit probabilities, the likeliest rank and suit, and their joint confidence, 0 where the
        ink's colour contradicts the suit (`floor`: the lowest confidence that matters, see CnnModel.score)."""
        pr, ps, redness = self._scores(frame, cands, floor)
        r, s = pr.argmax(1), ps.argmax(1)
        conf = pr[np.arange(len(r)), r] * ps[np.arange(len(s)), s]
        conf *= [colour_consistent(int(si), red, colourful) for si, red in zip(s, redness)]
        return pr, ps, r, s, conf

    def _scores(self, frame: np.ndarray, cands: list[IndexCandidate], floor: float, generic: bool = False
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The model's rank probabilities, restricted to the deck, suit probabilities and ink redness.
        `generic`: an enrolled model's CNN alone (the jittered re-check: agreement with the deck's
        prototypes may lower only the first-pass threshold, never relax the re-check)."""
        score = getattr(self.model, "score_generic", self.model.score) if generic else self.model.score
        pr, ps, redness = score(frame, cands, floor)
        return self.deck.restrict(pr), ps, redness

    def _doubt(self, frame: np.ndarray, readings: list[IndexReading]) -> list[IndexReading]:
        """The readings, those named with a suit the suit verifier doubts, or a rank the rank verifier
        doubts, made unknown and `doubted`. They group with their card as unknown readings do (by place, not
        by the doubted name: grouped by it, a doubted reading took along another card of that name, 1 more
        right card lost on 'val', 4 on 'train'). An unknown reading's guess that either doubts is dropped: it
        can no longer name its card."""
        named = [i for i, rd in enumerate(readings) if rd.card != UNKNOWN or rd.guess]
        cands = [readings[i].candidate for i in named]
        cards = [readings[i].guess or readings[i].card for i in named]
        suit_doubted, seen = self.suit_verifier.judge(frame, cands, cards)
        rank_doubted = self.rank_verifier.doubts(frame, cands, cards)
        out = list(readings)
        for i, doubt_suit, doubt_rank, suit in zip(named, suit_doubted, rank_doubted, seen):
            if (doubt_suit or doubt_rank) and out[i].guess:
                out[i] = replace(out[i], guess=None)
            elif doubt_suit or doubt_rank:  # (a '10' doubted for a suit in its rank keeps no guess: it is no '10')
                # the verifier's suit may support the card the other corner names, unless the rank is doubted
                seen_as = out[i].card[:-1] + SUITS[suit] if SUITS[suit] != out[i].card[-1] and not doubt_rank else None
                out[i] = replace(out[i], card=UNKNOWN, doubted=True, guess=seen_as)
        return out

    def _jittered_confidence(self, frame: np.ndarray, cands: list[IndexCandidate], r: np.ndarray, s: np.ndarray,
                             threshold: float) -> np.ndarray:
        """Re-read each confident index from four slightly shifted glyph centres; their mean confidence.

        A real index reads the same under a few percent of misplacement; a lucky pip pair does not. The
        mean, not the worst of the four: on 'val' the worst declined 6 right cards that the mean reads,
        and neither named a wrong one.
        """
        if not cands:
            return np.zeros(0)
        shifted = [jittered(c, dx, dy) for c in cands for dx, dy in _JITTERS]
        pr, ps, _ = self._scores(frame, shifted, threshold, generic=True)
        k = len(_JITTERS)
        rr, ss = np.repeat(r, k), np.repeat(s, k)
        conf = pr[np.arange(len(rr)), rr] * ps[np.arange(len(ss)), ss]
        return conf.reshape(-1, k).mean(1)

    def _select(self, cands: list[IndexCandidate], pr: np.ndarray, ps: np.ndarray, r: np.ndarray, s: np.ndarray,
                conf: np.ndarray, threshold: float, pair_low: float = PAIR_LOW) -> list[IndexReading]:
        is_index = (1 - pr[:, JUNK_RANK]) * (1 - ps[:, JUNK_SUIT])
        guess = conf * ((r != JUNK_RANK) & (s != JUNK_SUIT))  # 0 where a junk class is the best guess
        sure = guess >= threshold
        readings: list[IndexReading] = []
        used: set[int] = set()
        named: list[IndexCandidate] = []
        # Named readings first, then strongest first; a blob belongs to at most one index, and an index named
        # once is not read again from other cuts of its glyphs (non-maximum suppression). An unnamed cut
        # that is surely an index (is_index 1.0) must not claim the glyphs of a named one: it tied on the
        # old key (max of the two) and the card was lost as unknown (val +5 cards, none wrong).
        for i in np.lexsort((-np.maximum(guess, is_index), ~sure)):
            c = cands[i]
            keys = {id(c.rank), id(c.suit)}
            if keys & used or not (sure[i] or is_index[i] >= INDEX_LIKELY):
                continue
            if any(same_index(c, other) for other in named):  # tested last: hundreds of candidates are junk
                continue
            if sure[i]:
                readings.append(IndexReading(c, RANKS[r[i]] + SUITS[s[i]], float(conf[i])))
                named.append(c)
            else:  # the confidence of the best guess we declined to make
                hint = RANKS[r[i]] + SUITS[s[i]] if guess[i] >= pair_low else None
                readings.append(IndexReading(c, UNKNOWN, float(min(guess[i], threshold)), guess=hint))
            used |= keys
        return readings

    def read(self, frame: np.ndarray) -> list[CardReading]:
        frame = as_bgr(frame)
        found = self._read(frame)
        cards = group_corners(found.readings, found.on_card)
        cards += self._read_faces(frame, cards, found)
        unname_one_card_read_two_ways(cards)
        name_unknown = getattr(self.model, "name_unknown", None)  # an enrolled deck's own views (enroll.py)
        if name_unknown is not None:
            name_unknown(frame, cards, self.deck, found.outlines)
        return cards

    def _read_faces(self, frame: np.ndarray, cards: list[CardReading], found: _FrameReadings
                    ) -> list[CardReading]:
        """The faces of isolated cards, read apart from the indices' blobs:

        - a card its indices name whose pips (pips.py) count another rank is unknown (an unseen deck's 3
          read 5 on both corners, at 1.0; a number card read as a jack on one corner), and so is one whose
          pips the pip network reads as another suit at PIP_SUIT (in grey, where colour cannot veto a suit,
          and in colour too, where it tells red from black but not a spade from a club: an unseen deck's
          blocky spades read as clubs on both corners under a pink or blue light, a deck's clubs as spades
          under a warm one, each at 0.98-1.0); in a grey frame, so is a number card named by one corner
          alone whose face shows no pips (neither colour nor a second print checks that reading: on the
          designs in grey, 6 of 16 wrong cards, courts' and ancient-egyptians' faces read as numbers, for 24
          right ones; in colour it would cost 24 right cards for 2 wrong); so is a number card on a face
          that shows a court's picture (pips.read_face: the anglo family's queens read as 6s on every
          corner at 0.99, 3 of the 5 wrong cards on the 32 designs separated, for no right card; a court
          without a picture is not unknown for that: in colour it cost 1 right card and mended none, in
          grey, where a picture's light colours are no ink, 22); a court or an ace named by both its
          corners is not looked at (pips on such a face, a number card read as a court twice: none on the
          32 designs' scenes, for ~0.9 ms of a bench frame);
        - on a near-square outline (a photo stretched square, a steep camera), whose short sides are not
          known, a named card is unknown when its face read both ways up counts pips and never its rank (the
          leave-one-deck-out fold's flat-topped 3s read 5 on both corners: 10 of its 41 wrong cards on the
          single photos under the five casts, for one right card of the shipped networks' 833);
        - a card its indices left unknown, or that gave no reading at all, is named by its pips (the count
          is the rank, the pip network's vote over them the suit, at PIP_SUIT), or else by its index
          grid (`_read_grid`); the name must agree with every guess of the card's corners and with no
          card of that name read elsewhere.

        An outline's corners may be more than one card's (an outline whose corners name two cards is two
        overlapping cards to `group_corners`): each named one is checked; only a lone unknown one is named.
        Unknown cards are named in place; the cards of outlines that gave no reading at all are returned."""
        on_card = found.on_card
        on_outline: dict[int, list[CardReading]] = {}
        for card in cards:
            for oid in {id(on_card[id(rd.candidate)]) for rd in card.corners if id(rd.candidate) in on_card}:
                on_outline.setdefault(oid, []).append(card)
        read = {c.card for c in cards}
        more: list[CardReading] = []
        for outline in found.outlines:
            here = on_outline.get(id(outline), [])
            named = [card for card in here if card.card != UNKNOWN]
            if outline.paper < FACE_PAPER or len(here) > 1 and not named:
                continue
            if outline.corners != (0, 2):  # near-square: which way up is unknown, so only its pips are counted
                if named:
                    counts = pip_counts_either_way(frame, outline)
                    for card in named:
                        if counts and card.card[:-1] not in counts:
                            card.card = UNKNOWN
                continue
            if named and all(court_on_both_corners(card) for card in named):
                continue  # no pips to count, no picture rule for a court (and a bench frame's ~0.9 ms)
            face = read_face(frame, outline)
            pips = face.pips
            if named:
                counted = pips is not None and any(card.card[:-1] == pips.rank for card in named)
                seen = pips.suit(self.pip_network, frame, outline.width, VETO_PIPS) if pips and counted else None
                for card in named:
                    if pips is not None and card.card[:-1] != pips.rank:
                        card.card = UNKNOWN
                    elif face.art and len(named) == 1 and card.card[:-1].isdigit():
                        card.card = UNKNOWN  # a number on a court's picture
                    elif seen is not None and seen[1] >= PIP_SUIT and seen[0] != card.card[-1]:
                        card.card = UNKNOWN
                    elif pips is None and not found.colourful and number_on_one_corner(card):
                        card.card = UNKNOWN
                continue
            named_by_face = self._read_pips(frame, outline, pips, found.colourful)
            if named_by_face is None and found.colourful:
                named_by_face = self._read_grid(frame, outline, face)
            if named_by_face is None or named_by_face[0] in read:
                continue
            name, confidence = named_by_face
            if not here:
                more.append(CardReading(name, confidence, outline.to_list(), []))
            elif all(rd.guess in (None, name) for rd in here[0].corners):
                here[0].card, here[0].confidence = name, confidence
            else:
                continue
            read.add(name)
        return more

    def _read_pips(self, frame: np.ndarray, outline: CardOutline, pips: Pips | None, colourful: bool
                   ) -> tuple[str, float] | None:
        """A number card by its pips: their suit by the pip network at PIP_SUIT, and the ink's colour agreeing;
        not a count of a rank outside the deck (five pips on a 32-card table: a pip missed or one too many)."""
        if pips is None or pips.rank not in self.deck.ranks:
            return None
        suit, confidence = pips.suit(self.pip_network, frame, outline.width)
        if confidence < PIP_SUIT or not colour_consistent(SUITS.index(suit), pips.redness(), colourful):
            return None
        return pips.rank + suit, confidence

    def _read_grid(self, frame: np.ndarray, outline: CardOutline, face: Face) -> tuple[str, float] | None:
        """A card whose index glyphs run into its art or border (no blob is a glyph), by the outline's index
        grid (colour frames only): each corner's surest colour-consistent cut must name the card at the
        threshold, both corners the same card; of each corner's cuts naming it at the threshold, the
        GRID_RECHECKED surest are re-checked (jittered), the best at PAIR_LOW at least (two corners agree,
        and a grid cut is rarely centred on its glyphs as the re-check's cuts are); the suit verifier
        doubting neither, and the `face` must agree (pips.face_agrees). (With neither the face check nor
        the re-check, on the 32 designs' cards the blobs read, 2,148 grid readings right and 15 wrong: a
        cut of a pip and a frame line read a 5C as JC on both corners, a QD as 6D; the re-check alone left
        7; with the face check, none. A court named so needs a picture too: bellot's 7D, whose French
        layout of seven pips is no standard one, was named JD on both corners at 1.0.)"""
        corners = []
        for cands in outline.index_grid():
            _, _, r, s, conf = self._classify(frame, cands, self.threshold, True)
            conf *= (r != JUNK_RANK) & (s != JUNK_SUIT)
            corners.append((cands, r, s, conf))
        tops = [(int(r[i]), int(s[i]), float(conf[i])) for _, r, s, conf in corners for i in [int(conf.argmax())]]
        if tops[0][:2] != tops[1][:2] or min(c for *_, c in tops) < self.threshold:
            return None
        rank_i, suit_i, _ = tops[0]
        rank = RANKS[rank_i]
        if not face_agrees(face, rank):
            return None
        name = rank + SUITS[suit_i]
        best = []
        for cands, r, s, conf in corners:
            naming = np.flatnonzero((r == rank_i) & (s == suit_i) & (conf >= self.threshold))
            surest = naming[np.argsort(-conf[naming])][:GRID_RECHECKED]
            cuts = [cands[i] for i in surest]
            rechecked = self._jittered_confidence(frame, cuts, r[surest], s[surest], self.threshold)
            k = int(rechecked.argmax())
            best.append((cuts[k], min(float(conf[surest[k]]), float(rechecked[k]))))
        doubted, _ = self.suit_verifier.judge(frame, [cut for cut, _ in best], [name, name])
        if min(c for _, c in best) < PAIR_LOW or doubted.any():
            return None
        return name, either(*(c for _, c in best))


def index_candidates(frame: np.ndarray, glyph_px: tuple[float, float] | None = None, card_area: float | None = None
                     ) -> tuple[list[IndexCandidate], list[int], list[CardOutline]]:
    """Candidates: those in the index corners of isolated cards, then the general proposer's over
    whatever else is on the table. Also the number of each candidate's outline (-1 for the general
    ones), and the outlines. (The recognizer also hands the isolated cards it could not read to the
    general proposer; see Recognizer._read.)"""
    frame = as_bgr(frame)
    outlines, rest = find_outlines(frame, card_area)
    cands, owners = corner_candidates(frame, outlines)
    more = general_candidates(frame, glyph_px, rest, outlines, scale=working_scale(expected_length(glyph_px, outlines)))
    return cands + more, owners + [-1] * len(more), outlines


def general_candidates(frame: np.ndarray, glyph_px: tuple[float, float] | None, rest: np.ndarray,
                       blacked_out: list[CardOutline], unread: bool = False, scale: float = 1.0
                       ) -> list[IndexCandidate]:
    """The general proposer's candidates over the frame with the `blacked_out` isolated cards erased, when
    enough paper is left outside the isolated cards (`rest`, find_outlines' 1/4-size mask) or an
    isolated card is `unread`; searched on the frame resized by `scale` (working_scale.py), in full-size
    pixels."""
    if not unread and cv2.countNonZero(rest) < _REST_MIN_PX:
        return []
    small = frame if scale == 1.0 else resized(frame, scale)
    ink = ink_image(small)
    for o in blacked_out:
        cv2.fillConvexPoly(ink, np.round((o.quad + 0.5) * scale - 0.5).astype(np.int32), 0)
    sizes = None if glyph_px is None else (glyph_px[0] * scale, glyph_px[1] * scale)
    found = propose_indices(small, sizes, ink)
    return found if scale == 1.0 else at_full_size(found, scale)
