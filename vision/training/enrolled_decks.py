"""Enrolment on deck designs the generic recognizer never saw: each of the 32 rendered designs (decks.py)
enrolled from its own cards, laid one at a time on the table as the dealer does at `enroll --live` (1 or 3
views per card: each view its own table, tilt, light, blur, scale and turn), then the held-out frames of
that design (separated cards and fans, as decks.py draws them, from other seeds) read by the generic and
the enrolled recognizer: cards read and named wrong, per design and in total, and over the calibration
half (the even designs in DESIGNS order, on which the naming rule's constants were picked) and the report
half (the odd ones).

    python -m vision.training.enrolled_decks /work/decks [--views 1,3] [--layouts separated,fan] [--frames 10]
"""
from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

from vision.enroll import enroll_views, parse_card
from vision.evaluate import score_image
from vision.recognize import Recognizer
from vision.synthetic import PlacedCard, SceneStyle, render
from vision.training.decks import DESIGNS, LAYOUTS, Design, load_designs, random_style

VIEW_SIZE = (480, 400)  # a frame around the one card laid (the recognizer needs no whole table for it)


def enrolment_views(design: Design, views: int, seed: int = 1000) -> list[tuple[np.ndarray, tuple[int, int]]]:
    """`views` frames of each card of `design` lying alone on the table, each drawn anew: table colour,
    tilt, light, blur, card size (110-150 px wide) and turn; seeds apart from the held-out frames'."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(views):
        for name in sorted(design.faces):
            style = random_style(rng)
            style = SceneStyle(size=VIEW_SIZE, card_width=style.card_width, table_bgr=style.table_bgr,
                               tilt=style.tilt, light=style.light, blur=style.blur)
            card = PlacedCard(name, VIEW_SIZE[0] / 2 + rng.uniform(-30, 30), VIEW_SIZE[1] / 2 + rng.uniform(-20, 20),
                              float(rng.uniform(-180, 180)))
            frame = render([card], style, seed=int(rng.integers(1 << 30)), faces=design.faces)[0]
            out.append((frame, parse_card(name)))
    return out


def read_counts(recognizer: Recognizer, design: Design, layout: str, frames: int) -> tuple[int, int, int]:
    """(cards, read, named wrong) over the design's held-out frames of `layout`."""
    scores = [score_image(str(i), s.truth, recognizer.read(s.frame), 0.0)
              for i, s in enumerate(LAYOUTS[layout](design, frames))]
    return sum(s.labelled for s in scores), sum(s.correct for s in scores), sum(len(s.wrong) for s in scores)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="generic vs enrolled reading of deck designs never trained on")
    ap.add_argument("root", type=Path, help="rasterised designs (svg_decks.py's output)")
    ap.add_argument("--views", default="1,3", help="views per card to enrol from, comma-separated")
    ap.add_argument("--layouts", default="separated,fan", help="comma-separated, of " + ", ".join(LAYOUTS))
    ap.add_argument("--frames", type=int, default=10, help="held-out frames per design and layout")
    ap.add_argument("--designs", help="comma-separated design names (default: all of DESIGNS)")
    args = ap.parse_args(argv)
    views = [int(v) for v in args.views.split(",")]
    layouts = args.layouts.split(",")
    wanted = set(args.designs.split(",")) if args.designs else set(DESIGNS)
    order = sorted(DESIGNS)
    designs = [d for d in load_designs(args.root) if d.name in wanted]
    if not designs:
        ap.error(f"{args.root}: none of the designs asked for is there (run svg_decks.py first)")
    generic = Recognizer()
    runs = ["generic"] + [f"enrolled x{v}" for v in views]
    totals: dict[tuple[str, str, str], np.ndarray] = defaultdict(lambda: np.zeros(3, int))
    for design in designs:
        readers = [generic] + [Recognizer(enroll_views(enrolment_views(design, v))) for v in views]
        half = "calibration" if order.index(design.name) % 2 == 0 else "report"
        for layout in layouts:
            line = []
            for run, reader in zip(runs, readers):
                counts = np.array(read_counts(reader, design, layout, args.frames))
                for group in ("all", half):
                    totals[group, layout, run] += counts
                line.append(f"{run} {counts[1]} / {counts[2]}")
            print(f"{design.name} {layout} ({counts[0]} cards; read / wrong): {', '.join(line)}", flush=True)
    for (group, layout, run), (cards, read, wrong) in sorted(totals.items()):
        print(f"{group} {layout} {run}: {cards} cards, {read} read ({100 * read / cards:.1f} %), {wrong} wrong "
              f"(precision {100 * read / max(read + wrong, 1):.2f} %)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
