"""Holds: what the table waits for before it judges anything more, and what ends each kind.

* `unknown`: an unreadable card in a zone that matters; ends when the dealer names it (resolve), asks
  for it again (relay), the camera reads it laid again, or it is taken away. Not at the deal reader: a
  card gone from there was dealt, and every card after it goes to the seat it makes due, so the deal
  waits until the dealer names it (or, before it left, the reader reads it after all).
* `duplicate`: one card seen in two zones at once; ends when it leaves one of them (or resolve / relay).
* `refused`: the engine refused what a card meant; ends when that card leaves that zone (or the dealer
  names it as another card, judged afresh). A refused face-down arrival ends when the count drops again.
* `misplaced`: a card where no event of the game fits; ends like `refused`.
* `camera`: the camera went offline; ends when it is back online.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from vision.observations import CameraStatus, CardPlaced, CardRemoved, FaceDownCount, UnknownCards

from .inputs import READER, UNKNOWN, TableInput


@dataclass(frozen=True)
class Hold:
    reason: str  # "unknown" | "duplicate" | "refused" | "misplaced" | "camera"
    zone: str | None = None
    card: str | None = None
    seat: int | None = None
    error: str | None = None  # why the engine refused it, or why nothing fits
    zones: tuple[str, ...] = ()  # a duplicate's zones
    below: int | None = None  # a refused face-down arrival: ends when the zone's count drops below this
    count: int | None = None  # unreadable cards reported in the zone
    dealt_on: bool = False  # the unreadable card left the deal reader: dealt, unread

    def to_json(self) -> dict[str, Any]:
        fields = {"reason": self.reason, "seat": self.seat, "card": self.card, "zone": self.zone,
                  "zones": list(self.zones) or None, "count": self.count, "error": self.error}
        return {name: value for name, value in fields.items() if value is not None}

    def describe(self) -> str:
        """What the table is told (public: a card only the deal reader saw is not named)."""
        where = f" in {self.zone}" if self.zone else ""
        if self.zone == READER and self.reason != "unknown":
            return "the card at the deal reader is held: the dealer console says why"
        if self.reason == "unknown" and self.dealt_on:
            return "a card dealt over the deal reader was not read: name it at the console"
        if self.reason == "unknown":
            return f"an unreadable card{where}: name it at the console or lay it again"
        if self.reason == "duplicate":
            return f"{self.card} seen in {' and '.join(self.zones)}: take one away"
        if self.reason == "camera":
            return "the camera is offline"
        what = self.card or "the face-down card"
        return f"{what}{where} refused ({self.error}): take it back"

    def resolved_by(self, item: TableInput) -> bool:
        """Whether a camera change ends this hold (console answers are the session's)."""
        if self.reason == "camera":
            return isinstance(item, CameraStatus) and item.status == "online"
        if self.reason == "duplicate":
            return isinstance(item, CardRemoved) and item.card == self.card and item.zone in self.zones
        if self.reason == "unknown":
            return self._unknown_gone(item)
        if self.card is None:
            return isinstance(item, FaceDownCount) and item.zone == self.zone and item.count < (self.below or 0)
        return isinstance(item, CardRemoved) and item.card == self.card and item.zone == self.zone

    def dealt_unread(self, item: TableInput) -> bool:
        """Whether `item` is this hold's unreadable card going on from the deal reader to its player: dealt,
        still unread (the hold stays, `dealt_on`)."""
        return self.reason == "unknown" and self.zone == READER and item == CardRemoved(UNKNOWN, READER)

    def _unknown_gone(self, item: TableInput) -> bool:
        if isinstance(item, CardPlaced):  # read this time; once dealt on, the reader's next card is another
            return item.zone == self.zone and item.card != UNKNOWN and not self.dealt_on
        if isinstance(item, CardRemoved):  # taken back; at the reader it was dealt, unread
            return item.zone == self.zone != READER and item.card == UNKNOWN
        if isinstance(item, UnknownCards):
            return item.zone == self.zone and item.count < (self.count or 1)
        return False
