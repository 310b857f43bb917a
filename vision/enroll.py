"""Enrolment: learn the table's own deck from photos of each card, by fine-tuning the generic model.

For each labelled photo, the generic model finds the most index-like candidates (whatever it thinks
their name is); those become positives with the true label, the least index-like ones junk.
"""
from __future__ import annotations

import copy
import csv
from collections.abc import Callable
from pathlib import Path

import numpy as np

from vision.glyphs import index_candidates
from vision.features import features
from vision.model import JUNK_RANK, JUNK_SUIT, RANKS, SUITS, CardModel
from vision.sources import IMAGE_SUFFIXES, load_image
from vision.training.train import train

Progress = Callable[[int, int], None]


def parse_card(name: str) -> tuple[int, int]:
    """'QS' / '10h' / 'qs_2' -> (rank index, suit index); ValueError for anything else."""
    stem = name.split("_")[0].split("-")[0].upper()
    rank, suit = stem[:-1], stem[-1:]
    if rank not in RANKS or suit not in SUITS:
        raise ValueError(f"not a card name: {name!r} (expected e.g. QS, 10H, 7C_2.jpg)")
    return RANKS.index(rank), SUITS.index(suit)


def enrollment_photos(source: Path) -> list[tuple[Path, tuple[int, int]]]:
    """A folder of photos named after their card (QS.jpg, 10H_2.png) or a path,rank,suit manifest."""
    if source.is_dir():
        photos = sorted(p for p in source.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        return [(p, parse_card(p.stem)) for p in photos]
    if source.is_file():
        with open(source, newline="") as fh:
            rows = list(csv.DictReader(fh))
        try:
            return [(source.parent / r["path"], parse_card(r["rank"] + r["suit"])) for r in rows]
        except KeyError as exc:
            raise ValueError(f"{source}: manifest needs the columns path,rank,suit") from exc
    raise ValueError(f"no such enrolment folder or manifest: {source}")


def enrollment_samples(model: CardModel, photos: list[tuple[Path, tuple[int, int]]],
                       progress: Progress | None = None, corners: int = 2, junk: int = 20
                       ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    xs, rs, ss = [], [], []
    for i, (path, (rank, suit)) in enumerate(photos):
        cands, patches, colour = index_candidates(load_image(path))
        feats = features(patches, colour)
        if len(cands):
            pr, ps = model.predict(feats)
            index_like = (1 - pr[:, JUNK_RANK]) * (1 - ps[:, JUNK_SUIT])
            order = np.argsort(-index_like)
            taken: list[int] = []
            used: set[int] = set()
            for j in order:
                keys = {id(cands[j].rank), id(cands[j].suit)}
                if index_like[j] < 0.3 or len(taken) == corners:
                    break
                if not keys & used:
                    taken.append(int(j))
                    used |= keys
            for j in taken:
                xs.append(feats[j]); rs.append(rank); ss.append(suit)  # noqa: E702
            for j in order[::-1][:junk]:
                if index_like[j] < 0.1:
                    xs.append(feats[j]); rs.append(JUNK_RANK); ss.append(JUNK_SUIT)  # noqa: E702
        if progress:
            progress(i + 1, len(photos))
    if not any(r != JUNK_RANK for r in rs):
        raise ValueError("no card index found in any enrolment photo")
    return np.array(xs, np.float32), np.array(rs), np.array(ss)


def enroll(base: CardModel, source: Path, progress: Progress | None = None, epochs: int = 15) -> CardModel:
    """A copy of `base` fine-tuned on the enrolment photos (positives repeated to outweigh junk)."""
    x, r, s = enrollment_samples(base, enrollment_photos(source), progress)
    pos = r != JUNK_RANK
    reps = max(1, int((~pos).sum() / max(1, pos.sum())))
    x = np.vstack([x] + [x[pos]] * reps)
    r = np.concatenate([r] + [r[pos]] * reps)
    s = np.concatenate([s] + [s[pos]] * reps)
    tuned = copy.deepcopy(base)
    for i, member in enumerate(tuned.members):
        train(member, x, r, s, epochs=epochs, lr=5e-4, seed=i)
    return tuned
