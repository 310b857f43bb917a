"""Live enrolment: the dealer lays the table's own deck on the camera one card at a time, and each card's
views are kept as enrolment photos (QS_1.png, QS_2.png, ...) for vision/enroll.py.

A view is a still frame unlike the view before it (the card laid again, or moved or turned): from a camera
a frame counts once it matches the frame before it (the hand is out of the picture); a folder's images
are stills. A view in which the generic recognizer finds no card at all is not kept: the dealer is asked to
lay it again (a re-take). Which card a view shows: with a given `order`, the next card of it; in any
order, what the generic recognizer reads, which the dealer confirms or corrects (`ask`). A reading that
contradicts the given order is put to the dealer too. Pure but for the frames read and the files written.

A question is asked at once through `ask` (a terminal), or, without one, waits in `question` until
`answer(text)` settles it (the dealer console, from another request); frames offered meanwhile are not looked at.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.deck import Deck
from vision.enroll import parse_card
from vision.model import RANKS, SUITS
from vision.readings import UNKNOWN
from vision.recognize import Recognizer

# Mean absolute difference (grey levels, frames at 1/8 size) under which two frames show the same thing,
# and over which a view is new. Sensor noise is 1-2 levels; a card laid or moved changes far more.
STILL = 3.0
NEW_VIEW = 6.0

Ask = Callable[[str], str]
Say = Callable[[str], None]


def card_name(rank: int, suit: int) -> str:
    return RANKS[rank] + SUITS[suit]


def deck_order(deck: Deck) -> list[str]:
    """The deck's cards, suit by suit (S, H, D, C), ace first: the order a dealer sorts a new deck in."""
    return [r + s for s in "SHDC" for r in ("A", *[r for r in RANKS if r != "A"]) if r in deck.ranks]


def parse_order(text: str, deck: Deck) -> list[str]:
    """'AS,2S,3S' -> the cards in that order; a ValueError for a card twice or not of the deck."""
    cards = [card_name(*parse_card(part.strip())) for part in text.split(",") if part.strip()]
    twice = sorted({c for c in cards if cards.count(c) > 1})
    if twice:
        raise ValueError(f"--order names {', '.join(twice)} more than once")
    foreign = [c for c in cards if c[:-1] not in deck.ranks]
    if foreign:
        raise ValueError(f"--order names {', '.join(foreign)}, not of the {deck.size}-card deck")
    if not cards:
        raise ValueError("--order names no card (e.g. --order AS,2S,3S)")
    return cards


def parse_card_file(path: Path) -> str:
    """The card an enrolment photo's name gives (QS_2.png -> QS)."""
    return card_name(*parse_card(path.stem))


