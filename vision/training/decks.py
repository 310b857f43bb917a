"""Other deck designs for training and for a held-out measure: the SVG card themes Debian ships
(aisleriot's and KDE's), rasterised by `svg_decks.py` into DIR/<design>/<card>.png.

The photos show few decks; these designs show many real index typefaces, in their real place on the card.
The designs listed here have French suits in red and black and English indices (A, K, Q, J); German
letters (B, D for J, Q) leave those cards out. Near-duplicates stay on the same side of the split.

    /usr/bin/python3 vision/training/svg_decks.py /tmp/decks     # Debian's python3-gi, gir1.2-rsvg-2.0
    python -m vision.training.decks /tmp/decks --model vision/models/generic.json   # held-out recall
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

from vision.evaluate import evaluate
from vision.model import load_model
from vision.recognize import Recognizer
from vision.synthetic import FACE_H, FACE_W, SceneStyle, random_layout, render
from vision.training.samples import FaceSet

_GERMAN_COURTS = frozenset(f"{r}{s}" for r in "JQ" for s in "SHDC")
# design -> cards left out
TRAIN_DESIGNS: dict[str, frozenset[str]] = {
    "ar-anglo": frozenset(), "ar-anglo_bitmap": frozenset(), "ar-anglo_poker": frozenset(),
    "ar-atlasnye": frozenset(), "ar-bonded": frozenset(), "ar-dondorf": frozenset(), "svg-dondorf": frozenset(),
    "ar-gnomangelo": frozenset(), "ar-gnomangelo_bitmap": frozenset(), "ar-guyenne-classic": frozenset(),
    "ar-neoclassical": frozenset(), "ar-orell": frozenset(), "ar-paris": frozenset(), "svg-gm-paris": frozenset(),
    "ar-plastic": frozenset(), "svg-ancient-egyptians": frozenset(),
    "ar-berlin": _GERMAN_COURTS, "ar-lattmann": _GERMAN_COURTS, "ar-rheinland": _GERMAN_COURTS,
}
# never trained on: the measure of decks the networks have not seen
HELD_OUT_DESIGNS: dict[str, frozenset[str]] = {
    "svg-standard": frozenset(), "ar-simplistic": frozenset(), "svg-jolly-royal": frozenset(),
    "ar-bellot": frozenset(), "ar-tango": frozenset(), "ar-tigullio": frozenset(),
    "svg-tigullio-international": frozenset(),
}


def load_designs(root: Path, designs: dict[str, frozenset[str]]) -> list[FaceSet]:
    """The listed designs found under `root`, each card with a located index (others are left out)."""
    out = []
    for name, skipped in sorted(designs.items()):
        faces, boxes = {}, {}
        for path in sorted((root / name).glob("*.png")):
            if path.stem in skipped:
                continue
            face = load_face(path)
            box = index_box(face)
            if box is not None:
                faces[path.stem], boxes[path.stem] = face, box
        if faces:
            out.append(FaceSet(name, faces, boxes))
    return out


def load_face(path: Path) -> np.ndarray:
    """A rasterised card (BGRA) over white, resized to FACE_W x FACE_H."""
    bgra = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if bgra is None or bgra.ndim != 3 or bgra.shape[2] != 4:
        raise ValueError(f"{path}: not a BGRA card image")
    a = bgra.astype(np.float32)
    alpha = a[:, :, 3:] / 255
    bgr = a[:, :, :3] * alpha + 255 * (1 - alpha)
    return cv2.resize(bgr.clip(0, 255).astype(np.uint8), (FACE_W, FACE_H), interpolation=cv2.INTER_AREA)


def index_box(face: np.ndarray) -> tuple[float, float, float, float] | None:
    """The top-left corner index (the rank, then the suit under it) as a face-pixel box, or None when
    the corner does not show one clearly (an index run into court art, or none printed)."""
    w, h = int(FACE_W * 0.3), int(FACE_H * 0.42)
    ink = (face[:h, :w].min(axis=2) < 150).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    parts = [(x, y, x + bw, y + bh, a) for x, y, bw, bh, a in stats[1:]
             # not the card's edge or frame lines, not a glyph cut by the corner region's edge
             if a >= 12 and bw <= 0.8 * w and bh <= 0.4 * h and x > 1 and y > 1 and y + bh < h and a >= 0.08 * bw * bh]
    glyphs = sorted((p for p in parts if p[3] - p[1] >= 8), key=lambda p: (p[1], p[0]))
    if not glyphs:
        return None
    rank = list(glyphs[0])
    for p in glyphs[1:]:  # the '0' of a '10': same height, same row, close
        hr, hp = rank[3] - rank[1], p[3] - p[1]
        overlap = min(rank[3], p[3]) - max(rank[1], p[1])
        if overlap > 0.7 * min(hr, hp) and min(hr, hp) > 0.75 * max(hr, hp) and 0 <= p[0] - rank[2] < 0.3 * hr:
            rank = [min(rank[0], p[0]), min(rank[1], p[1]), max(rank[2], p[2]), max(rank[3], p[3]), rank[4] + p[4]]
    below = [p for p in parts if p[1] >= rank[3] - 2 and rank[0] - 3 <= (p[0] + p[2]) / 2 <= rank[2] + 3 and p[4] >= 15]
    if not below:
        return None
    suit = min(below, key=lambda p: p[1])
    if suit[1] - rank[3] > 1.2 * (rank[3] - rank[1]):
        return None
    return (min(rank[0], suit[0]) - 2.0, rank[1] - 2.0, max(rank[2], suit[2]) + 2.0, suit[3] + 2.0)


def separated_cards(design: FaceSet, frames: int, seed: int = 0) -> list[tuple[np.ndarray, list[str]]]:
    """Frames of 8 separated face-up cards of one design on a plain table (the recall target's own
    condition), 1280x720 with cards 110-150 px wide, each with its true cards."""
    rng = np.random.default_rng(seed)
    out = []
    for k in range(frames):
        style = SceneStyle(card_width=float(rng.uniform(110, 150)), tilt=float(rng.uniform(0, 0.06)),
                           light=float(rng.uniform(0, 0.4)), blur=float(rng.uniform(0.4, 1.0)),
                           table_bgr=tuple(int(v) for v in rng.integers(20, 160, 3)))  # type: ignore[arg-type]
        layout = random_layout(8, style, seed=seed * 1000 + k, names=sorted(design.faces))
        out.append((render(layout, style, seed=k, faces=design.faces)[0], [c.card for c in layout]))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Recall and precision on rendered separated cards of the held-out designs")
    ap.add_argument("root", type=Path, help="rasterised designs (svg_decks.py's output)")
    ap.add_argument("--model", type=Path, help="model manifest (default: the shipped networks)")
    ap.add_argument("--frames", type=int, default=10, help="frames of 8 cards per design")
    args = ap.parse_args(argv)
    designs = load_designs(args.root, HELD_OUT_DESIGNS)
    if not designs:
        ap.error(f"{args.root}: none of the held-out designs is there (run svg_decks.py first)")
    recognizer = Recognizer(load_model(args.model)) if args.model else Recognizer()
    totals = np.zeros(3, int)
    for design in designs:
        frames = separated_cards(design, args.frames)
        items = [(str(i), truth) for i, (_, truth) in enumerate(frames)]
        report = evaluate(items, lambda key: frames[int(key)][0], recognizer.read)
        counts = np.array([report["labelled"], report["correct"], report["confidently_wrong"]], int)
        totals += counts
        print(f"{design.name}: {counts[0]} cards, {counts[1]} read, {counts[2]} wrong")
    print(f"all: {totals[0]} cards, {totals[1]} read ({100 * totals[1] / totals[0]:.1f} %), {totals[2]} wrong")
    return 0


if __name__ == "__main__":
    sys.exit(main())
