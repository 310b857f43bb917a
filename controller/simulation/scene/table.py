"""The physical card table: which cards lie where, face up or down, and the moves players make on it.

Every move changes what lies in the zones and says what a camera over the table should see change
(`TableChange`s: a card placed in a zone, an unreadable one as "unknown"; one removed; a new face-down
count). Cards lie where real players put them: a row inside their zone, each card overlapping the one
before it no more than a hand laid out on a table does; face-down cards squared onto a pile with a
little offset.
The scene (`scene()`) is what vision.synthetic renders.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from controller.simulation.scene.actions import CardMove, Gather, Lay, Take, TurnUp
from vision.calibration import Calibration
from vision.synthetic import FACE_H, FACE_W, PlacedCard, SceneStyle, camera_homography, scene_calibration
from vision.observations import MAX_SEATS, TableChange, seat_zone
from vision.tracking import ZoneState, diff_states

# Places along a zone's row: four face-up cards (a cribbage seat's played cards, the turned crib, a
# Färbeln hand shown), the last place for the zone's face-down pile.
ROW_CAPACITY = 5
# Face-down cards on a pile sit this far (table px) from the one below: far enough for the camera to
# see a card land (its footprint grows), as a real card never lands exactly square.
PILE_OFFSET = 7.0
MARGIN = 10.0  # table px between a zone's edge and the cards in it


class MoveError(ValueError):
    """A move the table cannot make: the card is not where the move takes it from, or a zone is full."""


@dataclass(frozen=True)
class Lying:
    """One card on the table. `readable` False: glare or a smudge hides its indices from the camera."""

    card: str
    place: PlacedCard
    slot: int | None = None  # its place in the zone's row when face up; None on a face-down pile
    readable: bool = True

    @property
    def face_up(self) -> bool:
        return self.slot is not None


@dataclass(frozen=True)
class ZoneBox:
    """A zone's box on the table plane, and the row its cards are laid along: across the box (`along_x`,
    cards upright) or down it (cards turned a quarter), with ROW_CAPACITY places; `pile` is the place of
    its face-down pile."""

    x0: float
    y0: float
    x1: float
    y1: float
    along_x: bool = True
    pile: int = ROW_CAPACITY - 1

    def slot(self, index: int, card_width: float) -> tuple[float, float, float]:
        """Centre and angle of the card at place `index`, spaced to fit the row in the box, never further
        apart than a card and a little."""
        length = (self.x1 - self.x0) if self.along_x else (self.y1 - self.y0)
        step = min(1.08 * card_width, max(0.0, length - card_width - 2 * MARGIN) / (ROW_CAPACITY - 1))
        along = -(ROW_CAPACITY - 1) * step / 2 + index * step
        cx, cy = (self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2
        return (cx + along, cy, 0.0) if self.along_x else (cx, cy + along, 90.0)

    def polygon(self, style: SceneStyle) -> list[list[float]]:
        """The zone as the camera sees it (frame pixels), as a calibration holds it."""
        corners = np.array([[[self.x0, self.y0], [self.x1, self.y0], [self.x1, self.y1], [self.x0, self.y1]]],
                           np.float32)
        return cv2.perspectiveTransform(corners, camera_homography(style))[0].astype(float).tolist()


# A seat's row on a crowded edge: each card showing this much of itself past the next (its index and more)
CROWDED_STEP = 0.45


def seats_fit(style: SceneStyle, seats: int) -> bool:
    """Whether `seats` players fit round a table of `style`'s size with every card's index showing."""
    if seats <= 4:
        return True
    card_w, card_h = style.card_width, style.card_width * FACE_H / FACE_W
    per_edge = (seats - 1) // 2  # the near edge takes the odd one
    row = card_w + 2 * MARGIN + (ROW_CAPACITY - 1) * CROWDED_STEP * card_w
    return per_edge * row <= style.size[0] - 2 * (card_h + 2 * MARGIN)


def table_layout(style: SceneStyle, seats: int) -> dict[str, ZoneBox]:
    """The demo table's zones on the table plane, sized from the card: a seat's row (four face-up cards
    and a pile) along the near and far edges for two players, down the left and right edges too for
    three or four; beyond four, one down each side and the rest shared out along the near and far edges
    (the near edge takes the odd one), the rows closer, as far as each card's index still shows. Between
    the rows the crib (its pile in the middle, four cards when turned up), the starter and the centre."""
    if not 1 <= seats <= MAX_SEATS or not seats_fit(style, seats):
        raise ValueError(f"the demo table ({style.size[0]} x {style.size[1]} px, cards {style.card_width:g} px "
                         f"wide) seats 1 to {max(n for n in range(1, MAX_SEATS + 1) if seats_fit(style, n))} "
                         f"players, not {seats}")
    w, h = style.size
    card_w, card_h = style.card_width, style.card_width * FACE_H / FACE_W
    deep = card_h + 2 * MARGIN
    if seats <= 4:
        row = 4 * 1.08 * card_w + card_w + 2 * MARGIN
        left, right = (w - row) / 2, (w + row) / 2
        edges = [ZoneBox(left, h - deep, right, h), ZoneBox(0, 0, left, h, along_x=False),
                 ZoneBox(left, 0, right, deep), ZoneBox(right, 0, w, h, along_x=False)]
        order = [0, 2] if seats == 2 else [0, 1, 2, 3][:seats]  # two players sit opposite
        zones = {seat_zone(i): edges[edge] for i, edge in enumerate(order)}
    else:
        left, right = deep, w - deep
        near = _edge_boxes(left, right, h - deep, h, (seats - 1) // 2)
        far = _edge_boxes(left, right, 0, deep, (seats - 2) // 2)
        # round the table: the near edge right to left, the left side, the far edge, the right side
        boxes = [*reversed(near), ZoneBox(0, 0, left, h, along_x=False), *far, ZoneBox(right, 0, w, h, along_x=False)]
        zones = {seat_zone(i): box for i, box in enumerate(boxes)}
    crib = left + card_w + 4 * 0.5 * card_w + 2 * MARGIN  # four cards spread, each showing its index
    starter = crib + card_w + 2 * MARGIN
    zones["crib"] = ZoneBox(left, deep, crib, h - deep, pile=ROW_CAPACITY // 2)
    zones["starter"] = ZoneBox(crib, deep, starter, h - deep, pile=ROW_CAPACITY // 2)
    zones["centre"] = ZoneBox(starter, deep, right, h - deep, pile=ROW_CAPACITY // 2)
    return zones


def _edge_boxes(x0: float, x1: float, y0: float, y1: float, count: int) -> list[ZoneBox]:
    """`count` seats' rows side by side along an edge, left to right."""
    width = (x1 - x0) / count
    return [ZoneBox(x0 + i * width, y0, x0 + (i + 1) * width, y1) for i in range(count)]


