"""Teacher-labelled samples from rank-only whole-card boxes (vision/training/card_boxes.py), on a rendered
scene whose true suits are known: the labelled rank gates every positive, the teacher's suit must be the
card's, and junk comes only from outside every card. Needs no torch (the teacher is the shipped ONNX CNN)."""
from __future__ import annotations

import numpy as np
import pytest

from vision.cnn import CnnModel
from vision.glyphs import IndexCandidate
from vision.model import JUNK_RANK, RANKS, SUITS
from vision.synthetic import SceneStyle, random_layout, render
from vision.training.card_boxes import CardBox, add_labelled, label_indices
from vision.training.samples import SampleSet


@pytest.fixture(scope="module")
def scene() -> tuple[np.ndarray, list[str], list[CardBox]]:
    style = SceneStyle(card_width=130.0)
    layout = random_layout(4, style, seed=3)
    img, quads = render(layout, style, seed=3)
    cards = [c.card for c in layout if c.face_up]
    boxes = [(c.card[:-1], *q.min(0), *q.max(0)) for c, q in zip(layout, quads) if c.face_up]
    return img, cards, boxes


@pytest.fixture(scope="module")
def teacher() -> CnnModel:
    return CnnModel()


def _owner(xy: tuple[float, float], boxes: list[CardBox]) -> int:
    return next(i for i, (_, x0, y0, x1, y1) in enumerate(boxes) if x0 < xy[0] < x1 and y0 < xy[1] < y1)


def test_every_card_gets_index_cuts_named_by_its_rank_and_true_suit(scene, teacher) -> None:
    img, cards, boxes = scene
    labelled = label_indices(img, boxes, teacher)
    assert labelled.cards == len(cards) == 4
    owners = set()
    for c, r, s in labelled.positives:
        i = _owner(c.rank_xy, boxes)
        assert _owner(c.suit_xy, boxes) == i
        assert RANKS[r] + SUITS[s] == cards[i]
        owners.add(i)
    assert owners == set(range(len(cards)))
    for c in labelled.outside:
        for _, x0, y0, x1, y1 in boxes:
            assert not (x0 < c.rank_xy[0] < x1 and y0 < c.rank_xy[1] < y1)


def test_a_card_whose_labelled_rank_the_teacher_does_not_read_gets_no_positive(scene, teacher) -> None:
    img, cards, boxes = scene
    wrong_rank = "2" if boxes[0][0] != "2" else "3"
    labelled = label_indices(img, [(wrong_rank, *boxes[0][1:])] + boxes[1:], teacher)
    assert labelled.cards == len(cards) - 1
    assert all(_owner(c.rank_xy, boxes) != 0 for c, _, _ in labelled.positives)


def test_samples_are_each_cut_with_jittered_copies_its_flipped_twin_and_outside_junk(scene, teacher) -> None:
    img, _, boxes = scene
    labelled = label_indices(img, boxes, teacher)
    out = SampleSet()

    def rank_centres(_: np.ndarray, cands: list[IndexCandidate]) -> np.ndarray:
        return np.array([c.rank_xy for c in cands], np.float32).reshape(-1, 2)
    add_labelled(img, labelled, out, np.random.default_rng(0), encode=rank_centres, jitters=2, neg_per_image=5,
                 junk_score=None, turn_deg=0.0, scale=0.0)
    x, rank, suit = out.arrays()
    n = len(labelled.positives)
    assert (rank != JUNK_RANK).sum() == 3 * n
    assert (rank == JUNK_RANK).sum() == n + min(5, len(labelled.outside))
    first = x[0::4][:n]  # each labelled cut comes first in its group of cut, 2 jitters, flipped twin
    assert np.allclose(first, [c.rank_xy for c, _, _ in labelled.positives])
    flipped = x[3::4][:n]
    assert np.allclose(flipped, [c.suit_xy for c, _, _ in labelled.positives])
