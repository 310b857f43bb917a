"""Build the shipped generic model from a data root laid out like shared/data/cards.

    python -m vision.training.build_model DATA_ROOT [--out vision/models/generic.npz]

Trains on the 'train' split of ammememe_roboflow (overhead + single) by file-name hash plus rendered
scenes of the shipped faces; 'val' picks the confidence threshold (whole pipeline, precision >= 99.5 %);
'test' is never touched here (see `cardtable vision eval`).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from vision.evaluate import evaluate, read_manifest
from vision.model import JUNK_RANK, JUNK_SUIT, MLP_MODEL, CardModel, IndexModel
from vision.recognize import Recognizer
from vision.training.samples import (JunkScore, SampleSet, label_candidates, load_frame, read_roboflow_boxes, split_of,
                                     synthetic_scenes, to_pixels)
from vision.training.train import fit_new


def collect(root: Path, split: str, seed: int = 0, model: CardModel | None = None) -> SampleSet:
    rng = np.random.default_rng(seed)
    out = SampleSet()
    junk_score = None if model is None else _junk_score(model)
    rb = root / "ammememe_roboflow"
    boxes = read_roboflow_boxes(rb)
    hits = total = 0
    for rel, bxs in sorted(boxes.items()):
        if split_of(rel) != split:
            continue
        img = load_frame(rb / rel)
        hits += label_candidates(img, [to_pixels(b, img.shape) for b in bxs], out, rng, junk_score=junk_score)
        total += len(bxs)
    print(f"{split}: {hits}/{total} labelled boxes matched a candidate, {len(out.x)} samples", file=sys.stderr)
    return out


def _junk_score(model: CardModel) -> JunkScore:
    def score(rows: np.ndarray) -> np.ndarray:
        pr, ps = model.predict(rows)
        return pr[:, JUNK_RANK] + ps[:, JUNK_SUIT]
    return score


def pick_threshold(model: IndexModel, root: Path, target: float = 0.995,
                   grid: tuple[float, ...] = (0.8, 0.9, 0.95, 0.97, 0.99, 0.995, 0.999)) -> float:
    """Lowest threshold whose whole-pipeline card precision on the 'val' photos reaches `target`."""
    folder = root / "ammememe_roboflow"
    truth = read_manifest(folder / "manifest.csv")
    items = [(p, t) for p, t in sorted(truth.items()) if split_of(p) == "val"]
    frames = {p: load_frame(folder / p) for p, _ in items}
    for t in grid:
        report = evaluate(items, frames.__getitem__, Recognizer(model, threshold=t).read)
        print(f"val threshold {t}: precision {report['precision']} recall {report['recall']}", file=sys.stderr)
        if report["precision"] is not None and float(report["precision"]) >= target:  # type: ignore[arg-type]
            return t
    return grid[-1]


def _fit(x: np.ndarray, yr: np.ndarray, ys: np.ndarray, members: int, epochs: int) -> CardModel:
    return CardModel([fit_new(x, yr, ys, epochs=epochs, seed=seed,
                              progress=lambda e, n: print(f"epoch {e}/{n}", file=sys.stderr, end="\r"))
                      for seed in range(members)])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("root", type=Path)
    ap.add_argument("--out", type=Path, default=MLP_MODEL)
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
    model.threshold = pick_threshold(model, args.root)
    vx, vr, vs = collect(args.root, "val", model=model).arrays()
    pr, ps = model.predict(vx)
    pos = vr != JUNK_RANK
    print(f"\nval index accuracy: rank {np.mean(pr.argmax(1)[pos] == vr[pos]):.3f} "
          f"suit {np.mean(ps.argmax(1)[pos] == vs[pos]):.3f}; threshold {model.threshold}", file=sys.stderr)
    model.save(args.out)
    print(f"saved {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
