"""Train the pip network (vision/pips.py) with PyTorch on the CPU and export it to ONNX.

    pip install -e '.[train]'
    python -m vision.training.pips --out vision/models/pip.onnx   # ~5 min, one core

The pips of a card's field are suit shapes standing alone, upright in the card's half they lie in, often
with their neighbours near. The suit verifier (suits.py) was taught that a suit with no rank above it is
junk (a pip pair), so the pips get a network of their own, the verifier's shape (`GlyphNet`) on the same
patch (`suits.cut_suit_patches`: 1 L square around the glyph, the pip filling about `pips.PIP_L` of it):

- positives: a suit drawn or from a DejaVu face (the shapes of `rendered_indices`), alone on paper or
  with neighbouring pips (upright or on their heads) at the patch's edge; photographed at any scale and
  turn with light, blur, noise, grey and JPEG (`rendered_indices._photograph`), cut along its own up
  direction, jittered; and the pips `pips.read_face` finds on scenes of the shipped faces (the run-time
  cut itself);
- junk: the suits on their heads or sides (a pip cut the wrong way up), and blobs that are no suit: letters,
  digits, bars, rings (`rendered_indices._stray_mask`), discs, squares, triangles and lumpy blobs (the
  pips of German-suited decks, stains, art).

The deck designs of `decks.py` are never used here: they measure it.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

from vision.glyphs import IndexCandidate
from vision.model import JUNK_SUIT, SUITS
from vision.outline import find_outlines
from vision.pips import DEFAULT_PIP_NET, PIP_L, read_face
from vision.synthetic import SceneStyle, random_layout, render
from vision.training.rendered_indices import _ink_colour, _paste, _photograph, _Scene, _stray_mask, _suit_mask
from vision.training.samples import SampleSet, jitter
from vision.training.suits import export, fit, suit_encoder

# Drawn pip height (px) before the scene is photographed at its target scale.
_GLYPH_H = 40
_JITTER_L, _TURN_DEG, _SCALE = 0.04, 6.0, 0.1
# Pips closer than this to the card's middle (share of its height) may stand either way up.
_MIDDLE = 0.06


def _blob_mask(rng: np.random.Generator, h: int) -> np.ndarray:
    """A filled shape that is no suit: a disc, an ellipse, a square, a triangle or a lumpy blob."""
    w = round(h * rng.uniform(0.6, 1.3))
    m = np.zeros((h, w), np.float32)
    kind = rng.integers(5)
    if kind == 0:
        cv2.circle(m, (w // 2, h // 2), min(w, h) // 2 - 1, 1.0, -1)
    elif kind == 1:
        cv2.ellipse(m, (w // 2, h // 2), (w // 2 - 1, h // 2 - 1), 0, 0, 360, 1.0, -1)
    elif kind == 2:
        m[1:-1, 1:-1] = 1.0
    elif kind == 3:
        pts = np.array([[w / 2, 0], [w - 1, h - 1], [0, h - 1]], np.int32)
        cv2.fillPoly(m, [pts if rng.random() < 0.5 else pts * [1, -1] + [0, h - 1]], 1.0)
    else:
        t = np.linspace(0, 2 * np.pi, 40, endpoint=False)
        r = 1 + 0.25 * np.sin(3 * t + rng.uniform(0, 6)) * rng.uniform(0.3, 1) + 0.15 * np.sin(5 * t)
        pts = np.stack([w / 2 + (w / 2 - 1) * r / 1.4 * np.cos(t), h / 2 + (h / 2 - 1) * r / 1.4 * np.sin(t)], 1)
        cv2.fillPoly(m, [pts.astype(np.int32)], 1.0)
    return m


def _junk_mask(rng: np.random.Generator, h: int) -> np.ndarray:
    """A glyph where a pip is looked for that is no upright pip."""
    kind = rng.random()
    if kind < 0.35:
        g = _suit_mask(SUITS[rng.integers(len(SUITS))], h, rng)
        return np.ascontiguousarray(g[::-1] if rng.random() < 0.6 else np.rot90(g, int(rng.choice([1, 3]))))
    if kind < 0.65:
        return _stray_mask(h, rng)
    return _blob_mask(rng, h)


def _varied(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The shape a little wider or narrower, its strokes and lobes a little thinner or fatter (decks' pips
    differ from the fonts' and the drawn ones: a thin-lobed club, a fat heart)."""
    h, w = mask.shape
    mask = cv2.resize(mask, (max(2, round(w * rng.uniform(0.8, 1.25))), h), interpolation=cv2.INTER_AREA)
    if rng.random() < 0.5:
        k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (int(rng.choice([3, 5])),) * 2)
        mask = cv2.erode(mask, k) if rng.random() < 0.5 else cv2.dilate(mask, k)
    return mask


