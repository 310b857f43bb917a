"""The enrolled deck's own glyphs: a small linear classifier of the suit glyph and one of the rank glyph,
fitted at enrolment on the views' glyph patches (cut as the suit and rank verifiers cut them), in the
table's own camera and light.

The generic networks' features may not separate an unseen deck's look-alikes at all (a webcam's blurred
clubs and spades, a flat-topped 3 and a 5: the nearest enrolled view in the CNN's embedding is as often the
wrong card's), but the deck's own glyph pixels do. A suit glyph is shared by the 13 cards of its suit and a
rank glyph by the 4 of its rank, so even one photo per card gives each suit 26 views and each rank 8: this
part of enrolment helps from one photo per card. It never names a card: a named card whose every corner's
glyph the views give the named suit (or rank) under GLYPH_VETO is unknown.

The classifiers learn one camera's rendering of the glyphs (its sharpness, the glyphs' size against the
index), so they are fitted only from views of the table's own camera (enroll.enroll's `table_camera`):
a deck enrolled from phone photos denied 24 of 44 right cards on the same deck's webcam frames.
Augmenting the views (zoomed 0.75-1.1, blurred) cut that to 5 but halved what the webcam's own views caught.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields

import numpy as np

from vision.cnn import softmax
from vision.glyphs import IndexCandidate
from vision.model import RANKS, SUITS
from vision.ranks import cut_rank_patches
from vision.suits import cut_suit_patches

# A named card is unknown when, on every corner, the views' classifier gives its suit (or rank) less than
# this. On the leave-one-deck-out fold enrolled from the webcam's own frames (its held-out frames under five
# lights, 34 wrong readings among 950): 0.005 takes out 16 of them for 6 right ones, 0.05 19 for 11, 0.2 21
# for 13 (vision/README.md, "The deck's own glyphs").
GLYPH_VETO = 0.05
# A class (a suit, a rank) enters the classifier with at least this many views; a class with fewer is not
# judged (its support is NaN: no veto).
MIN_VIEWS = 4
# The fit: full-batch gradient descent on the softmax loss with an L2 penalty, from zero (deterministic).
_STEPS = 300
_RATE = 0.5
_L2 = 1.0


def glyph_features(patches: np.ndarray) -> np.ndarray:
    """(N, F) features of (N, 3, h, w) glyph patches: the grey patch standardised (contrast and paper level
    drop out) and its gradients pooled 2x2 (where the edges run: a spade's point, a club's lobes)."""
    n, _, h, w = patches.shape
    grey = patches.mean(axis=1)
    flat = grey.reshape(n, -1)
    grey = ((flat - flat.mean(1, keepdims=True)) / (flat.std(1, keepdims=True) + 1e-6)).reshape(n, h, w)
    gy, gx = np.gradient(grey, axis=(1, 2))
    pooled = [g[:, :h // 2 * 2, :w // 2 * 2].reshape(n, h // 2, 2, w // 2, 2).mean(axis=(2, 4)).reshape(n, -1)
              for g in (gx, gy)]
    return np.concatenate([grey.reshape(n, -1), *pooled], axis=1).astype(np.float32)


@dataclass(frozen=True)
class GlyphViews:
    """A softmax classifier over the glyph classes enrolled with MIN_VIEWS views or more."""

    classes: np.ndarray  # (K,) class indices (into SUITS or RANKS)
    mean: np.ndarray  # (F,) the views' mean features
    weights: np.ndarray  # (F, K)
    bias: np.ndarray  # (K,)

    @classmethod
    def fit(cls, features: np.ndarray, labels: np.ndarray) -> "GlyphViews | None":
        """The classifier of these views' glyphs (labels: class indices), or None with fewer than two classes
        of MIN_VIEWS views (nothing to tell apart)."""
        found, counts = np.unique(labels, return_counts=True)
        classes = found[counts >= MIN_VIEWS]
        keep = np.isin(labels, classes)
        if len(classes) < 2:
            return None
        x, y = features[keep].astype(np.float32), np.searchsorted(classes, labels[keep])
        mean = x.mean(0)
        # centred, not scaled per feature (each patch is standardised already): scaled, the paper's corners,
        # never ink in the views, blew up where a fanned card's edge crosses them (nicu-white, ornamental:
        # 11 of 27 right fanned cards denied, against 1)
        z = x - mean
        target = np.eye(len(classes), dtype=np.float32)[y]
        weights, bias = np.zeros((z.shape[1], len(classes)), np.float32), np.zeros(len(classes), np.float32)
        for _ in range(_STEPS):
            error = softmax(z @ weights + bias) - target
            weights -= _RATE * (z.T @ error + _L2 * weights) / len(z)
            bias -= _RATE * error.mean(0)
        return cls(classes, mean, weights, bias)

    def support(self, features: np.ndarray, named: np.ndarray) -> np.ndarray:
        """Per glyph, the probability of its named class; NaN where that class was not enrolled."""
        p = softmax((features - self.mean) @ self.weights + self.bias)
        col = np.searchsorted(self.classes, named).clip(0, len(self.classes) - 1)
        out = p[np.arange(len(named)), col]
        return np.where(self.classes[col] == named, out, np.nan)

    def arrays(self, prefix: str) -> dict[str, np.ndarray]:
        """For np.savez: this classifier's arrays under `prefix`."""
        return {f"{prefix}_{f.name}": getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_arrays(cls, z: "np.lib.npyio.NpzFile", prefix: str) -> "GlyphViews | None":
        """The classifier saved under `prefix`, or None (a deck enrolled before these were kept)."""
        if f"{prefix}_classes" not in z.files:
            return None
        return cls(*(z[f"{prefix}_{f.name}"] for f in fields(cls)))


@dataclass(frozen=True)
class GlyphSample:
    """The enrolment views' corner glyphs: features of each corner's suit and rank glyph, its card class
    (rank * 4 + suit) and the number of the view it came from."""

    suit: np.ndarray  # (N, F)
    rank: np.ndarray  # (N, G)
    card: np.ndarray  # (N,)
    photo: np.ndarray  # (N,)

    @classmethod
    def cut(cls, frame: np.ndarray, corners: list[IndexCandidate], card: int, photo: int) -> "GlyphSample":
        """The glyphs of one view's corner indices (`card`: the view's card class)."""
        n = len(corners)
        return cls(glyph_features(cut_suit_patches(frame, corners)), glyph_features(cut_rank_patches(frame, corners)),
                   np.full(n, card), np.full(n, photo))

    @classmethod
    def joined(cls, parts: list["GlyphSample"]) -> "GlyphSample":
        return cls(*(np.concatenate([getattr(p, k) for p in parts]) for k in ("suit", "rank", "card", "photo")))

    def subset(self, keep: np.ndarray) -> "GlyphSample":
        return GlyphSample(self.suit[keep], self.rank[keep], self.card[keep], self.photo[keep])


# Reading a view back without its own views (enroll.read_back): the classifiers are fitted again without
# one in HELD_OUT_FOLDS of the views (view number % HELD_OUT_FOLDS), not once per view (0.2-0.4 s a fit).
HELD_OUT_FOLDS = 5


class DeckGlyphs:
    """The deck's suit and rank classifiers (either None when its views cannot fit one), and at enrolment
    the views they were fitted on (to read a view back without it)."""

    def __init__(self, suit: GlyphViews | None, rank: GlyphViews | None, sample: GlyphSample | None = None
                 ) -> None:
        self.suit = suit
        self.rank = rank
        self.sample = sample
        self._held_out: dict[int, DeckGlyphs] = {}

    @classmethod
    def fit(cls, sample: GlyphSample) -> "DeckGlyphs":
        return cls(GlyphViews.fit(sample.suit, sample.card % len(SUITS)),
                   GlyphViews.fit(sample.rank, sample.card // len(SUITS)), sample)

    def without_photo(self, photo: int) -> "DeckGlyphs":
        """Fitted again without view number `photo` and the others of its fold (loaded from a file: which
        view is which is not known, so itself)."""
        if self.sample is None:
            return self
        fold = photo % HELD_OUT_FOLDS
        if fold not in self._held_out:
            keep = self.sample.photo % HELD_OUT_FOLDS != fold
            self._held_out[fold] = DeckGlyphs.fit(self.sample.subset(keep))
        return self._held_out[fold]

    def doubted(self, frame: np.ndarray, cards: Sequence[tuple[list[IndexCandidate], str]]) -> list[bool]:
        """For each card (its corner indices and its name): do the views give its suit, or its rank, under
        GLYPH_VETO on every one of its corners? (All the frame's corners cut and judged at once.)"""
        corners = [c for card_corners, _ in cards for c in card_corners]
        owner = np.repeat(np.arange(len(cards)), [len(card_corners) for card_corners, _ in cards])
        out = np.zeros(len(cards), bool)
        checks = ((self.suit, cut_suit_patches, lambda card: SUITS.index(card[-1])),
                  (self.rank, cut_rank_patches, lambda card: RANKS.index(card[:-1])))
        for views, cut, class_of in checks:
            if views is None or not corners:
                continue
            named = np.array([class_of(cards[int(i)][1]) for i in owner])
            denied = views.support(glyph_features(cut(frame, corners)), named) < GLYPH_VETO  # NaN: never
            for i in np.unique(owner):
                out[i] |= bool(denied[owner == i].all())
        return out.tolist()

    def summary(self) -> str:
        """What these classifiers judge, said plainly, as a sentence (the enrolment's verdict)."""
        judged = [f"{what} {', '.join(names[k] for k in views.classes)}"
                  for what, views, names in (("suits", self.suit, SUITS), ("ranks", self.rank, RANKS)) if views]
        if judged:
            return (f"Whatever names a card, the deck's own glyphs ({'; '.join(judged)}) make it unknown where they "
                    f"deny its suit or rank on every corner.")
        if self.sample is not None:
            return (f"Too few views to learn the deck's own glyphs ({MIN_VIEWS} of a suit or a rank, and two suits "
                    f"or ranks, are needed).")
        return ("The deck's own suit and rank glyphs are not learnt: only from views of the table's own camera "
                "(--live, or --table-camera for its saved frames).")

    def arrays(self) -> dict[str, np.ndarray]:
        return {**(self.suit.arrays("suit") if self.suit else {}), **(self.rank.arrays("rank") if self.rank else {})}

    @classmethod
    def from_arrays(cls, z: "np.lib.npyio.NpzFile") -> "DeckGlyphs":
        return cls(GlyphViews.from_arrays(z, "suit"), GlyphViews.from_arrays(z, "rank"))
