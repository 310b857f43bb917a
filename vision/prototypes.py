"""Pure logic of enrolment: per-card prototypes of the CNN's index embedding, the agreement test between
the CNN's class and the nearest prototype, and its leave-one-photo-out calibration.

A candidate whose CNN class has a prototype is not named if another card's prototype is clearly nearer
(precision; never for readings from NO_RECHECK up); if its own prototype is nearest by a margin, its
first-pass confidence is raised so a lower, calibrated threshold applies (recall), but it must still pass
the recognizer's jittered re-check at the generic threshold.
Cards that were not enrolled keep the generic behaviour.

Apart from that rule, the enrolled views name a card the recognizer left unknown (`Prototypes.name`): every
corner index it was seen by is nearest, of all enrolled cards, to the views of one card, closely and by a
lead over every other card. That needs no calibration on the deck itself (its constants were picked on other
decks, vision/training/enrolled_decks.py), so it works from one photo per card.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from vision.model import JUNK_RANK, JUNK_SUIT, NO_RECHECK, RANKS, SUITS

# Calibration grids (cosine similarity margins of the own prototype over the nearest other card's, and the
# threshold for candidates the prototypes agree with); a veto margin of inf never vetoes. No veto below 0.1:
# calibrated on 3 rendered views a card, 0.05 cost a held-out card on gnomangelo (enrolled_decks.py).
AGREE_MARGINS = (0.0, 0.02, 0.05, 0.1)
VETO_MARGINS = (0.1, 0.2, np.inf)
LOW_THRESHOLDS = (0.3, 0.4, 0.5, 0.6, 0.7)
# An unknown card is named by the enrolled views when each of its corners has cosine similarity NAME_SIMILAR
# or more to a view of one card and leads every other card's nearest view by NAME_LEAD. Picked on half the
# 32 rendered designs (vision/training/enrolled_decks.py, the even ones), reported on the other half.
NAME_SIMILAR = 0.9
NAME_LEAD = 0.05
# The index CNN's probability of the suit the enrolled views name, on each corner, for them to name a card.
# Picked on a 'test' photo under the blue cast (training/casts.py): a 3D whose ink looked no longer red,
# read 3S by the views (0.92, lead 0.12), the CNN's spade 0.70.
NAME_SUIT = 0.9
# A card the CNN named is unknown when each of its corners is nearest (at NAME_SIMILAR) to a view of one
# other card, by this lead or more. With no lead asked: the leave-one-deck-out fold enrolled from the deck's
# own single photos named its 3s as 5s with the 3's views nearest by 0.001-0.06 (its CNN's embedding sets
# the two glyphs side by side): test singles 6 wrong -> 3 for no right card; the 32 designs enrolled one
# view a card lost 5 right cards of 5,224 read, named none wrong more.
VETO_LEAD = 0.0


def unit(v: np.ndarray) -> np.ndarray:
    return v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-6)


def card_class(rank: np.ndarray, suit: np.ndarray) -> np.ndarray:
    return np.asarray(rank) * len(SUITS) + np.asarray(suit)


def class_name(card: int) -> str:
    """'QS' for card class rank * 4 + suit (card_class's)."""
    return RANKS[card // len(SUITS)] + SUITS[card % len(SUITS)]


@dataclass(frozen=True)
class Sample:
    """Every CNN-named candidate of the enrolment photos (for prototypes and calibration)."""

    photo: np.ndarray  # (N,) photo index
    label: np.ndarray  # (N,) true card class of the photo
    cnn: np.ndarray  # (N,) CNN card class (argmax rank, suit)
    conf: np.ndarray  # (N,) CNN confidence p(rank) * p(suit)
    embedding: np.ndarray  # (N, D)
    corner: np.ndarray  # (N,) bool: one of the photo's most index-like candidates (prototype material)


@dataclass(frozen=True)
class Prototypes:
    classes: np.ndarray  # (K,) card classes enrolled, sorted
    means: np.ndarray  # (K, D) unit mean embedding per class
    agree_margin: float  # own prototype nearer than any other by this much: agreement
    veto_margin: float  # another prototype nearer than the own one by more than this: disagreement
    low_threshold: float  # threshold for candidates the prototypes agree with
    threshold: float  # the generic threshold (cards not enrolled, or neither agreement nor veto)
    # every enrolled corner's unit embedding and its card class (a deck enrolled before they were kept: the
    # means, one view per card)
    views: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.float32))
    view_class: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    view_photo: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))  # at enrolment only

    @classmethod
    def build(cls, embedding: np.ndarray, label: np.ndarray, threshold: float, photo: np.ndarray | None = None
              ) -> "Prototypes":
        """Mean unit embedding per card, and every view (from enrolment photo number `photo`); the rule
        starts as the generic one (no veto, no lower threshold)."""
        classes = np.unique(label)
        means = unit(np.array([unit(embedding[label == c]).mean(0) for c in classes]).reshape(len(classes), -1))
        photo = np.full(len(label), -1) if photo is None else np.asarray(photo)
        return cls(classes, means, 0.0, np.inf, threshold, threshold, unit(embedding), np.asarray(label), photo)

    def without_photo(self, photo: int) -> "Prototypes":
        """The views of every enrolment photo but `photo` (reading that photo back as a held-out one)."""
        if len(self.view_photo) != len(self.view_class):  # loaded from a file: which photo is not known
            return self
        keep = self.view_photo != photo
        return replace(self, views=self.views[keep], view_class=self.view_class[keep], view_photo=self.view_photo[keep])

    def nearest(self, embedding: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per embedding: the card class of its nearest enrolled view, the cosine similarity to it, and its
        lead over the nearest view of any other card (-inf with one card enrolled)."""
        kept = self.views.shape[1] > 0  # a deck enrolled before the views were kept: its means
        views, owner = (self.views, self.view_class) if kept else (self.means, self.classes)
        sim = unit(embedding) @ views.T
        per_card = np.full((len(embedding), len(self.classes)), -np.inf)
        for k, c in enumerate(self.classes):
            per_card[:, k] = sim[:, owner == c].max(1, initial=-np.inf)
        order = np.argsort(-per_card, axis=1)
        rows = np.arange(len(embedding))
        best = per_card[rows, order[:, 0]]
        second = per_card[rows, order[:, 1]] if len(self.classes) > 1 else np.full(len(embedding), np.inf)
        return self.classes[order[:, 0]], best, best - second

    def name(self, embedding: np.ndarray) -> int | None:
        """The card class all of one card's corner embeddings name (NAME_SIMILAR, NAME_LEAD), or None."""
        return self.names([embedding])[0]

    def names(self, cards: list[np.ndarray], min_lead: float = NAME_LEAD) -> list[int | None]:
        """`name` for each card's corner embeddings (leading every other card by `min_lead`), the views
        searched once for them all."""
        if not len(self.classes) or not sum(len(e) for e in cards):
            return [None] * len(cards)
        card, similar, lead = self.nearest(np.concatenate(cards))
        out: list[int | None] = []
        start = 0
        for corners in cards:
            c, s, d = (a[start:start + len(corners)] for a in (card, similar, lead))
            start += len(corners)
            agreed = len(c) and (c == c[0]).all() and (s >= NAME_SIMILAR).all() and (d >= min_lead).all()
            out.append(int(c[0]) if agreed else None)
        return out

    @property
    def generic(self) -> bool:
        """Does this rule read exactly as the generic one (no veto, no lower threshold)?"""
        return bool(np.isinf(self.veto_margin)) and self.low_threshold >= self.threshold

    def lead(self, cnn: np.ndarray, embedding: np.ndarray) -> np.ndarray:
        """Cosine similarity to the prototype of the CNN's class minus that to the nearest other one
        (+inf when it is the only one enrolled); NaN where the CNN's class was not enrolled."""
        out = np.full(len(cnn), np.nan)
        enrolled = np.isin(cnn, self.classes)
        if not enrolled.any():
            return out
        sim = unit(embedding[enrolled]) @ self.means.T
        rows = np.arange(len(sim))
        own = np.searchsorted(self.classes, cnn[enrolled])
        own_sim = sim[rows, own].copy()
        sim[rows, own] = -np.inf
        out[enrolled] = own_sim - sim.max(1)
        return out

    def named(self, cnn: np.ndarray, conf: np.ndarray, lead: np.ndarray) -> np.ndarray:
        """Which candidates the enrolled rule's first pass names (calibration's view: the jittered re-check,
        at the generic threshold, is not modelled, so this overestimates what agreement adds)."""
        agree, veto = self._verdict(lead, conf)
        return np.where(agree, conf >= self.low_threshold, ~veto & (conf >= self.threshold))

    def _verdict(self, lead: np.ndarray, conf: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Agreement and veto masks; readings from NO_RECHECK up are never vetoed (enrolment leaves the
        generic rule's surest readings alone, as it leaves their confidence)."""
        known = ~np.isnan(lead)
        lead = np.nan_to_num(lead, nan=0.0)
        return known & (lead >= self.agree_margin), known & (lead < -self.veto_margin) & (conf < NO_RECHECK)

    def adjust(self, pr: np.ndarray, ps: np.ndarray, embedding: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Rank and suit probabilities as the recognizer should see them (it names p(rank) * p(suit) >=
        `threshold`): vetoed candidates' card probabilities spread evenly (no name; index-likeness, from the
        junk classes, unchanged); agreeing ones raised to a per-candidate power that maps confidence
        `low_threshold` to `threshold` and leaves it unchanged from NO_RECHECK up (first pass only: the
        recognizer's jittered re-check reads the generic CNN's probabilities, EnrolledModel.score_generic,
        so agreement never relaxes it)."""
        pr, ps = pr.copy(), ps.copy()
        r, s = pr[:, :JUNK_RANK].argmax(1), ps[:, :JUNK_SUIT].argmax(1)
        rows = np.arange(len(r))
        conf = pr[rows, r] * ps[rows, s]
        agree, veto = self._verdict(self.lead(card_class(r, s), embedding), conf)
        gamma = self._gamma(conf)
        pr[agree, :JUNK_RANK] **= gamma[agree, None]
        ps[agree, :JUNK_SUIT] **= gamma[agree, None]
        pr[veto, :JUNK_RANK] = (1 - pr[veto, JUNK_RANK:]) / JUNK_RANK
        ps[veto, :JUNK_SUIT] = (1 - ps[veto, JUNK_SUIT:]) / JUNK_SUIT
        return pr, ps

    def _gamma(self, conf: np.ndarray) -> np.ndarray:
        """Exponent per confidence: piecewise linear in -log(conf) through (NO_RECHECK, NO_RECHECK) and
        (low_threshold, threshold), identity above NO_RECHECK."""
        u = -np.log(np.clip(conf, 1e-12, 1.0))
        u_top, u_low, u_t = -np.log(NO_RECHECK), -np.log(self.low_threshold), -np.log(self.threshold)
        # a generic threshold at NO_RECHECK or above leaves nothing to remap (and 0 / 0 here)
        slope = (u_t - u_top) / (u_low - u_top) if u_low > u_top else 1.0
        return np.where(u > u_top, (u_top + (u - u_top) * slope) / np.maximum(u, 1e-12), 1.0)


def calibrate(samples: Sample, threshold: float) -> Prototypes:
    """Prototypes from every photo's corners, with the margins and low threshold that name the most correct
    candidates leave-one-photo-out while naming no more wrong ones than the generic rule does.

    Each photo is judged by prototypes built without it, so a card photographed once is judged as not
    enrolled; when nothing beats the generic rule it is kept. It is kept too when no card was photographed
    twice: then no right reading is ever judged by its own card's prototype, so a veto would be chosen
    without seeing what it costs."""
    protos = Prototypes.build(samples.embedding[samples.corner], samples.label[samples.corner], threshold,
                              samples.photo[samples.corner])
    if not several_views(samples):
        return protos
    right = samples.cnn == samples.label
    lead = np.full(len(right), np.nan)
    for photo in np.unique(samples.photo):
        own, rest = samples.photo == photo, (samples.photo != photo) & samples.corner
        if rest.any():
            lead[own] = Prototypes.build(samples.embedding[rest], samples.label[rest], threshold).lead(
                samples.cnn[own], samples.embedding[own])
    generic = samples.conf >= threshold
    generic_wrong = int(np.sum(generic & ~right))
    best, best_key = protos, (int(np.sum(generic & right)), -generic_wrong)
    for agree in AGREE_MARGINS:
        for veto in VETO_MARGINS:
            for low in LOW_THRESHOLDS:
                rule = replace(protos, agree_margin=agree, veto_margin=veto, low_threshold=low)
                named = rule.named(samples.cnn, samples.conf, lead)
                key = (int(np.sum(named & right)), -int(np.sum(named & ~right)))
                if -key[1] <= generic_wrong and key > best_key:
                    best, best_key = rule, key
    return best


def several_views(samples: Sample) -> bool:
    """Was any card photographed more than once (so that leave-one-photo-out can judge a card's readings
    by its own prototype)?"""
    photos_of: dict[int, set[int]] = {}
    for photo, label in zip(samples.photo.tolist(), samples.label.tolist()):
        photos_of.setdefault(label, set()).add(photo)
    return any(len(photos) > 1 for photos in photos_of.values())