def _small(image: np.ndarray) -> np.ndarray:
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return cv2.resize(grey, (max(1, grey.shape[1] // 8), max(1, grey.shape[0] // 8)),
                      interpolation=cv2.INTER_AREA).astype(np.float32)


def _difference(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.mean(np.abs(a - b))) if a.shape == b.shape else float("inf")


@dataclass
class Progress:
    """Where the enrolment stands: the cards done, the card being shown and its views so far."""
    total: int
    views: int
    done: list[str] = field(default_factory=list)
    current: str | None = None
    current_views: int = 0

    def line(self) -> str:
        filled = int(30 * len(self.done) / max(self.total, 1))
        showing = f" · {self.current} view {self.current_views}/{self.views}" if self.current else ""
        return f"[{'#' * filled}{'.' * (30 - filled)}] {len(self.done)}/{self.total} cards{showing}"


@dataclass(frozen=True)
class Question:
    """A view put to the dealer: what was read (and expected), and the card Enter takes."""
    text: str
    suggestion: str | None

    @property
    def prompt(self) -> str:
        return f"{self.text}: Enter for {self.suggestion}, " if self.suggestion else f"{self.text}: "


@dataclass(frozen=True)
class Captured:
    """What a live enrolment kept: photo files per card, and the cards of the deck it did not get to."""
    photos: dict[str, list[Path]]
    missing: list[str]
    retakes: int


class LiveEnrolment:
    """Turns a stream of frames into enrolment photos in `folder` (see the module's doc)."""

    def __init__(self, folder: Path, deck: Deck, ask: Ask | None, say: Say, order: list[str] | None = None,
                 views: int = 3, still_frames: bool = False, recognizer: Recognizer | None = None,
                 new_view: float = NEW_VIEW) -> None:
        """`still_frames`: every frame is a still (a folder of photos), no settling looked for; `ask` None:
        questions wait for `answer`; `new_view`: the change that makes a new view (lower for a camera that
        sees the whole table, where one card is a small part of the frame)."""
        if views < 1:
            raise ValueError(f"views per card must be 1 or more, not {views}")
        self.folder = folder
        self.deck = deck
        self.ask = ask
        self.say = say
        self.order = order
        self.cards = order or deck_order(deck)
        self.progress = Progress(len(self.cards), views)
        self.still_frames = still_frames
        self.new_view = new_view
        self.recognizer = recognizer or Recognizer(deck=deck)
        self.photos: dict[str, list[Path]] = {}
        self._taken: Counter[str] = Counter()  # views taken of each card since `progress` began
        self.retakes = 0
        self._previous: np.ndarray | None = None
        self._last_view: np.ndarray | None = None
        self.question: Question | None = None  # waiting for the dealer's answer
        self._asked: np.ndarray | None = None  # the view the question is about

    @property
    def finished(self) -> bool:
        return len(self.progress.done) == len(self.cards)

    def run(self, frames: Iterable[np.ndarray]) -> Captured:
        self.say(self._prompt())
        for image in frames:
            if self.offer(image) and self.finished:
                break
        missing = [c for c in self.cards if c not in self.progress.done]
        return Captured(self.photos, missing, self.retakes)

    def retake(self, photos: list[Path], frames: Iterable[np.ndarray]) -> Captured:
        """Lay again the cards of `photos` (views the enrolled deck did not read back), one new view of
        each, in their order (`retaking`)."""
        self.retaking(photos)
        return self.run(frames)

    def retaking(self, photos: list[Path]) -> list[str]:
        """Ready to take the cards of `photos` again: those files are removed, and the frames offered next
        give one new view of each card, in their order (the cards returned). The first view must differ
        from the last one kept (the card lying there is not taken for the first card asked for)."""
        cards = list(dict.fromkeys(parse_card_file(path) for path in photos))
        for path in photos:
            path.unlink()
            self.photos[parse_card_file(path)].remove(path)
        self.order = self.cards = cards
        self.progress, self._taken = Progress(len(cards), 1), Counter()
        return cards

    def offer(self, image: np.ndarray) -> bool:
        """Look at one frame; True when it was kept as a view."""
        if self.question is not None:
            return False
        small = _small(image)
        settled = self.still_frames or (self._previous is not None and _difference(small, self._previous) < STILL)
        self._previous = small
        if not settled or self._last_view is not None and _difference(small, self._last_view) < self.new_view:
            return False
        self._last_view = small
        read = self.recognizer.read(image)
        if not read:
            self.retakes += 1
            self.say(f"no card seen: lay {self._expected() or 'the card'} again, face up, flat, in the light")
            return False
        card = self._identify([c.card for c in read if c.card != UNKNOWN])
        if isinstance(card, str):
            self._keep(card, image)
            return True
        self.question, self._asked = card, image
        if self.ask is None:
            return False
        kept = self._kept()
        while self.question is not None:
            self.answer(self.ask(self.question.prompt))
        return self._kept() > kept

    def answer(self, text: str) -> bool:
        """The dealer's answer to `question`: Enter (nothing) for its suggestion, a card, or 'skip' to
        leave the view out. False, the reason said, when it settles nothing (the question stays)."""
        question, image = self.question, self._asked
        if question is None or image is None:
            raise ValueError("no view is waiting for an answer")
        answer = text.strip()
        card: str | None = None
        if not answer and question.suggestion:
            card = question.suggestion
        elif answer.lower() != "skip":
            try:
                card = card_name(*parse_card(answer))
            except ValueError as exc:
                self.say(f"{exc}; or 'skip' to leave out this view")
                return False
        problem = (None if card is None else f"{card} is not among the cards being enrolled" if card not in self.cards
                   else f"{card} is enrolled already" if card in self.progress.done else None)
        if problem:  # the suggestion too: a card done, moved on the table, is read as itself again
            self.say(f"{problem}; 'skip' to leave out this view")
            return False
        self.question = self._asked = None
        if card is not None:
            self._keep(card, image)
        return True

    def _kept(self) -> int:
        return sum(len(paths) for paths in self.photos.values())

    def _expected(self) -> str | None:
        """The card the dealer should be showing: the one being enrolled, else the order's next."""
        if self.progress.current:
            return self.progress.current
        return next((c for c in self.cards if c not in self.progress.done), None) if self.order else None

    def _identify(self, named: list[str]) -> str | Question:
        """The card this view shows, from the order or the reading; the question for the dealer where
        the two disagree or nothing is known."""
        expected = self._expected()
        seen = named[0] if len(named) == 1 else None
        if expected and (seen is None or seen == expected):
            return expected
        return Question((f"read as {seen}" if seen else "not read") + (f", expected {expected}" if expected else ""),
                        seen or expected)

    def _keep(self, card: str, image: np.ndarray) -> None:
        p = self.progress
        if p.current != card:  # a new card (in any order, the previous one stays short of views)
            p.current, p.current_views = card, self._taken[card]
        self.folder.mkdir(parents=True, exist_ok=True)
        path = next(self.folder / f"{card}_{n}.png" for n in range(1, len(self.photos.get(card, [])) + 2)
                    if not (self.folder / f"{card}_{n}.png").exists())  # a re-take fills the gap it left
        if not cv2.imwrite(str(path), image):
            raise ValueError(f"cannot write enrolment photo {path}")
        self.photos.setdefault(card, []).append(path)
        self._taken[card] += 1
        p.current_views += 1
        if p.current_views == p.views:
            p.done.append(card)
            p.current, p.current_views = None, 0
        self.say(self._prompt())

    def _prompt(self) -> str:
        nxt = self._expected()
        lay = f"lay {nxt}" if nxt else "lay the next card"
        again = " again (moved or turned)" if self.progress.current else ""
        return self.progress.line() + ("  done" if self.finished else f"  {lay}{again}")
