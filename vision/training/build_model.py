"""Build the shipped generic model from a data root laid out like shared/data/cards.

    python -m vision.training.build_model DATA_ROOT [--out vision/models/generic.npz]

Trains on the 'train' split of ammememe_roboflow (overhead + single) by file-name hash plus rendered
scenes of the shipped faces; 'val' picks the
confidence threshold; 'test' is never touched here (see `cardtable vision eval`).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from vision.model import DEFAULT_MODEL, JUNK_RANK, JUNK_SUIT, CardModel
from vision.training.samples import (SampleSet, label_candidates, load_frame, read_roboflow_boxes, split_of,
                                     synthetic_scenes, to_pixels)
from vision.training.train import fit_new


def collect(root: Path, split: str, seed: int = 0, model: CardModel | None = None) -> SampleSet:
    rng = np.random.default_rng(seed)
    out = SampleSet()
    rb = root / "ammememe_roboflow"
    boxes = read_roboflow_boxes(rb)
    hits = total = 0
    for rel, bxs in sorted(boxes.items()):
        if split_of(rel) != split:
            continue
        img = load_frame(rb / rel)
        hits += label_candidates(img, [to_pixels(b, img.shape) for b in bxs], out, rng, model=model)
        total += len(bxs)
    print(f"{split}: {hits}/{total} labelled boxes matched a candidate, {len(out.x)} samples", file=sys.stderr)
    return out


def pick_threshold(model: CardModel, x: np.ndarray, yr: np.ndarray, ys: np.ndarray, target: float = 0.995) -> float:
    """Lowest confidence threshold whose index-level precision on the val samples reaches `target`."""
    pr, ps = model.predict(x)
    r, s = pr.argmax(1), ps.argmax(1)
    conf = pr.max(1) * ps.max(1)
    named = (r != JUNK_RANK) & (s != JUNK_SUIT)
    for t in (0.8, 0.9, 0.95, 0.97, 0.98, 0.99, 0.995, 0.998):
        sel = named & (conf >= t)
        right = sel & (r == yr) & (s == ys)
        if sel.sum() and right.sum() / sel.sum() >= target:
            return t
    return 0.999


def _fit(x: np.ndarray, yr: np.ndarray, ys: np.ndarray, members: int, epochs: int) -> CardModel:
    return CardModel([fit_new(x, yr, ys, epochs=epochs, seed=seed,
                              progress=lambda e, n: print(f"epoch {e}/{n}", file=sys.stderr, end="\r"))
                      for seed in range(members)])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("root", type=Path)
    ap.add_argument("--out", type=Path, default=DEFAULT_MODEL)
    ap.add_argument("--epochs", type=int, default=25)
    ap.add_argument("--synthetic", type=int, default=150, help="rendered training scenes (shipped faces)")
    ap.add_argument("--members", type=int, default=3, help="ensemble size")
    args = ap.parse_args(argv)
    synthetic = SampleSet()
    print(f"synthetic: {synthetic_scenes(args.synthetic, synthetic)} index boxes", file=sys.stderr)
    sx, sr, ss = synthetic.arrays()
    model: CardModel | None = None
    for _ in range(2):  # second round: retrain with the first model's false alarms as junk samples
        x, yr, ys = collect(args.root, "train", model=model).arrays()
        model = _fit(np.vstack([x, sx]), np.concatenate([yr, sr]), np.concatenate([ys, ss]), args.members, args.epochs)
    assert model is not None
    vx, vr, vs = collect(args.root, "val", model=model).arrays()
    model.threshold = pick_threshold(model, vx, vr, vs)
    pr, ps = model.predict(vx)
    pos = vr != JUNK_RANK
    print(f"\nval index accuracy: rank {np.mean(pr.argmax(1)[pos] == vr[pos]):.3f} "
          f"suit {np.mean(ps.argmax(1)[pos] == vs[pos]):.3f}; threshold {model.threshold}", file=sys.stderr)
    model.save(args.out)
    print(f"saved {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
