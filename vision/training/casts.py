"""Real photos under colour casts: the recognizer's precision and recall when the table's light is warm,
pink, blue or dim (issue 27: under a warm or pink light black ink passed the colour check as red).

Each cast is a per-channel gain and offset (BGR) applied to the photo, then a little noise: a lamp's
colour multiplies what the card reflects; stray tinted light and a camera's processing add to it.

    python -m vision.training.casts MANIFEST [--root DIR] [--split test] [--under single/] [--resize WxH]
        [--upstream-labels] [--models DIR] [--crops DIR]
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import NamedTuple

import numpy as np

from vision.detect import Detector
from vision.evaluate import parse_size, read_manifest, resized, score_image, split_of, summarise
from vision.model_files import load_model
from vision.recognize import Recognizer
from vision.sources import load_image
from vision.training.crops import save_crop
from vision.training.label_fixes import mended
from vision.training.model_folder import recognizer_from


class Cast(NamedTuple):
    gain: tuple[float, float, float]  # B, G, R
    offset: tuple[float, float, float]


CASTS: dict[str, Cast] = {
    "none": Cast((1.0, 1.0, 1.0), (0.0, 0.0, 0.0)),
    "warm": Cast((0.6, 0.82, 1.0), (0.0, 8.0, 20.0)),  # a tungsten lamp: blue gone, red kept
    "pink": Cast((0.9, 0.75, 0.95), (30.0, 0.0, 50.0)),  # a pink shade: red and blue added
    "blue": Cast((1.0, 0.9, 0.7), (25.0, 5.0, 0.0)),  # cold daylight through a window
    "dim": Cast((0.45, 0.45, 0.45), (0.0, 0.0, 0.0)),  # an evening's room light
}


def apply_cast(frame: np.ndarray, cast: Cast, seed: int = 0) -> np.ndarray:
    """`frame` (BGR uint8) under `cast`, with sensor noise (sigma 2 grey levels) so a dim frame is not
    merely darker."""
    lit = frame.astype(np.float32) * np.array(cast.gain, np.float32) + np.array(cast.offset, np.float32)
    lit += np.random.default_rng(seed).normal(0.0, 2.0, lit.shape).astype(np.float32)
    return lit.clip(0, 255).astype(np.uint8)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="precision and recall on real photos under colour casts")
    ap.add_argument("manifest", type=Path)
    ap.add_argument("--root", type=Path, help="photo folder (default: the manifest's)")
    ap.add_argument("--split", choices=("train", "val", "test"))
    ap.add_argument("--under", default="", help="only paths starting with this")
    ap.add_argument("--resize", help="WxH the photos are resized to first")
    ap.add_argument("--model", type=Path, help="model manifest or enrolled deck (default: the shipped networks)")
    ap.add_argument("--models", type=Path, help="a folder of networks named as the shipped ones (a retrain's); "
                                                "with --model, that model stands for the folder's CNN")
    ap.add_argument("--crops", type=Path, help="save each card named wrong here, as CAST/PHOTO_CARD.png")
    ap.add_argument("--upstream-labels", action="store_true",
                    help="score against the photos' labels as shipped, not mended (label_fixes.csv)")
    ap.add_argument("--casts", default=",".join(CASTS), help="comma-separated, of " + ", ".join(CASTS))
    args = ap.parse_args(argv)
    root = args.root or args.manifest.parent
    labels = read_manifest(args.manifest)
    truth = sorted((p, cards) for p, cards in (labels if args.upstream_labels else mended(labels)).items()
                   if (args.split is None or split_of(p) == args.split) and p.startswith(args.under))
    size = parse_size(args.resize) if args.resize else None
    model = load_model(args.model) if args.model else None
    detector = Detector(recognizer_from(args.models, model=model) if args.models else Recognizer(model))
    for name in args.casts.split(","):
        if name not in CASTS:
            ap.error(f"no cast {name!r}: one of {', '.join(CASTS)}")
        scores = []
        for i, (path, cards) in enumerate(truth):
            photo = load_image(root / path)
            if size:
                photo = resized(photo, size)
            lit = apply_cast(photo, CASTS[name], seed=i)
            read = detector.detect(lit).cards
            scores.append(score_image(path, cards, read, 0.0))
            for card in (c for c in read if c.card in scores[-1].wrong and args.crops):
                save_crop(lit, card, args.crops / name / f"{Path(path).stem}_{card.card}.png")
        report = summarise(scores)
        wrong = [f"{Path(s.path).name}: {','.join(s.wrong)}" for s in scores if s.wrong]
        print(f"{name}: {report['labelled']} cards, {report['correct']} read ({report['recall']}), "
              f"{report['confidently_wrong']} named wrong (precision {report['precision']}; "
              f"{report['wrong_read_twice']} of them read twice in the frame, held as a duplicate) {'; '.join(wrong)}",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