@dataclass
class PhysicalTable:
    """The cards lying on the table, zone by zone (later cards on top), and the moves that change them."""

    zones: dict[str, ZoneBox]
    style: SceneStyle
    rng: random.Random = field(default_factory=random.Random)
    lying: dict[str, list[Lying]] = field(default_factory=dict)

    @classmethod
    def laid_out(cls, style: SceneStyle, seats: int, seed: int = 0) -> PhysicalTable:
        return cls(table_layout(style, seats), style, random.Random(seed))

    def calibration(self) -> Calibration:
        """The table's calibration as `cardtable vision calibrate` would measure it, with these zones."""
        return replace(scene_calibration(self.style),
                       zones={name: box.polygon(self.style) for name, box in self.zones.items()})

    def scene(self) -> list[PlacedCard]:
        """What the camera sees, bottom card first."""
        return [lying.place for cards in self.lying.values() for lying in cards]

    def glared_in(self, zone: str) -> list[str]:
        """The cards lying unreadable in `zone`, in the order they were laid."""
        return [c.card for c in self.lying.get(zone, []) if not c.readable]

    def glared(self) -> set[int]:
        """Which cards of `scene()` lie unreadable."""
        cards = [lying for cards in self.lying.values() for lying in cards]
        return {index for index, lying in enumerate(cards) if not lying.readable}

    def cards_in(self, zone: str, face_up: bool | None = None) -> list[str]:
        return [c.card for c in self.lying.get(zone, []) if face_up is None or c.face_up == face_up]

    def empty(self) -> bool:
        return not any(self.lying.values())

    # ----- moves: each returns what the camera should see change -----

    def make(self, move: CardMove) -> list[TableChange]:
        if isinstance(move, Lay):
            return self.lay(move.zone, move.card, face_up=move.face_up, readable=move.readable)
        if isinstance(move, Take):
            return self.take(move.zone, move.card)
        if isinstance(move, TurnUp):
            return self.turn_up(move.zone, move.cards)
        if isinstance(move, Gather):
            return self.gather(list(move.zones), move.to)
        return self.clear()

    def lay(self, zone: str, card: str, *, face_up: bool = True, readable: bool = True) -> list[TableChange]:
        """Lay `card` into `zone`: face up at the first free place of the zone's row, face down onto its pile."""
        before = self._seen()
        cards = self.lying.setdefault(self._zone(zone), [])
        if face_up:
            cards.append(self._in_row(zone, card, readable))
        else:
            x, y, angle = self._pile_spot(zone, sum(1 for c in cards if not c.face_up))
            cards.append(Lying(card, PlacedCard(card, x, y, angle, face_up=False)))
        return self._changes(before)

    def take(self, zone: str, card: str) -> list[TableChange]:
        """Take `card` back from `zone` (into a hand, or off the table)."""
        before = self._seen()
        cards = self.lying.get(self._zone(zone), [])
        found = next((c for c in cards if c.card == card), None)
        if found is None:
            raise MoveError(f"{card} does not lie in {zone}")
        cards.remove(found)  # the others keep their places: a player does not tidy the row
        return self._changes(before)

    def nudge(self, zone: str, card: str) -> None:
        """Straighten a face-up card a little on its place (as a player does when the table did not react
        to it); nothing changes for the camera but the picture."""
        cards = self.lying.get(self._zone(zone), [])
        index = next((i for i, c in enumerate(cards) if c.card == card and c.face_up), None)
        if index is None:
            raise MoveError(f"{card} does not lie face up in {zone}")
        cards[index] = self._in_row(zone, card, cards[index].readable, slot=cards[index].slot)

    def turn_up(self, zone: str, cards: tuple[str, ...] = ()) -> list[TableChange]:
        """Turn face-down cards of `zone` face up along its row: the `cards` named, or the whole pile."""
        before = self._seen()
        lying = self.lying.get(self._zone(zone), [])
        down = [c.card for c in lying if not c.face_up and (not cards or c.card in cards)]
        if not down or len(down) < len(cards):
            raise MoveError(f"{', '.join(cards) or 'no cards'} do not lie face down in {zone}")
        self.lying[zone] = [c for c in lying if c.face_up or c.card not in down]
        for card in down:
            self.lying[zone].append(self._in_row(zone, card, True))
        return self._changes(before)

    def gather(self, zones: list[str], to: str) -> list[TableChange]:
        """Pick up every face-up card of `zones` and put them face down on `to`'s pile (a trick won)."""
        before = self._seen()
        gathered = [c for zone in zones for c in self.lying.get(zone, []) if c.face_up]
        for zone in zones:
            if zone in self.lying:
                self.lying[zone] = [c for c in self.lying[zone] if not c.face_up]
        cards = self.lying.setdefault(self._zone(to), [])
        x, y, angle = self._pile_spot(to, sum(1 for c in cards if not c.face_up))
        for lying in gathered:
            cards.append(Lying(lying.card, PlacedCard(lying.card, x, y, angle, face_up=False)))
        return self._changes(before)

    def clear(self) -> list[TableChange]:
        """Every card off the table (the dealer gathers them to shuffle)."""
        before = self._seen()
        self.lying.clear()
        return self._changes(before)

    # ----- where cards go -----

    def _zone(self, zone: str) -> str:
        if zone not in self.zones:
            raise MoveError(f"no zone {zone!r} on this table (zones: {', '.join(sorted(self.zones))})")
        return zone

    def _in_row(self, zone: str, card: str, readable: bool, slot: int | None = None) -> Lying:
        """`card` face up at the first free place of `zone`'s row (or at `slot`), a few pixels and degrees
        off it (nobody lays a card exactly on its place)."""
        taken = {c.slot for c in self.lying.get(zone, [])}
        if slot is None:
            slot = next((i for i in range(ROW_CAPACITY) if i not in taken and i != self.zones[zone].pile), None)
        if slot is None:
            raise MoveError(f"{zone} already holds {ROW_CAPACITY - 1} face-up cards in a row")
        x, y, angle = self.zones[zone].slot(slot, self.style.card_width)
        r = self.rng
        return Lying(card, PlacedCard(card, x + r.uniform(-3, 3), y + r.uniform(-3, 3), angle + r.uniform(-4, 4)),
                     slot, readable)

    def _pile_spot(self, zone: str, below: int) -> tuple[float, float, float]:
        """A face-down pile lies at its place in the zone's row; each card a little off the one below."""
        box = self.zones[zone]
        x, y, angle = box.slot(box.pile, self.style.card_width)
        shift = PILE_OFFSET * (below % 3 - 1)
        return x + shift, y + shift / 2, angle + (8.0 * below) % 24 - 12

    # ----- what the camera sees -----

    def _seen(self) -> ZoneState:
        """Per zone: face-up cards by name (unreadable ones as "#unknown") and the face-down count, as the
        tracker keeps a table's state."""
        seen: ZoneState = {}
        for zone, cards in self.lying.items():
            counts: Counter[str] = Counter(c.card if c.readable else "#unknown" for c in cards if c.face_up)
            counts["#down"] = sum(1 for c in cards if not c.face_up)
            if +counts:
                seen[zone] = +counts
        return seen

    def _changes(self, before: ZoneState) -> list[TableChange]:
        return diff_states(before, self._seen())
