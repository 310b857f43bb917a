"""Train a glyph verifier, the suit verifier (vision/suits.py) or the rank verifier (vision/ranks.py), with
PyTorch on the CPU and export it to ONNX.

    pip install -e '.[train]'
    python -m vision.training.suits /work/shared/data/cards --out vision/models/suit.onnx   # ~25 min, one core
    python -m vision.training.suits /work/shared/data/cards --glyph rank --out vision/models/rank.onnx

The same sources as the index CNN (vision/training/cnn.py), cut as glyph patches: the 'train' photos of
ammememe_roboflow in photometric variants, rendered scenes of the shipped faces and font-rendered corner
indices (many glyph shapes, drawn or from 21 DejaVu faces). Classes: the four suits (or the 13 ranks) and
junk (the glyph of a flipped pair, a pip pair, a stray blob). 'val' and 'test' are never used here;
`--no-photos` leaves the photos out too (the leave-one-deck-out fold, vision/README.md).
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import cv2
import numpy as np
import torch
from torch import nn

from vision.glyphs import IndexCandidate
from vision.model import JUNK_RANK, JUNK_SUIT
from vision.ranks import DEFAULT_RANK_NET, RANK_PATCH, cut_rank_patches
from vision.suits import DEFAULT_SUIT_NET, SUIT_PATCH, cut_suit_patches
from vision.training.cnn import SCALE, TURN_DEG, collect, one_cycle
from vision.training.rendered_indices import rendered_indices
from vision.training.samples import synthetic_scenes


class Glyph(NamedTuple):
    """What one verifier reads: its patch (w, h), how it is cut, its classes (junk last), output name."""
    size: tuple[int, int]
    cut: Callable[[np.ndarray, list[IndexCandidate]], np.ndarray]
    classes: int
    output: str
    default_out: Path


SUIT = Glyph((SUIT_PATCH, SUIT_PATCH), cut_suit_patches, JUNK_SUIT + 1, "suit", DEFAULT_SUIT_NET)
RANK = Glyph(RANK_PATCH, cut_rank_patches, JUNK_RANK + 1, "rank", DEFAULT_RANK_NET)


def encoder(glyph: Glyph) -> Callable[[np.ndarray, list[IndexCandidate]], np.ndarray]:
    """Flattened float16 patches of the glyph."""
    def encode(img: np.ndarray, cands: list[IndexCandidate]) -> np.ndarray:
        return glyph.cut(img, cands).reshape(len(cands), -1).astype(np.float16)
    return encode


suit_encoder = encoder(SUIT)


class GlyphNet(nn.Module):
    """Three small conv blocks (16/32/32 channels) and 64 hidden units over one glyph's patch."""

    def __init__(self, glyph: Glyph = SUIT) -> None:
        super().__init__()
        w, h = glyph.size
        self.body = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(32, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Flatten(), nn.Linear(32 * (h // 8) * (w // 8), 64), nn.ReLU(), nn.Dropout(0.3),
            nn.Linear(64, glyph.classes))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.body(x)


def samples(root: Path | None, variants: int, synthetic: int, rendered: int, seed: int, glyph: Glyph = SUIT
            ) -> tuple[np.ndarray, np.ndarray]:
    """Glyph patches (N, 3 * w * h, float16) and their labels (suit or rank); no photos without a `root`."""
    encode = encoder(glyph)
    out = collect(root, variants, seed, encode=encode)
    synthetic_scenes(synthetic, out, encode=encode, seed=seed, jitters=3, turn_deg=TURN_DEG, scale=SCALE)
    rendered_indices(rendered, out, encode=encode, seed=seed, turn_deg=TURN_DEG, scale=SCALE)
    x, rank, suit = out.arrays()
    return x.astype(np.float16), suit if glyph is SUIT else rank


def fit(x: np.ndarray, labels: np.ndarray, epochs: int, seed: int = 0, lr: float = 3e-3, glyph: Glyph = SUIT
        ) -> GlyphNet:
    """One cycle of learning rate up to `lr` (the index CNN's schedule and per-patch noise)."""
    torch.manual_seed(seed)
    net = GlyphNet(glyph)
    target = torch.from_numpy(labels)
    loss_fn = nn.CrossEntropyLoss()
    w, h = glyph.size
    one_cycle(net, x, (3, h, w), lambda batch, rows: loss_fn(net(batch), target[rows]), epochs, lr)
    return net.eval()


def export(net: GlyphNet, path: Path, glyph: Glyph = SUIT) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    w, h = glyph.size
    torch.onnx.export(net, (torch.zeros(2, 3, h, w),), str(path), input_names=["x"], output_names=[glyph.output],
                      dynamic_axes={"x": {0: "n"}, glyph.output: {0: "n"}}, opset_version=13, dynamo=False)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("root", type=Path, help="the cards data (ammememe_roboflow/ inside)")
    ap.add_argument("--glyph", choices=("suit", "rank"), default="suit", help="which verifier to train")
    ap.add_argument("--out", type=Path, help="default: the shipped network's path")
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--variants", type=int, default=2, help="photometric variants per training photo")
    ap.add_argument("--synthetic", type=int, default=150, help="rendered training scenes (shipped faces)")
    ap.add_argument("--rendered", type=int, default=20000, help="font-rendered corner indices")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-photos", action="store_true",
                    help="train on the rendered scenes and indices alone (leave ammememe_roboflow out)")
    args = ap.parse_args(argv)
    if not args.no_photos and not (args.root / "ammememe_roboflow").is_dir():
        ap.error(f"{args.root}: no ammememe_roboflow/ inside")
    glyph = SUIT if args.glyph == "suit" else RANK
    out = args.out or glyph.default_out
    cv2.setNumThreads(1)
    photos = None if args.no_photos else args.root
    x, labels = samples(photos, args.variants, args.synthetic, args.rendered, args.seed, glyph)
    print(f"{len(x)} samples, per class {np.bincount(labels, minlength=glyph.classes).tolist()}", file=sys.stderr)
    export(fit(x, labels, args.epochs, args.seed, glyph=glyph), out, glyph)
    print(f"saved {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
