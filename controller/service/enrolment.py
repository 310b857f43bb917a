"""Live enrolment at the dealer console: `vision.live_enroll.LiveEnrolment` fed the table camera's latest
frames on a thread of its own, its questions answered from the console (`answer`), then the deck enrolled
from the views (vision.enroll) and read back as a test deal (`finish`). The views the test deal does not
read back (or reads as another card) are put to the dealer before the deck is saved: `retake` lays those
cards again, one view each (as `cardtable vision enroll --live` does), and `finish` enrols again; `keep`
saves it as it is. Saved into the state directory, the service finds it again at its next start
(`ENROLLED_NAME`; an explicit `[camera] enrolment` wins).

The service's camera thread keeps reading its frames meanwhile; the cards laid for the enrolment are no
game's (the service keeps them from the session, as it does a deck check's).
"""
from __future__ import annotations

import logging
import threading
from collections import Counter
from dataclasses import asdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from controller.output_files import write_atomically
from vision.deck import Deck
from vision.enroll import EnrolledModel, ReadBack, enroll, read_back
from vision.live_enroll import LiveEnrolment, deck_order, parse_card_file
from vision.observations import TableChange

from .deck_check import tally

log = logging.getLogger(__name__)

ENROLLED_NAME = "enrolled.npz"  # in the state directory: the deck the table reads with
VIEWS_NAME = "enrolment-views"  # the views' folder, beside it
POLL = 0.1  # seconds between looks at the camera's latest frame
# The table camera sees the whole table: a card moved by two of its widths and turned changes its 960x540
# frame by 4.7 grey levels (at 1/8 size), under live_enroll's NEW_VIEW of 6 for a close-up; the sensor's
# noise, averaged over 8x8 pixels, stays far below STILL (3).
TABLE_NEW_VIEW = 4.0

Latest = Callable[[], np.ndarray | None]  # the camera's latest frame, if any
Changed = Callable[[dict[str, Any]], None]  # the enrolment's state, for the hub (through the loop's inbox)


