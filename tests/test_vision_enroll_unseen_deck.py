"""Enrolment on deck designs the generic recognizer never saw (aisleriot's anglo_modern and anglo_bitmap,
rendered): enrolled from one view of each card, it names cards the generic recognizer leaves unknown, and in
fans the indices the CNN declined, none wrong; the naming rule itself, and an enrolled deck's file keeping
its views (and an older file loading without them)."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

import vision.enroll
from vision.enroll import EnrolledModel, enroll_views
from vision.evaluate import ImageScore, score_image
from vision.prototypes import NAME_LEAD, NAME_SIMILAR, VETO_LEAD, Prototypes
from vision.recognize import Recognizer
from vision.training.decks import fanned_cards, load_designs, separated_cards
from vision.training.enrolled_decks import enrolment_views

DECKS = Path(__file__).parent / "data" / "decks"  # 11 cards of anglo_modern (README.md there: GPL-3+)


@pytest.fixture(scope="module")
def enrolled() -> EnrolledModel:
    (design,) = load_designs(DECKS, {"ar-anglo_modern": frozenset()})
    return enroll_views(enrolment_views(design, views=1))


def test_one_view_per_card_reads_more_of_an_unseen_deck_and_nothing_wrong(enrolled: EnrolledModel) -> None:
    (design,) = load_designs(DECKS, {"ar-anglo_modern": frozenset()})
    assert enrolled.prototypes.generic  # one view per card: nothing to calibrate on, yet the views name cards
    scenes = [s for seed in (1, 3) for s in separated_cards(design, 1, seed=seed)]  # other seeds than the views'
    generic, mine = Recognizer(), Recognizer(enrolled)
    before = [score_image("", s.truth, generic.read(s.frame), 0.0) for s in scenes]
    after = [score_image("", s.truth, mine.read(s.frame), 0.0) for s in scenes]
    # 10 of 16 generic (its Q and K indices in an unseen typeface), 14 enrolled
    assert sum(s.correct for s in after) >= sum(s.correct for s in before) + 2
    assert not any(s.wrong for s in after)


def test_declined_indices_in_fans_are_named_by_the_views(monkeypatch: pytest.MonkeyPatch) -> None:
    """In fans most cards an enrolled deck still missed had no reading at all: the CNN declined their
    index (junk or unsure). The views name those, re-checked, and nothing wrong."""
    (design,) = load_designs(DECKS, {"ar-anglo_bitmap": frozenset()})
    mine = Recognizer(enroll_views(enrolment_views(design, views=1)))
    scenes = [s for seed in (2, 4, 5) for s in fanned_cards(design, 1, seed=seed)]  # other seeds than the views'

    def read() -> list[ImageScore]:
        return [score_image("", s.truth, mine.read(s.frame), 0.0) for s in scenes]

    after = read()
    monkeypatch.setattr(vision.enroll, "name_declined", lambda *args: None)  # the views naming unknown cards only
    before = read()
    # 22 of 30 without the declined indices named (as generic), 28 with them
    assert sum(s.correct for s in after) >= sum(s.correct for s in before) + 4
    assert not any(s.wrong for s in after + before)


def test_naming_rule() -> None:
    """Every corner nearest to one card's views, close and by a lead; else nothing."""
    views = np.eye(4)[[0, 0, 1, 2]]  # card 0 twice (two views), cards 1 and 2 once
    protos = Prototypes.build(views, np.array([0, 0, 1, 2]), threshold=0.9)
    near_0 = np.array([1.0, 0.05, 0, 0])
    assert protos.name(np.array([near_0, near_0])) == 0
    assert protos.name(np.array([near_0, [0.0, 1.0, 0, 0]])) is None  # the corners disagree
    assert protos.name(np.array([[1.0, 0, 0, 1.2]])) is None  # nearest a card not enrolled: not close enough
    tied = np.array([[NAME_SIMILAR, NAME_SIMILAR - NAME_LEAD / 2, 0.1, 0]])  # card 1 nearly as near as card 0
    assert protos.name(tied) is None
    assert protos.name(np.zeros((0, 4))) is None


def test_the_veto_asks_no_lead() -> None:
    """Two cards whose views lie side by side (an unseen deck's 3 and 5 to the CNN): a corner nearest the
    3's views by a hair names nothing, but is enough to doubt a card the CNN named 5."""
    views = np.array([[1.0, 0.1, 0, 0], [1.0, -0.1, 0, 0], [0, 0, 1.0, 0]])
    protos = Prototypes.build(views, np.array([0, 1, 2]), threshold=0.9)
    by_a_hair = np.array([[1.0, 0.01, 0, 0], [1.0, 0.02, 0, 0]])  # nearer card 0 by ~0.002, both corners
    assert protos.name(by_a_hair) is None
    assert protos.names([by_a_hair, by_a_hair[:, [0, 1, 3, 2]] * [1, -1, 1, 1], by_a_hair[:1]], VETO_LEAD) == [0, 1, 0]
    assert protos.names([np.array([[0, 0, 0.3, 1.0]])], VETO_LEAD) == [None]  # near no view: no doubt


def test_enrolled_file_keeps_its_views_and_old_files_load(enrolled: EnrolledModel, tmp_path: Path) -> None:
    enrolled.save(tmp_path / "deck.npz")
    loaded = EnrolledModel.load(tmp_path / "deck.npz").prototypes
    assert np.array_equal(loaded.views, enrolled.prototypes.views.astype(np.float32))
    assert np.array_equal(loaded.view_class, enrolled.prototypes.view_class)
    with np.load(tmp_path / "deck.npz") as z:  # a file written before the views were kept
        np.savez(tmp_path / "old.npz", **{k: z[k] for k in z.files if k not in ("views", "view_class")})
    old = EnrolledModel.load(tmp_path / "old.npz").prototypes
    assert len(old.views) == 0  # its prototypes serve as one view per card
    card, similar, _ = old.nearest(old.means)
    assert np.array_equal(card, old.classes) and np.allclose(similar, 1.0)


def test_a_reading_the_views_name_as_another_card_is_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    """A deck enrolled with two cards' views swapped (the 6D's view taught as the 5D and the 5D's as the
    6D): where the CNN names a 6D and the views name every corner of it 5D, the two disagree, and the card
    is unknown, not named by either (the views never rename a card the CNN named)."""
    (design,) = load_designs(DECKS, {"ar-anglo_modern": frozenset()})
    swapped = replace(design, faces={**design.faces, "6D": design.faces["5D"], "5D": design.faces["6D"]})
    mine = Recognizer(enroll_views(enrolment_views(swapped, views=1)))
    scenes = [s for seed in (1, 3) for s in separated_cards(design, 1, seed=seed)]
    assert {"5D", "6D"} & {card for s in scenes for card in s.truth}

    def named() -> list[str]:
        return [c.card for s in scenes for c in mine.read(s.frame) if c.card in ("5D", "6D")]

    assert named() == []
    monkeypatch.setattr(EnrolledModel, "_unname_contradicted", lambda *args: set())
    assert named()  # the CNN names them without the views' veto
