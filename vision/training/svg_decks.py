"""Rasterise the SVG card themes Debian ships into OUT/<design>/<card>.png (BGRA, cards ~420 px tall).

Offline, for the measure on deck designs never trained on (decks.py). Runs on Debian's own Python,
which has the librsvg bindings:

    apt-get install aisleriot gnome-cards-data kdegames-card-data-kf5 \\
        python3-gi gir1.2-rsvg-2.0 python3-gi-cairo python3-numpy
    /usr/bin/python3 vision/training/svg_decks.py /tmp/decks

A theme's cards are elements of one SVG document (`1_club`, `king_heart` in KDE's; `club_1`,
`kingclubs` in aisleriot's); each is rendered alone and cropped to its own opaque pixels. Some
themes take ~20 s each; all of them 4-7 minutes on two cores.
"""
from __future__ import annotations

import gzip
import re
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cairo
import gi
import numpy as np

gi.require_version("Rsvg", "2.0")
from gi.repository import Rsvg  # noqa: E402  (needs the version pinned first)

THEMES = [*sorted(Path("/usr/share/aisleriot/cards").glob("*.svgz")),
          *sorted(Path("/usr/share/carddecks").glob("svg-*/*.svgz"))]
RANKS = {"1": "A", "2": "2", "3": "3", "4": "4", "5": "5", "6": "6", "7": "7", "8": "8", "9": "9", "10": "10",
         "jack": "J", "queen": "Q", "king": "K"}
SUITS = {"club": "C", "spade": "S", "heart": "H", "diamond": "D"}
HEIGHT = 420


def design_name(theme: Path) -> str:
    """'ar-paris' for aisleriot's paris.svgz, 'svg-standard' for KDE's svg-standard/standard.svgz."""
    return theme.parent.name if theme.parent.name.startswith("svg-") else "ar-" + theme.name.removesuffix(".svgz")


def card_ids(theme: Path) -> dict[str, str]:
    """Card name -> element id, for the naming schemes the two theme families use."""
    ids = set(re.findall(r'id="([^"]+)"', gzip.open(theme).read().decode("utf8", "replace")))
    out = {}
    for r, rank in RANKS.items():
        for s, suit in SUITS.items():
            found = [i for i in (f"{r}_{s}", f"{s}_{r}", f"{r}{s}s") if i in ids]
            if found:
                out[rank + suit] = found[0]
    return out


def _render(handle: Rsvg.Handle, element: str) -> np.ndarray | None:
    """The element alone, its card HEIGHT px tall, cropped to its opaque pixels (BGRA, premultiplied).

    librsvg fits the element's ink rectangle into the viewport, and some themes' rectangles are far
    bigger than the card they draw (anglo_modern's 10C: 1,824 units wide for a card of 95; dondorf's
    jacks reach 368 units above theirs), so one scale for the whole theme drew such cards 40-270 px
    tall, read upscaled and blocky. The scale is set per card and mended by the drawn card's height."""
    ok, ink, card = handle.get_geometry_for_element("#" + element)
    if not ok or card.height <= 0:
        return None
    scale = HEIGHT / card.height
    for _ in range(3):
        pixels = _render_at(handle, element, ink, scale)
        if pixels is None or abs(pixels.shape[0] - HEIGHT) <= 0.02 * HEIGHT:
            return pixels
        scale *= HEIGHT / pixels.shape[0]
    return pixels


def _render_at(handle: Rsvg.Handle, element: str, ink: Rsvg.Rectangle, scale: float) -> np.ndarray | None:
    """The element at `scale` (its ink rectangle filling the viewport), cropped to its opaque pixels."""
    w, h = int(ink.width * scale) + 1, int(ink.height * scale) + 1
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, w, h)
    viewport = Rsvg.Rectangle()
    viewport.x, viewport.y, viewport.width, viewport.height = 0, 0, w, h
    handle.render_element(cairo.Context(surface), "#" + element, viewport)
    surface.flush()
    pixels = np.ndarray((h, surface.get_stride() // 4, 4), np.uint8, surface.get_data())[:, :w]
    ys, xs = np.nonzero(pixels[:, :, 3] > 8)
    if not len(ys):
        return None
    return pixels[ys.min():ys.max() + 1, xs.min():xs.max() + 1].copy()


def rasterise(theme: Path, out: Path) -> str:
    ids = card_ids(theme)
    if len(ids) < 52:  # all 52 names found
        return f"{theme}: {len(ids)} of 52 cards found, skipped"
    handle = Rsvg.Handle.new_from_file(str(theme))
    drawn = {card: pixels for card, element in ids.items() if (pixels := _render(handle, element)) is not None}
    if "AS" not in drawn:
        return f"{theme}: the ace of spades renders empty, skipped"
    folder = out / design_name(theme)
    folder.mkdir(parents=True, exist_ok=True)
    for card, pixels in drawn.items():
        png = cairo.ImageSurface.create_for_data(np.ascontiguousarray(pixels).data, cairo.FORMAT_ARGB32,
                                                 pixels.shape[1], pixels.shape[0])
        png.write_to_png(str(folder / f"{card}.png"))
    return f"{folder}: {len(ids)} cards"


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    out = Path(sys.argv[1])
    with ProcessPoolExecutor(2) as pool:
        for line in pool.map(rasterise, THEMES, [out] * len(THEMES)):
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
