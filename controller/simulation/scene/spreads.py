"""The deck spread face up for a deck check: the cards apart, in rows across the camera's frame, as many
spreads as it takes (a 52-card deck does not lie separated in one frame)."""
from __future__ import annotations

from collections.abc import Sequence

from vision.synthetic import PlacedCard, SceneStyle

CARD_ASPECT = 1.4  # height / width of a playing card
GAP = 0.2  # card widths between neighbours: apart, so each card's outline shows


def spread_capacity(style: SceneStyle) -> tuple[int, int]:
    """(columns, rows) of separated cards the frame holds, a card's gap kept from its edges."""
    width, height = style.size
    pitch_x, pitch_y = style.card_width * (1 + GAP), style.card_width * (CARD_ASPECT + GAP)
    return int((width - style.card_width * GAP) // pitch_x), int((height - style.card_width * GAP) // pitch_y)


def spreads(cards: Sequence[str], style: SceneStyle) -> list[list[PlacedCard]]:
    """`cards` laid out in order, row by row, one frame-full per spread, each spread centred in the frame."""
    columns, rows = spread_capacity(style)
    per_spread = columns * rows
    if per_spread < 1:
        raise ValueError(f"a {style.size[0]}x{style.size[1]} frame holds no {style.card_width:g} px card apart")
    width, height = style.size
    pitch_x, pitch_y = style.card_width * (1 + GAP), style.card_width * (CARD_ASPECT + GAP)
    out: list[list[PlacedCard]] = []
    for start in range(0, len(cards), per_spread):
        chunk = cards[start:start + per_spread]
        used_rows = -(-len(chunk) // columns)
        x0 = (width - (columns - 1) * pitch_x) / 2
        y0 = (height - (used_rows - 1) * pitch_y) / 2
        out.append([PlacedCard(card, x0 + (i % columns) * pitch_x, y0 + (i // columns) * pitch_y)
                    for i, card in enumerate(chunk)])
    return out


def gathered(zones: dict[str, list[list[float]]]) -> list[PlacedCard]:
    """The deck gathered after the check: squared face down in the zone `deck` (a pile shows one card)."""
    xs, ys = zip(*zones["deck"])
    return [PlacedCard("", sum(xs) / len(xs), sum(ys) / len(ys), face_up=False)]
