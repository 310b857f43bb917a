"""Deck designs never trained on: the SVG card themes Debian ships (aisleriot's and KDE's), rasterised by
`svg_decks.py` into DIR/<design>/<card>.png, rendered as separated cards on a plain table (the recall
target's own condition) or held in fans (`--layout fan`, the overhead scenes') and read by the recognizer.

The photos show two decks; these designs show 32 more index typefaces, in their real place on the card.
Listed are the designs with French suits in red and black and English indices (A, K, Q, J); where a design
prints German court letters (B, D for J, Q) or no index on its courts, those cards are left out.

    /usr/bin/python3 vision/training/svg_decks.py /tmp/decks     # Debian's python3-gi, gir1.2-rsvg-2.0
    python -m vision.training.decks /tmp/decks [--model m.json | --models DIR] [--layout fan] [--grey] [--calibrated]
        [--deck 32] [--cast pink] [--table light] [--wrong DIR] [--only ar-anglo,ar-bellot]
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import cv2
import numpy as np

from vision.calibration import Calibration
from vision.deck import DECKS, Deck, deck_named
from vision.evaluate import score_image, summarise
from vision.ink import as_bgr
from vision.model_files import load_model
from vision.readings import UNKNOWN, CardReading
from vision.recognize import Recognizer
from vision.synthetic import FACE_H, FACE_W, PlacedCard, SceneStyle, random_layout, render, scene_calibration
from vision.training.casts import CASTS, apply_cast
from vision.training.crops import save_crop
from vision.training.model_folder import recognizer_from

_GERMAN_COURTS = frozenset(f"{r}{s}" for r in "JQ" for s in "SHDC")
_NO_COURT_INDEX = frozenset(f"{r}{s}" for r in "JQK" for s in "SHDC")
# design -> cards left out
DESIGNS: dict[str, frozenset[str]] = {
    **{name: frozenset() for name in (
        "ar-anglo", "ar-anglo_bitmap", "ar-anglo_modern", "ar-anglo_poker", "ar-atlasnye", "ar-bellot",
        "ar-bonded", "ar-dondorf", "ar-gnomangelo", "ar-gnomangelo_bitmap", "ar-neoclassical", "ar-orell",
        "ar-ornamental", "ar-paris", "ar-plastic", "ar-simplistic", "ar-tango", "ar-tango_nuevo", "ar-tigullio",
        "svg-ancient-egyptians", "svg-dondorf", "svg-gm-paris", "svg-jolly-royal", "svg-nicu-ornamental",
        "svg-nicu-white", "svg-penguins", "svg-standard", "svg-tigullio-international")},
    "ar-berlin": _GERMAN_COURTS, "ar-lattmann": _GERMAN_COURTS, "ar-rheinland": _GERMAN_COURTS,
    "ar-guyenne-classic": _NO_COURT_INDEX,
}


@dataclass(frozen=True)
class Design:
    name: str
    faces: dict[str, np.ndarray]  # FACE_W x FACE_H BGR by card name


def load_designs(root: Path, designs: dict[str, frozenset[str]] = DESIGNS, deck: Deck | None = None) -> list[Design]:
    """The listed designs found under `root`, without their left-out cards (and those not in `deck`)."""
    out = []
    for name, skipped in sorted(designs.items()):
        faces = {path.stem: load_face(path) for path in sorted((root / name).glob("*.png"))
                 if path.stem not in skipped and (deck is None or deck.allows(path.stem))}
        if faces:
            out.append(Design(name, faces))
    return out


def load_face(path: Path) -> np.ndarray:
    """A rasterised card (BGRA; BGR where cairo found every pixel opaque) over white, resized to FACE_W x
    FACE_H."""
    bgra = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if bgra is None or bgra.ndim != 3 or bgra.shape[2] not in (3, 4):
        raise ValueError(f"{path}: not a BGR(A) card image")
    if bgra.shape[2] == 3:
        bgra = cv2.cvtColor(bgra, cv2.COLOR_BGR2BGRA)
    a = bgra.astype(np.float32)
    alpha = a[:, :, 3:] / 255
    bgr = a[:, :, :3] * alpha + 255 * (1 - alpha)
    return cv2.resize(bgr.clip(0, 255).astype(np.uint8), (FACE_W, FACE_H), interpolation=cv2.INTER_AREA)


class Scene(NamedTuple):
    """One rendered frame of a layout."""
    frame: np.ndarray
    truth: list[str]  # the cards in it
    style: SceneStyle  # how it was drawn: its card size, table, light

    def calibration(self) -> Calibration:
        """The table's calibration, as `cardtable vision calibrate` would find it: the exact card size."""
        return scene_calibration(self.style)


