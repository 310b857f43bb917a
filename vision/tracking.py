"""From detections to observations: cheap change detection, settle-then-recognise, face-down piles
counted as cards land on them, k-of-n voting per zone, and the duplicate-card flag. Emits only changes
of the voted table state.
"""
from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from vision.covered import CoveredCards
from vision.detect import Detection, FaceDownGroup
from vision.observations import (OFF_ZONE, READER, UNKNOWN_CARD, CardPlaced, CardRemoved, DuplicateCard, FaceDownCount,
                                 TableChange)
from vision.readings import UNKNOWN, CardReading

class ChangeDetector:
    """Compares a small thumbnail with the previous one: an unchanged frame costs ~0.2 ms.

    The thumbnail is the green channel (most of the luminance) of every `step`-th pixel, area-averaged
    down to `size`, which wipes out sensor noise; a few thumbnail pixels changing by more than `delta`
    grey levels (a card landing, a hand moving) count as a change.
    """

    def __init__(self, size: tuple[int, int] = (80, 45), delta: int = 20, min_pixels: int = 3) -> None:
        self.size = size
        self.delta = delta
        self.min_pixels = min_pixels
        self._last: np.ndarray | None = None

    def changed(self, frame: np.ndarray) -> bool:
        step = max(1, frame.shape[1] // (4 * self.size[0]))
        plane = frame[::step, ::step, 1] if frame.ndim == 3 else frame[::step, ::step]
        small = cv2.resize(np.ascontiguousarray(plane), self.size, interpolation=cv2.INTER_AREA)
        last, self._last = self._last, small
        if last is None:
            return True
        moved = cv2.threshold(cv2.absdiff(small, last), self.delta, 255, cv2.THRESH_BINARY)[1]
        return cv2.countNonZero(moved) >= self.min_pixels


ZoneState = dict[str, Counter[str]]  # zone -> multiset of card names plus "#down"/"#unknown" tallies


def zone_of(point: tuple[float, float], zones: dict[str, list[list[float]]]) -> str:
    for name, poly in zones.items():
        if cv2.pointPolygonTest(np.array(poly, np.float32), (float(point[0]), float(point[1])), False) >= 0:
            return name
    return OFF_ZONE


def _centre(quad: list[list[float]]) -> tuple[float, float]:
    c = np.mean(np.array(quad, np.float64), axis=0)
    return float(c[0]), float(c[1])


def card_zones(det: Detection, zones: dict[str, list[list[float]]]) -> list[tuple[str, CardReading]]:
    """Each face-up card of `det` with the zone its centre lies in."""
    return [(zone_of(_centre(card.quad), zones), card) for card in det.cards]


def zone_state(det: Detection, zones: dict[str, list[list[float]]]) -> tuple[ZoneState, list[DuplicateCard]]:
    state: ZoneState = {}
    seen: dict[str, list[str]] = {}
    for zone, card in card_zones(det, zones):
        key = "#unknown" if card.card == UNKNOWN else card.card
        state.setdefault(zone, Counter())[key] += 1
        if card.card != UNKNOWN:
            seen.setdefault(card.card, []).append(zone)
    for group in det.face_down:
        state.setdefault(zone_of(_centre(group.quad), zones), Counter())["#down"] += group.count
    dups = [DuplicateCard(c, tuple(sorted(z))) for c, z in sorted(seen.items()) if len(z) > 1]
    return state, dups


@dataclass
class _Pile:
    count: int  # face-down cards in the zone as far as we know; never below what a frame shows
    footprint: np.ndarray  # where its face-down regions lay at the settled scene's first read
    shown: list[int] = field(default_factory=list)  # single-frame counts of that scene's reads


@dataclass(frozen=True)
class _PileChange:
    kept: float  # share of the old footprint still covered
    lost: int  # px of the old footprint now bare table
    moved: int  # px gained by the footprint, or changed inside it


def _pile_change(old: np.ndarray, new: np.ndarray, old_grey: np.ndarray, grey: np.ndarray) -> _PileChange:
    slack = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))  # a region's edge wobbles by a pixel or two
    both = cv2.bitwise_and(old, new)
    changed = cv2.threshold(cv2.absdiff(old_grey, grey), 40, 255, cv2.THRESH_BINARY)[1]
    return _PileChange(kept=cv2.countNonZero(both) / max(1, cv2.countNonZero(old)),
                       lost=cv2.countNonZero(cv2.subtract(old, cv2.dilate(new, slack))),
                       moved=cv2.countNonZero(cv2.subtract(new, cv2.dilate(old, slack)))
                       + cv2.countNonZero(cv2.bitwise_and(cv2.erode(both, slack), changed)))