def _pip_shot(mask: np.ndarray, red: bool, rng: np.random.Generator) -> tuple[np.ndarray, IndexCandidate] | None:
    """`mask` drawn as a pip (neighbours now and then), photographed; the candidate that cuts it upright."""
    mask = _varied(mask, rng)
    h = mask.shape[0]
    length = h / PIP_L * rng.uniform(0.75, 1.25) * 0.8  # a pip's side ~0.8 of its height (see pips.py)
    size = round(4 * length)
    scene = _Scene(size, size, rng)
    colour = _ink_colour(red, rng)
    cx = cy = size / 2
    for _ in range(int(rng.integers(0, 4))):  # neighbouring pips, at the patch's edge or beyond
        a, d = rng.uniform(0, 2 * np.pi), rng.uniform(0.9, 1.6) * h
        neighbour = mask if rng.random() < 0.5 else mask[::-1]
        scene.glyph(neighbour, cx + d * np.cos(a), cy + d * np.sin(a), colour)
    scene.glyph(mask, cx, cy, colour, "pip")
    up = np.zeros((size, size), np.float32)
    _paste(up, np.ones((3, 3), np.float32), cx, cy - length)
    scene.masks["up"] = up  # not inked: only marks where the card's up is after the photograph
    img, blobs = _photograph(scene, length, rng.uniform(10, 60), rng)
    if "pip" not in blobs or "up" not in blobs:
        return None
    return img, IndexCandidate(blobs["up"], blobs["pip"])


def rendered_pips(count: int, out: SampleSet, seed: int = 0, jitters: int = 1) -> None:
    """`count` rendered pip patches (with `jitters` jittered copies each), one in three junk."""
    rng = np.random.default_rng(seed)
    made = 0
    while made < count:
        if rng.random() < 1 / 3:
            label, shot = JUNK_SUIT, _pip_shot(_junk_mask(rng, _GLYPH_H), rng.random() < 0.5, rng)
        else:
            label = int(rng.integers(len(SUITS)))
            shot = _pip_shot(_suit_mask(SUITS[label], _GLYPH_H, rng), SUITS[label] in "HD", rng)
        if shot is None:
            continue
        img, c = shot
        cands = [c] + [jitter(c, rng, _JITTER_L, _TURN_DEG, _SCALE) for _ in range(jitters)]
        for row in suit_encoder(img, cands):
            out.add(row, 0, label)
        made += 1


def shipped_face_pips(scenes: int, out: SampleSet, seed: int = 0) -> None:
    """The pips `read_face` finds on rendered scenes of the shipped faces, labelled with their card's suit."""
    rng = np.random.default_rng(seed)
    for k in range(scenes):
        style = SceneStyle(card_width=float(rng.uniform(100, 220)), tilt=float(rng.uniform(0, 0.06)),
                           blur=float(rng.uniform(0.3, 1.5)), noise=float(rng.uniform(1, 8)))
        layout = random_layout(6, style, seed=seed * 100_000 + k)
        frame, quads = render(layout, style, seed=seed * 100_000 + k)
        for outline in find_outlines(frame)[0]:
            centre = tuple(map(float, outline.quad.mean(axis=0)))
            names = [c.card for c, q in zip(layout, quads) if cv2.pointPolygonTest(q, centre, False) >= 0]
            pips = read_face(frame, outline).pips
            if len(names) != 1 or pips is None:
                continue
            h = pips.card.shape[0]
            # the shipped faces' lower half stands on its heads; a middle pip's way up is not known
            upright = [top if y < h / 2 else foot for (top, foot), (_, y) in zip(pips.cuts(outline.width), pips.centres)
                       if abs(y / h - 0.5) > _MIDDLE]
            cands = upright + [jitter(c, rng, _JITTER_L, _TURN_DEG, _SCALE) for c in upright]
            for row in suit_encoder(frame, cands):
                out.add(row, 0, SUITS.index(names[0][-1]))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=DEFAULT_PIP_NET)
    ap.add_argument("--rendered", type=int, default=30000, help="rendered pips (a jittered copy each)")
    ap.add_argument("--scenes", type=int, default=200, help="rendered scenes of the shipped faces")
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    samples = SampleSet()
    rendered_pips(args.rendered, samples, args.seed)
    shipped_face_pips(args.scenes, samples, args.seed)
    x, _, suit = samples.arrays()
    print(f"{len(x)} samples, per class {np.bincount(suit, minlength=JUNK_SUIT + 1).tolist()}", file=sys.stderr)
    export(fit(x.astype(np.float16), suit, args.epochs, args.seed), args.out)
    print(f"saved {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