def separated_cards(design: Design, frames: int, seed: int = 0, card_width: float | None = None,
                    table: str = "dark") -> list[Scene]:
    """Frames of 8 separated face-up cards of one design on a plain table, 1280x720 with cards 110-150 px
    wide (a table camera's scale) or `card_width`, random table colour, tilt, light and blur; each with its
    true cards."""
    rng = np.random.default_rng(seed)
    out = []
    for k in range(frames):
        style = random_style(rng, card_width, table)
        layout = random_layout(8, style, seed=seed * 1000 + k, names=sorted(design.faces))
        out.append(Scene(render(layout, style, seed=k, faces=design.faces)[0], [c.card for c in layout], style))
    return out


# The table's colour, each channel drawn from these: a cloth or wood darker than the cards, or a light table
# (white, grey, pale) nearly as bright as they are (vision/README.md, "A light table").
TABLES = {"dark": (20, 160), "light": (170, 236)}


def random_style(rng: np.random.Generator, card_width: float | None = None, table: str = "dark") -> SceneStyle:
    """A table camera's scene: cards 110-150 px wide (or `card_width`: the draw is made all the same, so
    the other choices stay those of the same seed), random table colour (of TABLES[table]), tilt, light and
    blur."""
    width = float(rng.uniform(110, 150))
    return SceneStyle(card_width=card_width or width, tilt=float(rng.uniform(0, 0.06)),
                      light=float(rng.uniform(0, 0.4)), blur=float(rng.uniform(0.4, 1.0)),
                      table_bgr=tuple(int(v) for v in rng.integers(*TABLES[table], 3)))  # type: ignore[arg-type]


def fanned_cards(design: Design, frames: int, seed: int = 0, card_width: float | None = None,
                 table: str = "dark") -> list[Scene]:
    """Frames of two fans of 5 face-up cards each (10 distinct cards of one design), 1280x720: as a hand
    is held, each card turned 10-13 degrees from the one below it about a pivot 1.2 card widths below the
    cards' centres, which leaves each card's top-left index in view; the fans turned any way, the same
    cards, tables, light and blur as `separated_cards`. Each frame with its true cards."""
    rng = np.random.default_rng(seed)
    out = []
    for k in range(frames):
        style = random_style(rng, card_width, table)
        names = [str(n) for n in rng.permutation(sorted(design.faces))[:10]]
        cards = []
        for fan, x in enumerate((0.3, 0.7)):
            turn, step = rng.uniform(-180, 180), rng.uniform(10, 13)
            pivot = np.array([x * style.size[0], 0.5 * style.size[1]]) + rng.uniform(-40, 40, 2)
            for j, name in enumerate(names[5 * fan:5 * fan + 5]):
                a = turn + (j - 2) * step
                up = np.array([np.sin(np.radians(a)), -np.cos(np.radians(a))])
                cx, cy = pivot + 1.2 * style.card_width * up
                cards.append(PlacedCard(name, float(cx), float(cy), float(a)))
        out.append(Scene(render(cards, style, seed=k, faces=design.faces)[0], [c.card for c in cards], style))
    return out


LAYOUTS = {"separated": separated_cards, "fan": fanned_cards}


def wrong_readings(truth: list[str], cards: list[CardReading]) -> list[CardReading]:
    """The named cards of `cards` that `truth` does not hold (as `score_image` counts them)."""
    left = list(truth)
    out = []
    for card in cards:
        if card.card == UNKNOWN:
            continue
        if card.card in left:
            left.remove(card.card)
        else:
            out.append(card)
    return out


