"""Live enrolment at the dealer console: `vision.live_enroll.LiveEnrolment` fed the table camera's latest
frames on a thread of its own, its questions answered from the console (`answer`), then the deck enrolled
from the views (vision.enroll), read back as a test deal and saved into the state directory, where the
service finds it again at its next start (`ENROLLED_NAME`; an explicit `[camera] enrolment` wins).

The service's camera thread keeps reading its frames meanwhile; the cards laid for the enrolment are no
game's (the service keeps them from the session, as it does a deck check's).
"""
from __future__ import annotations

import logging
import threading
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from controller.output_files import write_atomically
from vision.deck import Deck
from vision.enroll import EnrolledModel, ReadBack, enroll, read_back
from vision.live_enroll import LiveEnrolment
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
        self.result: ReadBack | None = None
        self.lying: Counter[str] = Counter()  # the cards on the table as the service's tracker saw them
        self._thread = threading.Thread(target=self._watch, name="enrolment", daemon=True)

    def start(self) -> None:
        self._say(self.live.progress.line() + "  lay the first card, face up")
        self._thread.start()

    def answer(self, text: str) -> tuple[bool, str]:
        """The dealer's answer to the question shown: whether it settled it, and what the enrolment says."""
        with self._lock:
            if self.live.question is None:
                raise ValueError("no view is waiting for an answer")
            settled = self.live.answer(text)
            said = self._said
        self._publish()
        return settled, said

    def finish(self) -> tuple[EnrolledModel, ReadBack]:
        """Stop taking views, enrol from those kept, read them back, save the deck (atomically)."""
        self._stop.set()
        self._thread.join(10)
        with self._lock:
            if not self.live.photos:
                raise ValueError("no card was enrolled yet: lay the cards one by one on the table first")
            model = enroll(self.live.folder)
            self.result = read_back(model, self.live.folder, self.live.deck)
            write_atomically(self.target, model.save)
        self._publish()
        return model, self.result

    def cancel(self) -> None:
        self._stop.set()
        self._thread.join(10)

    def state(self) -> dict[str, Any]:
        live, progress = self.live, self.live.progress
        question = live.question
        return {"state": "enrolled" if self.result else "enrolling", "line": progress.line(), "said": self._said,
                "done": len(progress.done), "total": progress.total, "current": progress.current,
                "question": None if question is None else {"text": question.text, "suggestion": question.suggestion},
                "read_back": None if self.result is None else self.result.summary()}

    def see(self, change: TableChange) -> None:
        """The service's camera observation while enrolling: the cards laid are no game's."""
        tally(self.lying, change)

    @property
    def gathered(self) -> bool:
        """Enrolled and the last card taken off the table: the camera's observations are the game's again."""
        return self.result is not None and not +self.lying

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