class ConsoleEnrolment:
    def __init__(self, state_directory: Path, deck: Deck, latest: Latest, changed: Changed, views: int = 2) -> None:
        folder = state_directory / VIEWS_NAME
        if folder.exists() and any(folder.iterdir()):  # an earlier enrolment's views: start afresh
            for old in folder.iterdir():
                old.unlink()
        self.target = state_directory / ENROLLED_NAME
        self._latest, self._changed = latest, changed
        self._said = ""
        self._lock = threading.Lock()  # the frame thread's offer and the console's answer take turns
        self._stop = threading.Event()
        self.live = LiveEnrolment(folder, deck, None, self._say, views=views, new_view=TABLE_NEW_VIEW)
        self.built: tuple[EnrolledModel, ReadBack] | None = None  # enrolled and read back (saved: `result`)
        self.result: ReadBack | None = None  # saved: the test deal of the deck the table reads with
        self.retaken: list[str] = []  # the cards laid again, in every re-take
        self.lying: Counter[str] = Counter()  # the cards on the table as the service's tracker saw them
        self._thread = threading.Thread()

    def start(self) -> None:
        self._say(self.live.progress.line() + "  lay the first card, face up")
        self._watching()

    def answer(self, text: str) -> tuple[bool, str]:
        """The dealer's answer to the question shown: whether it settled it, and what the enrolment says."""
        with self._lock:
            if self.live.question is None:
                raise ValueError("no view is waiting for an answer")
            settled = self.live.answer(text)
            said = self._said
        self._publish()
        return settled, said

    def finish(self) -> ReadBack:
        """Stop taking views, enrol from those kept and read them back; saved (`result`) at once when every
        view read back, else `built` waits for a re-take or `keep`."""
        self._halt()
        with self._lock:
            if self.built is not None:
                raise ValueError("its test deal is in: re-take the cards that did not read back, or keep the deck "
                                 "as it is")
            if not self.live.photos:
                raise ValueError("no card was enrolled yet: lay the cards one by one on the table first")
            model = enroll(self.live.folder, table_camera=True)
            back = read_back(model, self.live.folder, self.live.deck)
            self.built = model, back
            if not failed(back):
                self._save()
        self._publish()
        return back

    def retake(self) -> list[str]:
        """Lay again the cards whose views did not read back: one new view of each, then `finish` again."""
        with self._lock:
            if self.built is None or not failed(self.built[1]):
                raise ValueError("no card to re-take: finish the enrolment first (the test deal names them)")
            photos = [self.live.folder / name for name in failed(self.built[1])]
            cards = self.live.retaking(photos)
            self.retaken = list(dict.fromkeys([*self.retaken, *cards]))
            self.built = None
            self._say(self.live.progress.line() + f"  lay {cards[0]} again")
        self._watching()
        self._publish()
        return cards

    def keep(self) -> ReadBack:
        """Save the deck as enrolled, the views that did not read back and all."""
        with self._lock:
            if self.built is None or self.result is not None:
                raise ValueError("nothing to keep: finish the enrolment first")
            self._save()
            back = self.built[1]
        self._publish()
        return back

    @property
    def model(self) -> EnrolledModel:
        assert self.built is not None, "not enrolled yet"
        return self.built[0]

    def verdict(self) -> dict[str, Any]:
        """What the journal keeps of the saved enrolment: the deck, the cards enrolled, those that did not
        read back (kept as they are) and those re-taken, and its test deal."""
        assert self.result is not None, "not saved yet"
        back, photos = self.result, self.live.photos
        return {"deck": self.live.deck.name, "cards": [card for card in deck_order(self.live.deck) if photos.get(card)],
                "failed": failed_cards(back), "retaken": self.retaken, **asdict(back), "summary": back.summary(),
                "glyphs": self.model.glyphs.summary()}

    def cancel(self) -> None:
        self._halt()

    def state(self) -> dict[str, Any]:
        live, progress = self.live, self.live.progress
        question = live.question
        back = None if self.built is None else self.built[1]
        return {"state": "enrolled" if self.result else "review" if back else "enrolling", "line": progress.line(),
                "said": self._said, "done": len(progress.done), "total": progress.total,
                "current": progress.current, "retaken": self.retaken,
                "question": None if question is None else {"text": question.text, "suggestion": question.suggestion},
                "failed": [] if back is None else failed_cards(back),
                "read_back": None if back is None else back.summary(),
                "glyphs": None if self.built is None else self.model.glyphs.summary()}

    def see(self, change: TableChange) -> None:
        """The service's camera observation while enrolling: the cards laid are no game's."""
        tally(self.lying, change)

    @property
    def gathered(self) -> bool:
        """Enrolled and the last card taken off the table: the camera's observations are the game's again."""
        return self.result is not None and not +self.lying

    def _save(self) -> None:
        assert self.built is not None, "nothing enrolled to save"
        model, back = self.built
        write_atomically(self.target, model.save)
        self.result = back

    def _watching(self) -> None:
        """Take views on a thread of its own until `finish` (or `cancel`)."""
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="enrolment", daemon=True)
        self._thread.start()

    def _halt(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(10)

    def _say(self, text: str) -> None:
        self._said = text

    def _watch(self) -> None:
        while not self._stop.wait(POLL):
            image = self._latest()
            if image is None:
                continue
            with self._lock:
                before = (self._said, self.live.question)
                try:
                    self.live.offer(image)
                except Exception:  # a vision bug ends the enrolment's views, not the table
                    log.exception("the live enrolment failed on a frame")
                    self._said = "the enrolment stopped on an error (see the log): finish with the views taken"
                    self._stop.set()
                changed = (self._said, self.live.question) != before
            if changed:
                self._publish()

    def _publish(self) -> None:
        self._changed(self.state())


def failed(back: ReadBack) -> list[str]:
    """The photos the test deal did not read back, or read as another card."""
    return [*back.unread, *(photo for photo, _ in back.wrong)]


def failed_cards(back: ReadBack) -> list[str]:
    """The cards of the photos `failed`."""
    return sorted({parse_card_file(Path(name)) for name in failed(back)})
