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

from vision.model import DEFAULT_MODEL, JUNK_RANK, IndexClassifier
from vision.training.samples import (SampleSet, label_candidates, load_frame, read_roboflow_boxes, split_of,
                                     synthetic_scenes, to_pixels)
from vision.training.train import fit_new


def collect(root: Path, split: str, seed: int = 0, model: IndexClassifier | None = None) -> SampleSet:
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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("root", type=Path)
    ap.add_argument("--out", type=Path, default=DEFAULT_MODEL)
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--synthetic", type=int, default=150, help="rendered training scenes (shipped faces)")
    args = ap.parse_args(argv)
    model = None
    for _ in range(2):  # second round: retrain with the first model's false alarms as junk samples
        samples = collect(args.root, "train", model=model)
        print(f"synthetic: {synthetic_scenes(args.synthetic, samples)} index boxes", file=sys.stderr)
        x, yr, ys = samples.arrays()
        model = fit_new(x, yr, ys, epochs=args.epochs,
                        progress=lambda e, n: print(f"epoch {e}/{n}", file=sys.stderr, end="\r"))
    vx, vr, vs = collect(args.root, "val").arrays()
    pr, ps = model.predict(vx)
    print(f"\nval patch accuracy rank {np.mean(pr.argmax(1) == vr):.3f} suit {np.mean(ps.argmax(1) == vs):.3f}"
          f" (positives: rank {np.mean(pr.argmax(1)[vr != JUNK_RANK] == vr[vr != JUNK_RANK]):.3f})", file=sys.stderr)
    model.save(args.out)
    print(f"saved {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