class FaceDownPiles:
    """Face-down counts per zone that count arrivals, which no single frame can: from above, a card laid
    squarely on a pile hides itself and the cards under it.

    At the first read of each settled scene, a zone's pile is compared with the last scene's: if its
    footprint grew, or its pixels inside the footprint changed, by 4 % of a card area, and no card was
    seen leaving, one card landed and the count rises by one; if the footprint is gone or mostly gone
    (the pile taken away), or a quarter card of it turned to bare table (a card taken off), the count
    falls back to what the frame shows. The count is never below the frame's own count (the cards whose
    outline shows, `FaceDownGroup.count`).
    Limits: squaring or nudging a pile by hand looks like an arrival, two cards dropped together on a
    squared pile count as one, and a card slid off a squared pile goes unseen; the table session
    cross-checks with the game (a cribbage crib holds 4 cards).
    """

    def __init__(self) -> None:
        self.piles: dict[str, _Pile] = {}
        self._grey: np.ndarray | None = None  # the last settled scene's first read

    def read(self, frame: np.ndarray, groups: list[FaceDownGroup], zones: dict[str, list[list[float]]],
             first: bool) -> dict[str, int]:
        """Face-down count per zone for one read; `first`: the first read since the scene settled."""
        shown, footprints = _zone_regions(frame.shape[:2], groups, zones)
        if first:
            green = np.ascontiguousarray(frame[..., 1] if frame.ndim == 3 else frame)  # most of the luminance
            grey = cv2.GaussianBlur(green, (0, 0), 1.5)
            card_area = max((g.card_area for g in groups), default=0.0)
            self.piles = {zone: self._settle(zone, shown[zone], fp, grey, card_area) for zone, fp in footprints.items()}
            self._grey = grey
        counts = dict(shown)
        for zone, pile in self.piles.items():
            pile.shown.append(shown.get(zone, 0))
            counts[zone] = max(pile.count, shown.get(zone, 0))
        return counts

    def _settle(self, zone: str, shown: int, footprint: np.ndarray, grey: np.ndarray, card_area: float) -> _Pile:
        old = self.piles.get(zone)
        if old is None or self._grey is None:
            return _Pile(shown, footprint)
        # the last scene's count; its reads' lower median, so one read's miscount does not stick
        known = max(old.count, sorted(old.shown)[(len(old.shown) - 1) // 2])
        change = _pile_change(old.footprint, footprint, self._grey, grey)
        if change.kept < 0.5 or change.lost >= 0.25 * card_area:  # taken away, or cards seen leaving
            return _Pile(shown, footprint)
        if change.moved >= 0.04 * card_area:  # a card landed on the pile
            return _Pile(max(shown, known + 1), footprint)
        return _Pile(max(shown, known), footprint)


def _zone_regions(shape: tuple[int, int], groups: list[FaceDownGroup], zones: dict[str, list[list[float]]]
                  ) -> tuple[dict[str, int], dict[str, np.ndarray]]:
    """Per zone: the frame's face-down count, and the footprint of its face-down regions (a mask)."""
    shown: dict[str, int] = {}
    footprints: dict[str, np.ndarray] = {}
    for group in groups:
        zone = zone_of(_centre(group.quad), zones)
        shown[zone] = shown.get(zone, 0) + group.count
        mask = footprints.setdefault(zone, np.zeros(shape, np.uint8))
        cv2.fillPoly(mask, [np.rint(np.array(group.outline or group.quad)).astype(np.int32)], 255)
    return shown, footprints


class Voter:
    """k-of-n voting: an item counts as present in a zone when it was seen in k of the last n reads."""

    def __init__(self, k: int = 3, n: int = 5) -> None:
        if not 1 <= k <= n:
            raise ValueError("need 1 <= k <= n")
        self.k, self.n = k, n
        self.history: deque[ZoneState] = deque(maxlen=n)

    def vote(self, state: ZoneState) -> ZoneState:
        self.history.append(state)
        out: ZoneState = {}
        zones = {z for s in self.history for z in s}
        for zone in zones:
            reads = [s.get(zone, Counter()) for s in self.history]
            voted = Counter({key: self._held(r[key] for r in reads) for key in {key for r in reads for key in r}})
            # an unreadable card is mostly a card read by name in the other frames: the unknown ones are
            # the cards the zone holds (voted like any item) beyond those voted by name
            cards = self._held(sum(n for key, n in r.items() if key != "#down") for r in reads)
            named = sum(n for key, n in voted.items() if not key.startswith("#"))
            voted["#unknown"] = max(0, cards - named)
            voted = +voted  # drop the zeros
            if voted:
                out[zone] = voted
        return out

    def _held(self, counts: Iterable[int]) -> int:
        """The multiplicity present in at least k of the reads."""
        ranked = sorted(counts, reverse=True)
        return ranked[self.k - 1] if len(ranked) >= self.k else 0


def diff_states(old: ZoneState, new: ZoneState) -> list[TableChange]:
    """Per zone: the cards that left it, those that came (an unreadable one as "unknown": the session must
    hear that a card was laid even when it cannot be named), then its changed face-down count. An
    unreadable card is reported once, as that card: an `UnknownCards` count besides would tell the
    session of it twice (and hold the table twice for one card)."""
    obs: list[TableChange] = []
    for zone in sorted(set(old) | set(new)):
        a, b = old.get(zone, Counter()), new.get(zone, Counter())
        cards = sorted((UNKNOWN_CARD if key == "#unknown" else key, key) for key in set(a) | set(b) if key != "#down")
        obs.extend(CardRemoved(card, zone) for card, key in cards for _ in range(a[key] - b[key]))
        obs.extend(CardPlaced(card, zone) for card, key in cards for _ in range(b[key] - a[key]))
        if a["#down"] != b["#down"]:
            obs.append(FaceDownCount(zone, b["#down"]))
    return obs


class TableTracker:
    """Feeds frames through change detection; once the scene has settled it recognises `n` frames,
    counts face-down piles (`FaceDownPiles`), votes over those n reads, keeps the cards hidden under
    later ones (`CoveredCards`), and reports how the voted state changed: one report per settled scene,
    so a card that reads as unknown in a few of its frames makes no 'removed' / 'placed' flicker. A
    settled, unchanged table costs one thumbnail."""

    def __init__(self, detect: Callable[[np.ndarray], Detection], zones: dict[str, list[list[float]]],
                 k: int = 3, n: int = 5, settle_frames: int = 2) -> None:
        self.detect = detect
        self.zones = zones
        self.change = ChangeDetector()
        self.voter = Voter(k, n)
        self.piles = FaceDownPiles()
        self.covered = CoveredCards()
        self.settle_frames = settle_frames
        self.state: ZoneState = {}
        self._still = 0
        self._reads_left = 0
        self._flagged: set[DuplicateCard] = set()
        self.recognitions = 0

    def process(self, frame: np.ndarray) -> list[TableChange]:
        if self.change.changed(frame):
            self._still = 0
            self._reads_left = self.voter.n
            self.voter.history.clear()  # a new scene: its own reads only
            self._flagged.clear()
            return []
        self._still += 1
        if self._still < self.settle_frames or self._reads_left == 0:
            return []
        first = self._reads_left == self.voter.n
        self._reads_left -= 1
        self.recognitions += 1
        det = self.detect(frame)
        current, dups = zone_state(det, self.zones)
        for zone, count in self.piles.read(frame, det.face_down, self.zones, first).items():
            if count:
                current.setdefault(zone, Counter())["#down"] = count
        voted = self.voter.vote(current)
        new_dups: list[TableChange] = [d for d in dups if d not in self._flagged]  # once per settled scene
        self._flagged.update(dups)
        if self._reads_left:
            return new_dups
        voted = self.covered.keep(self.state, voted, det.covered, card_zones(det, self.zones))
        obs = diff_states(self.state, voted)
        self.state = voted
        return obs + new_dups


class ReaderTracker(TableTracker):
    """The deal reader: a second, small camera whose whole frame is the zone `reader`. Each card shown to
    it and held still is `placed` in `reader` (the k-th one the k-th card dealt), and `removed` when it
    is taken away; one shown but not read is placed as `unknown`. Settling and voting as on the table."""

    def __init__(self, detect: Callable[[np.ndarray], Detection], k: int = 3, n: int = 5,
                 settle_frames: int = 2) -> None:
        super().__init__(detect, {}, k, n, settle_frames)  # no zones: every card is OFF_ZONE, renamed

    def process(self, frame: np.ndarray) -> list[TableChange]:
        return [_on_reader(obs) for obs in super().process(frame)]


def _on_reader(obs: TableChange) -> TableChange:
    if isinstance(obs, DuplicateCard):
        return replace(obs, zones=(READER,) * len(obs.zones))
    return replace(obs, zone=READER)