def _calibrated(recognizer: Recognizer, scene: Scene) -> Recognizer:
    """`recognizer` (its networks, loaded once) calibrated to the scene's card size."""
    cal = scene.calibration()
    return Recognizer(recognizer.model, glyph_px=cal.glyph_px(), card_area=cal.card_area,
                      suit_verifier=recognizer.suit_verifier, pip_network=recognizer.pip_network,
                      rank_verifier=recognizer.rank_verifier, deck=recognizer.deck)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Recall and precision on rendered cards of deck designs never "
                                             "trained on, per design and overall")
    ap.add_argument("root", type=Path, help="rasterised designs (svg_decks.py's output)")
    ap.add_argument("--model", type=Path, help="model manifest or enrolled deck (default: the shipped networks)")
    ap.add_argument("--models", type=Path, help="a folder of networks named as the shipped ones (a retrain's); "
                                                "with --model, that model stands for the folder's CNN")
    ap.add_argument("--frames", type=int, default=10, help="frames per design")
    ap.add_argument("--layout", choices=sorted(LAYOUTS), default="separated",
                    help="8 separated cards per frame, or two fans of 5")
    ap.add_argument("--grey", action="store_true", help="the frames turned grey (a grey camera: no colour check)")
    ap.add_argument("--calibrated", action="store_true",
                    help="read each frame calibrated to its card size, as a table is (default: uncalibrated)")
    ap.add_argument("--card-width", type=float, help="cards this many px wide (default: 110-150, a table camera's)")
    ap.add_argument("--table", choices=sorted(TABLES), default="dark",
                    help="a table darker than the cards, or a light one nearly as bright")
    ap.add_argument("--deck", choices=sorted(DECKS), default="52",
                    help="lay out only this deck's cards and read them as a table playing with it")
    ap.add_argument("--cast", choices=sorted(CASTS), default="none", help="the frames under this light (casts.py)")
    ap.add_argument("--wrong", type=Path, help="save a crop of every card named wrong into this folder")
    ap.add_argument("--only", help="comma-separated design names (default: all listed)")
    args = ap.parse_args(argv)
    deck = deck_named(args.deck)
    listed = DESIGNS
    if args.only:
        unknown = set(args.only.split(",")) - set(DESIGNS)
        if unknown:
            ap.error(f"--only: no design {', '.join(sorted(unknown))}")
        listed = {name: DESIGNS[name] for name in args.only.split(",")}
    designs = load_designs(args.root, listed, deck=deck)
    if not designs:
        ap.error(f"{args.root}: none of the listed designs is there (run svg_decks.py first)")
    model = load_model(args.model) if args.model else None
    recognizer = recognizer_from(args.models, deck, model) if args.models else Recognizer(model, deck=deck)
    totals = np.zeros(4, int)
    for design in designs:
        scenes = LAYOUTS[args.layout](design, args.frames, card_width=args.card_width, table=args.table)
        if args.grey:
            scenes = [s._replace(frame=as_bgr(cv2.cvtColor(s.frame, cv2.COLOR_BGR2GRAY))) for s in scenes]
        scenes = [s._replace(frame=apply_cast(s.frame, CASTS[args.cast], seed=i)) if args.cast != "none" else s
                  for i, s in enumerate(scenes)]
        readers = [_calibrated(recognizer, s) if args.calibrated else recognizer for s in scenes]
        scores, wrong = [], []
        for i, (scene, reader) in enumerate(zip(scenes, readers)):
            cards = reader.read(scene.frame)
            scores.append(score_image(str(i), scene.truth, cards, 0.0))
            for card in wrong_readings(scene.truth, cards):
                wrong.append(f"{card.card} at {card.confidence:.3f} (frame {i}, {len(card.corners)} corners)")
                if args.wrong:
                    save_crop(scene.frame, card, args.wrong / f"{design.name}_{i}_{card.card}.png")
        report = summarise(scores)
        counts = np.array([report["labelled"], report["correct"], report["confidently_wrong"],
                           report["wrong_read_twice"]], int)
        totals += counts
        precision = 100 * counts[1] / max(counts[1] + counts[2], 1)
        print(f"{design.name}: {counts[0]} cards, {counts[1]} read, {counts[2]} named wrong "
              f"(precision {precision:.2f} %; {counts[3]} read twice){' ' + '; '.join(wrong) if wrong else ''}",
              flush=True)
    named = totals[1] + totals[2]
    print(f"all {len(designs)} designs: {totals[0]} cards, {totals[1]} read ({100 * totals[1] / totals[0]:.1f} %), "
          f"{totals[2]} named wrong (precision {100 * totals[1] / max(named, 1):.2f} %; {totals[3]} of them read "
          f"twice in their frame, held as a duplicate)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
