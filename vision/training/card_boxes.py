"""Training samples from photos labelled only with whole-card boxes and ranks (edje_pinochle's train split).

Those photos show another deck (a Bicycle-style poker deck) on other tables, but their labels name neither
the suit nor where the corner indices are. A teacher (the shipped ensemble) supplies both, conservatively:
a candidate inside a card's box is that card's index when the teacher finds it index-like (junk below 0.5
on both heads) and its best rank is the labelled one; the card's suit is the teacher's suit vote over those
candidates, kept only when it is clear. The labelled rank is what the teacher cannot invent: cuts it reads
with low confidence but the right rank are exactly the hard positives a new deck needs. Candidates outside
every card box are junk; the rest of a card's area (pips, court art, a neighbour's index) is left out.
"""
from __future__ import annotations

import csv
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.glyphs import IndexCandidate, propose_index_sets
from vision.model import JUNK_RANK, JUNK_SUIT, RANKS, IndexModel
from vision.training.samples import Encoder, JunkScore, SampleSet, add_junk, jitter

CardBox = tuple[str, float, float, float, float]  # rank, x0, y0, x1, y1 (pixels)

INDEX_LIKE = 0.5  # teacher's junk probability (each head) below which a cut is an index
SUIT_SURE = 0.9  # the card's suit needs one cut this sure of it ...
SUIT_SHARE = 0.8  # ... and this share of the card's rank-weighted suit vote


@dataclass
class LabelledIndices:
    """One photo's teacher-labelled index cuts (rank, suit indices) and the candidates outside every card."""
    positives: list[tuple[IndexCandidate, int, int]]
    outside: list[IndexCandidate]
    cards: int  # cards given at least one labelled cut


def read_card_boxes(root: Path, split: str = "train") -> dict[str, list[CardBox]]:
    """edje_pinochle's boxes.csv (path, split, object_index, rank, suit, xmin, ymin, xmax, ymax) per image."""
    per_image: dict[str, list[CardBox]] = defaultdict(list)
    with open(root / "boxes.csv", newline="") as fh:
        for row in csv.DictReader(fh):
            if row["split"] == split and row["rank"] in RANKS:
                x0, y0, x1, y1 = (float(row[k]) for k in ("xmin", "ymin", "xmax", "ymax"))
                per_image[row["path"]].append((row["rank"], x0, y0, x1, y1))
    return per_image


def label_indices(img: np.ndarray, boxes: list[CardBox], teacher: IndexModel) -> LabelledIndices:
    """Which of the proposer's cuts in `img` are which card's index, by the labelled ranks and the teacher."""
    cands = propose_index_sets(img)[0]  # the first mask's cuts, as in samples.label_candidates
    if not cands:
        return LabelledIndices([], [], 0)
    pr, ps, _ = teacher.score(img, cands, 0.0)
    rxy = np.array([c.rank_xy for c in cands])
    sxy = np.array([c.suit_xy for c in cands])
    index_like = (pr[:, JUNK_RANK] < INDEX_LIKE) & (ps[:, JUNK_SUIT] < INDEX_LIKE)
    best_rank = pr[:, :JUNK_RANK].argmax(1)
    best_suit = ps[:, :JUNK_SUIT].argmax(1)
    in_any = np.zeros(len(cands), bool)
    positives: list[tuple[IndexCandidate, int, int]] = []
    cards = 0
    for rank, x0, y0, x1, y1 in boxes:
        pad_x, pad_y = 0.1 * (x1 - x0), 0.1 * (y1 - y0)
        in_any |= _inside(rxy, x0 - pad_x, y0 - pad_y, x1 + pad_x, y1 + pad_y)
        in_any |= _inside(sxy, x0 - pad_x, y0 - pad_y, x1 + pad_x, y1 + pad_y)
        r = RANKS.index(rank)
        idx = np.flatnonzero(_inside(rxy, x0, y0, x1, y1) & _inside(sxy, x0, y0, x1, y1) & index_like
                             & (best_rank == r))
        if not len(idx):
            continue
        votes = (ps[idx, :JUNK_SUIT] * pr[idx, r][:, None]).sum(0)
        s = int(votes.argmax())
        if ps[idx, s].max() < SUIT_SURE or votes[s] < SUIT_SHARE * votes.sum():
            continue
        positives += [(cands[i], r, s) for i in idx[best_suit[idx] == s]]
        cards += 1
    return LabelledIndices(positives, [cands[i] for i in np.flatnonzero(~in_any)], cards)


def _inside(xy: np.ndarray, x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    return (xy[:, 0] > x0) & (xy[:, 0] < x1) & (xy[:, 1] > y0) & (xy[:, 1] < y1)


def add_labelled(img: np.ndarray, labelled: LabelledIndices, out: SampleSet, rng: np.random.Generator, *,
                 encode: Encoder, jitters: int, neg_per_image: int, junk_score: JunkScore | None,
                 turn_deg: float, scale: float) -> None:
    """Samples of one photo (or a photometric variant of it: the cuts' geometry still holds): each labelled
    cut and `jitters` jittered copies, its flipped twin as junk, and junk from outside the cards."""
    for c, r, s in labelled.positives:
        cuts = [c] + [jitter(c, rng, 0.06, turn_deg, scale) for _ in range(jitters)]
        rows = encode(img, cuts + [IndexCandidate(c.suit, c.rank)])
        for row in rows[:-1]:
            out.add(row, r, s)
        out.add(rows[-1], JUNK_RANK, JUNK_SUIT)
    add_junk(img, labelled.outside, out, rng, encode=encode, neg_per_image=neg_per_image, junk_score=junk_score)
