"""Training labels (vision/training/samples.py): one positive per labelled index, named as its box, cut along
the index, and junk only far from every index. Rendered scenes give exact boxes; needs no torch."""
from __future__ import annotations

import numpy as np
import pytest

from vision.cnn import CnnModel
from vision.glyphs import IndexCandidate
from vision.model import JUNK_RANK, RANKS, SUITS
from vision.synthetic import PlacedCard, SceneStyle, random_layout, render
from vision.training.samples import SampleSet, label_candidates, scene_indices


@pytest.fixture(scope="module")
def scene() -> tuple[np.ndarray, list[tuple[str, str, float, float, float, float]]]:
    style = SceneStyle(card_width=130.0)
    layout = random_layout(4, style, seed=3)
    img, quads = render(layout, style, seed=3)
    return img, scene_indices(layout, quads)[0]


def _rank_centres(img: np.ndarray, cands: list[IndexCandidate]) -> np.ndarray:
    """An encoder whose row for a candidate is its rank glyph's centre: where each sample was cut."""
    return np.array([c.rank_xy for c in cands], np.float32).reshape(-1, 2)


def _label(scene: tuple[np.ndarray, list]) -> tuple[SampleSet, int]:
    img, boxes = scene
    out = SampleSet()
    found = label_candidates(img, boxes, out, np.random.default_rng(0), encode=_rank_centres, jitters=0,
                             neg_per_image=20)
    return out, found


def _inside(xy: np.ndarray, box: tuple[str, str, float, float, float, float]) -> bool:
    _, _, x0, y0, x1, y1 = box
    pad_x, pad_y = 0.1 * (x1 - x0), 0.1 * (y1 - y0)
    return bool(x0 - pad_x < xy[0] < x1 + pad_x and y0 - pad_y < xy[1] < y1 + pad_y)


def test_every_index_of_a_rendered_scene_is_a_positive_of_its_own_card(scene) -> None:
    _, boxes = scene
    out, found = _label(scene)
    assert len(boxes) == 8 and found == len(boxes)
    x, rank, suit = out.arrays()
    positives = rank != JUNK_RANK
    assert positives.sum() == len(boxes)
    for xy, r, s in zip(x[positives], rank[positives], suit[positives]):
        box = next(b for b in boxes if _inside(xy, b))  # the rank glyph lies in a labelled index ...
        assert (RANKS[r], SUITS[s]) == box[:2]  # ... and carries that index's name
    for xy in x[~positives][len(boxes):]:  # after the flipped twins: junk, far from every index
        assert not any(_inside(xy, b) for b in boxes)


@pytest.mark.parametrize("card", ["5C", "10H", "KH", "4C"])
def test_a_rotated_cards_positives_are_its_indices_read_upright(card: str) -> None:
    """A rotated index's axis-aligned box also holds the pip or art beside it; the positive must still be the
    index's own rank-above-suit pair, the right way up (a '5' beside a pip, or a 4C upside down, taught
    the networks that the real index was junk)."""
    layout = [PlacedCard(card, 300, 250, 30.0)]
    img, quads = render(layout, SceneStyle(card_width=130.0), seed=1)
    boxes, ups = scene_indices(layout, quads)
    out = SampleSet()

    def rank_centre_and_up(_: np.ndarray, cands: list[IndexCandidate]) -> np.ndarray:
        return np.array([[*c.rank_xy, *c.up] for c in cands], np.float32).reshape(-1, 4)
    found = label_candidates(img, boxes, out, np.random.default_rng(0), encode=rank_centre_and_up, jitters=0,
                             neg_per_image=0, ups=ups)
    x, rank, _ = out.arrays()
    assert found == 2
    for row, up in zip(x[rank != JUNK_RANK], ups):
        assert np.dot(row[2:], up / np.linalg.norm(up)) > 0.95


@pytest.mark.parametrize("card", ["5C", "10H", "KH"])
def test_without_a_known_up_a_trained_net_picks_the_index_pair_of_a_turned_card(card: str) -> None:
    """Photos' boxes carry no up direction: the shipped networks, reading each pair in the box as the
    labelled card, pick the index's own pair (the pair with the most ink lies across it)."""
    layout = [PlacedCard(card, 300, 250, 30.0)]
    img, quads = render(layout, SceneStyle(card_width=130.0), seed=1)
    boxes, ups = scene_indices(layout, quads)
    model = CnnModel()
    seen: list[IndexCandidate] = []

    def register(_: np.ndarray, cands: list[IndexCandidate]) -> np.ndarray:  # a row names its candidate
        seen.extend(cands)
        return np.arange(len(seen) - len(cands), len(seen), dtype=np.float32)[:, None]

    def reads_as(rows: np.ndarray, rank: int, suit: int) -> np.ndarray:
        pr, ps, _ = model.score(img, [seen[int(i)] for i in rows[:, 0]])
        return pr[:, rank] * ps[:, suit]
    out = SampleSet()
    assert label_candidates(img, boxes, out, np.random.default_rng(0), encode=register, jitters=0,
                            neg_per_image=0, card_score=reads_as) == 2
    x, rank, _ = out.arrays()
    for row, up in zip(x[rank != JUNK_RANK], ups):
        assert np.dot(seen[int(row[0])].up, up / np.linalg.norm(up)) > 0.95
