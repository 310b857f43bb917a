"""The enrolled deck's own glyphs (vision/glyph_views.py): a suit and a rank classifier fitted on the
enrolment views, which deny a named card's look-alike (a club named spade) and leave its own name alone;
from one view per card of a deck the generic recognizer never saw (aisleriot's anglo_bitmap, rendered)."""
from __future__ import annotations

import copy
from pathlib import Path

import numpy as np
import pytest

from vision.enroll import EnrolledModel, enroll_views
from vision.glyph_views import HELD_OUT_FOLDS, MIN_VIEWS, DeckGlyphs, GlyphSample, GlyphViews, glyph_features
from vision.model import RANKS
from vision.recognize import Recognizer
from vision.readings import UNKNOWN, CardReading
from vision.training.decks import load_designs, separated_cards
from vision.training.enrolled_decks import enrolment_views

DECKS = Path(__file__).parent / "data" / "decks"  # 20 cards of anglo_bitmap (README.md there: GPL-3+)
LOOK_ALIKE = {"S": "C", "C": "S", "H": "D", "D": "H"}


def doubts(model: EnrolledModel, frame: np.ndarray, card: CardReading, name: str) -> bool:
    """Would the deck's glyphs deny this card, read at its corners, named `name`?"""
    return model.glyphs.doubted(frame, [([rd.candidate for rd in card.corners], name)])[0]


@pytest.fixture(scope="module")
def deck() -> tuple[EnrolledModel, list[tuple[np.ndarray, list]]]:
    """anglo_bitmap enrolled from one view of each card, and its cards read right on held-out scenes (each
    scene's frame with the readings that name a card lying there)."""
    (design,) = load_designs(DECKS, {"ar-anglo_bitmap": frozenset()})
    model = enroll_views(enrolment_views(design, views=1))
    reader = Recognizer(model)
    scenes = [s for seed in (1, 3) for s in separated_cards(design, 1, seed=seed)]  # other seeds than the views'
    read = [(s.frame, [c for c in reader.read(s.frame) if c.card in s.truth and c.corners]) for s in scenes]
    return model, read


def test_one_view_per_card_gives_every_suit_and_the_shared_ranks_a_classifier(deck) -> None:
    model, _ = deck
    assert model.glyphs.suit is not None and model.glyphs.rank is not None
    assert list(model.glyphs.suit.classes) == [0, 1, 2, 3]  # 3 to 6 cards a suit: 6 to 12 corner views
    # the ranks of at least MIN_VIEWS views (two corners of 2 cards or more: 2, 5, 7, K); the rest are not judged
    assert {"2", "5", "7", "K"} <= {RANKS[k] for k in model.glyphs.rank.classes}


def test_the_deck_s_own_glyphs_deny_a_look_alike_and_keep_the_right_name(deck) -> None:
    model, read = deck
    cards = [(frame, card) for frame, cards in read for card in cards]
    assert len(cards) >= 10
    right = [doubts(model, frame, c, c.card) for frame, c in cards]
    look_alike = [doubts(model, frame, c, c.card[:-1] + LOOK_ALIKE[c.card[-1]])
                  for frame, c in cards]
    assert not any(right)
    assert sum(look_alike) >= 0.75 * len(cards)  # 10 of 13 (one view a card; a KD's corners named KH pass)
    other_rank = {"2": "5", "5": "7", "7": "K", "K": "2"}
    swapped = [doubts(model, frame, c, other_rank[c.card[:-1]] + c.card[-1])
               for frame, c in cards if c.card[:-1] in other_rank]
    assert len(swapped) >= 5 and all(swapped)


def test_a_card_the_glyphs_deny_is_unknown_at_the_table(deck) -> None:
    """The recognizer's last word: a card named (here: forced to a look-alike) whose glyphs the views deny."""
    model, read = deck
    frame, cards = next((f, copy.deepcopy(c)) for f, c in read if c)
    wrong = cards[0]
    wrong.card = wrong.card[:-1] + LOOK_ALIKE[wrong.card[-1]]
    model._unname_by_glyphs(frame, cards)
    assert wrong.card == UNKNOWN
    assert all(c.card != UNKNOWN for c in cards[1:])


def test_fit_judges_only_classes_with_enough_views() -> None:
    rng = np.random.default_rng(0)
    centres = {0: np.array([3.0, 0, 0]), 3: np.array([0, 3.0, 0]), 1: np.array([0, 0, 3.0])}
    labels = np.array([0] * 10 + [3] * 10 + [1] * (MIN_VIEWS - 1))
    features = np.array([centres[k] for k in labels]) + rng.normal(0, 0.5, (len(labels), 3))
    views = GlyphViews.fit(features, labels)
    assert views is not None and list(views.classes) == [0, 3]
    support = views.support(np.array([centres[0], centres[3], centres[3]]), np.array([0, 0, 1]))
    assert support[0] > 0.9 and support[1] < 0.1
    assert np.isnan(support[2])  # class 1 had too few views: never judged, so never denied
    assert GlyphViews.fit(features[:10], labels[:10]) is None  # one class: nothing to tell apart


def test_features_ignore_the_light() -> None:
    """A dimmer or brighter, lower-contrast copy of a glyph patch has the same features."""
    patch = np.random.default_rng(1).uniform(-0.5, 0.5, (1, 3, 24, 24)).astype(np.float32)
    assert np.allclose(glyph_features(patch), glyph_features(0.4 * patch + 0.2), atol=1e-4)


def test_saved_with_the_deck_and_an_older_file_loads_without(deck, tmp_path: Path) -> None:
    model, read = deck
    model.save(tmp_path / "deck.npz")
    loaded = EnrolledModel.load(tmp_path / "deck.npz").glyphs
    assert loaded.suit is not None and np.array_equal(loaded.suit.weights, model.glyphs.suit.weights)
    frame, cards = next((f, c) for f, c in read if c)
    corners = [rd.candidate for rd in cards[0].corners]
    look_alike = cards[0].card[:-1] + LOOK_ALIKE[cards[0].card[-1]]
    assert loaded.doubted(frame, [(corners, look_alike)]) == model.glyphs.doubted(frame, [(corners, look_alike)])
    with np.load(tmp_path / "deck.npz") as z:  # a file written before the glyphs were kept
        np.savez(tmp_path / "old.npz", **{k: z[k] for k in z.files if not k.startswith(("suit_", "rank_"))})
    old = EnrolledModel.load(tmp_path / "old.npz").glyphs
    assert old.suit is None and old.rank is None and old.doubted(frame, [(corners, look_alike)]) == [False]


def test_a_view_is_read_back_by_glyphs_fitted_without_it() -> None:
    labels = np.repeat(np.arange(8), 3) * 4 + np.tile([0, 3, 0], 8)  # 8 ranks; spades and clubs
    rng = np.random.default_rng(2)
    sample = GlyphSample(rng.normal(size=(24, 6)), rng.normal(size=(24, 6)), labels, np.arange(24))
    glyphs = DeckGlyphs.fit(sample)
    held = glyphs.without_photo(7)
    assert held.sample is not None and 7 not in held.sample.photo
    assert len(held.sample.photo) == 24 - np.sum(np.arange(24) % HELD_OUT_FOLDS == 7 % HELD_OUT_FOLDS)
    assert glyphs.without_photo(12) is held  # same fold: fitted once
