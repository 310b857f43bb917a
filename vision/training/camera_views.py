"""Enrol a deck from labelled frames of the table's own camera, each showing many cards: every labelled
corner index (a `boxes.csv` row: path,rank,suit,class,cx,cy,w,h, the box around one corner's rank and suit in
fractions of the frame) is one view of its card, its candidate the recognizer's own (proposed over the
whole frame, as at the table) whose centre lies in the box and that looks most like an index to the CNN.
This is what `cardtable vision enroll --live` collects card by card, measured on frames that already exist
(the leave-one-deck-out fold enrolled from the webcam's 'train' frames, vision/README.md).

    python -m vision.training.camera_views DATA/ammememe_roboflow --under overhead/ --split train \\
        --resize 1138x640 --model bench/lodo/generic.json --out /tmp/webcam-enrolled.npz [--per-card 3]
"""
from __future__ import annotations

import argparse
import csv
from collections import Counter
from pathlib import Path

import numpy as np

from vision.cnn import CnnModel
from vision.enroll import EnrolmentViews, enrolled
from vision.evaluate import parse_size, resized, split_of
from vision.glyphs import IndexCandidate
from vision.model import JUNK_RANK, JUNK_SUIT, RANKS, SUITS
from vision.recognize import index_candidates
from vision.sources import load_image


def boxed_candidate(base: CnnModel, frame: np.ndarray, cands: list[IndexCandidate],
                    box: tuple[float, float, float, float]
                    ) -> tuple[IndexCandidate, tuple[np.ndarray, np.ndarray, np.ndarray]] | None:
    """The candidate of a labelled index box (centre x, y and size w, h in pixels): its centre within 0.3 of
    the box's long side of the box's centre, its rank-to-suit length 0.2-0.9 of it, and of those the most
    index-like to the CNN (a pair and its flipped twin share a centre); with its CNN outputs (rank and suit
    probabilities, embedding)."""
    cx, cy, w, h = box
    side = max(w, h)
    near = [c for c in cands if 0.2 * side <= c.length <= 0.9 * side
            and np.hypot(c.centre[0] - cx, c.centre[1] - cy) <= 0.3 * side]
    if not near:
        return None
    pr, ps, emb = base.forward_embedded(base.patches(frame, near)[0])
    j = int(np.argmax((1 - pr[:, JUNK_RANK]) * (1 - ps[:, JUNK_SUIT])))
    return near[j], (pr[j:j + 1], ps[j:j + 1], emb[j:j + 1])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("root", type=Path, help="a data set folder holding boxes.csv")
    ap.add_argument("--under", default="", help="only frames whose path starts so (overhead/)")
    ap.add_argument("--split", default="train", help="the split by file-name hash (evaluate.split_of)")
    ap.add_argument("--resize", help="WxH the frames are resized to first (as the measurement reads them)")
    ap.add_argument("--model", type=Path, required=True, help="the CNN manifest to enrol over")
    ap.add_argument("--per-card", type=int, help="at most this many views (corner indices) of each card")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    size = parse_size(args.resize) if args.resize else None
    base = CnnModel(args.model)
    with open(args.root / "boxes.csv", newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["path"].startswith(args.under) and split_of(r["path"]) == args.split
                and r["rank"] in RANKS and r["suit"] in SUITS]
    views = EnrolmentViews(base)
    taken: Counter[str] = Counter()
    frames: dict[str, tuple[np.ndarray, list[IndexCandidate]]] = {}
    for r in rows:
        card = r["rank"] + r["suit"]
        if args.per_card and taken[card] >= args.per_card:
            continue
        if r["path"] not in frames:
            image = load_image(args.root / r["path"])
            image = resized(image, size) if size else image
            frames[r["path"]] = (image, index_candidates(image)[0])
        frame, cands = frames[r["path"]]
        height, width = frame.shape[:2]
        box = (float(r["cx"]) * width, float(r["cy"]) * height, float(r["w"]) * width, float(r["h"]) * height)
        chosen = boxed_candidate(base, frame, cands, box)
        if chosen is not None:
            candidate, scored = chosen
            views.add(frame, [candidate], scored, np.ones(1, bool),
                      RANKS.index(r["rank"]) * len(SUITS) + SUITS.index(r["suit"]), sum(taken.values()))
            taken[card] += 1
    enrolled(base, *views.samples()).save(args.out)
    print(f"{sum(taken.values())} views of {len(taken)} cards from {len(frames)} frames ({len(rows)} labelled "
          f"indices) -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
