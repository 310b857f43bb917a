"""Train the suit verifier (vision/suits.py) with PyTorch on the CPU and export it to ONNX.

    pip install -e '.[train]'
    python -m vision.training.suits /work/shared/data/cards --out vision/models/suit.onnx   # ~25 min, one core

The same sources as the index CNN (vision/training/cnn.py), cut as suit-glyph patches: the 'train'
photos of ammememe_roboflow in photometric variants, rendered scenes of the shipped faces and font-rendered
corner indices (many suit shapes, drawn or from 21 DejaVu faces). Classes: the four suits and junk (the
suit glyph of a flipped pair, a pip pair, a stray blob). 'val' and 'test' are never used here.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn

from vision.glyphs import IndexCandidate
from vision.model import JUNK_SUIT
from vision.suits import DEFAULT_SUIT_NET, SUIT_PATCH, cut_suit_patches
from vision.training.cnn import SCALE, TURN_DEG, collect, one_cycle
from vision.training.rendered_indices import rendered_indices
from vision.training.samples import synthetic_scenes


def suit_encoder(img: np.ndarray, cands: list[IndexCandidate]) -> np.ndarray:
    """Flattened float16 suit patches."""
    return cut_suit_patches(img, cands).reshape(len(cands), -1).astype(np.float16)


class SuitNet(nn.Module):
    """Three small conv blocks (16/32/32 channels) and 64 hidden units: suits S, H, D, C and junk."""

    def __init__(self) -> None:
        super().__init__()
        side = SUIT_PATCH // 8
        self.body = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(32, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Flatten(), nn.Linear(32 * side * side, 64), nn.ReLU(), nn.Dropout(0.3), nn.Linear(64, JUNK_SUIT + 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.body(x)


def samples(root: Path, variants: int, synthetic: int, rendered: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Suit patches (N, 3 * SUIT_PATCH^2, float16) and their suit labels."""
    out = collect(root, variants, seed, encode=suit_encoder)
    synthetic_scenes(synthetic, out, encode=suit_encoder, seed=seed, jitters=3, turn_deg=TURN_DEG, scale=SCALE)
    rendered_indices(rendered, out, encode=suit_encoder, seed=seed, turn_deg=TURN_DEG, scale=SCALE)
    x, _, suit = out.arrays()
    return x.astype(np.float16), suit


def fit(x: np.ndarray, suit: np.ndarray, epochs: int, seed: int = 0, lr: float = 3e-3) -> SuitNet:
    """One cycle of learning rate up to `lr` (the index CNN's schedule and per-patch noise)."""
    torch.manual_seed(seed)
    net = SuitNet()
    labels = torch.from_numpy(suit)
    loss_fn = nn.CrossEntropyLoss()
    one_cycle(net, x, (3, SUIT_PATCH, SUIT_PATCH), lambda batch, rows: loss_fn(net(batch), labels[rows]), epochs, lr)
    return net.eval()


def export(net: SuitNet, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(net, (torch.zeros(2, 3, SUIT_PATCH, SUIT_PATCH),), str(path), input_names=["x"],
                      output_names=["suit"], dynamic_axes={"x": {0: "n"}, "suit": {0: "n"}}, opset_version=13,
                      dynamo=False)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("root", type=Path, help="the cards data (ammememe_roboflow/ inside)")
    ap.add_argument("--out", type=Path, default=DEFAULT_SUIT_NET)
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--variants", type=int, default=2, help="photometric variants per training photo")
    ap.add_argument("--synthetic", type=int, default=150, help="rendered training scenes (shipped faces)")
    ap.add_argument("--rendered", type=int, default=20000, help="font-rendered corner indices")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    if not (args.root / "ammememe_roboflow").is_dir():
        ap.error(f"{args.root}: no ammememe_roboflow/ inside")
    cv2.setNumThreads(1)
    x, suit = samples(args.root, args.variants, args.synthetic, args.rendered, args.seed)
    print(f"{len(x)} samples, per class {np.bincount(suit, minlength=JUNK_SUIT + 1).tolist()}", file=sys.stderr)
    export(fit(x, suit, args.epochs, args.seed), args.out)
    print(f"saved {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
